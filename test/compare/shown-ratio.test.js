/**
 * The one ratio a reader sees (scripts/compare/shown-ratio.js), and the small figures issue 35
 * found unreadable: a counted interval printed "1.003–1.003", a counted MDE "0 %", a quantized
 * step "(100000 %)".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeShownRatio, formatShownRatio, describeShownRatio } from '../../scripts/compare/index.js';
import { classifyMetric } from '../../scripts/compare/classify-metric.js';
import { explainQuantized } from '../../scripts/compare/latency-resolution.js';
import { formatEffect } from '../../scripts/format-number.js';

test('a judged test shows its verdict\'s estimate, never the medians\' ratio', () => {
  const shown = computeShownRatio({ verdict: { ratio: 1.08, verdict: 'inconclusive' }, baseMedian: 100, candidateMedian: 114 });
  assert.deepEqual(shown, { ratio: 1.08, judged: true, refused: false, counted: false, why: null });
  assert.equal(formatShownRatio(shown), '1.080');
  assert.equal(formatShownRatio(computeShownRatio({ verdict: { ratio: 1.0030312, verdict: 'regression', counted: true } })), '1.00303');
});

test('a test compare refused shows the ratio compare kept, marked not judged, with why', () => {
  const shown = computeShownRatio({ notJudged: { reason: 'repeats of 0.4 s are shorter than the 1 s this metric needs', ratio: 1.2 }, baseMedian: 100, candidateMedian: 150 });
  assert.deepEqual([shown.ratio, shown.judged, shown.refused], [1.2, false, true]);
  assert.equal(describeShownRatio(shown), '1.200 (not judged: repeats of 0.4 s are shorter than the 1 s this metric needs)');
  // A failed verdict has no estimate: the medians' ratio, refused, with the failure as why.
  const failed = computeShownRatio({ verdict: { ratio: null, verdict: 'failed', reason: 'step failed' }, baseMedian: 100, candidateMedian: 90 });
  assert.deepEqual([failed.ratio, failed.refused, failed.why], [0.9, true, 'failed: step failed']);
  // No verdict against this base: not judged, but not refused (it counts in group means).
  const other = computeShownRatio({ baseMedian: 100, candidateMedian: 90, noVerdict: 'compared with 10.11.16' });
  assert.deepEqual([other.ratio, other.judged, other.refused, other.why], [0.9, false, false, 'compared with 10.11.16']);
  assert.equal(formatShownRatio(computeShownRatio({ baseMedian: 0, candidateMedian: 90 })), 'n/a');
});

test('a counted interval is printed with the digits that tell its ends apart, and a tiny MDE as "< 0.1 %"', () => {
  // The instructions meter's query-path metric as compare reads it from a record's facts.
  /** @type {import('../../scripts/compare/types.js').MetricDef} */
  const metric = { name: 'instructionsPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', qos: false, value: () => null, meter: 'instructions' };
  const base = [1000000, 1000004, 1000008, 1000002, 1000006, 1000010];
  const candidate = base.map((v) => v * 1.003);
  const out = classifyMetric({ metric, threshold: { warn: 0.003, issue: 0.005 }, base, candidate, confidence: 0.9, power: 0.8 });
  const m = /CI (\d\.\d+)–(\d\.\d+)/.exec(out.reason);
  assert.ok(m, out.reason);
  assert.notEqual(m[1], m[2], `the ends differ as printed: ${out.reason}`);
  assert.ok(m[1].length > '1.003'.length, 'more than three decimals were needed');
  assert.match(out.reason, /MDE < 0\.1 % rise/);
  // Counted: the reason's ratio has the five decimals every page gives it (was "1.003" beside "1.00300").
  const counted = classifyMetric({ metric, threshold: { warn: 0.003, issue: 0.005 }, base, candidate, confidence: 0.9, power: 0.8, counted: true });
  assert.match(counted.reason, /instructionsPerOp ratio 1\.00300 \(\+0\.3 %\), [\d.]+ % CI 1\.00299\d*–1\.00300\d*/);
  assert.equal(formatShownRatio(computeShownRatio({ verdict: { ...counted, counted: true } })), '1.00300');
  assert.equal(formatEffect({ scale: 'log', ratio: 1 }, 0.0004), '< 0.1 %');
  assert.equal(formatEffect({ scale: 'log', ratio: 1 }, 0.004), '0.4 %');
});

test('a step many times the value it quantizes is said as a multiple, not "(100000 %)"', () => {
  const text = explainQuantized({ source: 'the insert benchmark times each operation in whole milliseconds', stepMs: 1, valueMs: 0.001, relative: 1000 }, 0.1);
  assert.match(text ?? '', /steps of 1 ms \(1000 × the value\)/);
  assert.doesNotMatch(text ?? '', /100000 %/);
  assert.match(explainQuantized({ source: 's', stepMs: 1, valueMs: 4, relative: 0.25 }, 0.1) ?? '', /\(25 %\)/);
});
