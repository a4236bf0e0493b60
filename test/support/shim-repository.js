/**
 * Git repositories of test/fixtures/install/source-shim-server, the small cmake project whose
 * install is a real MariaDB server (a Debian install's mariadbd, patched to load the project's
 * library): tests that need the source provider's whole path with a real server in seconds
 * commit it as releases, branches and pull requests.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
export const SHIM = fileURLToPath(new URL('../fixtures/install/source-shim-server/', import.meta.url));

/**
 * @param {string} repo
 * @param {...string} args
 * @returns {Promise<string>} git's output, trimmed
 */
export async function git(repo, ...args) {
  return (await execFileP('git', ['-C', repo, '-c', 'user.name=dev', '-c', 'user.email=dev@example.invalid', ...args])).stdout.trim();
}

/**
 * Write the shim project into a work tree as release `version` (its server: the Debian build of
 * that version in `cacheDir`) and commit it.
 * @param {string} work a git work tree
 * @param {{version: string, cacheDir: string, message: string, note?: string, addedInstructions?: number}} o
 *   note: a comment added to the library (another commit of the same code); addedInstructions:
 *   the library's cost per query answer (a known regression in fixture_answer_cost)
 * @returns {Promise<string>} the commit
 */
export async function commitShim(work, { version, cacheDir, message, note = '', addedInstructions = 0 }) {
  await cp(SHIM, work, { recursive: true });
  await writeFile(join(work, 'VERSION'), `${version}\n`);
  await writeFile(join(work, 'REAL_PREFIX'), `${join(cacheDir, `mariadb-${version}@deb`, 'usr')}\n`);
  let library = await readFile(join(SHIM, 'answer-cost.c'), 'utf8');
  if (addedInstructions) library = library.replace(/#define ADDED_INSTRUCTIONS_PER_ANSWER 0\b/, `#define ADDED_INSTRUCTIONS_PER_ANSWER ${addedInstructions}`);
  if (note) library += `/* ${note} */\n`;
  await writeFile(join(work, 'answer-cost.c'), library);
  await git(work, 'add', '-A');
  await git(work, 'commit', '-q', '-m', message);
  return git(work, 'rev-parse', 'HEAD');
}

/**
 * An install cache of a test's own for the shim's builds (in the shared one they would stand for
 * MariaDB's source builds of the same versions), with links to the shared Debian installs they wrap.
 * @param {string} dir the folder to make
 * @param {string} sharedCache
 * @param {string[]} versions
 * @returns {Promise<string>} dir
 */
export async function privateInstallCache(dir, sharedCache, versions) {
  await mkdir(dir, { recursive: true });
  for (const v of versions) await symlink(join(sharedCache, `mariadb-${v}@deb`), join(dir, `mariadb-${v}@deb`));
  return dir;
}
