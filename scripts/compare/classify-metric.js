/**
 * Verdict of one test and metric from the server instances of both releases (one value per
 * instance: the median of its repeats; repeats of one server process are not independent).
 *
 * Decision rule (documented in docs/method.md). With the interval of the change at the chosen
 * confidence, oriented so that negative is worse:
 *   regression    the whole interval is on the bad side of "no change" AND the point estimate
 *                 (ratio of medians) is at least the warn threshold bad (level `issue` when it
 *                 reaches the issue threshold);
 *   improvement   the mirror image;
 *   unchanged     the whole interval lies within ±issue threshold (a change that large is
 *                 ruled out);
 *   inconclusive  anything else: the interval is too wide to decide at the threshold;
 *   failed        no valid result on a side (a failed step is never a regression of 100 %).
 * Whether a regression at the issue level may open an issue is decided over the whole run
 * (scripts/compare/family-wise.js); this module gives the one-sided p-value it needs.
 *
 * Two designs, the same rule: independent instances (exact rank interval and rank-sum p-value
 * on the instance values), or, when the releases ran side by side round by round, paired by
 * round (scripts/compare/paired-shift.js: the rounds' differences, paired t). The paired point
 * estimate is the geometric mean of the rounds' ratios (mean difference for linear metrics).
 */
import { formatPercent, formatRatio, formatValue, SMALLEST_PERCENT } from '../format-number.js';
import { SHOWN_RATIO_DIGITS } from './shown-ratio.js';
import { computeShiftInterval } from './shift-interval.js';
import { computeSideStats, computePooledSd, computeMdeShift, combineNoise, shiftToChange } from './noise.js';
import { computeRankSumP } from './family-wise.js';
import { computePairedShift } from './paired-shift.js';

/**
 * @typedef {object} MetricSamples
 * @property {import('./types.js').MetricDef} metric
 * @property {{warn: number, issue: number}} threshold
 * @property {number[]} base one value per server instance of the base release
 * @property {number[]} candidate one value per server instance of the candidate
 * @property {number} confidence two-sided (0.90)
 * @property {number} power for the MDE (0.80)
 * @property {string|null} [failure] why the step has no valid result, when it has none
 * @property {{sd: number, df: number}|null} [history] noise of this test and metric pooled over
 *   earlier runs on the host class (transformed space), to size the detectable effect; for a
 *   paired verdict, the paired history (per side: sd of the round's difference / √2)
 * @property {[number, number][]|null} [pairs] [base, candidate] per round when the releases ran
 *   side by side: the verdict is then paired by round
 * @property {{relative: number, stepMs: number}|null} [resolution] a quantized figure's step
 *   (./latency-resolution.js): the interval is widened by one step each way and the detectable
 *   change is at least one step, so nothing is judged finer than the figure can show
 * @property {boolean} [counted] a counted meter's figure: the reason prints its ratio and
 *   interval with the digits every page shows it with (./shown-ratio.js), five, not three
 */

/**
 * @typedef {Pick<import('./types.js').FullVerdict, 'base'|'candidate'|'ratio'|'ci'|'difference'|'differenceCi'|'coverage'|'mde'|'mdeDrop'|'mdeRise'|'noiseCv'|'noiseDf'|'pWorse'|'pBetter'|'pairedRounds'|'verdict'|'level'|'reason'>} Classified
 */

/**
 * Decimals that tell an interval's ends apart: three, as every verdict's ratio, and up to six
 * for counted figures whose whole interval is narrower than 0.001 ("CI 1.003–1.003" said
 * nothing).
 * @param {[number, number]} iv
 * @returns {number}
 */
function distinctDigits(iv) {
  let digits = 3;
  while (digits < 6 && iv[0].toFixed(digits) === iv[1].toFixed(digits)) digits++;
  return digits;
}

/**
 * @param {MetricSamples} s
 * @returns {Classified}
 */
