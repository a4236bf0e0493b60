import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeQos } from '../../scripts/compare/index.js';

/** @param {number[]} qps */
const series = (qps) => qps.map((q, i) => ({ t: i + 1, qps: q }));

test('percentiles (R type 7), CV and stalls of a per-second series with two dips', () => {
  // 10 seconds: median 100; stall threshold 0.5 x 100 = 50; dips at s3-4 (2 s) and s8 (1 s)
  const q = computeQos(series([100, 100, 10, 20, 100, 110, 100, 40, 100, 90]), { stallFraction: 0.5 });
  assert.ok(q);
  assert.equal(q.seconds, 10);
  assert.equal(q.p50, 100);
  assert.equal(q.stallThreshold, 50);
  assert.deepEqual(q.stalls, [{ startT: 2, lengthS: 2 }, { startT: 7, lengthS: 1 }]);
  assert.equal(q.stallCount, 2);
  assert.equal(q.stallS, 3);
  assert.equal(q.longestStallS, 2);
  assert.equal(q.stallShare, 0.3);
  // sorted: 10 20 40 90 100 100 100 100 100 110; p5 at index 0.45 -> 10 + 0.45 * 10
  assert.equal(q.p5, 10 + 0.45 * 10);
  assert.equal(q.p1, 10 + 0.09 * 10);
  const mean = 77;
  const sd = Math.sqrt([100, 100, 10, 20, 100, 110, 100, 40, 100, 90].reduce((a, v) => a + (v - mean) ** 2, 0) / 9);
  assert.ok(Math.abs(q.cv - sd / mean) < 1e-12);
});

test('a steady series has no stall; an empty one has no QoS', () => {
  const q = computeQos(series([100, 101, 99, 100]), { stallFraction: 0.5 });
  assert.equal(q?.stallCount, 0);
  assert.equal(q?.stallShare, 0);
  assert.equal(computeQos([], { stallFraction: 0.5 }), null);
});

test('2-second report intervals count 2 s per stalled sample', () => {
  const q = computeQos([{ t: 2, qps: 100 }, { t: 4, qps: 1 }, { t: 6, qps: 100 }], { stallFraction: 0.5 });
  assert.deepEqual(q?.stalls, [{ startT: 2, lengthS: 2 }]);
  assert.equal(q?.stallShare, 2 / 6);
});
