/**
 * Verdicts paired by round: when both releases ran side by side (one run: the same stamp and tag
 * in their record ids) and every instance has its partner, each round's difference is what is
 * judged (paired t). Expected numbers come from closed forms, not from the code under test: for
 * 2 df the t distribution's cdf is 1/2 + t / (2 √(2 + t²)), and t[0.95, 2] = 2.919986.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, estimateNoiseHistory } from '../../scripts/compare/index.js';
import { computePairedShift, pairByRound } from '../../scripts/compare/paired-shift.js';
import { runGroupKey, formatRecordId } from '../../scripts/run-id.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 } } });

/** cdf of Student's t with 2 df (closed form) */
const t2cdf = (/** @type {number} */ t) => 0.5 + t / (2 * Math.sqrt(2 + t * t));

test('paired shift: mean, interval and one-sided p-values of the rounds\' log-ratios (closed forms for 2 df)', () => {
  // ln ratios -0.10, -0.12, -0.08: mean -0.10, sd 0.02
  const pairs = /** @type {[number, number][]} */ ([[1000, 1000 * Math.exp(-0.10)], [2000, 2000 * Math.exp(-0.12)], [500, 500 * Math.exp(-0.08)]]);
  const s = computePairedShift(pairs, 0.9, 'ratio');
  assert.ok(s);
  assert.equal(s.rounds, 3);
  assert.ok(Math.abs(s.meanDiff + 0.10) < 1e-12);
  assert.ok(Math.abs(s.sdDiff - 0.02) < 1e-12);
  const se = 0.02 / Math.sqrt(3);
  assert.ok(Math.abs(s.estimate - Math.exp(-0.10)) < 1e-12);
  assert.ok(Math.abs(s.lo - Math.exp(-0.10 - 2.919986 * se)) < 1e-6);
  assert.ok(Math.abs(s.hi - Math.exp(-0.10 + 2.919986 * se)) < 1e-6);
  assert.equal(s.coverage, 0.9);
  assert.ok(Math.abs(s.pLess - t2cdf(-0.10 / se)) < 1e-9, `${s.pLess} vs ${t2cdf(-0.10 / se)}`);
  assert.ok(Math.abs(s.pLess + s.pGreater - 1) < 1e-12);
  // A difference scale works on the values themselves.
  const d = computePairedShift([[10, 9], [20, 19], [30, 29.5]], 0.9, 'difference');
  assert.ok(d && Math.abs(d.estimate + (1 + 1 + 0.5) / 3) < 1e-12);
  // One round is no comparison; bad input is refused.
  assert.equal(computePairedShift([[1, 2]], 0.9, 'ratio'), null);
  assert.throws(() => computePairedShift([[1, 2], [0, 1]], 0.9, 'ratio'), /positive values, got 0 and 1/);
  assert.throws(() => computePairedShift([[1, 2], [1, 1]], 1, 'ratio'), /confidence must be in \(0, 1\)/);
  // Every round moved by exactly the same amount: no spread, the sign decides.
  const same = computePairedShift([[10, 9], [20, 19]], 0.9, 'difference');
  assert.equal(same?.sdDiff, 0);
  assert.equal(same?.pLess, 0);
  assert.equal(same?.pGreater, 1);
});

test('pairing is all or nothing: every instance needs its partner in the same round of the same run', () => {
  const b = [{ key: 'r#0', value: 1 }, { key: 'r#1', value: 2 }];
  assert.deepEqual(pairByRound(b, [{ key: 'r#1', value: 20 }, { key: 'r#0', value: 10 }]), [[1, 10], [2, 20]]);
  assert.equal(pairByRound(b, [{ key: 'r#0', value: 10 }, { key: 'q#1', value: 20 }]), null, 'a round of another run');
  assert.equal(pairByRound(b, [{ key: 'r#0', value: 10 }]), null, 'a round one side lost');
  assert.equal(pairByRound([{ key: null, value: 1 }], [{ key: null, value: 1 }]), null, 'records without a run key');
  assert.equal(pairByRound([{ key: 'r#0', value: 1 }, { key: 'r#0', value: 2 }], [{ key: 'r#0', value: 1 }, { key: 'r#1', value: 2 }]), null, 'a key twice');
});

test('run ids: records of one run share stamp and tag; other ids have no run key', () => {
  const p = { stamp: '20261122T200823Z', host: 'local', product: 'mariadb', version: '10.11.18', suite: 'smoke', tag: '212f01' };
  assert.equal(formatRecordId(p), '20261122T200823Z-local-mariadb-10.11.18-smoke-212f01');
  assert.equal(formatRecordId({ ...p, label: 'B' }), '20261122T200823Z-local-mariadb-10.11.18-B-smoke-212f01');
  assert.equal(runGroupKey({ id: formatRecordId(p) }), '20261122T200823Z-212f01');
  assert.equal(runGroupKey({ id: formatRecordId({ ...p, version: '10.11.19', label: 'S1' }) }), '20261122T200823Z-212f01');
  for (const id of ['b1', 'fixture-10.11.18', '20261122T200823Z-local-mariadb-10.11.18-smoke-21xf01']) assert.equal(runGroupKey({ id }), null, id);
});

