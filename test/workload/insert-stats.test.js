/** The insert benchmark's pure bookkeeping: pacing, per-second buckets, percentiles, keep-up. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  pacerDelayMs, percentile, ratePercentiles, LatencyRecorder, SecondBuckets, keepUp, KEEP_UP_SHARE, HISTOGRAM_BOUNDS_MS,
} from '../../scripts/workload/ibench/ibench-stats.js';

test('pacer: batch k is due at k x rows / rate; a writer behind schedule sends at once', () => {
  // 100 rows/s in batches of 10: one batch every 100 ms.
  assert.equal(pacerDelayMs(1000, 0, 10, 100, 1000), 0);
  assert.equal(pacerDelayMs(1000, 1, 10, 100, 1000), 100);
  assert.equal(pacerDelayMs(1000, 5, 10, 100, 1250), 250);
  assert.equal(pacerDelayMs(1000, 5, 10, 100, 1600), 0, 'late: no wait');
  // 1000 rows/s in batches of 10: every 10 ms.
  assert.equal(pacerDelayMs(0, 3, 10, 1000, 0), 30);
  assert.throws(() => pacerDelayMs(0, 0, 10, 0, 0), /target rate must be > 0/);
});

test('pacer: driving a simulated writer that stalls 1 s catches up and keeps the step total', () => {
  const rate = 100;
  const batch = 10;
  let now = 0;
  let sent = 0;
  for (let k = 0; now < 10_000; k++) {
    now += pacerDelayMs(0, k, batch, rate, now);
    if (now >= 10_000) break;
    sent += batch;
    now += k === 20 ? 1000 : 1; // batch 20 stalls for a second
  }
  assert.equal(sent, 1000, 'the 1 s stall is caught up within the 10 s step');
});

test('percentile: linear interpolation; empty gives null; bad p is refused', () => {
  assert.equal(percentile([], 50), null);
  assert.equal(percentile([5], 99), 5);
  assert.equal(percentile([1, 2, 3, 4], 50), 2.5);
  assert.equal(percentile([10, 20, 30, 40, 50], 0), 10);
  assert.equal(percentile([10, 20, 30, 40, 50], 100), 50);
  assert.equal(percentile([10, 20, 30, 40, 50], 95), 48);
  assert.throws(() => percentile([1], 101), /within 0\.\.100/);
});

test('ratePercentiles: of per-second rates; a stalled second pulls the low percentiles down', () => {
  assert.equal(ratePercentiles([]), null);
  const r = /** @type {import('../../scripts/workload/ibench/ibench-stats.js').RatePercentiles} */ (ratePercentiles([100, 100, 100, 100, 0, 100, 100, 100, 100, 100]));
  assert.equal(r.min, 0);
  assert.equal(r.max, 100);
  assert.equal(r.mean, 90);
  assert.equal(r.p.p50, 100);
  assert.ok(r.p.p1 < 10, `p1 ${r.p.p1}`);
  assert.deepEqual(Object.keys(r.p), ['p1', 'p5', 'p25', 'p50', 'p75', 'p95', 'p99']);
});

test('LatencyRecorder: percentiles within 2 %, exact max and mean, coarse histogram per bound', () => {
  const rec = new LatencyRecorder();
  assert.equal(rec.summary(), null);
  for (let i = 1; i <= 1000; i++) rec.add(i / 10); // 0.1 .. 100 ms
  const s = /** @type {import('../../scripts/workload/ibench/ibench-stats.js').ResponseHistogram} */ (rec.summary());
  assert.equal(s.count, 1000);
  assert.equal(s.maxMs, 100);
  assert.ok(Math.abs(s.avgMs - 50.05) < 1e-9);
  for (const [p, exact] of /** @type {const} */ ([[50, 50], [95, 95], [99, 99]])) {
    const got = s[/** @type {'p50Ms'|'p95Ms'|'p99Ms'} */ (`p${p}Ms`)];
    assert.ok(got >= exact && got <= exact * 1.021, `p${p}: ${got} vs ${exact}`);
  }
  assert.equal(s.counts.length, HISTOGRAM_BOUNDS_MS.length + 1);
  assert.equal(s.counts.reduce((a, b) => a + b, 0), 1000);
  assert.equal(s.counts[0], 1, 'only 0.1 ms is <= 0.1');
  assert.equal(s.counts[HISTOGRAM_BOUNDS_MS.indexOf(100)], 500, '(50, 100] holds 500 values');
  rec.add(20_000);
  assert.equal(/** @type {any} */ (rec.summary()).counts.at(-1), 1, 'above the last bound');
});

test('SecondBuckets: statements land in the second they ended; full seconds only; empty seconds are 0', () => {
  const b = new SecondBuckets(10_000, 'insert');
  b.record('insert', 100, 10_100, 5);
  b.record('insert', 100, 10_900, 12);
  b.record('delete', 100, 10_950, 3);
  // second 2 (t=2) is a stall: nothing completes in it
  b.record('insert', 100, 12_500, 900);
  b.record('query', 1, 12_600, 2);
  b.record('insert', 100, 13_200, 1); // in the trailing part-second: left out
  const iv = b.intervals(13_400);
  assert.equal(iv.length, 3);
  assert.deepEqual(iv.map((i) => i.t), [1, 2, 3]);
  assert.deepEqual(iv.map((i) => i.qps), [200, 0, 100], 'qps = rows of the primary op per second');
  assert.deepEqual(iv.map((i) => i.tps), [2, 0, 1]);
  assert.deepEqual(iv.map((i) => i.inserts), [200, 0, 100]);
  assert.deepEqual(iv.map((i) => i.deletes), [100, 0, 0]);
  assert.deepEqual(iv.map((i) => i.queries), [0, 0, 1]);
  assert.deepEqual(iv.map((i) => i.insertMaxMs), [12, 0, 900]);
  assert.deepEqual(iv.map((i) => i.queryMaxMs), [0, 0, 2]);
  assert.equal(iv[0].latencyMs, 11.65, 'p95 of the primary op in that second');
  assert.ok(iv.every((i) => i.errors === 0));
});

test('keepUp: every client must reach 95 % of its target; one slow client fails the step', () => {
  const ok = keepUp(100, [1000, 960], 10);
  assert.equal(ok.targetPerS, 200);
  assert.equal(ok.achievedPerS, 196);
  assert.equal(ok.share, 0.98);
  assert.equal(ok.worstClientShare, 0.96);
  assert.equal(ok.sustained, true);
  const edge = keepUp(100, [950], 10);
  assert.equal(edge.sustained, true, 'exactly 95 % keeps up');
  const slow = keepUp(100, [1100, 900], 10);
  assert.equal(slow.share, 1, 'the total alone would hide it');
  assert.equal(slow.worstClientShare, 0.9);
  assert.equal(slow.sustained, false);
  assert.equal(KEEP_UP_SHARE, 0.95);
  assert.throws(() => keepUp(100, [], 10), /no clients/);
  assert.throws(() => keepUp(100, [1], 0), /duration must be > 0/);
});