export function classifyMetric(s) {
  const { metric, threshold } = s;
  const log = metric.scale === 'log';
  const base = computeSideStats(s.base);
  const candidate = computeSideStats(s.candidate);
  const ratio = base && candidate && base.median > 0 ? candidate.median / base.median : null;
  const difference = base && candidate ? candidate.median - base.median : null;
  /** @type {Classified} */
  const out = { base, candidate, ratio, ci: null, difference, differenceCi: null, coverage: null, mde: null, mdeDrop: null, mdeRise: null, noiseCv: null, noiseDf: null, pWorse: null, pBetter: null, verdict: 'failed', level: null, reason: '' };
  if (s.failure || !base || !candidate) {
    out.reason = s.failure ?? `no valid repeat for the ${base ? 'candidate' : 'base'}`;
    return out;
  }
  const f = log ? Math.log : (/** @type {number} */ x) => x;
  const tx = s.base.map(f);
  const ty = s.candidate.map(f);
  const paired = s.pairs ? computePairedShift(s.pairs, s.confidence, log ? 'ratio' : 'difference') : null;
  if (paired) {
    out.pairedRounds = paired.rounds;
    out.ratio = log ? paired.estimate : ratio;
    out.difference = log ? difference : paired.estimate;
  }
  // Per side, like the unpaired figure: the round difference's sd / √2 (its n - 1 df).
  const own = paired ? { sd: paired.sdDiff / Math.SQRT2, df: paired.rounds - 1 } : pooledOwn(tx, ty);
  const noise = combineNoise(own, s.history ?? null);
  const mdeShift = noise === null ? null : computeMdeShift(noise.sd, base.n, candidate.n, s.confidence, s.power, noise.df);
  out.noiseCv = noise?.sd ?? null;
  out.noiseDf = noise?.df ?? null;
  if (mdeShift !== null) {
    out.mdeDrop = log ? shiftToChange(mdeShift, 'drop') : mdeShift;
    out.mdeRise = log ? shiftToChange(mdeShift, 'rise') : mdeShift;
    // The detectable change in the bad direction: a drop for throughput, a rise for latency.
    out.mde = metric.higherIsBetter ? out.mdeDrop : out.mdeRise;
  }
  const step = s.resolution && log ? s.resolution.relative : 0;
  if (step > 0) {
    out.mdeDrop = Math.max(out.mdeDrop ?? 0, step);
    out.mdeRise = Math.max(out.mdeRise ?? 0, step);
    out.mde = metric.higherIsBetter ? out.mdeDrop : out.mdeRise;
  }
  if (paired) {
    out.pWorse = metric.higherIsBetter ? paired.pLess : paired.pGreater;
    out.pBetter = metric.higherIsBetter ? paired.pGreater : paired.pLess;
  } else {
    out.pWorse = computeRankSumP(tx, ty, metric.higherIsBetter ? 'less' : 'greater');
    out.pBetter = computeRankSumP(tx, ty, metric.higherIsBetter ? 'greater' : 'less');
  }
  const fmt = formatter(metric, s.counted ?? false);
  const stepText = step > 0 && s.resolution ? `; values in steps of ${formatValue(s.resolution.stepMs)} ${metric.unit} (${formatPercent(step)}): interval widened by a step each way, MDE at least a step` : '';
  const sizes = paired ? `paired over ${paired.rounds} rounds side by side` : `${base.n} vs ${candidate.n} instances`;
  const spread = paired ? `, per round ${fmt.spread(paired.sdDiff)} of the difference` : '';
  const noiseText = `noise ${noise === null ? 'unknown' : `${fmt.spread(noise.sd)} (${noise.df} df${s.history ? ', pooled with this host\'s history' : ''})${spread}`}, MDE ${out.mde === null ? 'unknown' : `${fmt.change(out.mde)} ${metric.higherIsBetter ? 'drop' : 'rise'}`}${stepText}`;
  const exact = paired ?? computeShiftInterval(s.base, s.candidate, s.confidence, log ? 'ratio' : 'difference');
  const iv = exact && step > 0 ? { ...exact, lo: exact.lo / (1 + step), hi: exact.hi * (1 + step) } : exact;
  if (!iv) {
    out.verdict = 'inconclusive';
    out.reason = `${fmt.point(ratio, difference)}; ${sizes} is too few instances for a ${formatPercent(s.confidence)} interval; ${noiseText}`;
    return out;
  }
  out.coverage = iv.coverage;
  /** @type {[number, number]} */
  const interval = [iv.lo, iv.hi];
  if (log) out.ci = interval;
  else out.differenceCi = interval;
  const point = log ? out.ratio ?? iv.estimate : out.difference ?? iv.estimate;
  const head = `${fmt.point(out.ratio, out.difference)}, ${formatPercent(iv.coverage)} CI ${fmt.interval(interval)} (${sizes})`;
  Object.assign(out, judgeInterval({ point, interval, log, metric, threshold, mde: out.mde }, { fmt, head, noiseText }));
  return out;
}

/**
 * The decision rule of this file's head applied to a point estimate and its interval: which
 * side of "no change" and of the thresholds they lie on, and the reason in words.
 * @param {{point: number, interval: [number, number], log: boolean, metric: import('./types.js').MetricDef, threshold: {warn: number, issue: number}, mde: number|null}} at
 *   the estimate and interval (ratios for a log metric, differences for a linear one)
 * @param {{fmt: ReturnType<typeof formatter>, head: string, noiseText: string}} text the reason's
 *   formatter, its opening (estimate, interval, sizes) and its noise clause
 * @returns {Pick<Classified, 'verdict'|'level'|'reason'>}
 */
