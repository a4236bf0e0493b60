/**
 * The pure parts of bench/instance-noise.js: the split of ln(throughput) variance into repeat and
 * instance parts, the grouping of a record's repeats by instance, and the options. The
 * measurement itself needs a server and a quiet CPU and is not run here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitInstanceNoise, throughputsByInstance, parseOptions, renderReport } from '../../bench/instance-noise.js';
import { seededUniform } from '../../scripts/seeded-random.js';
import { UserError } from '../../scripts/errors.js';

test('splitInstanceNoise matches a hand computation on a small balanced design', () => {
  // ln values: instance 1 {0, 0.2}, instance 2 {1, 1.2}: within MS = (0.02+0.02)/2 = 0.02,
  // between MS = 2 * ((0.1-0.6)^2 + (1.1-0.6)^2) / 1 = 1, between variance = (1 - 0.02)/2 = 0.49.
  const s = splitInstanceNoise([[1, Math.exp(0.2)], [Math.exp(1), Math.exp(1.2)]]);
  assert.equal(s.instances, 2);
  assert.equal(s.repeats, 4);
  assert.equal(s.dfWithin, 2);
  assert.equal(s.dfBetween, 1);
  assert.ok(Math.abs(s.sdWithin - Math.sqrt(0.02)) < 1e-12);
  assert.ok(Math.abs(s.sdBetween - 0.7) < 1e-12);
  assert.ok(Math.abs(s.f - 50) < 1e-9);
  assert.ok(Math.abs(s.shareBetween - 0.49 / 0.51) < 1e-12);
  // instance medians 0.1 and 1.1: sd sqrt(0.5)
  assert.ok(Math.abs(s.sdInstanceMedians - Math.sqrt(0.5)) < 1e-12);
  assert.ok(s.sdWithinCi[0] < s.sdWithin && s.sdWithin < s.sdWithinCi[1]);
  assert.ok(s.p > 0 && s.p < 0.05, `F = 50 on (1, 2) df has p about 0.019, got ${s.p}`);
  // one repeat on a fresh instance: within² + between² = 0.02 + 0.49
  assert.ok(Math.abs(s.sdOneRepeat - Math.sqrt(0.51)) < 1e-12);
});

test('splitInstanceNoise weighs an unbalanced design by its effective repeats per instance (n0)', () => {
  // ln values {0, 0.2} and {1, 1.2, 1.1}: within MS = (0.02 + 0.02) / 3, between MS = 1.2,
  // n0 = (5 - 13/5) / 1 = 2.4, between variance = (1.2 - 0.04/3) / 2.4 = 0.49444...
  const s = splitInstanceNoise([[1, Math.exp(0.2)], [Math.exp(1), Math.exp(1.2), Math.exp(1.1)]]);
  assert.equal(s.repeats, 5);
  assert.equal(s.dfWithin, 3);
  assert.ok(Math.abs(s.sdWithin - Math.sqrt(0.04 / 3)) < 1e-12);
  assert.ok(Math.abs(s.sdBetween ** 2 - (1.2 - 0.04 / 3) / 2.4) < 1e-12, String(s.sdBetween));
  // medians 0.1 and 1.1, whatever the group sizes
  assert.ok(Math.abs(s.sdInstanceMedians - Math.sqrt(0.5)) < 1e-12);
  assert.ok(s.sdInstanceMediansCi[0] < s.sdInstanceMedians && s.sdInstanceMedians < s.sdInstanceMediansCi[1]);
});

/**
 * @param {number} k instances @param {number} r repeats @param {number} between sd @param {number} within sd
 * @param {() => number} random
 */
function simulate(k, r, between, within, random) {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: k }, () => {
    const offset = between * normal();
    return Array.from({ length: r }, () => 10_000 * Math.exp(offset + within * normal()));
  });
}

