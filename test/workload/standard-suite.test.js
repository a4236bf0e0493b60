/**
 * The shipped standard suites: all three benchmarks of the seed posts in one suite, in order,
 * each at the size its own preset gives (the project's real configs/, loaded and validated).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite } from '../../scripts/workload/suite.js';
import { STEP_NAMES } from '../../scripts/workload/sysbench/index.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const root = new URL('../..', import.meta.url).pathname;
const config = await loadConfig(root);

test('standard-smoke runs sysbench, then the insert benchmark, then LinkBench, at their smoke sizes', () => {
  const suite = config.suites['standard-smoke'];
  const plans = planSuite(suite);
  const kinds = [...new Set(plans.map((p) => p.sequence ?? 'sysbench'))];
  assert.deepEqual(kinds, ['sysbench', 'ibench', 'linkbench']);
  assert.deepEqual(plans.filter((p) => !p.sequence).map((p) => p.name), [...STEP_NAMES]);
  // Same sizes as the single-benchmark smoke presets, so results line up with theirs.
  const smoke = config.suites.smoke;
  for (const key of /** @type {const} */ (['tables', 'tableSize', 'clients', 'readDurationS', 'writeDurationS', 'warmupS'])) {
    assert.equal(suite[key], smoke[key], `standard-smoke.${key} = smoke.${key}`);
  }
  const any = /** @type {any} */ (suite);
  assert.deepEqual(any.ibench, /** @type {any} */ (config.suites['insert-smoke']).ibench);
  assert.deepEqual(any.linkbench, /** @type {any} */ (config.suites['linkbench-smoke']).linkbench);
});

test('standard (runner sizes) plans the same three benchmarks in the same order', () => {
  const plans = planSuite(config.suites.standard);
  assert.deepEqual([...new Set(plans.map((p) => p.sequence ?? 'sysbench'))], ['sysbench', 'ibench', 'linkbench']);
  // A cycle preset: every sysbench test counted as well as timed (the instructions meter carries
  // the CPU cost), scans timed only at its size (test/run/estimate.test.js: it fits a leg).
  assert.deepEqual(config.suites.standard.meters, ['wall', 'instructions']);
  const sysbench = plans.filter((p) => !p.sequence && p.reported);
  assert.deepEqual(sysbench.filter((p) => !p.countedEvents).map((p) => p.name), ['scan']);
});

test('the demo suite: the three benchmarks in order, two sysbench tests per group, sysbench at its smoke size', () => {
  const suite = config.suites.demo;
  const plans = planSuite(suite);
  assert.deepEqual([...new Set(plans.map((p) => p.sequence ?? 'sysbench'))], ['sysbench', 'ibench', 'linkbench']);
  const measured = plans.filter((p) => !p.sequence && p.reported);
  /** @type {Record<string, number>} */
  const perGroup = {};
  for (const p of measured) perGroup[p.group] = (perGroup[p.group] ?? 0) + 1;
  assert.deepEqual(perGroup, { point: 2, range: 2, 'range-agg': 2, write: 2 });
  // l.i0 and linkbench.load in `only` keep their whole sequences.
  const steps = config.suites['standard-smoke'];
  for (const sequence of ['ibench', 'linkbench']) {
    assert.deepEqual(plans.filter((p) => p.sequence === sequence).map((p) => p.name), planSuite(steps).filter((p) => p.sequence === sequence).map((p) => p.name));
  }
  assert.equal(suite.tableSize, config.suites.smoke.tableSize);
});

