/**
 * Run an external tool (apt-get, dpkg-deb, patchelf, a server binary) and collect its output.
 * One place for child processes in this stage, so every failure message has the same shape:
 * the command, its exit code and the tail of what it printed.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { UserError } from '../errors.js';

/**
 * @typedef {object} RunToolOptions
 * @property {Record<string, string|undefined>} [env] full environment (default: this process's)
 * @property {string} [cwd]
 * @property {string} [argv0] what the program sees as argv[0]
 * @property {number} [timeoutMs] kill after this long (default 10 minutes)
 */

/**
 * Run a program to completion; never throws for a non-zero exit (the caller decides).
 * @param {string} cmd program path or name on PATH
 * @param {string[]} args
 * @param {RunToolOptions} [options]
 * @returns {Promise<import('./types.js').ToolResult>}
 * @throws {UserError} when the program cannot be started at all (missing tool)
 */
export function runTool(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      argv0: options.argv0,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 600_000,
    });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {Buffer[]} */
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', (e) => {
      const code = /** @type {NodeJS.ErrnoException} */ (e).code;
      reject(new UserError(`cannot run '${cmd}' (${code ?? e.message}); is it installed? Run setup/install.sh as root`, { cause: e }));
    });
    child.on('close', (code, signal) => {
      const sig = signal ? 128 + (constants.signals[signal] ?? 0) : null;
      resolve({ code: code ?? sig ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/**
 * Run a program and throw when it fails.
 * @param {string} cmd
 * @param {string[]} args
 * @param {RunToolOptions & {what?: string}} [options] `what` names the step in the error message
 * @returns {Promise<import('./types.js').ToolResult>}
 * @throws {UserError} on a non-zero exit, with the command and the tail of its output
 */
export async function runToolChecked(cmd, args, options = {}) {
  const res = await runTool(cmd, args, options);
  if (res.code !== 0) {
    const tail = (res.stderr.trim() || res.stdout.trim()).split('\n').slice(-12).join('\n    ');
    throw new UserError(`${options.what ?? cmd} failed (exit ${res.code}): ${cmd} ${shortArgs(args)}\n    ${tail}`);
  }
  return res;
}

/**
 * The command line for a message, without apt's long `-o Key=Value` settings (they name only
 * private folders; the failing package is in the tool's own output).
 * @param {string[]} args
 * @returns {string}
 */
function shortArgs(args) {
  const out = [];
  let settings = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-o' && i + 1 < args.length) { settings++; i++; continue; }
    out.push(args[i]);
  }
  return `${settings ? `[${settings} -o settings] ` : ''}${out.join(' ')}`;
}
