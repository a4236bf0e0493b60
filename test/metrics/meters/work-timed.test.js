// The work meter's counters on the timed repeats (computeTimedWorkFigures, and the wall meter
// keeping them as the repeat's meters.work): the change over the sampled seconds as a rate,
// applied to the measured window and divided by its operations; a counter without a figure is null
// with its reason, never 0; nothing is kept without the product's names or a valid repeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeTimedWorkFigures, WORK_COUNTERS } from '../../../scripts/metrics/meters/work.js';
import { wallFigures } from '../../../scripts/metrics/meters/wall.js';
import { loadConfig } from '../../../scripts/config/index.js';

const root = new URL('../../..', import.meta.url).pathname;
// Shaped on MariaDB 10.11.18 around a timed point-query repeat (values trimmed to those named).
const before = { Rows_read: '100000', Handler_read_key: '90000', Innodb_pages_written: '5000', Innodb_os_log_written: '1000000' };
const after = { Rows_read: '140000', Handler_read_key: '130000', Innodb_pages_written: '5400', Innodb_os_log_written: '1000000' };
const names = { rowsRead: 'Rows_read', indexLookups: 'Handler_read_key', pagesWritten: 'Innodb_pages_written', redoBytes: 'Innodb_os_log_written', logFsyncs: { missing: 'MariaDB reports no Innodb_os_log_fsyncs' } };

test('per op: the change as a rate over the sampled seconds, applied to the measured window', () => {
  // 40,000 rows over 4 sampled seconds (1 s of it start and warm-up); 30,000 operations in the 3 s measured.
  const f = computeTimedWorkFigures({ before, after, names, operations: 30000, windowS: 3, sampledS: 4 });
  assert.ok(f);
  assert.equal(f.perOp.rowsRead, 1, '40,000 / 4 s × 3 s / 30,000');
  assert.equal(f.perOp.indexLookups, 1);
  assert.equal(f.perOp.pagesWritten, 0.01);
  assert.equal(f.perOp.redoBytes, 0, 'no redo written: a real 0');
  assert.equal(f.missing.redoBytes, undefined);
  assert.deepEqual([f.operations, f.windowS, f.sampledS, f.workS], [30000, 3, 4, 4]);
});

test('with the tool\'s warm-up known, the rate is taken over warm-up plus window, not the sampled seconds', () => {
  // 4.4 s sampled: 0.4 s of start and connect, then 1 s of warm-up and the 3 s window at one rate.
  const f = computeTimedWorkFigures({ before, after, names, operations: 30000, windowS: 3, sampledS: 4.4, workS: 4 });
  assert.equal(f?.perOp.rowsRead, 1, '40,000 rows / 4 s × 3 s / 30,000 (by the sampled seconds: 0.91)');
  assert.equal(f?.workS, 4);
});

test('a missing counter is null with its reason, never 0: the flavor lacks it, the server does not report it, the config does not name it', () => {
  const f = computeTimedWorkFigures({ before, after, names: { ...names, pagesRead: 'Innodb_pages_read' }, operations: 30000, windowS: 3, sampledS: 4 });
  assert.ok(f);
  assert.equal(f.perOp.logFsyncs, null);
  assert.equal(f.missing.logFsyncs, 'MariaDB reports no Innodb_os_log_fsyncs');
  assert.equal(f.perOp.pagesRead, null);
  assert.match(f.missing.pagesRead, /no status variable Innodb_pages_read/);
  assert.equal(f.perOp.sortRows, null);
  assert.match(f.missing.sortRows, /names no status variable/);
  for (const { key } of WORK_COUNTERS) assert.ok(f.perOp[key] === null ? key in f.missing : !(key in f.missing), `${key}: a figure, or null with a reason`);
});

test('a counter reset during the repeat is null with the reason, not a negative figure', () => {
  const f = computeTimedWorkFigures({ before, after: { ...after, Rows_read: '10' }, names, operations: 30000, windowS: 3, sampledS: 4 });
  assert.equal(f?.perOp.rowsRead, null);
  assert.match(f?.missing.rowsRead ?? '', /went down \(100000 -> 10\)/);
});

