/**
 * Every verdict class from exact, hand-chosen repeats. With 3 repeats per release and 90 %
 * confidence, the exact rank interval of the ratio is [min, max] of the 9 pairwise ratios
 * candidate/base, so every expected bound below is a quotient of two listed numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, hasIssueRegression } from '../../scripts/compare/index.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({
  confidence: 0.9,
  power: 0.8,
  groups: { point: { warn: 0.03, issue: 0.05 }, write: { warn: 0.03, issue: 0.05 } },
  metrics: { cpuUsPerOp: { warn: 0.05, issue: 0.1 }, qpsP5: { warn: 0.05, issue: 0.1 }, stallShare: { warn: 0.02, issue: 0.05 } },
  tests: { 'update-one': { warn: 0.05, issue: 0.08 } },
  qos: { stallFraction: 0.5, minIntervals: 10 },
});

const BASE = [1000, 1010, 990];

/**
 * @param {number[]} cand candidate throughput repeats
 * @param {Partial<import('./make-record.js').StepSpec>} [extraBase]
 * @param {Partial<import('./make-record.js').StepSpec>} [extraCand]
 */
function one(cand, extraBase = {}, extraCand = {}) {
  const cmp = compareRuns({
    base: { version: '10.11.18', records: [makeRecord({ id: 'b1', version: '10.11.18', steps: [{ name: 'point-query', throughput: BASE, ...extraBase }] })] },
    candidate: { version: '10.11.19', records: [makeRecord({ id: 'c1', version: '10.11.19', steps: [{ name: 'point-query', throughput: cand, ...extraCand }] })] },
    thresholds,
    createdAt: '2025-01-02T00:00:00Z',
  });
  return { cmp, v: cmp.tests.find((t) => t.metric === 'throughput') };
}

test('regression at the issue level: whole interval below 1, median 10 % down', () => {
  const { cmp, v } = one([900, 905, 895]);
  assert.ok(v);
  assert.equal(v.verdict, 'regression');
  assert.equal(v.level, 'issue');
  assert.equal(v.ratio, 900 / 1000);
  assert.deepEqual(v.ci, [895 / 1010, 905 / 990]);
  assert.deepEqual(v.base, { median: 1000, min: 990, max: 1010, n: 3 });
  assert.match(v.reason, /ratio 0\.900 \(-10\.0 %\), 90\.0 % CI 0\.886–0\.914 \(n=3 vs 3\)/);
  assert.match(v.reason, /MDE \d/);
  assert.equal(cmp.summary.regression, 1);
  assert.equal(hasIssueRegression(cmp), true);
});

test('regression at the warn level only: -4 % with the interval below 1', () => {
  const { cmp, v } = one([960, 965, 955]);
  assert.equal(v?.verdict, 'regression');
  assert.equal(v?.level, 'warn');
  assert.deepEqual(v?.ci, [955 / 1010, 965 / 990]);
  assert.equal(hasIssueRegression(cmp), false);
});

test('per-test override: update-one needs 8 % for an issue', () => {
  const cmp = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: [{ name: 'update-one', group: 'write', throughput: BASE }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [{ name: 'update-one', group: 'write', throughput: [930, 935, 925] }] })] },
    thresholds,
    createdAt: 'x',
  });
  const v = cmp.tests[0];
  assert.equal(v.verdict, 'regression');
  assert.equal(v.level, 'warn'); // -6.5 %: beyond warn 5 %, short of issue 8 %
  assert.deepEqual(v.threshold, { warn: 0.05, issue: 0.08 });
});

test('improvement: whole interval above 1', () => {
  const { v } = one([1100, 1110, 1090]);
  assert.equal(v?.verdict, 'improvement');
  assert.equal(v?.level, 'issue');
  assert.deepEqual(v?.ci, [1090 / 1010, 1110 / 990]);
});

test('unchanged: the interval lies within ±5 %', () => {
  const { v } = one([1001, 1011, 991]);
  assert.equal(v?.verdict, 'unchanged');
  assert.deepEqual(v?.ci, [991 / 1010, 1011 / 990]);
  assert.match(v?.reason ?? '', /within ±5\.0 %/);
});

test('inconclusive: a 5 % drop inside an interval too wide to decide, with the noise figure', () => {
  const base = [1000, 1100, 900];
  const { v } = one([950, 1045, 855], { throughput: base });
  assert.equal(v?.verdict, 'inconclusive');
  assert.equal(v?.ratio, 950 / 1000);
  assert.deepEqual(v?.ci, [855 / 1100, 1045 / 900]);
  // pooled sd of ln values, computed here independently
  const sd = (/** @type {number[]} */ xs) => {
    const l = xs.map(Math.log);
    const m = l.reduce((a, b) => a + b) / l.length;
    return l.reduce((a, b) => a + (b - m) ** 2, 0) / (l.length - 1);
  };
  const pooled = Math.sqrt((sd(base) + sd([950, 1045, 855])) / 2);
  assert.ok(Math.abs((v?.noiseCv ?? 0) - pooled) < 1e-12);
  assert.match(v?.reason ?? '', /too noisy to decide.*noise CV 10(\.\d)? %, MDE \d+\.\d %.*more repeats/);
  assert.ok((v?.mde ?? 0) > 0.05);
});

