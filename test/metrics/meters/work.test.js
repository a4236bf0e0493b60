// The work meter's pure part (computeWorkFigures) on real SHOW GLOBAL STATUS values, and the
// products config naming every counter of the meter and nothing else.
import { test } from 'node:test';
import { readFile } from 'node:fs/promises';
import assert from 'node:assert/strict';
import { computeWorkFigures, WORK_COUNTERS, work } from '../../../scripts/metrics/meters/work.js';
import { loadConfig } from '../../../scripts/config/index.js';
import { METERS } from '../../../scripts/metrics/index.js';

const root = new URL('../../..', import.meta.url).pathname;

// Shaped on a MariaDB 10.11.18 around 500 point selects (values trimmed to the ones named).
const before = { Rows_read: '1200', Handler_read_key: '3000', Innodb_os_log_written: '8192', Innodb_lsn_current: '53245', Handler_read_next: '10', Handler_read_prev: '0', Rocksdb_bytes_written: '0' };
const after = { Rows_read: '1700', Handler_read_key: '3500', Innodb_os_log_written: '8192', Innodb_lsn_current: '53245', Handler_read_next: '1010', Handler_read_prev: '500', Rocksdb_bytes_written: '4096' };

/**
 * Readings where a status read adds nothing and nothing happens after the work.
 * @param {Record<string, string>} b
 * @param {Record<string, string>} a
 */
const plain = (b, a) => ({ idle: b, before: b, after: a, settled: a });

test('each counter is its change per operation; a list of names is summed', () => {
  const f = computeWorkFigures({ ...plain(before, after), operations: 500, names: { rowsRead: 'Rows_read', indexLookups: ['Handler_read_key'], indexNextReads: ['Handler_read_next', 'Handler_read_prev'], redoBytes: 'Innodb_os_log_written' } });
  assert.equal(f.perOp.rowsRead, 1);
  assert.equal(f.perOp.indexLookups, 1);
  assert.equal(f.perOp.indexNextReads, 3, '(1000 + 500) / 500');
  assert.equal(f.totals.indexNextReads, 1500);
  assert.equal(f.perOp.redoBytes, 0, 'a read writes no redo: a real 0, not a missing figure');
  assert.equal(f.missing.redoBytes, undefined);
  assert.equal(f.operations, 500);
});

test('a counter the flavor lacks, the config leaves out or the server does not report is null with the reason, never 0', () => {
  const f = computeWorkFigures({ ...plain(before, after), operations: 500, names: { logFsyncs: { missing: 'MariaDB reports no Innodb_os_log_fsyncs' }, pagesRead: 'Innodb_pages_read' } });
  assert.equal(f.perOp.logFsyncs, null);
  assert.equal(f.missing.logFsyncs, 'MariaDB reports no Innodb_os_log_fsyncs');
  assert.equal(f.perOp.pagesRead, null);
  assert.match(f.missing.pagesRead, /no status variable Innodb_pages_read/);
  assert.equal(f.perOp.sortRows, null);
  assert.match(f.missing.sortRows, /names no status variable/);
  for (const { key } of WORK_COUNTERS) assert.ok(key in f.perOp, `${key} has a figure or a null`);
});

test('names match without regard to case (Percona prints rocksdb_..., MariaDB Rocksdb_...)', () => {
  const f = computeWorkFigures({ ...plain(before, after), operations: 4, names: { rocksdbBytesWritten: 'rocksdb_BYTES_written' } });
  assert.equal(f.perOp.rocksdbBytesWritten, 1024);
});

test('a counter that went down (FLUSH STATUS during the count) is null, not a negative figure', () => {
  const f = computeWorkFigures({ ...plain({ Sort_rows: '90' }, { Sort_rows: '3' }), operations: 1, names: { sortRows: 'Sort_rows' } });
  assert.equal(f.perOp.sortRows, null);
  assert.match(f.missing.sortRows, /went down \(90 -> 3\)/);
});

