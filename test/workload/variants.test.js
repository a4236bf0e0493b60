/** Suite variants: sweep expansion in planSuite, matrix cells and the suites they run. Pure. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planSuite } from '../../scripts/workload/suite.js';
import { matrixCells, cellSuite, parseSweepTestName, sweepTestName } from '../../scripts/workload/variants.js';
import { UserError } from '../../scripts/errors.js';
import { loadConfig } from '../../scripts/config/index.js';

/** @type {any} */
const SUITE = {
  name: 'unit', description: 'unit', tables: 2, tableSize: 1000, clients: 3,
  readDurationS: 7, writeDurationS: 11, warmupS: 2, scanWarmDurationS: 5, restS: 4,
};

test('a sweep runs each swept test once per client count, in place, with that many threads', () => {
  const plan = planSuite({ ...SUITE, only: ['update-index', 'point-query'], sweep: { clients: [1, 4, 2], tests: ['point-query'] } });
  assert.deepEqual(plan.map((s) => `${s.name}:${s.threads}`), [
    'load:3', 'point-query.warm:3', 'postwrite.after-load:3', 'scan.warmpre:3',
    'update-index:3', 'postwrite.after-read-write:3',
    'point-query.c1:1', 'point-query.c4:4', 'point-query.c2:2',
  ]);
  const c4 = plan.find((s) => s.name === 'point-query.c4');
  const plain = planSuite({ ...SUITE, only: ['point-query'] }).find((s) => s.name === 'point-query');
  // Apart from name and threads the swept step is the test itself.
  assert.deepEqual({ ...c4, name: 'point-query', threads: 3 }, plain);
});

test('a sweep without tests sweeps every measured sysbench test, never a warm-up or the load', () => {
  const plan = planSuite({ ...SUITE, only: ['point-query', 'update-one'], sweep: { clients: [1, 2] } });
  assert.deepEqual(plan.filter((s) => s.reported).map((s) => s.name), ['update-one.c1', 'update-one.c2', 'point-query.c1', 'point-query.c2']);
  assert.equal(plan.filter((s) => !s.reported).every((s) => s.threads === 3), true);
});

test('only may name one count of a swept test', () => {
  const plan = planSuite({ ...SUITE, only: ['point-query.c2'], sweep: { clients: [1, 2, 4] } });
  assert.deepEqual(plan.filter((s) => s.reported).map((s) => s.name), ['point-query.c2']);
  assert.throws(() => planSuite({ ...SUITE, only: ['point-query.c8'], sweep: { clients: [1, 2] } }), (err) => err instanceof UserError && /only\[0\] = 'point-query\.c8'/.test(err.message));
});

test('bad sweeps are refused with the file and the value', () => {
  assert.throws(() => planSuite({ ...SUITE, sweep: { clients: [1, 0] } }), /configs\/suites\/unit\.yml: sweep\.clients\[1\] = 0/);
  assert.throws(() => planSuite({ ...SUITE, sweep: { clients: [2, 2] } }), /sweep\.clients\[1\] = 2 is listed twice/);
  assert.throws(() => planSuite({ ...SUITE, sweep: { clients: [1], tests: ['point-query.warm'] } }), (err) => err instanceof UserError && /sweep\.tests\[0\] = 'point-query\.warm' is not a sysbench test/.test(err.message));
});

test('sweep test names round-trip and stay file-name safe', () => {
  assert.equal(sweepTestName('read-only.range10', 16), 'read-only.range10.c16');
  assert.deepEqual(parseSweepTestName('read-only.range10.c16'), { test: 'read-only.range10', clients: 16 });
  for (const name of ['point-query', 'point-query.pre', 'read-only.range10', 'x.c0', 'x.c']) assert.equal(parseSweepTestName(name), null, name);
  assert.match(sweepTestName('point-query', 4), /^[A-Za-z0-9._-]+$/);
});

