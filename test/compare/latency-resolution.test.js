/**
 * Quantized latencies (scripts/compare/latency-resolution.js) on real records: the insert
 * benchmark's demo runs of MariaDB 10.11.18 (test/fixtures/bench/record-shape/, where query p95s
 * are 1.003 ms, 2.007 ms, 4.013 ms: whole milliseconds through 2 % buckets) and its insert-smoke
 * run of 10.11.18 against 10.11.19 (test/fixtures/sequence/insert-smoke/). One rule for compare's
 * verdicts and reports and for bisect, which judges through compareRuns and classifyProbe.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'yaml';
import { compareRuns, resolveThresholds, renderComparison, renderLatencyTables } from '../../scripts/compare/index.js';
import { latencyResolution, coarsestResolution } from '../../scripts/compare/latency-resolution.js';
import { classifyProbe } from '../../scripts/verify/bisect-search.js';

/** @typedef {import('../../scripts/types.js').RunRecord} RunRecord */
const read = (/** @type {string} */ dir) => readdirSync(new URL(`../fixtures/${dir}/`, import.meta.url)).filter((f) => f.endsWith('.json')).sort()
  .map((f) => /** @type {RunRecord} */ (JSON.parse(readFileSync(new URL(`../fixtures/${dir}/${f}`, import.meta.url), 'utf8'))));
const thresholds = resolveThresholds(parse(readFileSync(new URL('../../configs/thresholds.yml', import.meta.url), 'utf8')));
const issue = thresholds.metrics.latencyP95Ms.issue;
const compare = (/** @type {RunRecord[]} */ [a, b]) => compareRuns({
  base: { version: a.release.version, records: [a] }, candidate: { version: `${b.release.version} (second run)`, records: [b] }, thresholds, createdAt: '2026-11-27T00:00:00Z',
});
const p95s = (/** @type {RunRecord} */ r, /** @type {string} */ name) => r.steps.find((s) => s.name === name)?.repeats.map((x) => x.latencyMs?.p95) ?? [];

test('a query p95 of 1.003 ms in whole milliseconds is shown with its step and not judged, in the verdicts and the reports', () => {
  const records = read('bench/record-shape');
  const quantizedTests = ['qp100', 'qr500', 'qp500'].filter((name) => records.some((r) => p95s(r, name).includes(1.003)));
  assert.ok(quantizedTests.length > 0, 'the fixture has the 1.003 ms p95s this is about');
  const cmp = compare(records);
  for (const name of quantizedTests) {
    assert.equal(cmp.tests.find((t) => t.test === name && t.metric === 'latencyP95Ms'), undefined, `${name}: no latency verdict`);
    const nj = cmp.notJudged?.find((n) => n.test === name && n.metric === 'latencyP95Ms');
    assert.match(nj?.reason ?? '', /quantized: the insert benchmark times each operation in whole milliseconds, so a p95 of 1 ms moves in steps of 1 ms \(100 %\)/);
  }
  // Throughput of the same steps is still judged: only the quantized figure is set aside.
  assert.ok(cmp.tests.some((t) => t.test === quantizedTests[0] && t.metric === 'throughput'));
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, new RegExp(`- ${quantizedTests[0]} latencyP95Ms: quantized`));
  assert.doesNotMatch(md, new RegExp(`\\| ${quantizedTests[0]} \\| latencyP95Ms`), 'no row of numbers judged below the resolution');
});

