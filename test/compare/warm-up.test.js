/**
 * The warm-up rule (scripts/compare/warm-up.js) on real demo records of MariaDB 10.11.18 (two
 * runs of the demo suite, test/fixtures/bench/record-shape/): LinkBench's request phase climbs
 * from a few requests in its first second to its steady rate, and what compare judges leaves that
 * climb out and says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compareRuns, resolveThresholds, renderComparison } from '../../scripts/compare/index.js';
import { findWarmup, withoutWarmup, WARMUP_STEADY_SHARE, WARMUP_MIN_SAMPLES } from '../../scripts/compare/warm-up.js';

const fixture = (/** @type {string} */ name) => /** @type {import('../../scripts/types.js').RunRecord} */ (
  JSON.parse(readFileSync(new URL(`../fixtures/bench/record-shape/${name}`, import.meta.url), 'utf8')));
const before = fixture('before-mariadb-10.11.18.json');
const after = fixture('after-mariadb-10.11.18.json');
const requests = (/** @type {import('../../scripts/types.js').RunRecord} */ r) => /** @type {import('../../scripts/types.js').Step} */ (r.steps.find((s) => s.name === 'linkbench.request.1')).repeats;

test('a LinkBench request phase loses its climbing first seconds and only those; its judged rate is the steadier one', () => {
  for (const rep of [...requests(before), ...requests(after)]) {
    const rates = rep.intervals.map((i) => i.qps);
    const w = findWarmup(rep.intervals);
    assert.ok(w, `no warm-up found in ${rates}`);
    assert.ok(w.samples <= Math.floor(rates.length / 2), 'never more than half of the seconds');
    // Every excluded second is below the share of the steady level; the first kept one reaches it
    // unless the phase was still climbing at half-time.
    for (const r of rates.slice(0, w.samples)) assert.ok(r < WARMUP_STEADY_SHARE * w.steadyRate, `${r} excluded in ${rates}`);
    if (!w.stillRamping) assert.ok(rates[w.samples] >= WARMUP_STEADY_SHARE * w.steadyRate);
    assert.equal(w.excludedS, rep.intervals[w.samples - 1].t);
    const judged = withoutWarmup(rep).repeat;
    assert.ok(/** @type {number} */ (judged.throughput) > /** @type {number} */ (rep.throughput), 'leaving a climb out raises the rate');
    assert.equal(judged.intervals.length, rates.length - w.samples);
    assert.equal(judged.durationS, rep.durationS - w.excludedS);
  }
});

test('steps with too few seconds or a steady start keep every second', () => {
  for (const step of after.steps) {
    for (const rep of step.repeats) {
      if (rep.intervals.length < WARMUP_MIN_SAMPLES) assert.equal(findWarmup(rep.intervals), null, step.name);
    }
  }
  // A dip later in a steady phase is a stall for the QoS figures, not a warm-up.
  const rates = requests(after)[1].intervals.slice(-4).map((i) => i.qps);
  const steadyThenDip = [...rates, rates[0] / 10, ...rates].map((qps, i) => ({ t: i + 1, qps }));
  assert.equal(findWarmup(steadyThenDip), null);
});

test('compare judges the request phase without its warm-up and the comparison and its reports say what was left out', () => {
  const thresholds = resolveThresholds(parse(readFileSync(new URL('../../configs/thresholds.yml', import.meta.url), 'utf8')));
  const cmp = compareRuns({ base: { version: '10.11.18', records: [before] }, candidate: { version: '10.11.18 again', records: [after] }, thresholds, createdAt: '2026-11-27T00:00:00Z' });
  const w = cmp.warmups?.find((x) => x.test === 'linkbench.request.1');
  assert.ok(w, JSON.stringify(cmp.warmups));
  assert.deepEqual(w.base, requests(before).map((r) => findWarmup(r.intervals)?.excludedS ?? 0));
  assert.deepEqual(w.candidate, requests(after).map((r) => findWarmup(r.intervals)?.excludedS ?? 0));
  // Only the steps whose per-second rate ramps (the sysbench tests' 3 s and the query steps' 5 s are too few seconds to tell).
  assert.deepEqual(cmp.warmups?.map((x) => x.test), ['linkbench.request.1']);
  const verdict = cmp.tests.find((t) => t.test === 'linkbench.request.1' && t.metric === 'throughput');
  const judgedMedian = (/** @type {import('../../scripts/types.js').RunRecord} */ r) => requests(r).map((rep) => /** @type {number} */ (withoutWarmup(rep).repeat.throughput));
  assert.ok(verdict?.base && verdict.base.median > Math.max(...requests(before).map((r) => /** @type {number} */ (r.throughput))), 'the base figure is the judged, warm-up-free one');
  assert.ok(judgedMedian(before).includes(verdict.base.min) && judgedMedian(before).includes(verdict.base.max));
  for (const format of /** @type {const} */ (['markdown', 'terminal'])) {
    const text = renderComparison(cmp, { format });
    const line = text.split('\n').find((l) => l.includes('linkbench.request.1: the first'));
    assert.ok(line, `${format}: no warm-up line`);
    assert.match(line, new RegExp(`the first ${Math.min(...w.base)}(–${Math.max(...w.base)})? s of the base's repeats`));
    if (w.stillRamping > 0) assert.match(line, /still climbing at half-time/);
  }
});
