/**
 * Every verdict class from exact, hand-chosen repeats. With 3 repeats per release and 90 %
 * confidence, the exact rank interval of the ratio is [min, max] of the 9 pairwise ratios
 * candidate/base, so every expected bound below is a quotient of two listed numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, hasIssueRegression, estimateNoiseHistory } from '../../scripts/compare/index.js';
import { makeRecord } from './make-record.js';
import { validateComparison } from '../../scripts/store/index.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

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
  assert.match(v.reason, /ratio 0\.900 \(-10\.0 %\), 90\.0 % CI 0\.886–0\.914 \(3 vs 3 instances\)/);
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

test('each verdict carries its test\'s issue policy (thresholds.yml tests.<name>.policy, default open) and validates', () => {
  const withPolicy = resolveThresholds({ ...thresholds, tests: { ...thresholds.tests, 'update-one': { ...thresholds.tests['update-one'], policy: 'note' } } });
  /** @type {import('./make-record.js').StepSpec[]} */
  const steps = [{ name: 'point-query', throughput: BASE, cpuUsPerOp: [10, 10.1, 9.9] }, { name: 'update-one', group: 'write', throughput: BASE }];
  const cmp = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: steps.map((s) => ({ ...s, throughput: [930, 935, 925] })) })] },
    thresholds: withPolicy,
    createdAt: '2025-01-02T00:00:00Z',
  });
  assert.deepEqual(cmp.tests.map((t) => [t.test, t.metric, t.policy]), [
    ['point-query', 'throughput', 'open'],
    ['point-query', 'cpuUsPerOp', 'open'],
    ['update-one', 'throughput', 'note'],
  ]);
  assert.deepEqual(validateComparison(cmp), []);
  assert.ok(validateComparison({ ...cmp, tests: [{ ...cmp.tests[0], policy: 'bogus' }] }).length > 0, 'the schema knows the policies');
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
  assert.match(v?.reason ?? '', /too noisy to decide.*noise CV 10(\.\d)? % \(4 df\), MDE 22\.3 % drop.*more instances/);
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
  assert.match(cmp.tests[0].reason, /2 vs 2 instances is too few instances for a 90\.0 % interval/);
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
  // 3 vs 3 instances cannot pass Holm over a family of 2 (smallest p is 1/20 > 0.05 / 2)
  assert.equal(cpu?.level, 'warn');
  assert.match(cpu?.reason ?? '', /Not an issue: Holm-adjusted p 0\.100 over the run's 2 gated verdicts is above 0\.050 \(the exact test needs at least 4 instances per side for that; 3 vs 3 so far\)/);
  assert.equal(cpu?.ratio, 115 / 100);
  assert.deepEqual(cpu?.ci, [114 / 101, 116 / 99]);
  const more = one([1001, 1011, 991, 1005, 995], { throughput: [1000, 1010, 990, 1004, 996], cpuUsPerOp: [100, 101, 99, 100.5, 99.5] }, { cpuUsPerOp: [115, 116, 114, 115.5, 114.5] });
  assert.equal(more.cmp.tests.find((t) => t.metric === 'cpuUsPerOp')?.level, 'issue');
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

test('instances, not repeats, are the unit: repeats of one server instance count once (their median)', () => {
  // 6 repeats from 2 instances per side: the exact test sees 2 vs 2 values, too few for 90 %
  const inst = [0, 0, 0, 1, 1, 1];
  const { v } = one([900, 901, 899, 905, 906, 904], { throughput: [1000, 1001, 999, 1010, 1011, 1009], instances: inst }, { instances: inst });
  assert.equal(v?.base?.n, 2);
  assert.equal(v?.candidate?.n, 2);
  assert.equal(v?.base?.median, (1000 + 1010) / 2);
  assert.equal(v?.verdict, 'inconclusive');
  assert.match(v?.reason ?? '', /2 vs 2 instances is too few instances/);
  // the same numbers as 6 independent instances decide
  const six = one([900, 901, 899, 905, 906, 904], { throughput: [1000, 1001, 999, 1010, 1011, 1009] });
  assert.equal(six.v?.verdict, 'regression');
});

test('MDE is reported per direction: a drop of 1 - e^-s, a rise of e^s - 1', () => {
  const { v } = one([950, 1050, 850], { throughput: [1000, 1100, 900] });
  assert.ok(v?.mdeDrop && v?.mdeRise);
  const shift = Math.log1p(v.mdeRise);
  assert.ok(Math.abs(v.mdeDrop - (1 - Math.exp(-shift))) < 1e-12);
  assert.ok(v.mdeRise > v.mdeDrop);
  assert.equal(v.mde, v.mdeDrop, 'throughput: the bad direction is a drop');
  assert.equal(v.noiseDf, 4);
});

test('noise pooled over the host history sizes the MDE with its degrees of freedom', () => {
  const history = makeRecord({ id: 'h1', version: '10.11.17', steps: [{ name: 'point-query', throughput: [1000, 1002, 998, 1001, 999, 1000, 1003, 997] }] });
  const noiseHistory = estimateNoiseHistory([history], thresholds);
  assert.equal(noiseHistory['point-query|throughput'].df, 7);
  const noisy = [1000, 1100, 900];
  const alone = one([1000, 1100, 900], { throughput: noisy }).v;
  const pooled = compareRuns({
    base: { version: '10.11.18', records: [makeRecord({ id: 'b1', version: '10.11.18', steps: [{ name: 'point-query', throughput: noisy }] })] },
    candidate: { version: '10.11.19', records: [makeRecord({ id: 'c1', version: '10.11.19', steps: [{ name: 'point-query', throughput: noisy }] })] },
    thresholds, createdAt: 'x', noiseHistory,
  }).tests.find((t) => t.metric === 'throughput');
  assert.equal(pooled?.noiseDf, 11);
  assert.ok((pooled?.mde ?? 1) < (alone?.mde ?? 0), 'a quiet history narrows the detectable effect');
  assert.match(pooled?.reason ?? '', /\(11 df, pooled with this host's history\)/);
});

test('metrics near zero or measured over too short a window are not judged, and say so', () => {
  const t = resolveThresholds({
    groups: { point: { warn: 0.03, issue: 0.05 } },
    metrics: { kbWrittenPerOp: { warn: 0.1, issue: 0.2, floor: 0.01, minDurationS: 60 } },
  });
  /** @param {number[]} b @param {number[]} c @param {number} [durationS] */
  const run = (b, c, durationS = 120) => compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: [{ name: 'write-only', throughput: BASE, kbWrittenPerOp: b, durationS }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [{ name: 'write-only', throughput: BASE, kbWrittenPerOp: c, durationS }] })] },
    thresholds: t, createdAt: 'x',
  });
  const short = run([1, 1.1, 0.9], [4, 4.4, 3.6], 3);
  assert.equal(short.tests.some((v) => v.metric === 'kbWrittenPerOp'), false);
  assert.match(short.notJudged?.[0].reason ?? '', /repeats of 3 s are shorter than the 60 s this metric needs/);
  const floor = run([0.001, 0.002, 0.001], [0.004, 0.005, 0.004]);
  assert.match(floor.notJudged?.[0].reason ?? '', /below the floor/);
  const noisy = run([0.05, 0.9, 0.1], [0.4, 0.5, 0.45]);
  assert.match(noisy.notJudged?.[0].reason ?? '', /within 2 sd .* of zero/);
  // a noisy throughput is inconclusive, never "near zero" (throughput has no floor)
  const wild = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: [{ name: 'point-query', throughput: [13033, 3813, 5193] }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [{ name: 'point-query', throughput: [10480, 7255, 2960] }] })] },
    thresholds: t, createdAt: 'x',
  });
  assert.equal(wild.tests.find((v) => v.metric === 'throughput')?.verdict, 'inconclusive');
  assert.deepEqual(wild.notJudged, []);
  const judged = run([1, 1.1, 0.9], [4, 4.4, 3.6]);
  assert.equal(judged.tests.find((v) => v.metric === 'kbWrittenPerOp')?.verdict, 'regression');
  assert.deepEqual(judged.notJudged, []);
});

