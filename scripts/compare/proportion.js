/**
 * Exact (Clopper–Pearson) bounds of a rate measured as x events in n trials: the calibration's
 * false-issue rate per run and detection rates, never reported without them. Beta quantiles
 * from @stdlib/stats-base-dists-beta-quantile.
 */
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';

/**
 * Two-sided interval at `confidence`.
 * @param {number} x events
 * @param {number} n trials (> 0)
 * @param {number} [confidence] default 0.95
 * @returns {[number, number]}
 */
export function clopperPearson(x, n, confidence = 0.95) {
  const a = (1 - confidence) / 2;
  const lo = x === 0 ? 0 : betaQuantile(a, x, n - x + 1);
  const hi = x === n ? 1 : betaQuantile(1 - a, x + 1, n - x);
  return [lo, hi];
}

/**
 * One-sided upper bound at `confidence` (0 false issues in 10 runs: 25.9 % at 95 %).
 * @param {number} x events
 * @param {number} n trials (> 0)
 * @param {number} [confidence] default 0.95
 * @returns {number}
 */
export function upperBound(x, n, confidence = 0.95) {
  return x === n ? 1 : betaQuantile(confidence, x + 1, n - x);
}
