/**
 * Find a program on a given PATH and run it once to read its version.
 */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * @param {string} name program name
 * @param {string} path PATH value to search
 * @returns {Promise<string|null>} absolute path of the first executable match, null when none
 */
export async function findOnPath(name, path) {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/**
 * Run `file args...` with PATH set to `path`; never rejects.
 * @param {string} file absolute path
 * @param {string[]} args
 * @param {string} path PATH for the child (scripts such as apt-get's helpers look things up)
 * @param {number} [timeoutMs]
 * @returns {Promise<{ok: boolean, output: string}>} output = stdout + stderr, trimmed
 */
export function runProbe(file, args, path, timeoutMs = 15_000) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, env: { ...process.env, PATH: path, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      resolve({ ok: !err, output: `${stdout}${stderr}`.trim() || (err ? err.message : '') });
    });
  });
}