test('nothing to divide by: no figures rather than infinities', () => {
  assert.equal(computeTimedWorkFigures({ before, after, names, operations: 0, windowS: 3, sampledS: 4 }), null);
  assert.equal(computeTimedWorkFigures({ before, after, names, operations: 100, windowS: 0, sampledS: 4 }), null);
  assert.equal(computeTimedWorkFigures({ before, after, names, operations: 100, windowS: 3, sampledS: 0 }), null);
});

/** Samples as start-sampling.js returns them, with only what wallFigures reads. */
const samples = /** @type {any} */ ({
  startedAt: '2026-11-28T19:00:00Z', durationS: 4, intervalS: 1, cores: 2, cpu: [], io: [], ioByDevice: {}, devices: { basis: 'all', devices: [], note: '' },
  rss: [], rssKb: 1000, rssMaxKb: 1000, status: { before, after, delta: {} }, warnings: [],
});
const repeat = { ok: true, durationS: 3, throughput: 10000, tps: 10000, latencyMs: null, intervals: [] };

test('the wall meter keeps them as the repeat\'s meters.work, with the real products config\'s names', async () => {
  const config = await loadConfig(root);
  const f = wallFigures(samples, repeat, config.products.mariadb.workCounters);
  const w = /** @type {import('../../../scripts/types.js').TimedWorkFigures} */ (f.meters?.work);
  assert.equal(w.perOp.rowsRead, 1);
  assert.equal(w.workS, 4, 'no warm-up said: the sampled seconds');
  const warm = /** @type {any} */ (wallFigures(samples, { ...repeat, warmupS: 0.5 }, config.products.mariadb.workCounters).meters?.work);
  assert.equal(warm.workS, 3.5, 'the step\'s warm-up plus the window');
  assert.ok(Math.abs(warm.perOp.rowsRead - 40000 / 3.5 * 3 / 30000) < 1e-12);
  const over = /** @type {any} */ (wallFigures(samples, { ...repeat, warmupS: 5 }, config.products.mariadb.workCounters).meters?.work);
  assert.equal(over.workS, 4, 'never more than the sampled seconds');
  assert.equal(w.operations, 30000);
  assert.equal(w.perOp.sortRows, null, 'Sort_rows not in these samples: null with the reason');
  assert.match(w.missing.sortRows, /no status variable Sort_rows/);
  assert.match(w.missing.logFsyncs, /MariaDB reports no Innodb_os_log_fsyncs/);
});

test('the wall meter keeps no work figures without the names, for a failed repeat, or without the status', () => {
  assert.equal(wallFigures(samples, repeat).meters, undefined);
  assert.equal(wallFigures(samples, { ...repeat, ok: false, throughput: null }, names).meters, undefined);
  assert.equal(wallFigures({ ...samples, status: null }, repeat, names).meters, undefined);
});

test('what one status read adds itself (before - idle) is taken off the server\'s counters, not the engine\'s', () => {
  // MariaDB answers SHOW GLOBAL STATUS from a temporary table it scans: 600 rows and one table a read.
  const idle = { ...before, Handler_read_rnd_next: '1000', Created_tmp_tables: '10', Innodb_pages_written: '4990' };
  const b = { ...before, Handler_read_rnd_next: '1600', Created_tmp_tables: '11' };
  const a = { ...after, Handler_read_rnd_next: '2200', Created_tmp_tables: '12' };
  const own = { ...names, tableScanRows: 'Handler_read_rnd_next', tmpTables: 'Created_tmp_tables' };
  const f = computeTimedWorkFigures({ idle, before: b, after: a, names: own, operations: 30000, windowS: 3, sampledS: 4 });
  assert.equal(f?.perOp.tableScanRows, 0, 'the 600 rows of the read after the work are the read\'s own');
  assert.equal(f?.perOp.tmpTables, 0);
  assert.equal(f?.perOp.pagesWritten, 0.01, 'an engine counter: nothing taken off (10 pages between idle and before are not the read\'s)');
  const less = computeTimedWorkFigures({ idle, before: b, after: { ...a, Handler_read_rnd_next: '2000' }, names: own, operations: 30000, windowS: 3, sampledS: 4 });
  assert.equal(less?.perOp.tableScanRows, null, 'less than one read adds: null with the reason, not a negative figure');
  assert.match(less?.missing.tableScanRows ?? '', /less than one status read itself adds \(600\)/);
});
