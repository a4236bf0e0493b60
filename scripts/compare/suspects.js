/**
 * Suspects: inconclusive verdicts of a test's primary figure (throughput, instructions per
 * operation) that lean the bad way, apart from pure noise. An inconclusive verdict whose
 * interval straddles no change evenly (scan at 1.00 [0.44, 2.27]) says nothing; one whose
 * interval lies almost all on the bad side (l.i1 at 0.66 [0.42, 1.02]), or three quarters of it
 * with the estimate past the issue threshold, is where a reader should look first, with what
 * would settle it: the instances (rounds) per side at which, at the noise measured, the verdict
 * could detect a change of the issue threshold's size. Pure.
 */
import { computeMdeShift } from './noise.js';

/** @typedef {import('./types.js').FullVerdict} FullVerdict */

/**
 * Share of the interval that must lie on the bad side of no change for a verdict to be a suspect
 * on its interval alone. For a symmetric interval at 90 % this is an estimate at least 0.8 of
 * the interval's half-width from no change (one-sided p about 0.06-0.1 by the degrees of
 * freedom): an interval that barely crosses no change (l.i1: 0.66 [0.42, 1.02], 98 %) is one,
 * one centred on it (a half) never is. Three quarters was tried first: with pure noise a
 * fifth of all verdicts reach it (42 suspects on one release page of the site's test store).
 */
export const SUSPECT_BAD_SHARE = 0.9;
/** The share that suffices when the estimate is also past the issue threshold. */
export const SUSPECT_PAST_ISSUE_SHARE = 0.75;
/**
 * The metrics suspects are looked for in: each test's primary figure per meter. Every other
 * gated metric (latencies, CPU and KB per operation, QoS) multiplies the verdicts several times
 * over, and with them the noise that leans the bad way by chance.
 */
export const SUSPECT_METRICS = Object.freeze(['throughput', 'instructionsPerOp']);

/** More instances per side than this are not offered as a way to settle a verdict. */
const MAX_SETTLE_INSTANCES = 60;

/**
 * @typedef {object} Suspect
 * @property {string} test
 * @property {string} metric
 * @property {string} [meter] its verdict's meter (absent: the timed repeat's own figures)
 * @property {boolean} [counted] its verdict's figures are counted repeats
 * @property {number|null} ratio log metrics: the verdict's ratio
 * @property {number|null} difference linear metrics: the verdict's difference
 * @property {[number, number]} interval the verdict's interval (ratio or difference)
 * @property {number} badShare share of the interval on the bad side of no change (0..1; on a log
 *   scale for ratios)
 * @property {boolean} pastIssue the estimate is past the issue threshold in the bad direction
 * @property {string} why the reason in words, for the reader
 * @property {number} instances instances (rounds when paired) per side the verdict had
 * @property {number|null} settleInstances instances (rounds) per side at which, at this noise, a
 *   change of the issue threshold's size would be detected (MDE at the threshold); null when
 *   that needs more than MAX_SETTLE_INSTANCES or the noise is unknown
 * @property {number|null} estimateInstances instances (rounds) per side at which a change of the
 *   estimate's own size would be detected: whether the lean is real; null as above
 * @property {boolean} paired the instances are rounds side by side
 * @property {string} settle what would settle it, in words (every view prints this sentence)
 */

/**
 * The suspects of a comparison, most suspicious first (largest share of the interval on the bad
 * side, then the farthest estimate).
 * @param {{tests: FullVerdict[], thresholds?: {confidence?: number, power?: number}}} comparison
 * @returns {Suspect[]}
 */
