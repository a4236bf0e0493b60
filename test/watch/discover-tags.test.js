import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';
import { writeRecord, buildIndex, readIndex } from '../../scripts/store/index.js';
import { discoverTags } from '../../scripts/watch/index.js';
import { run as watchCommand } from '../../scripts/watch/watch-command.js';
import { UserError } from '../../scripts/errors.js';
import { upstreamRepo, tempDir, cleanupTempDirs } from './watch-testkit.js';

const root = fileURLToPath(new URL('../fixtures/watch', import.meta.url));
const recordFixture = new URL('../fixtures/store/run-record-v1.json', import.meta.url);
const quiet = () => {};
after(cleanupTempDirs);

/** @type {{mariadb: {bare: string, commits: Record<string, string>}, mysql: {bare: string, commits: Record<string, string>}}} */
let up;
/** @type {Awaited<ReturnType<typeof loadConfig>>} */
let config;

before(async () => {
  config = await loadConfig(root);
  up = {
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
});

const overrides = () => ({ mariadb: up.mariadb.bare, mysql: up.mysql.bare });
const emptyIndex = { runs: [] };

/**
 * A stored run of one release.
 * @param {string} id
 * @param {{product: string, version: string, hostClass: string, suite: string, status: 'ok'|'failed'|'partial'}} o
 */
async function record(id, o) {
  const r = JSON.parse(await readFile(recordFixture, 'utf8'));
  Object.assign(r, { id, status: o.status });
  // The fixture has a failed step; an ok record has none.
  if (o.status === 'ok') r.steps = r.steps.filter((/** @type {any} */ s) => s.status !== 'failed');
  Object.assign(r.release, { product: o.product, version: o.version });
  r.host.class = o.hostClass;
  r.config.suite = o.suite;
  return r;
}

test('every matching release at or above the floor, newest first, lines interleaved in config order, annotated tags dereferenced', async () => {
  const result = await discoverTags(config, { remoteOverrides: overrides(), index: emptyIndex, max: 100, hostClasses: ['bench-a'], progress: quiet });
  const got = result.matrix.include.map((e) => `${e.product} ${e.line} ${e.version}`);
  assert.deepEqual(got, [
    'mariadb 10.11 10.11.20', 'mariadb 11.8 11.8.6', 'mysql 8.4 8.4.4', 'mysql 9 9.7.4',
    'mariadb 10.11 10.11.19', 'mysql 8.4 8.4.3',
    'mariadb 10.11 10.11.18',
  ]);
  for (const e of result.matrix.include) {
    assert.equal(e.commit, (/** @type {any} */ (up)[e.product]).commits[e.tag], `${e.tag} names its commit, not the tag object`);
    assert.equal(e.hostClass, 'bench-a');
    assert.equal(e.suite, 'smoke');
  }
  assert.ok(result.skipped.some((s) => s.version === '10.11.17' && /floor/.test(s.reason)));
  assert.equal(result.pending, 7);
});

test('default host classes are those with runner labels, each with its own suite', async () => {
  const result = await discoverTags(config, { remoteOverrides: overrides(), index: emptyIndex, products: ['mysql'], progress: quiet });
  assert.deepEqual(result.matrix.include.filter((e) => e.version === '9.7.4').map((e) => [e.hostClass, e.suite]), [['bench-a', 'smoke'], ['bench-b', 'small']]);
});

test('already benchmarked versions are subtracted; partial runs are not; failed runs only without --retry-failed', async () => {
  const store = await tempDir('store');
  await writeRecord(store, await record('r1', { product: 'mariadb', version: '10.11.20', hostClass: 'bench-a', suite: 'smoke', status: 'ok' }));
  await writeRecord(store, await record('r2', { product: 'mariadb', version: '10.11.19', hostClass: 'bench-a', suite: 'smoke', status: 'partial' }));
  await writeRecord(store, await record('r3', { product: 'mysql', version: '8.4.4', hostClass: 'bench-a', suite: 'smoke', status: 'failed' }));
  // Same version on another suite or host class does not count for bench-a/smoke.
  await writeRecord(store, await record('r4', { product: 'mariadb', version: '11.8.6', hostClass: 'bench-a', suite: 'small', status: 'ok' }));
  await writeRecord(store, await record('r5', { product: 'mariadb', version: '10.11.18', hostClass: 'bench-b', suite: 'smoke', status: 'ok' }));
  const index = await readIndex(store);
  const base = { remoteOverrides: overrides(), index, max: 100, hostClasses: ['bench-a'], progress: quiet };
  const versions = (/** @type {any} */ r) => r.matrix.include.map((/** @type {any} */ e) => `${e.product}@${e.version}`).sort();
  assert.deepEqual(versions(await discoverTags(config, base)),
    ['mariadb@10.11.18', 'mariadb@10.11.19', 'mariadb@11.8.6', 'mysql@8.4.3', 'mysql@9.7.4']);
  assert.deepEqual(versions(await discoverTags(config, { ...base, retryFailed: true })),
    ['mariadb@10.11.18', 'mariadb@10.11.19', 'mariadb@11.8.6', 'mysql@8.4.3', 'mysql@8.4.4', 'mysql@9.7.4']);
  const skipped = (await discoverTags(config, base)).skipped.filter((s) => /already/.test(s.reason));
  assert.deepEqual(skipped.map((s) => s.version).sort(), ['10.11.20', '8.4.4']);
});

test('--max keeps the newest of each line first', async () => {
  const result = await discoverTags(config, { remoteOverrides: overrides(), index: emptyIndex, max: 3, hostClasses: ['bench-a'], progress: quiet });
  assert.deepEqual(result.matrix.include.map((e) => e.version), ['10.11.20', '11.8.6', '8.4.4']);
  assert.equal(result.pending, 7);
});

test('unknown product, unknown host class and a product without gitUrl are user errors', async () => {
  await assert.rejects(discoverTags(config, { products: ['mysqll'], index: emptyIndex, progress: quiet }),
    (err) => err instanceof UserError && /unknown product 'mysqll'; known: mariadb, mysql, percona/.test(err.message));
  await assert.rejects(discoverTags(config, { remoteOverrides: overrides(), hostClasses: ['nope'], index: emptyIndex, progress: quiet }), /unknown host class 'nope'; known: bench-a, bench-b, local/);
  await assert.rejects(discoverTags(config, { products: ['percona'], index: emptyIndex, progress: quiet }), /percona\.yml has no gitUrl.*--remote-override percona=/);
  await assert.rejects(discoverTags(config, { products: ['mariadb'], index: emptyIndex, progress: quiet }), /git ls-remote --tags \/nonexistent\/mariadb-server\.git failed/);
});

test('`tagbench watch` writes the matrix to GITHUB_OUTPUT and as JSON; the results branch index is honoured', async () => {
  const store = await tempDir('store');
  await writeRecord(store, await record('done', { product: 'mysql', version: '9.7.4', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  await buildIndex(store);
  const out = join(await tempDir('gh'), 'output');
  await writeFile(out, 'earlier=1\n');
  const code = await watchCommand({
    root, store, products: 'mysql', hostClass: ['bench-b'], max: 10,
    remoteOverride: [`mysql=${up.mysql.bare}`], githubOutput: out,
  });
  assert.equal(code, 0);
  const lines = (await readFile(out, 'utf8')).trim().split('\n');
  assert.equal(lines[0], 'earlier=1', 'appends, never truncates');
  const matrix = JSON.parse(lines[1].replace(/^matrix=/, ''));
  assert.deepEqual(matrix.include.map((/** @type {any} */ e) => e.tag), ['mysql-8.4.4', 'mysql-8.4.3']);
  assert.deepEqual(Object.keys(matrix.include[0]).sort(), ['commit', 'hostClass', 'line', 'product', 'suite', 'tag', 'version']);
  assert.equal(lines[2], 'count=2');
  await assert.rejects(watchCommand({ root, store, remoteOverride: ['mysql'] }), /expected <product>=<git URL or path>/);
});

test('in GitHub Actions (GITHUB_OUTPUT set) the matrix goes to the step outputs without a flag', async () => {
  const out = join(await tempDir('gh'), 'output');
  const saved = process.env.GITHUB_OUTPUT;
  process.env.GITHUB_OUTPUT = out;
  try {
    await watchCommand({ root, store: join(out, '..', 'no-store-yet'), products: 'mariadb', hostClass: ['bench-a'], max: 2, remoteOverride: [`mariadb=${up.mariadb.bare}`] });
  } finally {
    if (saved === undefined) delete process.env.GITHUB_OUTPUT;
    else process.env.GITHUB_OUTPUT = saved;
  }
  const text = await readFile(out, 'utf8');
  assert.match(text, /^matrix=\{"include":\[\{"product":"mariadb","line":"10\.11","version":"10\.11\.20"/);
  assert.match(text, /\ncount=2\n$/);
});
