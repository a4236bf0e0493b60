/**
 * Run a long tool (git fetch, cmake configure / build / install) with everything it prints
 * appended to a log file, and each line offered to a callback for progress.
 * Not run-tool.js: that keeps all output in memory until the program ends, and a MySQL build
 * prints tens of MB over an hour that must be watched while it runs.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { constants } from 'node:os';
import { UserError } from '../../errors.js';

/**
 * @typedef {object} RunLoggedOptions
 * @property {string} logFile appended to; the command line is written first
 * @property {string} [cwd]
 * @property {Record<string, string|undefined>} [env] full environment (default: this process's)
 * @property {number} [timeoutMs] SIGTERM after this long (default: none)
 * @property {(line: string) => void} [onLine] every output line (stdout and stderr)
 */

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {RunLoggedOptions} options
 * @returns {Promise<{code: number, timedOut: boolean}>} code: exit code, 128 + n for signal n
 * @throws {UserError} when the program cannot be started (missing tool)
 */
export async function runLogged(cmd, args, options) {
  const out = createWriteStream(options.logFile, { flags: 'a' });
  out.write(`\n$ ${[cmd, ...args].join(' ')}\n`);
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let timedOut = false;
      const timer = options.timeoutMs ? setTimeout(() => { timedOut = true; child.kill('SIGTERM'); }, options.timeoutMs) : null;
      /** @type {Record<'stdout'|'stderr', string>} */
      const partial = { stdout: '', stderr: '' };
      for (const name of /** @type {const} */ (['stdout', 'stderr'])) {
        child[name].on('data', (/** @type {Buffer} */ chunk) => {
          out.write(chunk);
          if (!options.onLine) return;
          const lines = (partial[name] + chunk.toString('utf8')).split(/\r?\n|\r/);
          partial[name] = lines.pop() ?? '';
          for (const l of lines) options.onLine(l);
        });
      }
      child.on('error', (e) => {
        if (timer) clearTimeout(timer);
        const code = /** @type {NodeJS.ErrnoException} */ (e).code;
        reject(new UserError(`cannot run '${cmd}' (${code ?? e.message}); is it installed? Run setup/install.sh as root`, { cause: e }));
      });
      child.on('close', (code, signal) => {
        if (timer) clearTimeout(timer);
        if (options.onLine) for (const rest of Object.values(partial)) if (rest) options.onLine(rest);
        const sig = signal ? 128 + (constants.signals[signal] ?? 0) : null;
        resolve({ code: code ?? sig ?? 1, timedOut });
      });
    });
  } finally {
    await new Promise((res) => out.end(res));
  }
}