export function findSuspects(comparison) {
  const confidence = comparison.thresholds?.confidence ?? 0.9;
  const power = comparison.thresholds?.power ?? 0.8;
  /** @type {Suspect[]} */
  const out = [];
  for (const t of comparison.tests) {
    if (t.verdict !== 'inconclusive' || !SUSPECT_METRICS.includes(t.metric)) continue;
    const log = t.scale !== 'linear';
    const interval = log ? t.ci : t.differenceCi ?? null;
    if (!interval) continue;
    // In the metric's own terms, negative = bad: ln(ratio) or the difference, sign-flipped for
    // metrics where lower is better.
    const sign = t.higherIsBetter ? 1 : -1;
    const toShift = (/** @type {number} */ v) => sign * (log ? Math.log(v) : v);
    const lo = Math.min(toShift(interval[0]), toShift(interval[1]));
    const hi = Math.max(toShift(interval[0]), toShift(interval[1]));
    const estimate = log ? (t.ratio === null ? null : toShift(t.ratio)) : (t.difference === null ? null : toShift(t.difference));
    const badShare = hi <= 0 ? 1 : lo >= 0 ? 0 : -lo / (hi - lo);
    // Stored comparisons from before verdicts carried their thresholds (and hand-written ones)
    // still show their suspects, by the interval alone.
    const threshold = t.threshold ?? null;
    const pastIssue = threshold !== null && estimate !== null && estimate <= -thresholdShift(t, log);
    if (badShare < SUSPECT_BAD_SHARE && !(pastIssue && badShare >= SUSPECT_PAST_ISSUE_SHARE)) continue;
    const paired = Boolean(t.pairedRounds);
    const instances = paired ? /** @type {number} */ (t.pairedRounds) : Math.min(t.base?.n ?? 0, t.candidate?.n ?? 0);
    const why = `${Math.round(badShare * 100)} % of its interval is on the bad side${pastIssue ? ' and its estimate is past the issue threshold' : ''}`;
    const settleInstances = threshold === null ? null : instancesFor(t, thresholdShift(t, log), confidence, power);
    const estimateInstances = estimate !== null && estimate < 0 ? instancesFor(t, -estimate, confidence, power) : null;
    out.push({
      test: t.test, metric: t.metric, ratio: log ? t.ratio : null, difference: log ? null : t.difference, interval,
      badShare, pastIssue, why, instances, paired, settleInstances, estimateInstances,
      settle: describeSettle({ paired, instances, settleInstances, estimateInstances }),
      // Its verdict's meter facts: readers print a counted suspect with a counted verdict's decimals.
      ...(t.meter ? { meter: t.meter } : {}), ...(t.counted ? { counted: true } : {}),
    });
  }
  return out.sort((a, b) => b.badShare - a.badShare || (a.ratio ?? 0) - (b.ratio ?? 0));
}

/**
 * The issue threshold as a shift in the verdict's own terms (ln of the ratio, or the difference).
 * @param {FullVerdict} t
 * @param {boolean} log
 * @returns {number} > 0
 */
function thresholdShift(t, log) {
  return log ? Math.abs(Math.log1p(t.higherIsBetter ? -t.threshold.issue : t.threshold.issue)) : t.threshold.issue;
}

/**
 * Instances per side at which the verdict's MDE reaches `target` at the noise measured: the
 * interval then either excludes a change of that size or shows one. The noise's degrees of
 * freedom grow with the instances (a paired verdict's come from its rounds; noise pooled with the
 * host's history keeps at least what it had).
 * @param {FullVerdict} t
 * @param {number} target a shift in the verdict's terms, > 0
 * @param {number} confidence
 * @param {number} power
 * @returns {number|null}
 */
function instancesFor(t, target, confidence, power) {
  const sd = t.noiseCv;
  if (sd === null || sd === undefined || !(sd > 0)) return null;
  const paired = Boolean(t.pairedRounds);
  const had = paired ? /** @type {number} */ (t.pairedRounds) : Math.min(t.base?.n ?? 0, t.candidate?.n ?? 0);
  const dfHad = t.noiseDf ?? (paired ? had - 1 : 2 * had - 2);
  for (let n = Math.max(2, had); n <= MAX_SETTLE_INSTANCES; n++) {
    const df = Math.max(dfHad + (paired ? n - had : 2 * (n - had)), 1);
    const shift = computeMdeShift(sd, n, n, confidence, power, df);
    if (shift !== null && shift <= target) return n;
  }
  return null;
}

/**
 * What would settle a suspect, in one sentence: the instances (rounds) per side that would test
 * the lean, and those that would settle the issue threshold.
 * @param {{paired: boolean, instances: number, settleInstances: number|null, estimateInstances: number|null}} s
 * @returns {string}
 */
function describeSettle(s) {
  const unit = s.paired ? 'rounds' : 'instances';
  const lean = s.estimateInstances !== null && s.estimateInstances > s.instances && (s.settleInstances === null || s.estimateInstances < s.settleInstances)
    ? `about ${s.estimateInstances} ${unit} per side would show whether a change of the estimate's size is real; ` : '';
  if (s.settleInstances === null) return `${lean}the issue threshold is not settled by more ${unit} at this noise (over ${MAX_SETTLE_INSTANCES} per side, or no thresholds stored): a quieter host or a longer test`;
  if (s.settleInstances <= s.instances) return 'its MDE is already at the issue threshold: a change about the threshold\'s size; rerun it (tagbench confirm)';
  return `${lean}about ${s.settleInstances} ${unit} per side would settle it at the issue threshold (has ${s.instances}; tagbench compare --adaptive)`;
}