test('matrix cells: the cartesian product in the order written, each its own series', () => {
  const suite = {
    ...SUITE,
    mycnf: { innodb_buffer_pool_size: '64M' },
    tableOptions: 'STATS_PERSISTENT=1',
    matrix: {
      partitioning: { p0: {}, p1: { tableOptions: 'PARTITION BY HASH(id) PARTITIONS 4' } },
      compression: { c0: null, c1: { tableOptions: 'PAGE_COMPRESSED=1', mycnf: { innodb_compression_level: 1 } } },
    },
  };
  const cells = /** @type {NonNullable<ReturnType<typeof matrixCells>>} */ (matrixCells(suite));
  assert.deepEqual(cells.map((c) => c.suiteName), ['unit--partitioning-p0--compression-c0', 'unit--partitioning-p0--compression-c1', 'unit--partitioning-p1--compression-c0', 'unit--partitioning-p1--compression-c1']);
  assert.deepEqual(cells[3].values, { partitioning: 'p1', compression: 'c1' });
  assert.equal(cells[3].tableOptions, 'PARTITION BY HASH(id) PARTITIONS 4 PAGE_COMPRESSED=1');
  const run = cellSuite(suite, cells[3]);
  assert.equal(run.name, 'unit--partitioning-p1--compression-c1');
  assert.equal(run.matrixOf, 'unit');
  assert.equal('matrix' in run, false);
  assert.deepEqual(run.mycnf, { innodb_buffer_pool_size: '64M', innodb_compression_level: 1 });
  assert.equal(run.tableOptions, 'STATS_PERSISTENT=1 PARTITION BY HASH(id) PARTITIONS 4 PAGE_COMPRESSED=1');
  // The series name is a valid suite name of the store (^[a-z][a-z0-9-]*$).
  for (const c of cells) assert.match(c.suiteName, /^[a-z][a-z0-9-]*$/);
  assert.equal(matrixCells(SUITE), null);
});

test('bad matrices are refused with the file and the name', () => {
  assert.throws(() => matrixCells({ ...SUITE, matrix: { Compression: { on: {} } } }), /configs\/suites\/unit\.yml: matrix dimension 'Compression'/);
  assert.throws(() => matrixCells({ ...SUITE, matrix: { compression: { 'o-n': {} } } }), /matrix\.compression value 'o-n'/);
  assert.throws(() => matrixCells({ ...SUITE, matrix: { compression: {} } }), /matrix\.compression has no values/);
  assert.throws(() => matrixCells({ ...SUITE, matrix: { compression: { on: { tableoptions: 'x' } } } }), /unknown key\(s\) tableoptions; valid: mycnf, tableOptions/);
});

test('the three preset suites load and plan as documented', async () => {
  const config = await loadConfig(new URL('../..', import.meta.url).pathname);
  const sweep = planSuite(config.suites['sweep-smoke']);
  assert.deepEqual(sweep.filter((s) => s.reported).map((s) => `${s.name}:${s.threads}`), ['update-nonindex.c1:1', 'update-nonindex.c2:2', 'update-nonindex.c4:4', 'point-query.c1:1', 'point-query.c2:2', 'point-query.c4:4']);
  const io = /** @type {any} */ (config.suites['iobound-smoke']);
  // The data (rows x ~230 bytes with the k index) is several times the buffer pool.
  assert.ok(io.tables * io.tableSize * 230 > 4 * 8 * 2 ** 20);
  assert.equal(io.mycnf.innodb_buffer_pool_size, '8M');
  const cells = matrixCells(config.suites['matrix-smoke']);
  assert.deepEqual(cells?.map((c) => [c.suiteName, c.tableOptions]), [['matrix-smoke--compression-off', ''], ['matrix-smoke--compression-on', 'ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8']]);
});

test('a cell series name finds its cell, so reruns of a cell run under it', async () => {
  const { findCellSuite } = await import('../../scripts/workload/variants.js');
  const suites = { unit: { ...SUITE, matrix: { compression: { off: {}, on: { tableOptions: 'ROW_FORMAT=COMPRESSED' } } } }, other: SUITE };
  const found = findCellSuite(suites, 'unit--compression-on');
  assert.equal(found?.name, 'unit--compression-on');
  assert.equal(found?.tableOptions, 'ROW_FORMAT=COMPRESSED');
  assert.equal(findCellSuite(suites, 'unit--compression-maybe'), null);
  assert.equal(findCellSuite(suites, 'other'), null);
});

test('a matrix suite is never run as one plain suite; its cells are', async () => {
  const { resolveRun } = await import('../../scripts/run/resolve-run.js');
  const config = await loadConfig(new URL('../..', import.meta.url).pathname);
  const options = { releases: [{ product: 'mariadb', version: '10.11.18', preinstalled: true }], hostClass: 'local', storeDir: 's', workDir: 'w', cacheDir: 'c' };
  assert.throws(() => resolveRun(config, { ...options, suite: 'matrix-smoke' }), (err) => err instanceof UserError && /suite 'matrix-smoke' has a config matrix: .* e\.g\. --suite matrix-smoke--compression-off/.test(err.message));
  const cell = resolveRun(config, { ...options, suite: 'matrix-smoke--compression-on' });
  assert.equal(cell.suite.name, 'matrix-smoke--compression-on');
  assert.equal(/** @type {any} */ (cell.suite).tableOptions, 'ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8');
});
