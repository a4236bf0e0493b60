/**
 * The exact rank-sum p-value and Holm's adjustment that decide what reaches a person.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeRankSumP, adjustHolm, minInstancesFor } from '../../scripts/compare/index.js';
import { computeUCounts } from '../../scripts/compare/shift-interval.js';

test('without ties the p-value is the exact Mann-Whitney tail (checked against the U distribution)', () => {
  // y entirely below x: the most extreme ranking, 1 / C(6, 3)
  assert.equal(computeRankSumP([10, 11, 12], [1, 2, 3], 'less'), 1 / 20);
  assert.equal(computeRankSumP([10, 11, 12], [1, 2, 3], 'greater'), 1);
  // one inversion: U(y > x) = 1 -> P(U <= 1) = 2 / 20
  assert.equal(computeRankSumP([10, 11, 12], [1, 2, 10.5], 'less'), 2 / 20);
  // against the independent recurrence for 5 vs 4
  const x = [5, 7, 9, 11, 13];
  const y = [6, 8, 3, 4];
  const u = y.reduce((s, yi) => s + x.filter((xi) => yi > xi).length, 0);
  const counts = computeUCounts(5, 4);
  const total = counts.reduce((a, b) => a + b, 0);
  const tail = counts.slice(0, u + 1).reduce((a, b) => a + b, 0) / total;
  assert.ok(Math.abs((computeRankSumP(x, y, 'less') ?? 0) - tail) < 1e-15);
});

test('ties get mid-ranks and the exact distribution of those ranks', () => {
  // every value equal: no evidence either way
  assert.equal(computeRankSumP([0, 0, 0], [0, 0, 0], 'less'), 1);
  // stall shares often tie at 0: two zeros each side, the candidate's others higher
  const p = computeRankSumP([0, 0, 0.01], [0, 0, 0.2], 'greater') ?? 0;
  assert.ok(p > 1 / 20 && p < 1, `p ${p}`);
  assert.equal(computeRankSumP([], [1], 'less'), null);
});

test('Holm: adjusted p-values are monotone and at least the raw ones', () => {
  const adj = adjustHolm([0.01, 0.04, 0.03, 0.2]);
  assert.deepEqual(adj.map((v) => Number(v.toFixed(6))), [0.04, 0.09, 0.09, 0.2]);
  assert.deepEqual(adjustHolm([]), []);
});

test('minimum instances per side the exact test needs for a one-sided level', () => {
  assert.equal(minInstancesFor(0.05), 3); // 1 / 20
  assert.equal(minInstancesFor(0.05 / 38), 6); // 1 / 924
  assert.equal(minInstancesFor(0.05 / 114), 7); // 1 / 3432
});
