/**
 * How a verdict's outcome is worded wherever a verdict is printed (terminal, Markdown, issue,
 * check run, site). One rule above all: "unchanged" is not printed for an interval that excludes
 * no change. An `unchanged` verdict whose whole interval lies on one side of no change measured a
 * change, only one smaller than the warn threshold (scripts/compare/classify-metric.js: a
 * regression or improvement needs the estimate at the warn threshold), so it says so:
 * "+0.25 % [0.22, 0.28], under the warn threshold". The verdict's class, what gates, stays as it
 * is; only its words change. Pure.
 */
import { formatValue } from '../format-number.js';

/**
 * @typedef {object} WordedVerdict the parts of a verdict its words are made of
 * @property {import('../types.js').VerdictClass} verdict
 * @property {'log'|'linear'} [scale]
 * @property {number|null} ratio
 * @property {[number, number]|null} ci
 * @property {number|null} [difference]
 * @property {[number, number]|null} [differenceCi]
 * @property {string} [unit]
 */

/**
 * The most decimals a percentage gets: counted intervals are a few hundredths of a percent wide,
 * and an interval of exact counts (every repeat the same) has no width at all.
 */
const MAX_PERCENT_DECIMALS = 3;

/**
 * The change a verdict measured, with its interval, for an interval that excludes no change;
 * null when the interval contains no change or is missing (nothing was measured to move).
 * @param {WordedVerdict} v
 * @returns {string|null} e.g. `+0.25 % [0.22, 0.28]`, `-0.012 ratio [-0.02, -0.004]` (linear)
 */
export function describeMeasuredChange(v) {
  if (v.scale === 'linear') {
    const ci = v.differenceCi;
    if (!ci || typeof v.difference !== 'number' || !(ci[0] > 0 || ci[1] < 0)) return null;
    const unit = v.unit ? ` ${v.unit}` : '';
    return `${formatValue(v.difference, { signed: true })}${unit} [${formatValue(ci[0])}, ${formatValue(ci[1])}]`;
  }
  const ci = v.ci;
  if (!ci || typeof v.ratio !== 'number' || !(ci[0] > 1 || ci[1] < 1)) return null;
  return formatPercentInterval(v.ratio - 1, [ci[0] - 1, ci[1] - 1]);
}

/**
 * A verdict's outcome in words: its class, except an `unchanged` verdict whose interval excludes
 * no change, which gives the change it measured and that it is under the warn threshold.
 * @param {WordedVerdict} v
 * @returns {string} `regression`, `unchanged`, `+0.25 % [0.22, 0.28], under the warn threshold`, …
 */
export function describeVerdict(v) {
  if (v.verdict !== 'unchanged') return v.verdict;
  const measured = describeMeasuredChange(v);
  return measured === null ? 'unchanged' : `${measured}, under the warn threshold`;
}

/**
 * A relative change and its interval as percentages, with as many decimals as the first
 * significant digit of the interval's half-width needs (one at least): a counted interval of
 * 1.0022–1.0028 prints as `[0.22, 0.28]`, not as `[0.2, 0.3]`, and neither end rounds to zero.
 * @param {number} change ratio − 1
 * @param {[number, number]} interval its ends, ratio − 1
 * @returns {string} e.g. `+0.25 % [0.22, 0.28]`
 */
export function formatPercentInterval(change, interval) {
  const [lo, hi] = interval.map((x) => x * 100);
  const width = Math.abs(hi - lo);
  let decimals = width > 0 ? Math.max(1, Math.ceil(-Math.log10(width / 2))) : 1;
  const zero = (/** @type {number} */ x) => Number(x.toFixed(decimals)) === 0;
  while (decimals < MAX_PERCENT_DECIMALS && (zero(lo) || zero(hi))) decimals += 1;
  decimals = Math.min(decimals, MAX_PERCENT_DECIMALS);
  const pct = change * 100;
  const point = pct.toFixed(decimals);
  return `${pct > 0 ? '+' : ''}${point} % [${lo.toFixed(decimals)}, ${hi.toFixed(decimals)}]`;
}

/**
 * A verdict's label in a report: its words (describeVerdict), its level, whether a rerun
 * confirmed it, and, for a verdict shown as context (./context-verdicts.js), that it is not gated.
 * @param {WordedVerdict & {level?: 'warn'|'issue'|null, confirmed?: boolean, context?: boolean}} v
 * @returns {string} e.g. `regression (issue), confirmed`, `context, not gated: inconclusive`
 */
export function labelVerdict(v) {
  const level = v.level ? ` (${v.level})` : '';
  const conf = v.confirmed === true ? ', confirmed' : v.confirmed === false ? ', not confirmed' : '';
  return `${v.context ? 'context, not gated: ' : ''}${describeVerdict(v)}${level}${conf}`;
}
