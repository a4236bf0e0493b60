/**
 * Number formatting for issue and summary tables. Numbers are stored raw in the records and
 * formatted only here, when rendering (STYLE.md §3). No locale: the same digits on every runner.
 */

/**
 * A measured value with about four significant digits (never exponent notation).
 * @param {number|null|undefined} value
 * @returns {string} `n/a` for null
 */
export function formatValue(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toString();
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return '0';
  return value.toPrecision(3);
}

/**
 * A ratio such as candidate/base, three decimals.
 * @param {number|null|undefined} ratio
 * @returns {string}
 */
export function formatRatio(ratio) {
  return ratio === null || ratio === undefined || !Number.isFinite(ratio) ? 'n/a' : ratio.toFixed(3);
}

/**
 * A relative change (0.05 = 5 %), signed when asked.
 * @param {number|null|undefined} fraction
 * @param {{signed?: boolean}} [options]
 * @returns {string} e.g. `-4.2 %`
 */
export function formatPercent(fraction, options = {}) {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return 'n/a';
  const text = `${(fraction * 100).toFixed(1)} %`;
  return options.signed && fraction > 0 ? `+${text}` : text;
}

/**
 * A confidence interval of a ratio.
 * @param {[number, number]|null|undefined} ci
 * @returns {string} e.g. `[0.912, 0.951]`
 */
export function formatInterval(ci) {
  return ci ? `[${formatRatio(ci[0])}, ${formatRatio(ci[1])}]` : 'n/a';
}

/**
 * Median with its spread and sample count, as engineers read it: `12034 (11890–12200, n=3)`.
 * @param {{median: number, min: number, max: number, n: number}|null} stats
 * @returns {string}
 */
export function formatStats(stats) {
  if (!stats) return 'n/a';
  return `${formatValue(stats.median)} (${formatValue(stats.min)}–${formatValue(stats.max)}, n=${stats.n})`;
}

/**
 * The change of a verdict in the form its metric is judged in: relative (`-8.2 %`) for metrics
 * compared as a ratio, absolute with the unit (`+0.12 KB/op`) for those compared as a difference.
 * @param {import('./types.js').ReportedVerdict} t
 * @returns {string}
 */
export function formatChange(t) {
  if (t.scale === 'linear') {
    if (t.difference === null || t.difference === undefined) return 'n/a';
    return `${t.difference > 0 ? '+' : ''}${formatValue(t.difference)}${t.unit ? ` ${t.unit}` : ''}`;
  }
  return formatPercent(t.ratio === null ? null : t.ratio - 1, { signed: true });
}

/**
 * A threshold or a detectable effect in the metric's terms: a fraction for ratio metrics, an
 * amount in the unit for difference metrics.
 * @param {import('./types.js').ReportedVerdict} t
 * @param {number|null|undefined} value
 * @returns {string}
 */
export function formatEffect(t, value) {
  if (t.scale === 'linear') return value === null || value === undefined ? 'n/a' : `${formatValue(value)}${t.unit ? ` ${t.unit}` : ''}`;
  return formatPercent(value);
}