test('a latency whose step is finer than the issue threshold is judged at its resolution: interval widened, MDE at least one step', () => {
  const [a, b] = read('sequence/insert-smoke');
  const cmp = compare([a, b]);
  const judged = cmp.tests.filter((t) => t.metric === 'latencyP95Ms' && t.resolutionMs !== undefined);
  assert.ok(judged.length > 0, JSON.stringify(cmp.notJudged));
  for (const t of judged) {
    const step = /** @type {number} */ (t.resolutionMs);
    const repeats = [a, b].flatMap((r) => r.steps.find((s) => s.name === t.test)?.repeats.filter((x) => x.status === 'ok') ?? []);
    const coarsest = coarsestResolution(repeats, 'ibench', latencyResolution);
    assert.equal(step, coarsest?.stepMs);
    assert.ok(/** @type {number} */ (coarsest?.relative) < issue, `${t.test} is judged only below the issue threshold`);
    assert.ok(/** @type {number} */ (t.mde) >= /** @type {number} */ (coarsest?.relative), `${t.test}: MDE ${t.mde} below one step`);
    if (t.ci) assert.ok(t.ci[1] / t.ci[0] >= (1 + /** @type {number} */ (coarsest?.relative)) ** 2 - 1e-9, `${t.test}: interval ${t.ci} narrower than two steps`);
    assert.match(t.reason, /values in steps of 1(\.\d+)? ms \([\d.]+ %\): interval widened by a step each way, MDE at least a step/);
  }
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, new RegExp(`\\| ${judged[0].test} \\| latencyP95Ms \\(in steps of 1(\\.\\d+)? ms\\)`));
  // Every latency the rule set aside is coarser than the threshold allows (l.x's is set aside
  // before it: its throughput is refused, 0.4-0.98 s repeats, and so is every figure of them).
  for (const n of cmp.notJudged?.filter((x) => x.metric === 'latencyP95Ms' && /quantized/.test(x.reason)) ?? []) {
    const res = coarsestResolution([a, b].flatMap((r) => r.steps.find((s) => s.name === n.test)?.repeats.filter((x) => x.status === 'ok') ?? []), 'ibench', latencyResolution);
    assert.ok(/** @type {number} */ (res?.relative) >= issue, n.reason);
  }
});

test('bisect calls a quantized target undecided and says why, from the same rule', () => {
  const cmp = compare(read('bench/record-shape'));
  const nj = cmp.notJudged?.find((n) => n.metric === 'latencyP95Ms' && /quantized/.test(n.reason));
  assert.ok(nj);
  const probe = classifyProbe(cmp, [{ test: nj.test, metric: 'latencyP95Ms' }]);
  assert.equal(probe.call, 'undecided');
  assert.equal(probe.evidence[0].reason, `not judged: ${nj.reason}`);
  assert.match(probe.reason, /quantized/);
});

test('sysbench and LinkBench latencies carry their own steps; a duration timed finely has none', () => {
  const [demo] = read('bench/record-shape');
  const rep = (/** @type {string} */ name) => /** @type {import('../../scripts/types.js').Repeat} */ (demo.steps.find((s) => s.name === name)?.repeats[0]);
  const sysbench = latencyResolution(rep('point-query'), 'sysbench');
  assert.ok(sysbench && sysbench.stepMs >= 0.01, JSON.stringify(sysbench));
  const link = latencyResolution(rep('linkbench.request.1'), 'linkbench');
  assert.ok(link && link.stepMs < /** @type {number} */ (rep('linkbench.request.1').latencyMs?.p95) * 0.01, JSON.stringify(link));
  assert.equal(latencyResolution(rep('linkbench.index'), 'linkbench'), null);
});

test('widening: the same instances give an interval one step wider each way and an MDE of at least a step', async () => {
  const { classifyMetric } = await import('../../scripts/compare/classify-metric.js');
  const { METRICS } = await import('../../scripts/compare/metrics.js');
  const metric = /** @type {import('../../scripts/compare/types.js').MetricDef} */ (METRICS.find((m) => m.name === 'latencyP95Ms'));
  // The l.i1 p95s of the real insert-benchmark runs of 10.11.18 (both fixtures) against 10.11.19's.
  const base = [...read('bench/record-shape'), read('sequence/insert-smoke')[0]].flatMap((r) => p95s(r, 'l.i1')).filter((v) => typeof v === 'number');
  const candidate = p95s(read('sequence/insert-smoke')[1], 'l.i1').concat(p95s(read('sequence/insert-smoke')[1], 'l.i2')).filter((v) => typeof v === 'number');
  const common = { metric, threshold: thresholds.metrics.latencyP95Ms, base: /** @type {number[]} */ (base), candidate: /** @type {number[]} */ (candidate), confidence: 0.9, power: 0.8 };
  const plain = classifyMetric(common);
  const step = { relative: 1 / Math.min(.../** @type {number[]} */ (base)), stepMs: 1 };
  const widened = classifyMetric({ ...common, resolution: step });
  assert.ok(plain.ci && widened.ci, JSON.stringify(plain));
  assert.ok(Math.abs(widened.ci[0] - plain.ci[0] / (1 + step.relative)) < 1e-12);
  assert.ok(Math.abs(widened.ci[1] - plain.ci[1] * (1 + step.relative)) < 1e-12);
  assert.ok(/** @type {number} */ (widened.mde) >= step.relative);
});

