/**
 * Exact distribution-free confidence interval of a location shift between two samples, from
 * the Mann–Whitney (Wilcoxon rank-sum) null distribution: the Hodges–Lehmann / Moses interval
 * (Hollander & Wolfe, "Nonparametric Statistical Methods", §4.3). Applied to ln(values) it
 * gives an interval for the ratio candidate / base that assumes no distribution shape, needs
 * no random numbers (results are reproducible to the bit) and is exact for small samples such
 * as 3 repeats per release.
 *
 * Written here because no well-kept JavaScript library computes this interval:
 * simple-statistics has the rank-sum statistic only and permutation tests with Math.random;
 * the small npm Mann–Whitney packages use the normal approximation, which is wrong for n = 3.
 */

/**
 * Null distribution of the Mann–Whitney U statistic (number of pairs y > x) for sample sizes
 * m and n, as counts of the C(m+n, m) equally likely rankings (no ties).
 * Recurrence: the largest observation is either a y (adds m to U) or an x.
 * @param {number} m size of the first sample
 * @param {number} n size of the second sample
 * @returns {number[]} counts indexed by u = 0..m*n (floats: exact up to 2^53)
 */
export function computeUCounts(m, n) {
  // table[i][j] = counts for sizes (i, j), built bottom-up over j for each i
  /** @type {number[][][]} */
  const table = [];
  for (let i = 0; i <= m; i++) {
    table.push([]);
    for (let j = 0; j <= n; j++) {
      if (i === 0 || j === 0) {
        table[i].push([1]);
        continue;
      }
      const withY = table[i][j - 1]; // largest is a y: U grows by i
      const withX = table[i - 1][j]; // largest is an x: U unchanged
      const out = new Array(i * j + 1).fill(0);
      for (let u = 0; u < withY.length; u++) out[u + i] += withY[u];
      for (let u = 0; u < withX.length; u++) out[u] += withX[u];
      table[i].push(out);
    }
  }
  return table[m][n];
}

/**
 * Interval for the shift `y - x` (or the ratio `y / x`, which is the shift of ln values and
 * gives the same ranks; computed on the ratios directly so that the bounds are exact
 * quotients of two observations) at (at least) the requested two-sided confidence.
 * @param {number[]} x first sample (base)
 * @param {number[]} y second sample (candidate)
 * @param {number} confidence two-sided level, 0 < confidence < 1 (0.90 = 90 %)
 * @param {'difference'|'ratio'} [scale] ratio needs positive values
 * @returns {import('./types.js').ShiftInterval|null} null when the samples are too small for
 *   that confidence (e.g. 2 vs 2 repeats cannot give 90 %: the most extreme ranking already has
 *   probability 1/6)
 * @throws {RangeError} when confidence is outside (0, 1)
 */
export function computeShiftInterval(x, y, confidence, scale = 'difference') {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) return null;
  /** @type {number[]} */
  const diffs = [];
  for (const xi of x) for (const yj of y) diffs.push(scale === 'ratio' ? yj / xi : yj - xi);
  diffs.sort((a, b) => a - b);
  const counts = computeUCounts(m, n);
  const total = counts.reduce((a, b) => a + b, 0);
  // Largest k with P(U <= k-1) <= alpha/2; the interval is [d_(k), d_(mn+1-k)]. Compared in
  // counts with a tolerance so that 1/20 vs (1 - 0.9) / 2 = 0.04999... does not lose a level.
  const tailAllowed = ((1 - confidence) / 2) * total * (1 + 1e-9);
  let k = 0;
  let cumulative = 0;
  while (k < counts.length && cumulative + counts[k] <= tailAllowed) {
    cumulative += counts[k];
    k++;
  }
  if (k === 0) return null;
  const mid = diffs.length / 2;
  const estimate = diffs.length % 2 === 1 ? diffs[Math.floor(mid)] : scale === 'ratio' ? Math.sqrt(diffs[mid - 1] * diffs[mid]) : (diffs[mid - 1] + diffs[mid]) / 2;
  return { estimate, lo: diffs[k - 1], hi: diffs[diffs.length - k], coverage: 1 - (2 * cumulative) / total };
}
