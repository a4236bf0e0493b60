/**
 * Run the real `git` as a child process. No git library: the results branch needs clone,
 * fetch, commit and an atomic push with exactly git's own semantics, and the git CLI is what
 * every runner already has.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';

/**
 * @typedef {object} GitResult
 * @property {number} code exit code
 * @property {string} stdout
 * @property {string} stderr
 */

/**
 * @param {string[]} args git arguments
 * @param {{cwd?: string, env?: Record<string, string>, check?: boolean, input?: string}} [options]
 *   check (default true): throw when git exits non-zero
 * @returns {Promise<GitResult>}
 * @throws {UserError} when git is missing, or exits non-zero with check on (message has git's stderr)
 */
export function runGit(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      // Never wait for a password prompt in a workflow: fail with git's message instead.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr?.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', (err) => {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      reject(code === 'ENOENT' ? new UserError('git is not installed (needed for the results branch): apt-get install git') : err);
    });
    child.on('close', (code) => {
      const result = { code: code ?? 128, stdout, stderr };
      if (options.check !== false && result.code !== 0) {
        reject(new UserError(redactUrls(`git ${args.join(' ')} failed (exit ${result.code})${options.cwd ? ` in ${options.cwd}` : ''}:\n${stderr.trim() || stdout.trim()}`)));
      } else {
        resolve(result);
      }
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => {}); // git may exit before reading everything; its exit code tells
      child.stdin.end(options.input);
    }
  });
}

/**
 * Commit id at the tip of a remote branch, without fetching.
 * @param {string} repo git URL or path
 * @param {string} branch branch name (no refs/heads/)
 * @returns {Promise<string|null>} null when the branch does not exist
 * @throws {UserError} when the repository cannot be reached
 */
export async function remoteTip(repo, branch) {
  const out = await runGit(['ls-remote', '--heads', repo, `refs/heads/${branch}`]);
  const line = out.stdout.split('\n').find((l) => l.endsWith(`\trefs/heads/${branch}`));
  return line ? line.split('\t')[0] : null;
}

/**
 * Hide credentials embedded in URLs (`https://x-access-token:<token>@host/...`), so that error
 * messages and results can be printed in CI logs.
 * @param {string} text
 * @returns {string}
 */
export function redactUrls(text) {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}

/**
 * Git's remote "origin" for this process only, through the environment (`GIT_CONFIG_*`, numbered
 * after any entries the caller's environment passes this way already, such as a workflow's auth
 * header): a token in the URL never reaches .git/config, where a killed process would leave it on
 * disk. A local repository is asked to serve partial clones (GitHub allows filters; a plain local
 * repository does not by default, and would then send every file).
 * @param {string} repo git URL or local path
 * @returns {Record<string, string>}
 */
export function originEnv(repo) {
  /** @type {[string, string][]} */
  const add = [['remote.origin.url', repo]];
  if (existsSync(repo)) add.push(['remote.origin.uploadpack', 'git -c uploadpack.allowFilter=true -c uploadpack.allowAnySHA1InWant=true upload-pack']);
  const from = Number(process.env.GIT_CONFIG_COUNT ?? 0) || 0;
  return Object.fromEntries([
    ['GIT_CONFIG_COUNT', String(from + add.length)],
    ...add.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${from + i}`, key], [`GIT_CONFIG_VALUE_${from + i}`, value]]),
  ]);
}
