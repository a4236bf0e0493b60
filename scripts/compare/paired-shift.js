/**
 * The change between two releases that ran side by side, round by round: each round gives one
 * difference d = f(candidate) − f(base) of its two instances (f = ln for ratio metrics), and
 * the round's drift (the host's speed that minute, the datadirs both servers changed alike)
 * cancels in d. Paired t on the rounds' differences: estimate mean(d), interval
 * mean ± t[1 − α/2, n − 1] · sd(d) / √n, one-sided p-values from the t distribution with n − 1 df
 * (docs/method.md, "Paired by round").
 *
 * Why t and not Wilcoxon's signed-rank test: an exact sign-flip test of n rounds cannot give a
 * p-value below 2⁻ⁿ, so an issue under Holm over a run's ~100 gated verdicts would need 12
 * rounds; the t statistic has no such floor. What it assumes (a difference symmetric about its
 * mean, light enough tails) is measured, not hoped: bench/verdict-statistics.js runs it on
 * simulated rounds with a round effect, heavy tails and stalls, and bench/paired-verdicts.js on
 * the calibrations' real rounds.
 */
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/**
 * @typedef {object} PairedShift
 * @property {number} rounds n, the pairs
 * @property {number} meanDiff mean of d (transformed space)
 * @property {number} sdDiff sample sd of d (n − 1 df)
 * @property {number} estimate back-transformed mean: e^mean for a ratio, mean for a difference
 * @property {number} lo interval, back-transformed like the estimate
 * @property {number} hi
 * @property {number} coverage the requested two-sided confidence (nominal: exact for normal d)
 * @property {number} pLess one-sided p-value that the candidate is lower than the base
 * @property {number} pGreater one-sided p-value that it is higher
 */

/**
 * @param {[number, number][]} pairs [base, candidate] values of each round (untransformed)
 * @param {number} confidence two-sided, 0 < confidence < 1
 * @param {'ratio'|'difference'} scale ratio: on ln(values), which must be positive
 * @returns {PairedShift|null} null with fewer than 2 rounds
 * @throws {RangeError} when confidence is outside (0, 1) or a ratio value is not positive
 */
export function computePairedShift(pairs, confidence, scale) {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const n = pairs.length;
  if (n < 2) return null;
  const d = pairs.map(([b, c]) => {
    if (scale === 'ratio' && !(b > 0 && c > 0)) throw new RangeError(`paired ratio needs positive values, got ${b} and ${c}`);
    return scale === 'ratio' ? Math.log(c) - Math.log(b) : c - b;
  });
  const meanDiff = d.reduce((a, b) => a + b, 0) / n;
  const sdDiff = Math.sqrt(d.reduce((a, v) => a + (v - meanDiff) ** 2, 0) / (n - 1));
  const se = sdDiff / Math.sqrt(n);
  const half = tQuantile(1 - (1 - confidence) / 2, n - 1) * se;
  // Every round moved by the same amount: no spread, so the sign of the mean decides.
  const t = se > 0 ? meanDiff / se : meanDiff === 0 ? 0 : Math.sign(meanDiff) * Infinity;
  const back = (/** @type {number} */ v) => (scale === 'ratio' ? Math.exp(v) : v);
  return {
    rounds: n, meanDiff, sdDiff,
    estimate: back(meanDiff), lo: back(meanDiff - half), hi: back(meanDiff + half), coverage: confidence,
    pLess: tCdf(t, n - 1), pGreater: 1 - tCdf(t, n - 1),
  };
}

/**
 * Pair two sides' instance values by round: a pair when both sides have a value under the same
 * round key (the run both records belong to, and the instance). All or nothing: when any
 * instance of either side has no partner (a base measured in other runs, a round one side lost),
 * the comparison is not paired.
 * @param {{key: string|null, value: number}[]} base
 * @param {{key: string|null, value: number}[]} candidate
 * @returns {[number, number][]|null} [base, candidate] per round, in the base's order; null when
 *   the sides do not pair one to one
 */
export function pairByRound(base, candidate) {
  if (base.length !== candidate.length || base.length === 0) return null;
  /** @type {Map<string, number>} */
  const byKey = new Map();
  for (const c of candidate) {
    if (c.key === null || byKey.has(c.key)) return null;
    byKey.set(c.key, c.value);
  }
  /** @type {[number, number][]} */
  const pairs = [];
  for (const b of base) {
    const c = b.key === null ? undefined : byKey.get(b.key);
    if (c === undefined) return null;
    byKey.delete(/** @type {string} */ (b.key)); // a base key twice finds no partner the second time
    pairs.push([b.value, c]);
  }
  return pairs;
}
