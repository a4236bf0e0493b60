/** Planning the insert benchmark inside a suite, and the SQL its steps send (pure parts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planSuite, suiteBenchmarks } from '../../scripts/workload/suite.js';
import { STEP_NAMES } from '../../scripts/workload/sysbench/index.js';
import { BENCHMARKS, getBenchmark } from '../../scripts/workload/registry.js';
import { ibenchSettings } from '../../scripts/workload/ibench/index.js';
import { tableLayout, insertSql, deleteSql, rangeSql, seededRandom } from '../../scripts/workload/ibench/table-sql.js';
import { validateAgainst } from '../../scripts/config/validate.js';
import { UserError } from '../../scripts/errors.js';

/** @type {any} */
const BASE = { name: 'unit', description: '', tables: 2, tableSize: 500, clients: 3, readDurationS: 7, writeDurationS: 9, warmupS: 3, scanWarmDurationS: 5, restS: 2 };
const IBENCH = { loadRows: 1000, l1Rows: 200, l2Rows: 50, queryDurationS: 4 };
const SEQUENCE = ['l.i0', 'l.x', 'l.i1', 'l.i2', 'ibench.cleanup', 'qr100', 'qp100', 'qr500', 'qp500', 'qr1000', 'qp1000'];

test('a suite without benchmarks plans exactly the sysbench suite, as before', () => {
  const plans = planSuite(BASE);
  assert.deepEqual(plans.map((p) => p.name), [...STEP_NAMES]);
  assert.ok(plans.every((p) => p.sequence === undefined && !('sequence' in p)), 'sysbench steps carry no sequence field');
  assert.deepEqual(planSuite({ ...BASE, benchmarks: ['sysbench'] }), plans);
});

test('benchmarks: [ibench] plans the whole sequence with its sizes; both run in the named order', () => {
  const plans = planSuite({ ...BASE, benchmarks: ['ibench'], ibench: IBENCH }, { engine: 'rocksdb' });
  assert.deepEqual(plans.map((p) => p.name), SEQUENCE);
  assert.ok(plans.every((p) => p.kind === 'ibench' && p.sequence === 'ibench' && p.engine === 'rocksdb' && p.threads === 3 && p.tables === 3));
  const by = Object.fromEntries(plans.map((p) => [p.name, p]));
  assert.deepEqual(by['l.i0'].params, { tablePerClient: true, rowsPerClient: 1000, rowsPerCommit: 100 });
  assert.equal(by['l.i1'].params.rowsPerCommit, 50);
  assert.equal(by['l.i2'].params.rowsPerCommit, 5);
  assert.equal(by['l.i0'].metric, 'inserts/s');
  assert.equal(by['l.x'].metric, 'rows/s');
  assert.equal(by['ibench.cleanup'].reported, false);
  assert.equal(by['ibench.cleanup'].restS, 2);
  assert.equal(by.qr500.group, 'range');
  assert.equal(by.qp500.group, 'point');
  assert.equal(by.qp1000.params.insertsPerClientPerS, 1000);
  assert.equal(by.qr100.durationS, 4);
  const shared = planSuite({ ...BASE, benchmarks: ['ibench'], ibench: { ...IBENCH, tablePerClient: false } });
  assert.equal(shared[0].tables, 1);
  assert.equal(shared[0].tableSize, 3000, 'one shared table holds every client\'s rows');
  const both = planSuite({ ...BASE, benchmarks: ['ibench', 'sysbench'], ibench: IBENCH });
  assert.deepEqual(both.map((p) => p.name), [...SEQUENCE, ...STEP_NAMES]);
});

test('only: a named sequence step keeps the whole sequence; a benchmark with none named is left out', () => {
  const suite = { ...BASE, benchmarks: ['sysbench', 'ibench'], ibench: IBENCH };
  assert.deepEqual(planSuite({ ...suite, only: ['qp500'] }).map((p) => p.name), SEQUENCE);
  const mixed = planSuite({ ...suite, only: ['point-query', 'l.x'] }).map((p) => p.name);
  assert.ok(mixed.includes('point-query') && mixed.includes('load') && !mixed.includes('update-index'));
  assert.deepEqual(mixed.slice(-SEQUENCE.length), SEQUENCE);
  assert.deepEqual(planSuite({ ...suite, only: ['point-query'] }).filter((p) => p.sequence), []);
  assert.throws(() => planSuite({ ...suite, only: ['qr200'] }), (err) => err instanceof UserError
    && /suites\.unit\.only\[0\] = 'qr200'/.test(err.message) && /valid names: .*point-query.*qp1000/.test(err.message));
});