/**
 * Base and candidate of one run (or of two runs), round by round: every round's speed is the
 * host's that minute (`drift`), the candidate 8 % slower in each.
 * @param {{sameRun?: boolean, drift?: number[], slower?: number}} [o]
 */
function sideBySide({ sameRun = true, drift = [1, 1.6, 0.7, 1.3, 0.9], slower = 0.92 } = {}) {
  const instances = drift.map((_, i) => i);
  const id = (/** @type {string} */ version, /** @type {string} */ tag) => formatRecordId({ stamp: '20261122T200823Z', host: 'local', product: 'mariadb', version, suite: 'smoke', tag });
  // A small round-to-round wobble of the ratio too, so that the rounds' differences have a spread.
  const wobble = [1.004, 0.997, 1.002, 0.996, 1.001];
  const base = makeRecord({ id: id('10.11.18', 'aaaaaa'), version: '10.11.18', steps: [{ name: 'point-query', throughput: drift.map((d) => 1000 * d), instances }] });
  const candidate = makeRecord({ id: id('10.11.19', sameRun ? 'aaaaaa' : 'bbbbbb'), version: '10.11.19', steps: [{ name: 'point-query', throughput: drift.map((d, i) => 1000 * d * slower * wobble[i]), instances }] });
  return { base, candidate };
}

test('side by side: a shared drift of ±60 % between rounds hides an 8 % drop from independent instances, not from the rounds\' differences', () => {
  const { base, candidate } = sideBySide();
  const compare = (/** @type {typeof thresholds} */ th) => compareRuns({
    base: { version: '10.11.18', records: [base] }, candidate: { version: '10.11.19', records: [candidate] }, thresholds: th, createdAt: 'x',
  }).tests.find((t) => t.metric === 'throughput');
  const paired = compare(thresholds);
  assert.ok(paired);
  assert.equal(paired.pairedRounds, 5);
  assert.equal(paired.verdict, 'regression');
  assert.equal(paired.level, 'issue');
  assert.ok(paired.ratio !== null && Math.abs(paired.ratio - 0.92) < 0.002, String(paired.ratio));
  assert.ok(paired.ci && paired.ci[1] < 0.95, `the whole interval is below -5 %: ${paired.ci}`);
  assert.match(paired.reason, /paired over 5 rounds side by side/);
  assert.ok((paired.pWorse ?? 1) < 1e-4, String(paired.pWorse));
  // The same numbers judged as independent instances: the drift swamps the drop.
  const unpaired = compare(resolveThresholds({ groups: thresholds.groups, pairedMinRounds: 0 }));
  assert.ok(unpaired);
  assert.equal(unpaired.pairedRounds, undefined);
  assert.equal(unpaired.verdict, 'inconclusive');
  assert.match(unpaired.reason, /5 vs 5 instances/);
});

test('a base measured in another run, or fewer rounds than pairedMinRounds, is compared as independent instances', () => {
  const { base, candidate } = sideBySide({ sameRun: false });
  const other = compareRuns({ base: { version: '10.11.18', records: [base] }, candidate: { version: '10.11.19', records: [candidate] }, thresholds, createdAt: 'x' }).tests[0];
  assert.equal(other.pairedRounds, undefined);
  assert.match(other.reason, /5 vs 5 instances/);
  const two = sideBySide({ drift: [1, 1.5] });
  const few = compareRuns({ base: { version: '10.11.18', records: [two.base] }, candidate: { version: '10.11.19', records: [two.candidate] }, thresholds, createdAt: 'x' }).tests[0];
  assert.equal(few.pairedRounds, undefined, 'two rounds are below the default pairedMinRounds of 3');
});

test('paired history: the spread of the rounds\' differences in earlier runs, per side, under its own key', () => {
  const { base, candidate } = sideBySide();
  const history = estimateNoiseHistory([base, candidate], thresholds);
  const paired = history['point-query|throughput|paired'];
  assert.ok(paired);
  assert.equal(paired.df, 4);
  // ln of the wobble, about its own mean (the 8 % drop is the mean, not the spread), / √2
  const d = [1.004, 0.997, 1.002, 0.996, 1.001].map(Math.log);
  const mean = d.reduce((a, b) => a + b, 0) / 5;
  const sd = Math.sqrt(d.reduce((a, v) => a + (v - mean) ** 2, 0) / 4);
  assert.ok(Math.abs(paired.sd - sd / Math.SQRT2) < 1e-12, `${paired.sd} vs ${sd / Math.SQRT2}`);
  // The unpaired history sees each side's drift: tens of percent.
  assert.ok(history['point-query|throughput'].sd > 0.3);
});