test('what a status read adds itself is taken off the counters read right after the work; the engine\'s are read once settled', () => {
  // MariaDB 10.11.18: one SHOW GLOBAL STATUS adds a temporary table, a table scan and its 562
  // rows; the settling's polls (two here) add one each again, after the work's reading.
  const idle = { Created_tmp_tables: '10', Select_scan: '10', Handler_read_rnd_next: '1000', Innodb_pages_written: '50' };
  const b4 = { Created_tmp_tables: '11', Select_scan: '11', Handler_read_rnd_next: '1562', Innodb_pages_written: '50' };
  const aft = { Created_tmp_tables: '12', Select_scan: '12', Handler_read_rnd_next: '2124', Innodb_pages_written: '51' };
  const settled = { Created_tmp_tables: '15', Select_scan: '15', Handler_read_rnd_next: '3250', Innodb_pages_written: '90' };
  const names = { tmpTables: 'Created_tmp_tables', tableScans: 'Select_scan', tableScanRows: 'Handler_read_rnd_next', pagesWritten: 'Innodb_pages_written' };
  const f = computeWorkFigures({ idle, before: b4, after: aft, settled, names, operations: 10 });
  assert.deepEqual([f.totals.tmpTables, f.totals.tableScans, f.totals.tableScanRows], [0, 0, 0], 'a write that makes no temporary table counts none');
  assert.equal(f.totals.pagesWritten, 40, 'the pages the page cleaner wrote after the work count: they are the work\'s');
  const less = computeWorkFigures({ idle, before: b4, after: b4, settled, names, operations: 10 });
  assert.equal(less.perOp.tmpTables, null, 'a change smaller than a read\'s own is not a figure');
  assert.match(less.missing.tmpTables, /less than one status read itself adds \(1\)/);
});

test('no operations is refused with the value', () => {
  assert.throws(() => computeWorkFigures({ ...plain(before, after), operations: 0, names: {} }), /operations must be a positive number; got 0/);
});

test('the meter is registered, counted, one metric per counter, lower is better', () => {
  assert.equal(METERS.work, work);
  assert.equal(work.kind, 'counted');
  assert.equal('serverWrapper' in work, false, 'a plain server: status counters need no wrapper');
  assert.deepEqual(work.metrics.map((m) => m.figure), WORK_COUNTERS.map((c) => `perOp.${c.key}`));
  assert.ok(work.metrics.every((m) => m.higherIsBetter === false && m.unit.endsWith('/op')));
  assert.equal(new Set(work.metrics.map((m) => m.name)).size, WORK_COUNTERS.length, 'metric names are unique');
});

test('every product names every counter of the meter, and no other', async () => {
  const config = await loadConfig(root);
  const keys = WORK_COUNTERS.map((c) => c.key).sort();
  for (const product of Object.values(config.products)) {
    assert.deepEqual(Object.keys(product.workCounters ?? {}).sort(), keys, `configs/products/${product.name}.yml workCounters`);
  }
});

test('every work metric has thresholds (gated) and the thresholds schema knows its name', async () => {
  const config = await loadConfig(root);
  const schema = JSON.parse(await readFile(new URL('../../../scripts/config/schemas/thresholds.schema.json', import.meta.url), 'utf8'));
  const known = schema.properties.metrics.propertyNames.enum;
  for (const { metric } of WORK_COUNTERS) {
    assert.ok(known.includes(metric), `${metric} is in thresholds.schema.json`);
    const levels = config.thresholds.metrics?.[metric];
    assert.ok(levels && levels.warn > 0 && levels.issue >= levels.warn, `configs/thresholds.yml metrics.${metric}: ${JSON.stringify(levels)}`);
    const scale = work.metrics.find((m) => m.name === metric)?.scale;
    // A ratio to 0 says nothing: a log counter has a floor; a linear one judges its rise from 0.
    if (scale === 'log') assert.ok(levels && levels.floor !== undefined, `${metric} has a floor`);
    else assert.ok(levels && levels.issue < 1, `${metric} (linear): issue at less than one more per op`);
  }
});

test('the meter refuses a server without a query function or a dirty-page flush, before any statement', async () => {
  /** @type {string[]} */
  const ran = [];
  const query = async (/** @type {string} */ sql) => { ran.push(sql); return []; };
  await assert.rejects(work.start({ pid: 1, datadir: '/tmp' }), /needs the server's query function/);
  await assert.rejects(work.start({ pid: 1, datadir: '/tmp', query }), /needs the server's flushDirtyPages/);
  assert.deepEqual(ran, []);
});
