// Shared by the watch tests: upstream-like repositories (real git, real tags, annotated and
// lightweight) and run records of releases already benchmarked.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

/** @type {string[]} */
const created = [];

/** @param {string} prefix @returns {Promise<string>} */
export async function tempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), `tagbench-watch-${prefix}-`));
  created.push(dir);
  return dir;
}

/** Remove every directory tempDir() made. */
export async function cleanupTempDirs() {
  await Promise.all(created.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * @param {string[]} args
 * @param {string} [cwd]
 */
export function git(args, cwd) {
  return execFileSync('git', ['-c', 'user.name=upstream', '-c', 'user.email=upstream@example.invalid', '-c', 'tag.gpgSign=false', ...args], {
    cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * A bare repository whose tags are given: each tag on its own commit.
 * @param {{name: string, annotated: boolean}[]} tags
 * @returns {Promise<{bare: string, commits: Record<string, string>}>} tag name -> commit it names
 */
export async function upstreamRepo(tags) {
  const work = await tempDir('work');
  const bare = await tempDir('bare');
  git(['init', '-q', work]);
  /** @type {Record<string, string>} */
  const commits = {};
  for (const t of tags) {
    git(['commit', '-q', '--allow-empty', '-m', `release ${t.name}`], work);
    git(t.annotated ? ['tag', '-a', t.name, '-m', `Release ${t.name}`] : ['tag', t.name], work);
    commits[t.name] = git(['rev-parse', 'HEAD'], work).trim();
  }
  git(['clone', '-q', '--bare', work, bare]);
  return { bare, commits };
}

/**
 * The upstream repositories of the watch tests, for the products of test/fixtures/watch/configs.
 * @returns {Promise<{mariadb: {bare: string, commits: Record<string, string>}, mysql: {bare: string, commits: Record<string, string>}}>}
 */
export async function upstreamRepos() {
  return {
    mariadb: await upstreamRepo([
      { name: 'mariadb-10.11.17', annotated: true }, // below the line's baseVersion floor
      { name: 'mariadb-10.11.18', annotated: true },
      { name: 'mariadb-10.11.19', annotated: false },
      { name: 'mariadb-10.11.20', annotated: true },
      { name: 'mariadb-10.11.20-rc', annotated: false }, // not a release: no line matches
      { name: 'mariadb-11.8.6', annotated: false },
      { name: 'mariadb-11.4.5', annotated: true }, // a line the config does not watch
    ]),
    mysql: await upstreamRepo([
      { name: 'mysql-8.4.3', annotated: true },
      { name: 'mysql-8.4.4', annotated: true },
      { name: 'mysql-9.7.4', annotated: false },
      { name: 'mysql-cluster-8.4.3', annotated: true },
    ]),
  };
}

const recordFixture = new URL('../fixtures/store/run-record-v2.json', import.meta.url);

/**
 * A stored run of one release.
 * @param {string} id
 * @param {{product: string, version: string, hostClass: string, suite: string, status: 'ok'|'failed'|'partial', tag?: string, commit?: string|null, startedAt?: string}} o
 *   tag: default `<product>-<version>`; commit: default null (unknown, as for a Debian package)
 */
export async function record(id, o) {
  const r = JSON.parse(await readFile(recordFixture, 'utf8'));
  Object.assign(r, { id, status: o.status });
  // The fixture has a failed step; an ok record has none.
  if (o.status === 'ok') r.steps = r.steps.filter((/** @type {any} */ s) => s.status !== 'failed');
  Object.assign(r.release, { product: o.product, version: o.version, tag: o.tag ?? `${o.product}-${o.version}`, commit: o.commit ?? null });
  if (o.startedAt) r.startedAt = o.startedAt;
  r.host.class = o.hostClass;
  r.config.suite = o.suite;
  return r;
}
