/**
 * The calibration pipeline picks its strategy by the meter's kind, so a new meter of either kind
 * is calibrated with no file of verify/ changed; a meter may bring its own strategy. The meters
 * here are made up for the test and never registered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickStrategy, calibrateHost } from '../../../scripts/verify/calibrate/pipeline.js';
import { timedStrategy } from '../../../scripts/verify/calibrate/timed.js';
import { countedStrategy } from '../../../scripts/verify/calibrate/counted.js';
import { METERS, getMeter } from '../../../scripts/run/index.js';

test('a made-up timed meter gets the timed strategy, a made-up counted one the counted strategy', () => {
  const energy = { name: 'energy', kind: 'timed' };
  const cycles = { name: 'cycles', kind: 'counted' };
  assert.equal(pickStrategy(energy), timedStrategy);
  assert.equal(pickStrategy(cycles), countedStrategy);
  assert.equal(pickStrategy(energy).kind, 'timed');
  assert.equal(pickStrategy(cycles).kind, 'counted');
});

test('every registered meter has a strategy of its kind', () => {
  for (const meter of Object.values(METERS)) assert.equal(pickStrategy(meter).kind, meter.kind, meter.name);
});

test('a meter that brings its own calibration is calibrated by it, whatever its kind', () => {
  const own = { ...timedStrategy, kind: /** @type {const} */ ('counted') };
  assert.equal(pickStrategy({ name: 'sundial', kind: 'counted', calibration: own }), own);
});

test('the counted strategy reads what the meter says of its calibration, and refuses a counted meter that says nothing or names a metric it lacks', () => {
  const instructions = getMeter('instructions');
  /** @type {any} */
  const common = {
    meter: instructions, config: { suites: { smoke: { engine: 'innodb' } }, mycnf: {}, products: {} }, thresholds: { metrics: {} }, host: {},
    product: 'mariadb', version: '10.11.18', hostClass: 'local', suite: 'smoke', tests: ['point-query'],
  };
  const plan = countedStrategy.plan({ sizes: '0.01' }, common);
  // Figures where the meter's metrics list says they are, never named in verify/.
  const [queryPath, process] = instructions.metrics;
  assert.deepEqual(plan.judged, { queryPath: { metric: queryPath.name, figure: queryPath.figure }, process: { metric: process.name, figure: process.figure }, unit: 'instructions' });
  assert.equal(plan.sizeTest, 'point-query');
  assert.deepEqual(Object.keys(plan.settings.thresholds), [queryPath.name, process.name], 'the report\'s thresholds keyed by the judged metrics, the query path first');
  const ticks = {
    name: 'ticks', kind: 'counted',
    metrics: [{ name: 'ticksPerOp', figure: 'count.ticks', unit: 'ticks/op' }, { name: 'allTicksPerOp', figure: 'count.all', unit: 'ticks/op' }],
  };
  assert.throws(() => countedStrategy.plan({}, { ...common, meter: ticks }), /--meter ticks: a counted meter is calibrated by an injected count only when it says so \(calibration: \{injects: 'preload-count', sizeTest, judged\} in scripts\/metrics\/meters\/ticks\.js\); ticks says nothing/);
  const says = { ...ticks, calibration: { injects: 'preload-count', sizeTest: 'point-select', judged: { queryPath: 'ticksPerOp', process: 'cpuTicksPerOp' } } };
  assert.throws(() => countedStrategy.plan({}, { ...common, meter: says }), /ticks\.js: calibration\.judged\.process "cpuTicksPerOp" is not one of the meter's metrics \(ticksPerOp, allTicksPerOp\)/);
  const described = { ...says, calibration: { ...says.calibration, judged: { queryPath: 'ticksPerOp', process: 'allTicksPerOp' } } };
  const right = countedStrategy.plan({ sizes: '0.02' }, { ...common, meter: described });
  assert.deepEqual(right.judged.process, { metric: 'allTicksPerOp', figure: 'count.all' });
  assert.equal(right.format, 'tagbench-calibration-ticks/1');
  assert.throws(() => countedStrategy.plan({ sizes: '3' }, { ...common, meter: described }), /--sizes: 3: give shares of point-select's ticks per query between 0 and 0\.5/);
});

test('a kind no strategy calibrates is a bug, named with the meter and the known kinds', () => {
  assert.throws(() => pickStrategy({ name: 'sundial', kind: 'guessed' }), /meter sundial: no calibration strategy for kind 'guessed'; known: timed, counted/);
  // With strategies of the test's own, the pick is by kind alone.
  const fake = { timed: { ...timedStrategy }, counted: { ...countedStrategy } };
  assert.equal(pickStrategy({ name: 'energy', kind: 'timed' }, fake), fake.timed);
  assert.equal(pickStrategy({ name: 'cycles', kind: 'counted' }, fake), fake.counted);
});

test('--meter takes any registered meter and refuses others, listing the registry', async () => {
  await assert.rejects(calibrateHost({ meter: 'sundial', product: 'mariadb', version: '10.11.18' }), new RegExp(`--meter sundial: calibrate knows ${Object.keys(METERS).join(', ')}$`));
});