test('family-wise: an A/A comparison of many tests at 3 instances never reaches the issue level', () => {
  const names = Array.from({ length: 38 }, (_, i) => `t${i}`);
  // every test shows a 10 % drop whose interval excludes 1: still no issue without more instances
  const cmp = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: names.map((name) => ({ name, throughput: BASE })) })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: names.map((name) => ({ name, throughput: BASE.map((x) => x * 0.9) })) })] },
    thresholds, createdAt: 'x',
  });
  assert.equal(cmp.family?.size, 38);
  assert.equal(cmp.family?.minInstances, 6); // 1 / C(12, 6) = 0.0011 <= 0.05 / 38
  assert.equal(cmp.tests.every((v) => v.verdict === 'regression' && v.level === 'warn'), true);
  assert.equal(hasIssueRegression(cmp), false);
});

test('the detectable effect at the issue level is stated, and is none until the exact test can reach it', () => {
  // a family of 2 (throughput, CPU per op): an issue needs p <= 0.025, i.e. 4 instances per side
  const few = one([900, 905, 895], { cpuUsPerOp: [100, 101, 99] }, { cpuUsPerOp: [100, 101, 99] }).v;
  assert.equal(few?.mdeIssue, null, '3 vs 3 instances cannot reach an issue-level p-value');
  const base8 = [1000, 1010, 990, 1005, 995, 1002, 998, 1001];
  const cpu8 = [100, 101, 99, 100, 100, 101, 99, 100];
  const many = one(base8.map((v) => v * 0.9), { throughput: base8, cpuUsPerOp: cpu8 }, { cpuUsPerOp: cpu8 }).v;
  assert.ok(typeof many?.mdeIssue === 'number' && many.mdeIssue > (many.mde ?? 0), 'the family-wise level needs a larger change than the per-test interval');
  // an improvement is held at warn by the same family-wise rule
  const better = one([1100, 1105, 1095], { cpuUsPerOp: [100, 101, 99] }, { cpuUsPerOp: [100, 101, 99] }).v;
  assert.equal(better?.verdict, 'improvement');
  assert.equal(better?.level, 'warn');
  assert.match(better?.reason ?? '', /Not an issue: Holm-adjusted p/);
});

