/**
 * Summary statistics of repeats, the pooled noise of a test and the minimum detectable effect
 * (MDE) that noise allows.
 *
 * MDE formula (two-sample, equal-variance approximation in the transformed space: ln(values)
 * for ratio metrics):
 *
 *   MDE = (t[1 - α/2, df] + t[power, df]) · s_pooled · sqrt(1/m + 1/n),   df = m + n - 2
 *
 * with α = 1 - confidence (the interval is two-sided, and a regression needs its whole
 * interval on the bad side, i.e. a one-sided test at α/2) and power = 0.80 by default. For log
 * metrics the MDE is reported as a relative change, exp(MDE) - 1. The verdicts use the exact
 * rank interval, whose power for normal noise is close to the t-test's (asymptotic relative
 * efficiency 3/π ≈ 0.955), so this is the usual planning figure, not an exact property of the
 * rank test; bench/calibration-*.md measures the real detection rate.
 */
import { median, min, max, sampleVariance } from 'simple-statistics';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/**
 * @param {number[]} values one per valid repeat
 * @returns {import('./types.js').SideStats|null} null for no values
 */
export function computeSideStats(values) {
  if (values.length === 0) return null;
  return { median: median(values), min: min(values), max: max(values), n: values.length };
}

/**
 * Pooled within-release standard deviation of two samples (each needs >= 2 values to count).
 * @param {number[]} x transformed values of one release
 * @param {number[]} y transformed values of the other
 * @returns {number|null} null when neither sample has 2 values
 */
export function computePooledSd(x, y) {
  let sum = 0;
  let df = 0;
  for (const s of [x, y]) {
    if (s.length < 2) continue;
    sum += sampleVariance(s) * (s.length - 1);
    df += s.length - 1;
  }
  return df === 0 ? null : Math.sqrt(sum / df);
}

/**
 * Noise of one test and metric pooled over earlier groups of values (each group: the
 * instance-level values of one release in one run, transformed), weighted by degrees of freedom.
 * @param {number[][]} groups
 * @returns {{sd: number, df: number}|null} null when no group has 2 values
 */
export function poolNoise(groups) {
  let sum = 0;
  let df = 0;
  for (const g of groups) {
    if (g.length < 2) continue;
    sum += sampleVariance(g) * (g.length - 1);
    df += g.length - 1;
  }
  return df === 0 ? null : { sd: Math.sqrt(sum / df), df };
}

/**
 * Combine two independent noise estimates of the same quantity (this comparison's and the
 * history's), weighted by their degrees of freedom.
 * @param {{sd: number, df: number}|null} a
 * @param {{sd: number, df: number}|null} b
 * @returns {{sd: number, df: number}|null}
 */
export function combineNoise(a, b) {
  if (!a) return b;
  if (!b) return a;
  const df = a.df + b.df;
  return { sd: Math.sqrt((a.df * a.sd ** 2 + b.df * b.sd ** 2) / df), df };
}

/**
 * A detectable shift in ln(values) as a relative change in one direction: a drop of
 * 1 - e^(-shift) or a rise of e^shift - 1 (for 10 % noise, 22 % and 28 %: not the same size).
 * @param {number} shift >= 0, in ln units
 * @param {'drop'|'rise'} direction
 * @returns {number} relative change, positive
 */
export function shiftToChange(shift, direction) {
  return direction === 'drop' ? -Math.expm1(-shift) : Math.expm1(shift);
}

/**
 * Minimum detectable shift in the transformed space (see the module comment for the formula).
 * @param {number} sd pooled standard deviation in the transformed space
 * @param {number} m repeats of the base
 * @param {number} n repeats of the candidate
 * @param {number} confidence two-sided confidence of the interval (0.90)
 * @param {number} power probability of detecting a shift of that size (0.80)
 * @param {number} [noiseDf] degrees of freedom of sd (default m + n - 2: sd from these samples
 *   alone; more when the noise is pooled over the test's history)
 * @returns {number|null} null when there are no degrees of freedom
 */
export function computeMdeShift(sd, m, n, confidence, power, noiseDf = m + n - 2) {
  const df = noiseDf;
  if (df < 1 || m < 1 || n < 1) return null;
  const alpha = 1 - confidence;
  return (tQuantile(1 - alpha / 2, df) + tQuantile(power, df)) * sd * Math.sqrt(1 / m + 1 / n);
}
