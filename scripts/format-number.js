/**
 * How tagbench prints numbers: the one place that decides rounding, for the terminal, Markdown
 * reports, GitHub issues and summaries, and the site's build step (CSV, feed). Records keep raw
 * numbers; they are formatted only when rendered. No locale, so every runner prints the same
 * digits. (The browser pages format for display with their own separators: site/js/format.js.)
 *
 * The rules:
 * - a ratio in a seed-style table has two decimals (`0.95`), as the seed posts print them; a
 *   ratio in a verdict, an interval or an issue has three (`0.953`), because a 0.5 % step
 *   matters there;
 * - a relative change or noise figure is a percentage with one decimal (`-4.2 %`);
 * - throughput has no decimals from 100 up, three significant digits below;
 * - any other measured value (latency, CPU µs/op, KB/op) keeps about four significant digits
 *   and never uses exponent notation;
 * - a missing or non-finite number prints as `n/a`, never as 0.
 * Bottom of the import graph: imports nothing.
 */

/** What a missing number prints as. */
export const MISSING = 'n/a';

/** Decimals of a ratio, by where it is shown. */
export const RATIO_DIGITS = Object.freeze({ table: 2, verdict: 3 });

/**
 * @param {number|null|undefined} v
 * @returns {v is number}
 */
function isNumber(v) {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * A ratio such as candidate/base.
 * @param {number|null|undefined} ratio
 * @param {{digits?: number}} [options] default RATIO_DIGITS.verdict (use RATIO_DIGITS.table in seed-style tables)
 * @returns {string} e.g. `0.953`; `n/a` for null
 */
export function formatRatio(ratio, options = {}) {
  return isNumber(ratio) ? ratio.toFixed(options.digits ?? RATIO_DIGITS.verdict) : MISSING;
}

/**
 * A ratio as the seed posts print it in their tables: two decimals.
 * @param {number|null|undefined} ratio
 * @returns {string} e.g. `0.95`
 */
export function formatTableRatio(ratio) {
  return formatRatio(ratio, { digits: RATIO_DIGITS.table });
}

/**
 * A confidence interval of a ratio.
 * @param {readonly [number, number]|null|undefined} ci
 * @returns {string} e.g. `[0.912, 0.951]`
 */
export function formatInterval(ci) {
  return ci ? `[${formatRatio(ci[0])}, ${formatRatio(ci[1])}]` : MISSING;
}

/**
 * A relative change or a noise figure (0.05 = 5 %), one decimal.
 * @param {number|null|undefined} fraction
 * @param {{signed?: boolean, digits?: number}} [options] signed: a `+` before positive values;
 *   digits: decimals (default 1; a function's share of a test's total is often under 0.1 %)
 * @returns {string} e.g. `-4.2 %`
 */
export function formatPercent(fraction, options = {}) {
  if (!isNumber(fraction)) return MISSING;
  const text = `${(fraction * 100).toFixed(options.digits ?? 1)} %`;
  return options.signed && fraction > 0 ? `+${text}` : text;
}

/**
 * Throughput (QPS, rows/s): whole numbers from 100 up, three significant digits below.
 * @param {number|null|undefined} qps
 * @returns {string}
 */
export function formatQps(qps) {
  if (!isNumber(qps)) return MISSING;
  return Math.abs(qps) >= 100 ? qps.toFixed(0) : qps.toPrecision(3);
}

/**
 * A measured value with about four significant digits (never exponent notation).
 * @param {number|null|undefined} value
 * @param {{signed?: boolean}} [options] signed: a `+` before positive values
 * @returns {string} `n/a` for null
 */
export function formatValue(value, options = {}) {
  if (!isNumber(value)) return MISSING;
  const abs = Math.abs(value);
  const text = abs >= 1000 ? Math.round(value).toString()
    : abs >= 100 ? value.toFixed(1)
      : abs >= 1 ? value.toFixed(2)
        : abs === 0 ? '0'
          : value.toPrecision(3);
  return options.signed && value > 0 ? `+${text}` : text;
}

/**
 * An instruction count per operation: formatValue's rounding with thousands separators (counts
 * run to six digits, unreadable without them): `+12345.6` → `+12,345.6`.
 * @param {number|null|undefined} value
 * @param {{signed?: boolean}} [options] signed: a `+` before positive values
 * @returns {string} `n/a` for null
 */
export function formatCount(value, options = {}) {
  const text = formatValue(value, options);
  const m = /^([+-]?)(\d+)(.*)$/.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3]}`;
}

/**
 * Median with its spread and, when asked, the sample count, as engineers read it.
 * @param {{median: number, min: number, max: number, n: number}|null|undefined} stats
 * @param {{count?: boolean}} [options] count: add `n=` (issues, summaries)
 * @returns {string} `12034 [11890–12200]`, or `12034 (11890–12200, n=3)` with count
 */
export function formatStats(stats, options = {}) {
  if (!stats) return MISSING;
  if (options.count) return `${formatValue(stats.median)} (${formatValue(stats.min)}–${formatValue(stats.max)}, n=${stats.n})`;
  return stats.n > 1 ? `${formatValue(stats.median)} [${formatValue(stats.min)}–${formatValue(stats.max)}]` : formatValue(stats.median);
}

/**
 * @typedef {object} JudgedChange the parts of a verdict that say how its metric is judged
 * @property {'log'|'linear'} [scale] log: compared as a ratio; linear: as a difference in the unit
 * @property {number|null} ratio candidate / base
 * @property {number|null} [difference] candidate − base, in the unit (linear metrics)
 * @property {string} [unit]
 */

/**
 * The change of a verdict in the form its metric is judged in: relative (`-8.2 %`) for metrics
 * compared as a ratio, absolute with the unit (`+0.12 KB/op`) for those compared as a difference.
 * @param {JudgedChange} t
 * @returns {string}
 */
export function formatChange(t) {
  if (t.scale === 'linear') {
    if (!isNumber(t.difference)) return MISSING;
    return `${formatValue(t.difference, { signed: true })}${t.unit ? ` ${t.unit}` : ''}`;
  }
  return formatPercent(t.ratio === null ? null : t.ratio - 1, { signed: true });
}

/**
 * A threshold, a detectable effect or a noise figure in the metric's terms: a percentage for
 * ratio metrics, an amount in the unit for difference metrics.
 * @param {JudgedChange} t
 * @param {number|null|undefined} value
 * @returns {string}
 */
export function formatEffect(t, value) {
  if (t.scale === 'linear') return isNumber(value) ? `${formatValue(value)}${t.unit ? ` ${t.unit}` : ''}` : MISSING;
  // A counted verdict's MDE of 0.04 % printed "0 %": below one decimal's reach, say so.
  if (isNumber(value) && value > 0 && value < SMALLEST_PERCENT) return `< ${formatPercent(SMALLEST_PERCENT)}`;
  return formatPercent(value);
}

/** The smallest relative change a percentage with one decimal shows (0.1 %). */
export const SMALLEST_PERCENT = 0.001;

/**
 * Past this relative change a detectable effect says nothing a reader can use: a drop can never
 * exceed 100 %, and a rise of thousands of per cent (seen: 39,151 % with two noisy instances)
 * only says the figure is noise.
 */
export const UNDETECTABLE_OVER = 1;
/** The words for such an effect: in sentences and tables, and in the terminal's narrow columns. */
export const UNDETECTABLE = Object.freeze({ long: 'not detectable at this noise', short: '> 100 %' });

/**
 * The words for a detectable change of exactly 0: a figure without noise (a work counter that
 * repeated exactly in every round), where any change at all is seen; "0.0 %" read as a bug.
 */
export const EXACT = Object.freeze({ long: 'exact: any change is seen', short: 'exact' });

/**
 * A smallest detectable change (MDE) as formatEffect gives it, or words when it is past any
 * change a release could make (UNDETECTABLE_OVER), or when the figure has no noise (EXACT).
 * @param {JudgedChange} t
 * @param {number|null|undefined} value
 * @param {{short?: boolean}} [options] short: the terminal's narrow form
 * @returns {string}
 */
export function formatDetectable(t, value, options = {}) {
  if (value === 0) return options.short ? EXACT.short : EXACT.long;
  if (t.scale !== 'linear' && isNumber(value) && value >= UNDETECTABLE_OVER) return options.short ? UNDETECTABLE.short : UNDETECTABLE.long;
  return formatEffect(t, value);
}