test('the demo counts every judged step of all three benchmarks: the insert benchmark and LinkBench at small fixed sizes, not per LinkBench operation type', () => {
  const plans = planSuite(config.suites.demo);
  const judged = plans.filter((p) => p.measured && p.reported);
  assert.deepEqual(judged.filter((p) => !p.countedEvents).map((p) => `${p.name}: ${p.notCounted ?? 'no countedEvents'}`), []);
  assert.ok(judged.filter((p) => p.sequence === 'ibench').length >= 10 && judged.filter((p) => p.sequence === 'linkbench').length >= 3);
  // The counted sizes are sequences-counted's, whose seconds under valgrind that suite states.
  const suites = /** @type {Record<string, any>} */ (config.suites);
  assert.deepEqual(suites.demo.ibench.counted, suites['sequences-counted'].ibench.counted);
  assert.deepEqual(suites.demo.linkbench.counted, { maxid1: 2001, requests: 1000 });
  assert.ok(judged.every((p) => !p.countedParts), 'no phase of each operation type alone');
});

test('every shipped suite that runs sysbench has its load step, whatever its only list and other benchmarks', async () => {
  const { loadStep } = await import('../../scripts/workload/sysbench/index.js');
  for (const name of ['demo', 'standard-smoke', 'standard', 'smoke']) {
    const suite = config.suites[name];
    const load = loadStep(suite, 'innodb');
    assert.equal(load.kind, 'load', name);
    assert.equal(load.tableSize, suite.tableSize, `${name}: the load makes the suite's tables`);
    // The same step the run plans first (the demo's `only` names no load: it is kept anyway).
    assert.deepEqual(planSuite(suite).find((s) => s.kind === 'load'), load, name);
  }
});

test('the demo\'s insert-benchmark and LinkBench steps are sized to last the minimum duration a throughput verdict needs', () => {
  // Real demo runs at the earlier smoke sizes (test/fixtures/bench/record-shape/, two runs of
  // 10.11.18), where l.x, l.i1, l.i2 and linkbench.index ran under a second: each step's fastest
  // repeat, scaled by the rows the demo's step now has, must reach its group's minDurationS.
  const thresholds = parse(readFileSync(new URL('../../configs/thresholds.yml', import.meta.url), 'utf8'));
  const records = ['before', 'after'].map((w) => /** @type {import('../../scripts/types.js').RunRecord} */ (
    JSON.parse(readFileSync(new URL(`../fixtures/bench/record-shape/${w}-mariadb-10.11.18.json`, import.meta.url), 'utf8'))));
  const plans = planSuite(config.suites.demo);
  /** Rows a step works through, from its params (l.x indexes what l.i0 loaded). @param {Record<string, unknown>} params @param {string} name */
  const rowsOf = (params, name) => Number(name === 'l.x' ? plans.find((p) => p.name === 'l.i0')?.params.rowsPerClient : params.rowsPerClient ?? params.maxid1);
  const oldRows = (/** @type {import('../../scripts/types.js').RunRecord} */ r, /** @type {string} */ name) => {
    const step = r.steps.find((s) => s.name === (name === 'l.x' ? 'l.i0' : name));
    return Number(step?.params.rowsPerClient ?? step?.params.maxid1);
  };
  for (const name of ['l.i0', 'l.x', 'l.i1', 'l.i2', 'linkbench.index']) {
    const plan = plans.find((p) => p.name === name);
    assert.ok(plan, name);
    const minS = thresholds.groups[plan.group].minDurationS;
    assert.ok(minS > 0, `${name}: group ${plan.group} has a minimum duration`);
    const scaled = records.flatMap((r) => (r.steps.find((s) => s.name === name)?.repeats ?? [])
      .map((rep) => rep.durationS * (rowsOf(plan.params, name) / oldRows(r, name))));
    assert.ok(scaled.length > 0, name);
    assert.ok(Math.min(...scaled) >= minS, `${name}: its fastest repeat scales to ${Math.min(...scaled).toFixed(2)} s, under the ${minS} s a verdict needs`);
  }
  // LinkBench's request phase has the driver's own warm-up before its measured seconds.
  const request = plans.find((p) => p.name === 'linkbench.request.1');
  assert.ok(Number(request?.params.warmupS) > 0 && Number(request?.params.maxtimeS) >= 10);
});
