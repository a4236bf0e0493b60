import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeShiftInterval, computeUCounts } from '../../scripts/compare/shift-interval.js';

test('U null distribution for 3 vs 3 has the textbook counts (sum C(6,3) = 20)', () => {
  // Mann–Whitney tables: P(U=0)=1/20, P(U=1)=1/20, P(U=2)=2/20, P(U=3)=3/20, P(U=4)=3/20, ...
  assert.deepEqual(computeUCounts(3, 3), [1, 1, 2, 3, 3, 3, 3, 2, 1, 1]);
  assert.equal(computeUCounts(4, 5).reduce((a, b) => a + b, 0), 126);
});

test('3 vs 3 at 90 %: the interval is [min, max] of the pairwise differences, coverage exactly 0.9', () => {
  const iv = computeShiftInterval([10, 11, 12], [20, 22, 21], 0.9);
  assert.ok(iv);
  assert.equal(iv.lo, 20 - 12);
  assert.equal(iv.hi, 22 - 10);
  assert.equal(iv.estimate, 10); // median of 8,9,10,9,10,11,10,11,12
  assert.ok(Math.abs(iv.coverage - 0.9) < 1e-12);
});

test('ratios: bounds are exact quotients of two observations', () => {
  const iv = computeShiftInterval([1000, 1010, 990], [900, 905, 895], 0.9, 'ratio');
  assert.ok(iv);
  assert.equal(iv.lo, 895 / 1010);
  assert.equal(iv.hi, 905 / 990);
});

test('too few repeats for the confidence give no interval', () => {
  assert.equal(computeShiftInterval([1, 2], [3, 4], 0.9), null); // best is 1/6 per tail
  assert.equal(computeShiftInterval([1, 2, 3], [4, 5, 6], 0.95), null); // 1/20 > 0.025
  assert.ok(computeShiftInterval([1, 2, 3, 4], [5, 6, 7, 8], 0.95)); // 1/70 per tail
});

test('5 vs 5 at 90 %: k = 5 from P(U <= 4) = 12/252 <= 0.05 < P(U <= 5) = 19/252', () => {
  const x = [0, 1, 2, 3, 4];
  const y = [0, 10, 20, 30, 40];
  const iv = computeShiftInterval(x, y, 0.9);
  assert.ok(iv);
  const diffs = x.flatMap((a) => y.map((b) => b - a)).sort((a, b) => a - b);
  assert.equal(iv.lo, diffs[4]);
  assert.equal(iv.hi, diffs[20]);
  assert.ok(Math.abs(iv.coverage - (1 - 24 / 252)) < 1e-12);
});