test('bad benchmark names and a missing ibench block are clear errors naming the file', () => {
  assert.throws(() => suiteBenchmarks({ ...BASE, benchmarks: ['sysbench', 'tpcc'] }),
    /configs\/suites\/unit\.yml: benchmarks\[1\] = 'tpcc'; valid: sysbench, ibench/);
  assert.throws(() => planSuite({ ...BASE, benchmarks: ['ibench'] }), (err) => err instanceof UserError
    && /configs\/suites\/unit\.yml: 'benchmarks' names ibench but the suite has no 'ibench' block/.test(err.message));
  assert.equal(ibenchSettings({ ...BASE, ibench: IBENCH }).tablePerClient, true, 'tablePerClient defaults to true');
});

test('suite schema: ibench is required with benchmarks: [ibench], its keys are checked', () => {
  const yml = { ...BASE, benchmarks: ['ibench'] };
  assert.ok(validateAgainst('suite', yml).some((m) => /missing required field 'ibench'/.test(m)));
  assert.deepEqual(validateAgainst('suite', { ...yml, ibench: IBENCH }), []);
  assert.ok(validateAgainst('suite', { ...yml, ibench: { ...IBENCH, rows: 5 } }).some((m) => /unknown field 'rows'/.test(m)));
  // The schema checks the plug-in name form; which names exist, the registry (suiteBenchmarks).
  assert.deepEqual(validateAgainst('suite', { ...BASE, benchmarks: ['linkbench2'] }), []);
  assert.throws(() => suiteBenchmarks({ ...BASE, benchmarks: ['linkbench2'] }), (err) => err instanceof UserError
    && /configs\/suites\/unit\.yml: benchmarks\[0\] = 'linkbench2'; valid: sysbench, ibench, linkbench, ddl, reload, loops$/.test(err.message));
  assert.ok(validateAgainst('suite', { ...BASE, benchmarks: ['Link_Bench'] }).some((m) => /field 'benchmarks\.0' \(got "Link_Bench"\) must match pattern/.test(m)));
  assert.deepEqual(validateAgainst('suite', BASE), [], 'a sysbench suite needs none of it');
});

test('registry: ibench is a benchmark plug-in with the contract\'s members', async () => {
  const b = getBenchmark('ibench');
  assert.equal(b, BENCHMARKS.ibench);
  assert.equal(typeof b.planSteps, 'function');
  assert.equal(typeof b.runStep, 'function');
  // Which direction is better is said once, in compare/metrics.js, not by the plug-in.
  assert.ok(!('metrics' in b), 'ibench declares no metrics map of its own');
  const { METRICS } = await import('../../scripts/compare/index.js');
  assert.ok(METRICS.length > 0 && METRICS.every((m) => typeof m.higherIsBetter === 'boolean'));
  assert.throws(() => getBenchmark('ycsb'), /unknown benchmark 'ycsb'; known: sysbench, ibench/);
});

test('table layout: own tables count ids from 1; a shared table interleaves clients; deletes take the oldest', () => {
  const own = tableLayout(/** @type {any} */ ({ threads: 3, params: { tablePerClient: true } }));
  assert.equal(own.table(2), 'pi3');
  assert.deepEqual([0, 1, 2].map((k) => own.id(1, k)), [1, 2, 3]);
  assert.equal(own.kAtOrAfter(1, 11), 10);
  assert.equal(deleteSql(own, 0, 10, 5), 'DELETE FROM pi1 WHERE transactionid BETWEEN 11 AND 15');
  const shared = tableLayout(/** @type {any} */ ({ threads: 3, params: { tablePerClient: false } }));
  assert.equal(shared.table(2), 'pi1');
  assert.deepEqual([0, 1, 2].map((k) => shared.id(1, k)), [2, 5, 8]);
  // Client 1 resumes after id 7 (the table's max) at its own next id, 8.
  assert.equal(shared.id(1, shared.kAtOrAfter(1, 7 + 1)), 8);
  assert.equal(shared.id(2, shared.kAtOrAfter(2, 7 + 1)), 9);
  assert.equal(deleteSql(shared, 1, 0, 3), 'DELETE FROM pi1 WHERE transactionid IN (2,5,8)');
});

