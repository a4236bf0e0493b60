/**
 * This machine as a runner of pull requests, for the act test of pull-request.yml: the second OS
 * user that builds and runs a pull request, set up by setup/runner.sh itself (--pr-user-only:
 * the user, its home, its install cache with the shared cache's finished release builds linked
 * in read-only, its ccache and the sudoers drop-in for the runner's user, root here, as act runs
 * every job as root), and what the test reads off the host afterwards: every file of a folder
 * with its checksum and times, whether a process is gone.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chown, lstat, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './run-act.js';

const execFileP = promisify(execFile);

/** The test's own user of pull requests: never the name a real runner of this host would use. */
const PR_USER = 'tagbench-pr-act';

/**
 * @param {string} name
 * @returns {Promise<{uid: number, gid: number, home: string}|null>} null when there is no such user
 */
async function readUser(name) {
  const found = await execFileP('getent', ['passwd', name]).catch(() => null);
  if (!found) return null;
  const f = found.stdout.trim().split(':');
  return { uid: Number(f[2]), gid: Number(f[3]), home: f[5] };
}

/**
 * Set this host up as a runner of pull requests whose runner's user is root: setup/runner.sh
 * --pr-user-only, on a fresh host (an earlier run's processes of the user, its job folder,
 * install cache and ccache go first, as the re-image before each registration removes them).
 * @param {{runnerDir: string, sharedCache: string, codeRepository: string}} o runnerDir: the
 *   runner's folder (made 0700 here); sharedCache: the runner's install cache, whose finished
 *   release builds the user gets linked in; codeRepository: the local repository standing in
 *   for the code repository's https URL, which the user's git may read although root owns it
 * @returns {Promise<{name: string, uid: number, gid: number, home: string}>}
 * @throws {Error} not root, or no sudo: the test cannot stand for the runner then
 */
export async function setUpPullRequestUser({ runnerDir, sharedCache, codeRepository }) {
  if (process.getuid?.() !== 0) throw new Error('the pull-request act test sets up a second OS user (setup/runner.sh --pr-user-only) and runs act as root, the runner\'s user here: run it as root');
  const earlier = await readUser(PR_USER);
  if (earlier) {
    await execFileP('sudo', ['-n', '-u', PR_USER, '--', 'kill', '-KILL', '-1']).catch(() => undefined);
    for (const sub of ['job', 'installs', 'ccache']) await rm(join(earlier.home, sub), { recursive: true, force: true });
  }
  await execFileP('bash', [join(ROOT, 'setup/runner.sh'), '--pr-user-only', '--pr-user', PR_USER, '--user', 'root', '--runner-dir', runnerDir, '--cache-dir', sharedCache])
    .catch((err) => { throw new Error(`setup/runner.sh --pr-user-only failed: ${err.stderr || err.message}`); });
  const user = /** @type {{uid: number, gid: number, home: string}} */ (await readUser(PR_USER));
  // git refuses a repository another user owns unless told it is safe (safe.directory); on
  // GitHub the code repository is fetched over https and has no owner on the host. What the
  // user fetches is the pull request's code, its own to run anyway.
  const gitconfig = join(user.home, '.gitconfig');
  await writeFile(gitconfig, `[safe]\n\tdirectory = ${codeRepository}\n\tdirectory = ${codeRepository}/.\n`);
  await chown(gitconfig, user.uid, user.gid);
  return { name: PR_USER, ...user };
}

/**
 * Every entry under a folder: its kind, mode, size and modification time, a file's sha256, a
 * link's target. A write, a new file or a replaced one changes it.
 * @param {string} dir
 * @returns {Promise<Record<string, string>>} relative path -> description
 */
export async function fingerprintTree(dir) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const rel of ['', ...(await readdir(dir, { recursive: true })).sort()]) {
    const path = join(dir, rel);
    const st = await lstat(path);
    const what = st.isSymbolicLink() ? `link ${await readlink(path)}`
      : st.isFile() ? `file ${createHash('sha256').update(await readFile(path)).digest('hex')}` : st.isDirectory() ? 'dir' : 'other';
    out[rel || '.'] = `${what} mode ${(st.mode & 0o7777).toString(8)} size ${st.size} mtime ${st.mtimeMs}`;
  }
  return out;
}

/**
 * @param {number} pid
 * @returns {Promise<boolean>} whether the process has ended (gone, or a zombie its parent has
 *   not reaped yet: killed all the same)
 */
export async function processEnded(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat === null || /\) Z /.test(stat);
}
