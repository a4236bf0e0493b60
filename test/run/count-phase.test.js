/**
 * What the counted phase counts (planCounting, pure): sysbench tests and their warm-ups as before,
 * sequences whole and in order when their steps can do fixed work, and a reason for every
 * measured step that cannot be counted. The phase itself on real servers:
 * test/run/instructions-meter.test.js (sysbench) and test/run/sequence-count.test.js (sequences).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planCounting } from '../../scripts/run/count-phase.js';
import { planSuite } from '../../scripts/workload/index.js';

/** @type {any} */
const BASE = { name: 'unit', description: '', tables: 1, tableSize: 1000, clients: 1, readDurationS: 3, writeDurationS: 3, warmupS: 1, scanWarmDurationS: 3, restS: 0 };
const IBENCH = { loadRows: 20000, l1Rows: 5000, l2Rows: 1000, queryDurationS: 5 };
const LINKBENCH = { maxid1: 10001, loaders: 2, requesters: 2, maxtimeS: 10 };

test('sequences with counted sizes are counted whole, their setup steps kept in order between the counted ones', () => {
  const steps = planSuite({
    ...BASE, benchmarks: ['sysbench', 'ibench', 'linkbench'], only: ['point-query', 'l.i0', 'linkbench.load'],
    ibench: { ...IBENCH, counted: { loadRows: 1000, l1Rows: 100, l2Rows: 20, queries: 100 } },
    linkbench: { ...LINKBENCH, counted: { maxid1: 501, requests: 200 } },
  });
  const plan = planCounting(steps);
  assert.deepEqual(plan.tests.map((t) => t.step.name), ['point-query'], 'the sysbench test as before');
  assert.deepEqual(plan.sequences.map((seq) => seq.map((x) => x.step.name)), [
    ['l.i0', 'l.x', 'l.i1', 'l.i2', 'ibench.cleanup', 'qr100', 'qp100', 'qr500', 'qp500', 'qr1000', 'qp1000'],
    ['linkbench.load', 'linkbench.index', 'linkbench.request.1'],
  ]);
  for (const seq of plan.sequences) for (const { step, index } of seq) assert.equal(steps[index], step, 'indexes point at the record\'s steps');
  assert.deepEqual(plan.notCounted, []);
});

test('a sequence without counted sizes is not counted, and each of its measured steps says why', () => {
  const steps = planSuite({
    ...BASE, benchmarks: ['ibench', 'linkbench'],
    ibench: IBENCH, linkbench: { ...LINKBENCH, counted: { maxid1: 501, requests: 200 } },
  });
  const plan = planCounting(steps);
  assert.deepEqual(plan.sequences.map((seq) => seq[0].step.name), ['linkbench.load'], 'only LinkBench is counted');
  const ibenchMeasured = steps.filter((s) => s.benchmark === 'ibench' && s.reported).map((s) => s.name);
  assert.deepEqual(plan.notCounted.map((n) => steps[n.index].name), ibenchMeasured, 'the cleanup (a setup step) gets no slot');
  for (const n of plan.notCounted) assert.match(n.reason, /^not counted: configs\/suites\/unit\.yml sets no ibench\.counted sizes/);
});

test('a plug-in with no counted mode at all: the reason names it', () => {
  // A hand-made sequence step stands for any plug-in that plans no countedEvents (ddl, reload, loops).
  /** @type {any} */
  const step = { name: 'ddl.add-index', benchmark: 'ddl', sequence: 'ddl', measured: true, reported: true };
  const plan = planCounting([step]);
  assert.deepEqual(plan.sequences, []);
  assert.deepEqual(plan.notCounted, [{ index: 0, reason: 'not counted: the ddl benchmark runs no fixed amount of work (its steps plan no countedEvents)' }]);
});