test('splitInstanceNoise tells a design with an instance offset from one without', () => {
  const random = seededUniform(7);
  const withOffset = splitInstanceNoise(simulate(8, 4, 0.15, 0.03, random));
  assert.ok(withOffset.p < 0.001, `a 15 % offset against 3 % repeat noise is found: p ${withOffset.p}`);
  assert.ok(withOffset.shareBetween > 0.8, `share ${withOffset.shareBetween}`);
  assert.ok(withOffset.sdBetween > 0.07 && withOffset.sdBetween < 0.3, `sdBetween ${withOffset.sdBetween}`);
  // Without an offset, the F test is uniform: over 200 designs about 5 % fall below 0.05.
  let small = 0;
  for (let i = 0; i < 200; i++) if (splitInstanceNoise(simulate(6, 3, 0, 0.05, random)).p < 0.05) small++;
  assert.ok(small >= 2 && small <= 22, `${small} of 200 no-offset designs had p < 0.05 (expected about 10)`);
});

test('splitInstanceNoise refuses designs that cannot split the variance and values that are not rates', () => {
  assert.throws(() => splitInstanceNoise([[1, 2]]), /at least 2 instances/);
  assert.throws(() => splitInstanceNoise([[1], [2]]), /2 or more repeats/);
  assert.throws(() => splitInstanceNoise([[1, 2], []]), /instance 2 has no repeat/);
  assert.throws(() => splitInstanceNoise([[1, 2], [0, 3]]), /instance 2: throughput must be a positive number, got 0/);
});

test('throughputsByInstance groups a step\'s repeats by instance and names what is wrong', () => {
  const repeat = (/** @type {number} */ index, /** @type {number} */ instance, /** @type {number|null} */ throughput) => ({ index, instance, status: throughput === null ? 'failed' : 'ok', throughput });
  const record = /** @type {any} */ ({ id: 'r1', steps: [{ name: 'point-query', repeats: [repeat(0, 0, 10), repeat(1, 0, 11), repeat(2, 1, 20), repeat(3, 1, 21)] }] });
  assert.deepEqual(throughputsByInstance(record, 'point-query'), [[10, 11], [20, 21]]);
  assert.throws(() => throughputsByInstance(record, 'insert'), (err) => err instanceof UserError && /no step 'insert'; steps: point-query/.test(err.message));
  record.steps[0].repeats[3] = repeat(3, 1, null);
  assert.throws(() => throughputsByInstance(record, 'point-query'), /repeat 3 failed/);
  record.steps[0].repeats[3] = { index: 3, status: 'ok', throughput: 5 };
  assert.throws(() => throughputsByInstance(record, 'point-query'), /names no instance/);
});

test('parseOptions checks every number and names the option', () => {
  assert.deepEqual(parseOptions([]).durations, [3, 15]);
  assert.equal(parseOptions(['--instances', '4']).instances, 4);
  assert.throws(() => parseOptions(['--durations', '3,x']), (err) => err instanceof UserError && /--durations: '3,x'/.test(err.message));
  assert.throws(() => parseOptions(['--instances', '1']), /--instances: '1'.*one instance/);
  assert.throws(() => parseOptions(['--repeats', '1']), /--repeats: '1'/);
  assert.throws(() => parseOptions(['--tests', ',']), /--tests/);
});

test('renderReport prints one row per duration and test with the split and its intervals', () => {
  const split = splitInstanceNoise([[100, 110], [200, 210]]);
  const text = renderReport([{ durationS: 15, test: 'point-query', split, median: 155, record: 'rec-1', load: [0.5, 1.25] }], { version: '10.11.18', host: 'local', cpu: 'cpu', kernel: 'k', pinning: 'server 1 / client 1', started: 't' });
  const row = text.split('\n').find((l) => l.startsWith('| 15 |'));
  assert.ok(row, text);
  assert.match(row, /\| point-query \| 155 \| 2, 4 \|/);
  assert.match(row, /0\.50–1\.25 \| rec-1 \|$/);
});
