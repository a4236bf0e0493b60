// Meters' metrics as compare reads them: from the records' own facts (config.meterMetrics), on
// the road the figures take (counted repeats in step.meters, else the timed repeats'
// meters.<name>); compare's own list names no meter; comparisons stored before verdicts named
// their meter get it from the store's reader, by version 1's frozen facts, which equal what the
// meters state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METRICS, OWN_METRICS, meterMetrics, isCountedVerdict } from '../../scripts/compare/metrics.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { recordMeterMetrics, METERS } from '../../scripts/metrics/index.js';
import { runRecordV1ToV2 } from '../../scripts/store/migrations/001-run-record-v1-to-v2.js';
import { markVerdictMeters } from '../../scripts/store/migrations/verdict-meters.js';
import { makeRecord } from './make-record.js';

test('compare\'s metric list is the timed repeat\'s own figures only; the migration\'s frozen facts equal the meters\' own', () => {
  assert.equal(METRICS.some((m) => m.meter !== undefined), false, 'no meter\'s metric is written in compare');
  assert.equal(OWN_METRICS, METRICS);
  // The meters records of version 1 could name (a meter added since, like work, came with schema 2).
  const builtIn = ['instructions', 'counters'];
  const migrated = runRecordV1ToV2.up({ schemaVersion: 1, config: { meters: ['wall', ...builtIn] }, steps: [] });
  assert.deepEqual(migrated.config.meterMetrics, recordMeterMetrics(builtIn), 'records of version 1 get the facts their meters state');
});

test('isCountedVerdict: the verdict\'s own mark only', () => {
  assert.equal(isCountedVerdict({ metric: 'tallyPerOp', counted: true }), true);
  assert.equal(isCountedVerdict({ metric: 'instructionsPerOp', counted: false }), false);
  assert.equal(isCountedVerdict({ metric: 'throughput' }), false);
});

test('the store\'s reader marks verdicts of comparisons stored before they named their meter, by version 1\'s meters; newer and own-figure verdicts stay', () => {
  const stored = {
    tests: [
      { metric: 'throughput' },
      { metric: 'instructionsPerOp' },
      { metric: 'cyclesPerOp', unit: 'cycles/op' },
      { metric: 'processInstructionsPerOp', counted: true },
      { metric: 'tallyPerOp', meter: 'tally', counted: true },
    ],
  };
  const copy = structuredClone(stored);
  const marked = markVerdictMeters(stored);
  assert.deepEqual(marked.tests, [
    { metric: 'throughput' },
    { metric: 'instructionsPerOp', unit: 'instructions/op', meter: 'instructions', label: 'instructions per op in the query path', counted: true },
    { metric: 'cyclesPerOp', unit: 'cycles/op', meter: 'counters', label: 'cycles per op' },
    { metric: 'processInstructionsPerOp', counted: true, unit: 'instructions/op', meter: 'instructions', label: 'instructions per op of the server process' },
    { metric: 'tallyPerOp', meter: 'tally', counted: true },
  ]);
  assert.deepEqual(stored, copy, 'the parsed file is not edited');
  assert.equal(markVerdictMeters(marked), marked, 'nothing left to mark: the same object');
  const builtIn = Object.keys(METERS).filter((n) => METERS[n].metrics.length > 0);
  for (const v of marked.tests) {
    if (v.meter === undefined || v.meter === 'tally') continue;
    assert.ok(builtIn.includes(v.meter), `${v.metric}: a built-in meter's`);
    assert.equal(v.counted === true, METERS[v.meter].kind === 'counted', `${v.metric}: counted as its meter's kind says`);
  }
});

test('compareRuns stamps a meter\'s verdicts with its meter, and counted where its figures are counted repeats', () => {
  const make = (/** @type {string} */ id, /** @type {string} */ version, /** @type {number} */ ticks) => {
    const r = makeRecord({ id, version, steps: [{ name: 't', throughput: [100, 101, 99] }] });
    r.config.meters = ['wall', 'ticks'];
    r.config.meterMetrics = { ticks: [{ name: 'ticksPerOp', figure: 'perOp.ticks', unit: 'ticks/op', higherIsBetter: false, scale: 'log', label: 'ticks' }] };
    r.steps[0].repeats.forEach((rep, i) => { rep.meters = { ticks: { perOp: { ticks: ticks + i * 0.01 } } }; });
    return r;
  };
  const thresholds = resolveThresholds(/** @type {any} */ ({ groups: { point: { warn: 0.05, issue: 0.1 } }, metrics: { ticksPerOp: { warn: 0.05, issue: 0.1 } } }));
  const c = compareRuns({ base: { version: '1', records: [make('a', '1', 5)] }, candidate: { version: '2', records: [make('b', '2', 6)] }, thresholds, createdAt: '2026-01-01T00:00:00Z' });
  const ticks = c.tests.find((t) => t.metric === 'ticksPerOp');
  assert.equal(ticks?.meter, 'ticks');
  assert.equal(ticks?.label, 'ticks', 'the label the record\'s facts give');
  assert.equal(ticks?.counted, undefined, 'a timed meter\'s verdict is not counted');
  const own = c.tests.find((t) => t.metric === 'throughput');
  assert.ok(own && own.meter === undefined, 'the timed repeat\'s own figures name no meter');
});

test('meterMetrics: facts from the records, counted meters told by where their figures are, values read along the figure path', () => {
  const r = makeRecord({ id: 'a', version: '1', steps: [{ name: 't', throughput: [100, 110] }] });
  r.config.meters = ['wall', 'ticks', 'tally'];
  r.config.meterMetrics = {
    ticks: [{ name: 'ticksPerOp', figure: 'perOp.ticks', unit: 'ticks/op', higherIsBetter: false, scale: 'log', label: 'ticks' }],
    tally: [{ name: 'tallyPerOp', figure: 'perOp', unit: 'n/op', higherIsBetter: true, scale: 'linear', label: 'tally' }],
  };
  r.steps[0].repeats.forEach((rep, i) => { rep.meters = { ticks: { perOp: { ticks: 5 + i } } }; });
  r.steps[0].meters = { tally: { status: 'ok', repeats: [/** @type {any} */ ({ index: 0, instance: 0, startedAt: '', meter: 'tally', events: 1, seed: 1, durationS: 1, status: 'ok', tally: { perOp: 7 } })] } };
  const got = meterMetrics([r]);
  assert.deepEqual(got.map((m) => [m.meter, m.counted, m.metrics.map((d) => [d.name, d.higherIsBetter, d.scale])]), [
    ['tally', true, [['tallyPerOp', true, 'linear']]],
    ['ticks', false, [['ticksPerOp', false, 'log']]],
  ], 'counting meters first, then the timed ones');
  const ticks = got[1].metrics[0];
  assert.deepEqual(r.steps[0].repeats.map((rep) => ticks.value(rep, null)), [5, 6]);
  assert.equal(got[0].metrics[0].value(/** @type {any} */ (r.steps[0].meters.tally.repeats[0]), null), 7);
  assert.equal(ticks.value(/** @type {any} */ ({ meters: { ticks: { perOp: { ticks: 0 } } } }), null), null, 'not positive: not measured');
  assert.deepEqual(meterMetrics([makeRecord({ id: 'b', version: '1', steps: [{ name: 't', throughput: [1] }] })]), [], 'a wall-only record has no meter metrics');
});
