/**
 * The warm-up of a repeat: its first seconds, while the per-second rate is still climbing to
 * its steady level, are left out of the figures compare judges (docs/method.md, "Warm-up").
 * LinkBench's request phase starts cold (its driver warms nothing up: at the demo's size it
 * climbs from 2 to several thousand requests/s over its first seconds), and any step whose rate
 * ramps is treated alike. Pure.
 *
 * The rule, per repeat with at least WARMUP_MIN_SAMPLES per-second samples:
 *   steady level  the median rate of the repeat's second half (its last ⌊n/2⌋ samples);
 *   warm-up       the leading samples whose rate is below WARMUP_STEADY_SHARE of that level,
 *                 up to the first sample that reaches it, at most half of the samples;
 *   still ramping the cap was hit: the rate had not reached its steady level by half-time, and
 *                 what is judged is the second half (the report says so: lengthen the step).
 * Judged from what is left: the throughput (scaled by the kept seconds' mean rate over all
 * seconds' mean rate, so the figure keeps the step's own unit: rows/s of a scan, requests/s),
 * the per-second quality-of-service figures (the kept samples only), and the measured duration
 * the minimum-duration rule checks (the repeat's duration less the excluded seconds). Latency
 * and per-operation figures are the driver's over the whole step and stay as they are.
 */

/** Fewer per-second samples than this: no level to tell a ramp by, nothing excluded. */
export const WARMUP_MIN_SAMPLES = 6;
/** A leading second below this share of the steady level is warm-up. */
export const WARMUP_STEADY_SHARE = 0.8;

/**
 * @typedef {object} Warmup what was left out of one repeat
 * @property {number} samples per-second samples excluded (the first ones)
 * @property {number} excludedS seconds excluded (the end of the last excluded sample)
 * @property {number} totalSamples per-second samples of the repeat
 * @property {number} steadyRate the steady level (median rate of the second half)
 * @property {boolean} stillRamping the rate had not reached the level by half-time
 */

/**
 * @param {{t: number, qps: number}[]} intervals per-second samples in time order
 * @returns {Warmup|null} null when nothing is excluded (too few samples, or no ramp)
 */
export function findWarmup(intervals) {
  const n = intervals.length;
  if (n < WARMUP_MIN_SAMPLES) return null;
  const rates = intervals.map((i) => i.qps);
  const secondHalf = rates.slice(n - Math.floor(n / 2)).sort((a, b) => a - b);
  const mid = secondHalf.length / 2;
  const steadyRate = secondHalf.length % 2 === 1 ? secondHalf[Math.floor(mid)] : (secondHalf[mid - 1] + secondHalf[mid]) / 2;
  if (!(steadyRate > 0)) return null;
  const reached = rates.findIndex((r) => r >= WARMUP_STEADY_SHARE * steadyRate);
  const cap = Math.floor(n / 2);
  const samples = Math.min(reached < 0 ? cap : reached, cap);
  if (samples === 0) return null;
  return { samples, excludedS: intervals[samples - 1].t, totalSamples: n, steadyRate, stillRamping: reached < 0 || reached > cap };
}

/**
 * The repeat as compare judges it: without its warm-up (see the module comment).
 * @template {import('../types.js').Repeat} R
 * @param {R} repeat a valid timed repeat
 * @returns {{repeat: R, warmup: Warmup|null}}
 */
export function withoutWarmup(repeat) {
  const intervals = repeat.intervals ?? [];
  const warmup = findWarmup(intervals);
  if (!warmup) return { repeat, warmup: null };
  const kept = intervals.slice(warmup.samples);
  const meanOf = (/** @type {{qps: number}[]} */ list) => list.reduce((s, i) => s + i.qps, 0) / list.length;
  const allMean = meanOf(intervals);
  const throughput = repeat.throughput === null || !(allMean > 0) ? repeat.throughput : repeat.throughput * (meanOf(kept) / allMean);
  return {
    repeat: { ...repeat, throughput, intervals: kept, durationS: Math.max(0, repeat.durationS - warmup.excludedS) },
    warmup,
  };
}