function judgeInterval({ point, interval, log, metric, threshold, mde }, { fmt, head, noiseText }) {
  // goodness: > 0 better, < 0 worse, in threshold units (relative for log, absolute for linear)
  const sign = metric.higherIsBetter ? 1 : -1;
  const none = log ? 1 : 0;
  /** @param {number} v */
  const good = (v) => sign * (v - none);
  const gPoint = good(point);
  const gLo = Math.min(good(interval[0]), good(interval[1]));
  const gHi = Math.max(good(interval[0]), good(interval[1]));
  const limits = `warn ${fmt.change(threshold.warn)}, issue ${fmt.change(threshold.issue)}`;
  const better = metric.higherIsBetter ? 'higher' : 'lower';
  if (gHi < 0 && gPoint <= -threshold.warn) {
    const level = gPoint <= -threshold.issue ? 'issue' : 'warn';
    return { verdict: 'regression', level, reason: `${head}: worse, with the whole interval on the bad side of no change (${better} is better), by at least the ${level} threshold (${limits}); ${noiseText}` };
  }
  if (gLo > 0 && gPoint >= threshold.warn) {
    const level = gPoint >= threshold.issue ? 'issue' : 'warn';
    return { verdict: 'improvement', level, reason: `${head}: better, with the whole interval on the good side of no change (${better} is better), by at least the ${level} threshold (${limits}); ${noiseText}` };
  }
  if (gLo >= -threshold.issue && gHi <= threshold.issue) {
    return { verdict: 'unchanged', level: null, reason: `${head}: the interval lies within ±${fmt.change(threshold.issue)}; ${noiseText}` };
  }
  const hint = mde !== null && mde > threshold.issue ? ' (MDE above the threshold: more instances (tagbench compare --adaptive) or a quieter host needed)' : '';
  return { verdict: 'inconclusive', level: null, reason: `${head}: the interval reaches beyond ±${fmt.change(threshold.issue)} and does not settle a change of that size: too noisy to decide at this threshold; ${noiseText}${hint}` };
}

/**
 * Pooled within-release noise of the instance values, with its df.
 * @param {number[]} tx transformed base values
 * @param {number[]} ty transformed candidate values
 * @returns {{sd: number, df: number}|null}
 */
function pooledOwn(tx, ty) {
  const sd = computePooledSd(tx, ty);
  return sd === null ? null : { sd, df: Math.max(0, tx.length - 1) + Math.max(0, ty.length - 1) };
}

/**
 * Number formatting per scale, for reason texts (numbers stay numbers in the verdict fields).
 * @param {import('./types.js').MetricDef} metric
 * @param {boolean} counted ratios at the counted digits (they read "1.050" against "1.04989" elsewhere)
 */
function formatter(metric, counted) {
  const log = metric.scale === 'log';
  const ratioDigits = counted ? SHOWN_RATIO_DIGITS.counted : SHOWN_RATIO_DIGITS.timed;
  const ivDigits = (/** @type {[number, number]} */ iv) => Math.max(ratioDigits, distinctDigits(iv));
  return {
    // A counted MDE of 0.04 % is not "0.0 %": below what one decimal shows, say so.
    /** @param {number} v relative (log) or absolute (linear) change */
    change: (v) => (log ? (v > 0 && v < SMALLEST_PERCENT ? `< ${formatPercent(SMALLEST_PERCENT)}` : formatPercent(v)) : `${formatValue(v)} ${metric.unit}`),
    /** @param {number} v sd in the transformed space */
    spread: (v) => (log ? `CV ${formatPercent(v)}` : `sd ${formatValue(v)} ${metric.unit}`),
    /** @param {[number, number]} iv */
    interval: (iv) => (log ? `${formatRatio(iv[0], { digits: ivDigits(iv) })}–${formatRatio(iv[1], { digits: ivDigits(iv) })}` : `${formatValue(iv[0], { signed: true })}…${formatValue(iv[1], { signed: true })} ${metric.unit}`),
    /**
     * @param {number|null} ratio
     * @param {number|null} diff
     */
    point: (ratio, diff) =>
      log ? `${metric.name} ratio ${ratio === null ? 'n/a' : `${formatRatio(ratio, { digits: ratioDigits })} (${formatPercent(ratio - 1, { signed: true })})`}` : `${metric.name} change ${diff === null ? 'n/a' : `${formatValue(diff, { signed: true })} ${metric.unit}`}`,
  };
}
