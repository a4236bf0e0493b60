/** planSuite: the standard suite's order, options, durations and the `only` filter. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { planSuite } from '../../scripts/workload/suite.js';
import { STEP_NAMES } from '../../scripts/workload/sysbench/index.js';
import { OWN_LUA_DIR } from '../../scripts/workload/sysbench/index.js';
import { UserError } from '../../scripts/errors.js';

/** @type {import('../../scripts/types.js').SuiteConfig} */
const SUITE = {
  name: 'unit', description: 'unit', tables: 2, tableSize: 1000, clients: 3,
  readDurationS: 7, writeDurationS: 11, warmupS: 2, scanWarmDurationS: 5, restS: 4,
};

// DESIGN.md "The standard suite", tests 0-37 in order (with load and the two postwrite steps).
const EXPECTED_ORDER = [
  'load', 'point-query.warm', 'postwrite.after-load', 'scan.warmpre', 'point-query.pre',
  'range-notcovered-si.pre', 'update-inlist', 'update-index', 'update-nonindex', 'update-one',
  'update-zipf', 'write-only', 'read-write.range10', 'read-write.range100',
  'postwrite.after-read-write', 'scan.warm', 'scan', 'read-only.range10', 'read-only.range100',
  'read-only.range10000', 'read-only-simple', 'read-only-sum', 'read-only-order',
  'read-only-distinct', 'read-only-count', 'point-query', 'random-points.range10',
  'random-points.range100', 'random-points.range1000', 'hot-points', 'points-covered-pk',
  'points-notcovered-pk', 'range-covered-pk', 'range-notcovered-pk', 'points-covered-si.warm',
  'points-covered-si', 'points-notcovered-si', 'range-covered-si', 'range-notcovered-si',
  'delete', 'insert',
];

test('planSuite: every test of the standard suite, in DESIGN order', () => {
  const plan = planSuite(SUITE);
  assert.deepEqual(plan.map((s) => s.name), EXPECTED_ORDER);
  assert.deepEqual([...STEP_NAMES], EXPECTED_ORDER);
  assert.equal(plan.filter((s) => s.kind === 'sysbench').length, 38);
});

test('planSuite: groups, reporting and metrics', () => {
  const plan = planSuite(SUITE);
  const by = Object.fromEntries(plan.map((s) => [s.name, s]));
  const reported = plan.filter((s) => s.reported).map((s) => s.name);
  for (const s of plan) {
    assert.equal(s.reported, s.group !== 'setup', s.name);
    assert.equal(s.runOnce, !s.reported, s.name);
  }
  assert.equal(reported.length, 34, 'the 38 tests minus 4 warm-ups');
  for (const n of ['point-query.warm', 'scan.warmpre', 'scan.warm', 'points-covered-si.warm']) assert.equal(by[n].reported, false, n);
  assert.deepEqual(reported.filter((n) => by[n].group === 'point'),
    ['point-query.pre', 'point-query', 'random-points.range10', 'random-points.range100', 'random-points.range1000', 'hot-points',
      'points-covered-pk', 'points-notcovered-pk', 'points-covered-si', 'points-notcovered-si']);
  assert.deepEqual(reported.filter((n) => by[n].group === 'range'),
    ['range-notcovered-si.pre', 'scan', 'range-covered-pk', 'range-notcovered-pk', 'range-covered-si', 'range-notcovered-si']);
  assert.equal(reported.filter((n) => by[n].group === 'range-agg').length, 8);
  assert.deepEqual(reported.filter((n) => by[n].group === 'write'),
    ['update-inlist', 'update-index', 'update-nonindex', 'update-one', 'update-zipf', 'write-only', 'read-write.range10', 'read-write.range100', 'delete', 'insert']);
  for (const s of plan) {
    const isScan = s.name.startsWith('scan');
    assert.equal(s.metric, isScan ? 'rows/s' : 'qps', s.name);
    assert.equal(s.rowsPerEvent, isScan ? SUITE.tableSize : 0, s.name);
  }
});