test('insertSql: one multi-row INSERT in PK order, values in range, repeatable for a seed', () => {
  const own = tableLayout(/** @type {any} */ ({ threads: 1, params: { tablePerClient: true } }));
  const sql = insertSql(own, 0, 100, 3, seededRandom(7), '2026-11-22 10:00:00');
  assert.equal(sql, insertSql(own, 0, 100, 3, seededRandom(7), '2026-11-22 10:00:00'));
  const m = /^INSERT INTO pi1 \(transactionid,dateandtime,cashregisterid,customerid,productid,price,data\) VALUES (.*)$/.exec(sql);
  assert.ok(m, sql);
  const rows = [...m[1].matchAll(/\((\d+),'([^']+)',(\d+),(\d+),(\d+),(\d+),'([a-z]+)'\)/g)];
  assert.deepEqual(rows.map((r) => Number(r[1])), [101, 102, 103]);
  for (const r of rows) {
    assert.equal(r[2], '2026-11-22 10:00:00');
    assert.ok(Number(r[3]) < 1000 && Number(r[4]) < 100000 && Number(r[5]) < 10000 && Number(r[6]) < 500);
    assert.ok(r[7].length >= 10 && r[7].length <= 20);
  }
});

test('rangeSql: a covering 10-row range on each secondary index in turn', () => {
  const rand = seededRandom(1);
  const all = [0, 1, 2].map((i) => rangeSql('pi2', i, rand));
  assert.match(all[0], /^SELECT productid, customerid, price FROM pi2 FORCE INDEX \(ix_product\) WHERE productid >= \d+ ORDER BY productid, customerid, price LIMIT 10$/);
  assert.match(all[1], /FORCE INDEX \(ix_register\) WHERE cashregisterid >= \d+ /);
  assert.match(all[2], /FORCE INDEX \(ix_price\) WHERE price >= \d+ ORDER BY price, dateandtime, customerid LIMIT 10$/);
});

test('a query step whose writers missed 95 % is a failed repeat that says so and keeps its figures; the pass goes on', async () => {
  const { measured } = await import('../../scripts/workload/ibench/steps.js');
  const { SecondBuckets, LatencyRecorder, keepUp } = await import('../../scripts/workload/ibench/ibench-stats.js');
  const step = /** @type {any} */ ({ name: 'qp500', metric: 'qps', params: { tablePerClient: true } });
  /** @param {number} inserted */
  const outcome = (inserted) => {
    const buckets = new SecondBuckets(0, 'query');
    const recorders = { insert: new LatencyRecorder(), delete: new LatencyRecorder(), query: new LatencyRecorder() };
    for (let t = 0; t < 2000; t += 10) { buckets.record('query', 1, t, 2); recorders.query.add(2); }
    for (let t = 0; t < 2000; t += 2000 / (inserted / 10)) { buckets.record('insert', 10, t, 1); recorders.insert.add(1); }
    return measured(step, {
      buckets, recorders, rows: { insert: inserted, delete: 0, query: 200 }, startMs: 0, endMs: 2000, primary: 'query',
      keep: keepUp(500, [inserted], 2), clients: 1, log: [],
    });
  };
  const ok = outcome(1000);
  assert.equal(ok.status, 'ok');
  assert.equal(ok.throughput, 100);
  assert.equal(ok.intervals.length, 2);
  const missed = outcome(900);
  assert.equal(missed.status, 'failed');
  assert.equal(missed.stateValid, true, 'the data is fine: later steps still run');
  assert.equal(missed.throughput, null, 'never a number for a failed repeat');
  assert.match(missed.reason ?? '', /background writers did not keep up: 450 of 500 inserts\/s \(90\.0 %, worst client 90\.0 %, below 95 %\)/);
  assert.equal(/** @type {any} */ (missed.details).ibench.keepUp.sustained, false);
  assert.equal(missed.intervals.length, 2, 'per-second figures kept');
  assert.match(missed.rawOutput, /DID NOT KEEP UP/);
});
