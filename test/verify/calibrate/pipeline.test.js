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
import { METERS } from '../../../scripts/run/index.js';

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
