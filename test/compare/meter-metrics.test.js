// Meters' metrics as compare reads them: from the records' own facts (config.meterMetrics), on
// the road the figures take (counted repeats in step.meters, else the timed repeats'
// meters.<name>); and the built-in meters' rows kept for readers of older comparisons equal to
// what the meters state and what the store's migration gives records of version 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METRICS, OWN_METRICS, meterMetrics, BUILT_IN_COUNTED_METERS, isCountedVerdict } from '../../scripts/compare/metrics.js';
import { recordMeterMetrics, METERS } from '../../scripts/metrics/index.js';
import { runRecordV1ToV2 } from '../../scripts/store/migrations/001-run-record-v1-to-v2.js';
import { makeRecord } from './make-record.js';

test('the built-in meters\' rows in METRICS, the meters\' own facts and the migration\'s agree', () => {
  // The meters that had metrics before records carried their facts (schema 2): compare keeps
  // rows for them to read older comparisons. A meter added since (work) is read from the facts
  // its records carry, and has no row.
  const builtIn = ['instructions', 'counters'];
  assert.ok(builtIn.every((n) => METERS[n].metrics.length > 0));
  const facts = recordMeterMetrics(builtIn);
  for (const meter of builtIn) {
    const rows = METRICS.filter((m) => m.meter === meter);
    assert.deepEqual(rows.map((m) => [m.name, m.unit, m.higherIsBetter, m.scale]), facts[meter].map((f) => [f.name, f.unit, f.higherIsBetter, f.scale]), meter);
  }
  const migrated = runRecordV1ToV2.up({ schemaVersion: 1, config: { meters: ['wall', ...builtIn] }, steps: [] });
  assert.deepEqual(migrated.config.meterMetrics, facts, 'records of version 1 get the facts their meters state');
  assert.equal(OWN_METRICS.some((m) => m.meter !== undefined), false);
  assert.deepEqual([...BUILT_IN_COUNTED_METERS], builtIn.filter((n) => METERS[n].kind === 'counted'), 'the counted built-in meters are those whose kind is counted');
});

test('isCountedVerdict: a verdict\'s own mark first, else the built-in meters\' kind of its metric', () => {
  assert.equal(isCountedVerdict({ metric: 'instructionsPerOp' }), true, 'a comparison stored before verdicts carried the mark');
  assert.equal(isCountedVerdict({ metric: 'cyclesPerOp' }), false, 'counters: a timed meter');
  assert.equal(isCountedVerdict({ metric: 'throughput' }), false);
  assert.equal(isCountedVerdict({ metric: 'tallyPerOp', counted: true }), true, 'a meter compare has no row for');
  assert.equal(isCountedVerdict({ metric: 'instructionsPerOp', counted: false }), false);
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
