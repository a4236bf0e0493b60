/**
 * What reaches a person is controlled over the whole run, not test by test: each gated verdict
 * gets an exact one-sided p-value for "the candidate is worse", and Holm's step-down procedure
 * over every gated verdict of the comparison decides which regressions may open an issue
 * (docs/method.md, "Family-wise control").
 *
 * The p-value is the exact Wilcoxon rank-sum (Mann–Whitney) test on instance-level values, with
 * mid-ranks for ties. Written here because no well-kept JavaScript library computes it exactly
 * with ties: the small npm Mann–Whitney packages use the normal approximation, which is wrong for
 * 3 to 10 values per side, and simple-statistics' permutation test draws random numbers (the
 * verdicts must be reproducible to the bit). Holm's adjustment comes from @stdlib/stats-padjust.
 */
import padjust from '@stdlib/stats-padjust';

/**
 * Exact one-sided p-value that `y` is shifted below `x` (P(W <= w) for W the sum of y's ranks in
 * the pooled sample), or above it with `direction: 'greater'`. Ties get mid-ranks and the null
 * distribution is that of the actual mid-ranks, so ties make the test conservative, never wrong.
 * @param {number[]} x first sample (base)
 * @param {number[]} y second sample (candidate)
 * @param {'less'|'greater'} direction alternative: y less than x, or greater
 * @returns {number|null} null when a side is empty
 */
export function computeRankSumP(x, y, direction) {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) return null;
  const pooled = [...x.map((v) => ({ v, y: false })), ...y.map((v) => ({ v, y: true }))].sort((a, b) => a.v - b.v);
  // Doubled mid-ranks are integers: exact counting over integer sums.
  /** @type {number[]} */
  const ranks2 = new Array(pooled.length);
  for (let i = 0; i < pooled.length;) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1].v === pooled[i].v) j++;
    for (let k = i; k <= j; k++) ranks2[k] = i + j + 2;
    i = j + 1;
  }
  const observed = pooled.reduce((s, p, i) => (p.y ? s + ranks2[i] : s), 0);
  // counts[k][s] = number of k-subsets of the items seen so far whose doubled ranks sum to s
  const maxSum = ranks2.reduce((a, b) => a + b, 0);
  /** @type {Float64Array[]} */
  const counts = Array.from({ length: n + 1 }, (_, k) => {
    const row = new Float64Array(maxSum + 1);
    if (k === 0) row[0] = 1;
    return row;
  });
  let reach = 0; // largest sum reachable so far
  for (const [i, r] of ranks2.entries()) {
    // In place, larger k first: each item joins a subset at most once (0/1 knapsack order).
    for (let k = Math.min(n, i + 1); k >= 1; k--) {
      const from = counts[k - 1];
      const to = counts[k];
      for (let s = reach; s >= 0; s--) if (from[s] !== 0) to[s + r] += from[s];
    }
    reach += r;
  }
  const dist = counts[n];
  let total = 0;
  let tail = 0;
  for (let s = 0; s <= maxSum; s++) {
    total += dist[s];
    if (direction === 'less' ? s <= observed : s >= observed) tail += dist[s];
  }
  return tail / total;
}

/**
 * Holm-adjusted p-values (each the smallest family-wise level at which that hypothesis is
 * rejected by Holm's step-down procedure).
 * @param {number[]} pValues
 * @returns {number[]} same order
 */
export function adjustHolm(pValues) {
  if (pValues.length === 0) return [];
  return /** @type {number[]} */ (padjust(pValues, 'holm'));
}

/**
 * Smallest number of instances per side for which the exact rank-sum test can reach a
 * one-sided p-value of `alpha` at all (the most extreme ranking has probability 1 / C(2n, n)).
 * @param {number} alpha
 * @returns {number}
 */
export function minInstancesFor(alpha) {
  let n = 1;
  let c = 2; // C(2, 1)
  while (1 / c > alpha && n < 100) {
    n++;
    c = (c * (2 * n) * (2 * n - 1)) / (n * n);
  }
  return n;
}
