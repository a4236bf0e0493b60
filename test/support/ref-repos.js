/**
 * Real git repositories for the ref-run tests, made in a temp folder: an upstream with release
 * tags on `main`, a feature branch, a pull request's head published as `refs/pull/7/head` in the
 * bare repository (as GitHub publishes it), and a fork that has the feature branch but none of
 * the tags (a fork's tags stop where it was forked). Every commit holds the tiny cmake project of
 * test/fixtures/install/source-fake-server, so any of them builds through the source provider.
 *
 *   main:    c1 (mariadb-10.11.17) - c2 - c3 (mariadb-10.11.18) - c4 - c5 (mariadb-10.11.19) - c6
 *   feature:                                                 c4 - f1 - f2      (= refs/pull/7/head)
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToolChecked } from '../../scripts/install/run-tool.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/install/source-fake-server/', import.meta.url));

/**
 * @typedef {object} RefRepos
 * @property {string} work the upstream's working clone
 * @property {string} upstream its bare repository (the product's gitUrl in the tests)
 * @property {string} fork a bare fork: branch `fix` = f2, no tags
 * @property {Record<'c1'|'c2'|'c3'|'c4'|'c5'|'c6'|'f1'|'f2', string>} commits
 * @property {(args: string[]) => Promise<string>} git git in the working clone, stdout
 */

/**
 * @param {string} dir an empty temp folder
 * @returns {Promise<RefRepos>}
 */
export async function makeRefRepos(dir) {
  const work = join(dir, 'work');
  const upstream = join(dir, 'upstream.git');
  const fork = join(dir, 'fork.git');
  await mkdir(work, { recursive: true });
  const git = async (/** @type {string[]} */ args) => (await runToolChecked('git', ['-C', work, '-c', 'user.name=tagbench test', '-c', 'user.email=test@tagbench.invalid', ...args])).stdout.trim();
  await git(['init', '-q', '-b', 'main']);
  await cp(FIXTURE, work, { recursive: true });
  /** @type {Record<string, string>} */
  const commits = {};
  const commit = async (/** @type {string} */ name, /** @type {string} */ version, /** @type {string|null} */ tag) => {
    await writeFile(join(work, 'VERSION'), `${version}\n`);
    await writeFile(join(work, 'CHANGES'), `${name}\n`);
    await git(['add', '-A']);
    await git(['commit', '-q', '-m', `commit ${name}`]);
    if (tag) await git(['tag', '-a', tag, '-m', tag]);
    commits[name] = await git(['rev-parse', 'HEAD']);
  };
  await commit('c1', '10.11.17', 'mariadb-10.11.17');
  await commit('c2', '10.11.18', null);
  await commit('c3', '10.11.18', 'mariadb-10.11.18');
  await commit('c4', '10.11.19', null);
  await git(['checkout', '-q', '-b', 'feature']);
  await commit('f1', '10.11.19', null);
  await commit('f2', '10.11.19', null);
  await git(['checkout', '-q', 'main']);
  await commit('c5', '10.11.19', 'mariadb-10.11.19');
  await commit('c6', '10.11.20', null);
  await runToolChecked('git', ['init', '-q', '--bare', upstream]);
  await git(['push', '-q', upstream, 'main', 'feature', '--tags']);
  await git(['push', '-q', upstream, `${commits.f2}:refs/pull/7/head`]);
  await runToolChecked('git', ['init', '-q', '--bare', fork]);
  await git(['push', '-q', fork, 'feature:refs/heads/fix']);
  return { work, upstream, fork, commits: /** @type {RefRepos['commits']} */ (commits), git };
}