test('CPU per operation counted two ways (the whole machine in an older base record, the step\'s processes now) is not judged; counted alike, it is', () => {
  // The candidate's figure is 8x lower only because it stopped counting the rest of the machine.
  const mixed = one([1001, 1011, 991], { cpuUsPerOp: [800, 810, 790] }, { cpuUsPerOp: [100, 101, 99], cpuScope: 'processes' }).cmp;
  assert.equal(mixed.tests.some((t) => t.metric === 'cpuUsPerOp'), false, 'no verdict on figures counted differently');
  const skipped = (mixed.notJudged ?? []).find((n) => n.metric === 'cpuUsPerOp');
  assert.match(skipped?.reason ?? '', /counted in different ways in these runs \(machine and processes\): not comparable/);
  const alike = one([1001, 1011, 991], { cpuUsPerOp: [100, 101, 99], cpuScope: 'processes' }, { cpuUsPerOp: [115, 116, 114], cpuScope: 'processes' }).cmp;
  assert.equal(alike.tests.find((t) => t.metric === 'cpuUsPerOp')?.verdict, 'regression');
  assert.equal((alike.notJudged ?? []).some((n) => n.metric === 'cpuUsPerOp'), false);
});

test('a step too short for its throughput is not judged on any other figure of those repeats (issue 35)', () => {
  const t = resolveThresholds(/** @type {any} */ ({
    groups: { write: { warn: 0.03, issue: 0.05, minDurationS: 1 } },
    metrics: { cpuUsPerOp: { warn: 0.05, issue: 0.1 } },
  }));
  /** @param {number} durationS */
  const run = (durationS) => compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: [{ name: 'l.i1', group: 'write', throughput: BASE, cpuUsPerOp: [10, 10.1, 9.9], cpuScope: 'processes', durationS }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [{ name: 'l.i1', group: 'write', throughput: [1200, 1210, 1190], cpuUsPerOp: [13, 13.1, 12.9], cpuScope: 'processes', durationS }] })] },
    thresholds: t, createdAt: 'x',
  });
  const short = run(0.4);
  assert.deepEqual(short.tests.map((v) => v.metric), [], 'neither throughput nor CPU/op judged on 0.4 s repeats');
  const why = Object.fromEntries((short.notJudged ?? []).map((n) => [n.metric, n.reason]));
  assert.match(why.throughput, /repeats of 0\.4 s are shorter than the 1 s this metric needs/);
  assert.match(why.cpuUsPerOp, /not judged on the repeats the step's throughput is refused for \(repeats of 0\.4 s are shorter than the 1 s its throughput needs\)/);
  const long = run(3);
  assert.deepEqual(long.tests.map((v) => [v.metric, v.verdict]), [['throughput', 'improvement'], ['cpuUsPerOp', 'regression']]);
  assert.deepEqual(long.notJudged, []);
});

test('a step too short for its throughput: its p95, CPU/op and QoS figures are refused with it, under the project\'s thresholds (issue 35 item 5)', () => {
  const t = resolveThresholds(parse(readFileSync(new URL('../../configs/thresholds.yml', import.meta.url), 'utf8')));
  // Per-second samples that give every QoS figure (p1, p5, p50, cv, stall share) a value; the
  // candidate's are 30 % lower, so each is judged, and moves, when the repeats are long enough.
  const seconds = (/** @type {number} */ f) => [0, 1, 2].map((k) => Array.from({ length: 12 }, (_, s) => f * (1000 + ((s * 7 + k * 3) % 11) * 10)));
  const run = (/** @type {number} */ durationS) => compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b', version: 'a', steps: [{ name: 'l.i1', group: 'write', throughput: [1000, 1010, 990], intervals: seconds(1), cpuUsPerOp: [10, 10.1, 9.9], cpuScope: 'processes', durationS }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c', version: 'b', steps: [{ name: 'l.i1', group: 'write', throughput: [1200, 1210, 1190], intervals: seconds(0.7), cpuUsPerOp: [13, 13.1, 12.9], cpuScope: 'processes', durationS }] })] },
    thresholds: t, createdAt: 'x',
  });
  const long = run(12);
  const judged = long.tests.map((v) => v.metric);
  for (const m of ['throughput', 'latencyP95Ms', 'cpuUsPerOp', 'qpsP1', 'qpsP50', 'qpsCv', 'stallShare']) assert.ok(judged.includes(m), `${m} judged on 12 s repeats: ${judged.join(', ')}`);
  const short = run(0.4);
  assert.deepEqual(short.tests, [], 'nothing judged on 0.4 s repeats');
  const refused = (short.notJudged ?? []).filter((n) => n.metric !== 'throughput');
  assert.deepEqual(refused.map((n) => n.metric).sort(), judged.filter((m) => m !== 'throughput').sort());
  for (const n of refused) assert.match(n.reason, /^not judged on the repeats the step's throughput is refused for \(repeats of 0\.4 s are shorter than the 1 s its throughput needs\)/);
});