test('inconclusive: 2 repeats per side cannot give a 90 % interval', () => {
  const cmp = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: [{ name: 'point-query', throughput: [1000, 1010] }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [{ name: 'point-query', throughput: [500, 505] }] })] },
    thresholds,
    createdAt: 'x',
  });
  assert.equal(cmp.tests[0].verdict, 'inconclusive');
  assert.equal(cmp.tests[0].ci, null);
  assert.match(cmp.tests[0].reason, /n=2 vs 2 is too few repeats for a 90\.0 % interval/);
});

test('repeats of several runs of one release are pooled', () => {
  const cmp = compareRuns({
    base: { version: 'a', records: [1, 2].map((i) => makeRecord({ id: `b${i}`, version: 'a', steps: [{ name: 'point-query', throughput: [1000 + i, 1010 + i] }] })) },
    candidate: { version: 'b', records: [1, 2].map((i) => makeRecord({ id: `c${i}`, version: 'b', steps: [{ name: 'point-query', throughput: [800 + i, 810 + i] }] })) },
    thresholds,
    createdAt: 'x',
  });
  assert.equal(cmp.tests[0].base?.n, 4);
  assert.equal(cmp.tests[0].verdict, 'regression');
  assert.deepEqual(cmp.base.runIds, ['b1', 'b2']);
});

test('failed: a failed candidate step is failed, never a regression of 100 %', () => {
  const { cmp, v } = one([], {}, { status: 'failed', reason: 'mariadbd crashed (signal 11)' });
  assert.equal(v?.verdict, 'failed');
  assert.equal(v?.ratio, null);
  assert.equal(v?.candidate, null);
  assert.match(v?.reason ?? '', /candidate 10\.11\.19: step failed in run c1: mariadbd crashed/);
  assert.equal(cmp.summary.failed, 1);
  assert.equal(cmp.summary.regression, 0);
  assert.equal(hasIssueRegression(cmp), false);
});

test('failed: no valid base repeat', () => {
  const { v } = one([1000, 1000, 1000], { status: 'failed', reason: 'sysbench exited 1' });
  assert.equal(v?.verdict, 'failed');
  assert.match(v?.reason ?? '', /base 10\.11\.18: no valid repeat \(sysbench exited 1\)/);
});

test('efficiency: same QPS while burning 15 % more CPU per op is a CPU regression', () => {
  const { cmp } = one([1001, 1011, 991], { cpuUsPerOp: [100, 101, 99] }, { cpuUsPerOp: [115, 116, 114] });
  const tp = cmp.tests.find((t) => t.metric === 'throughput');
  const cpu = cmp.tests.find((t) => t.metric === 'cpuUsPerOp');
  assert.equal(tp?.verdict, 'unchanged');
  assert.equal(cpu?.verdict, 'regression');
  assert.equal(cpu?.higherIsBetter, false);
  assert.equal(cpu?.level, 'issue');
  assert.equal(cpu?.ratio, 115 / 100);
  assert.deepEqual(cpu?.ci, [114 / 101, 116 / 99]);
  // lower CPU per op is an improvement
  const better = one(BASE, { cpuUsPerOp: [100, 101, 99] }, { cpuUsPerOp: [85, 86, 84] }).cmp.tests.find((t) => t.metric === 'cpuUsPerOp');
  assert.equal(better?.verdict, 'improvement');
});

test('QoS: stalls and low percentiles of per-second rates are gated; too few seconds are not', () => {
  const steady = Array.from({ length: 20 }, (_x, i) => 1000 + (i % 2) * 10);
  // candidate: same median but 3 seconds at 100 qps (one stall of 3 s) in every repeat
  const stalled = steady.map((q, i) => (i >= 8 && i < 11 ? 100 : q));
  const { cmp } = one(BASE, { intervals: [steady, steady, steady] }, { throughput: [1000, 1010, 990], intervals: [stalled, stalled, stalled] });
  const share = cmp.tests.find((t) => t.metric === 'stallShare');
  assert.equal(share?.verdict, 'regression');
  assert.equal(share?.difference, 3 / 20);
  assert.equal(share?.scale, 'linear');
  const p5 = cmp.tests.find((t) => t.metric === 'qpsP5');
  assert.equal(p5?.verdict, 'regression');
  // 3 per-second samples per repeat (a smoke run) are below qos.minIntervals: no QoS verdict
  const short = one(BASE, { intervals: [[1, 2, 3], [1, 2, 3], [1, 2, 3]] }, { intervals: [[1, 2, 3], [1, 2, 3], [1, 2, 3]] }).cmp;
  assert.equal(short.tests.filter((t) => t.metric === 'stallShare').length, 0);
});

test('records of different host classes are refused with a message naming both', () => {
  assert.throws(
    () => compareRuns({
      base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', hostClass: 'small-server', steps: [] })] },
      candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [] })] },
      thresholds,
      createdAt: 'x',
    }),
    /run record b has host class 'small-server' but c has 'local'/,
  );
});

test('thresholds: issue below warn is refused, naming the dot path', () => {
  assert.throws(() => resolveThresholds({ groups: { point: { warn: 0.05, issue: 0.03 } } }), /'groups\.point': issue 0\.03 is below warn 0\.05/);
});