test('planSuite: durations R/W, warm-up, scale and options', () => {
  const plan = planSuite(SUITE, { engine: 'rocksdb' });
  const by = Object.fromEntries(plan.map((s) => [s.name, s]));
  for (const n of ['update-inlist', 'update-index', 'update-nonindex', 'update-one', 'update-zipf', 'delete', 'insert']) {
    assert.equal(by[n].durationS, SUITE.writeDurationS, n);
  }
  for (const n of ['write-only', 'read-write.range10', 'point-query', 'scan', 'read-only-count']) assert.equal(by[n].durationS, SUITE.readDurationS, n);
  assert.equal(by['scan.warmpre'].durationS, SUITE.scanWarmDurationS);
  assert.equal(by.load.durationS, 0);
  assert.equal(by['postwrite.after-load'].restS, SUITE.restS);
  assert.equal(by['point-query.warm'].postwriteAfter, true);
  assert.equal(by['read-write.range100'].postwriteAfter, true);
  assert.equal(plan.filter((s) => s.postwriteAfter).length, 2);
  for (const s of plan.filter((x) => x.kind === 'sysbench')) {
    assert.equal(s.params['rand-type'], 'uniform', s.name);
    assert.equal(s.warmupS, SUITE.warmupS);
    assert.equal(s.threads, SUITE.clients);
    assert.equal(s.tables, SUITE.tables);
    assert.equal(s.engine, 'rocksdb');
  }
  assert.equal(by['update-one'].params['table-size'], 1);
  assert.equal(by['point-query'].params['skip-trx'], true);
  assert.equal(by['write-only'].params['range-size'], 10000);
  assert.equal(by['read-only.range10000'].params['range-size'], 10000);
  assert.equal(by['random-points.range1000'].params['random-points'], 1000);
  assert.equal(by['hot-points'].params['hot-points'], true);
  assert.equal(by['update-inlist'].params['random-points'], 10);
  assert.equal(by['read-only-sum'].params['sum-ranges'], 1);
  assert.equal(by['read-only-sum'].params['simple-ranges'], 0);
  assert.equal(by['read-only-sum'].params['point-selects'], 0);
});

test('planSuite: every script exists (own Lua here, stock in /usr/share/sysbench)', async () => {
  for (const s of planSuite(SUITE).filter((x) => x.script)) {
    const path = s.scriptSource === 'own' ? join(OWN_LUA_DIR, String(s.script)) : `/usr/share/sysbench/${s.script}.lua`;
    await access(path).catch(() => assert.fail(`${s.name}: missing ${path}`));
  }
});

test('planSuite: only keeps the named tests plus load, their warm-ups and needed postwrites', () => {
  assert.deepEqual(planSuite({ ...SUITE, only: ['scan'] }).map((s) => s.name),
    ['load', 'point-query.warm', 'postwrite.after-load', 'scan.warmpre', 'scan.warm', 'scan']);
  assert.deepEqual(planSuite({ ...SUITE, only: ['update-index', 'point-query'] }).map((s) => s.name),
    ['load', 'point-query.warm', 'postwrite.after-load', 'scan.warmpre', 'update-index', 'postwrite.after-read-write', 'point-query']);
  // A write test last needs no postwrite after it.
  assert.deepEqual(planSuite({ ...SUITE, only: ['insert'] }).map((s) => s.name),
    ['load', 'point-query.warm', 'postwrite.after-load', 'scan.warmpre', 'insert']);
  assert.deepEqual(planSuite({ ...SUITE, only: ['points-covered-si'] }).map((s) => s.name).slice(-2),
    ['points-covered-si.warm', 'points-covered-si']);
});

test('planSuite: unknown names in only and unknown engines are user errors', () => {
  assert.throws(() => planSuite({ ...SUITE, only: ['scan', 'pointquery'] }), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /suites\.unit\.only\[1\] = 'pointquery'/);
    assert.match(err.message, /valid names: load, point-query\.warm/);
    return true;
  });
  // @ts-expect-error an engine outside the typedef, as a config could give
  assert.throws(() => planSuite(SUITE, { engine: 'myisam' }), UserError);
});
