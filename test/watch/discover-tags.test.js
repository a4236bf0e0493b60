import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';
import { writeRecord, readIndex } from '../../scripts/store/index.js';
import { discoverTags } from '../../scripts/watch/discover-tags.js';
import { UserError } from '../../scripts/errors.js';
import { upstreamRepos, record, tempDir, cleanupTempDirs } from './watch-testkit.js';

const root = fileURLToPath(new URL('../fixtures/watch', import.meta.url));
const quiet = () => {};
after(cleanupTempDirs);

/** @type {{mariadb: {bare: string, commits: Record<string, string>}, mysql: {bare: string, commits: Record<string, string>}}} */
let up;
/** @type {Awaited<ReturnType<typeof loadConfig>>} */
let config;

before(async () => {
  config = await loadConfig(root);
  up = await upstreamRepos();
});

const overrides = () => ({ mariadb: up.mariadb.bare, mysql: up.mysql.bare });
const emptyIndex = { runs: [] };

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