test('issue 35, on the demo\'s records: whole-millisecond readings are printed as whole ms, "< 1" under a tick, and no percentile contradicts the data', () => {
  // The demo printed p50 "0.00100" and p95 "1.00"/"4.01" (bucket edges over 0, 1 and 4 ms
  // readings), and a p95 of 0.001 beside a mean of 0.02 (10.11.18's qp100 inserts).
  const records = read('sequence/issue35-demo');
  const [base, candidate] = ['10.11.18', '10.11.19'].map((v) => /** @type {RunRecord} */ (records.find((r) => r.release.version === v)));
  const edges = records.flatMap((r) => r.steps.flatMap((st) => st.repeats.flatMap((rep) => Object.values(/** @type {any} */ (rep.details)?.ibench?.responseMs ?? {}).map((x) => x?.p95Ms))));
  assert.ok(edges.includes(0.001) && edges.includes(1.003), 'the fixture holds the bucket edges this is about');
  const md = renderLatencyTables([{ version: '10.11.18', records: [base] }, { version: '10.11.19', records: [candidate] }], '10.11.18');
  const section = md.slice(md.indexOf('### Insert benchmark'));
  const head = section.split('\n').find((l) => l.startsWith('| step')) ?? '';
  const columns = head.slice(2, -2).split(' | ');
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| step') && !l.startsWith('| ---')).map((l) => l.slice(2, -2).split(' | '));
  assert.ok(rows.length >= 10, section);
  const at = (/** @type {string} */ c) => columns.indexOf(c);
  const ms = (/** @type {string} */ cell) => (cell === '< 1' ? 0 : Number(cell));
  for (const r of rows) {
    for (const c of ['p50 (ms)', 'p95 (ms)', 'p99 (ms)', 'max (ms)']) {
      assert.match(r[at(c)], /^(< 1|\d+(\.5)?)$/, `${r.slice(0, 3).join(' ')} ${c}: ${r[at(c)]} is a whole-ms reading (a median of two can be half-way)`);
    }
    assert.ok(ms(r[at('p50 (ms)')]) <= ms(r[at('p95 (ms)')]) && ms(r[at('p95 (ms)')]) <= ms(r[at('p99 (ms)')]) && ms(r[at('p99 (ms)')]) <= ms(r[at('max (ms)')]), r.join(' | '));
    // A mean of whole-ms readings under 1 ms means most read 0: the p50 says "< 1", never "0.00100".
    if (Number(r[at('avg (ms)')]) < 0.5) assert.equal(r[at('p50 (ms)')], '< 1', r.join(' | '));
  }
  assert.doesNotMatch(section, /0\.00100|1\.003/);
  assert.match(section, /a reading of 1 ms is any time under 2 ms; avg is the mean of the readings, so it can sit above the p95/);
  // The verdict's reason says the p95 at the clock's resolution: 4 ms, not 4.01 ms.
  const cmp = compareRuns({ base: { version: '10.11.18', records: [base] }, candidate: { version: '10.11.19', records: [candidate] }, thresholds, createdAt: '2026-11-28T00:00:00Z' });
  const reasons = (cmp.notJudged ?? []).filter((n) => n.metric === 'latencyP95Ms' && /quantized/.test(n.reason)).map((n) => n.reason);
  assert.ok(reasons.length >= 3, JSON.stringify(cmp.notJudged));
  for (const reason of reasons) assert.match(reason, /a p95 of (< 1|\d+) ms moves in steps of 1 ms \((\d+ %|more than the whole value)\)/);
  assert.ok(reasons.some((r) => /a p95 of 4 ms moves in steps of 1 ms \(25 %\)/.test(r)), reasons.join('\n'));
});
