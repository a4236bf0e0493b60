/**
 * Read the tags of an upstream repository with `git ls-remote --tags` (no clone, no history:
 * a few hundred KB even for MySQL's thousands of tags).
 */
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';
import { parseLsRemote } from './parse-ls-remote.js';

/**
 * @param {string} url git URL or local path of the repository
 * @returns {Promise<import('./types.js').RemoteTag[]>}
 * @throws {UserError} when git is missing or the repository cannot be read (git's message included)
 */
export function fetchRemoteTags(url) {
  return new Promise((resolve, reject) => {
    execFile('git', ['ls-remote', '--tags', url], {
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      maxBuffer: 256 * 1024 * 1024,
    }, (err, stdout, stderr) => {
      if (err) {
        const code = /** @type {NodeJS.ErrnoException} */ (err).code;
        if (code === 'ENOENT') reject(new UserError('git is not installed (needed by tagbench watch): apt-get install git'));
        else reject(new UserError(`git ls-remote --tags ${url} failed: ${stderr.trim() || err.message}`));
        return;
      }
      resolve(parseLsRemote(stdout));
    });
  });
}
