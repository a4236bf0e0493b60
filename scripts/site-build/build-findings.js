/**
 * What a reader must meet first of a release's comparison (issue 35): every regression, of every
 * gated metric, timed or counted, and every suspect, each named with the change its verdict
 * measured and a link to its test page (the pages add the link). Home lists them for the newest
 * release of each table; the release page above its charts. Pure.
 */
import { formatPercentInterval, isCountedVerdict } from '../compare/index.js';
import { formatValue } from '../format-number.js';

/**
 * @typedef {object} NamedFinding one regression or suspect, as the first screen names it
 * @property {'regression'|'suspect'} kind
 * @property {string} test
 * @property {string} metric the verdict's metric (`throughput`, `instructionsPerOp`, ...)
 * @property {string} label how the page names the metric: the meter's own label for a meter's
 *   metric (`instructions per op in the query path`), else the metric
 * @property {boolean} counted the figures are counted repeats (instructions, work), not timed
 * @property {string|null} change the estimate and its interval in compare's words
 *   (`+0.303 % [0.297, 0.309]`); null when the verdict has none
 * @property {boolean} confirmed a regression a rerun confirmed
 */

/**
 * @param {import('../compare/index.js').FullComparison|import('./types.js').Comparison} comparison
 * @param {import('../compare/index.js').Suspect[]} suspects the comparison's (findSuspects)
 * @returns {NamedFinding[]} regressions first, then suspects in compare's order (most suspicious
 *   first); within the regressions timed before counted, then by test
 */
export function namedFindings(comparison, suspects) {
  const regressions = comparison.tests.filter((v) => !v.context && v.verdict === 'regression').map((v) => ({
    kind: /** @type {const} */ ('regression'), test: v.test, metric: v.metric, label: labelOf(v), counted: isCountedVerdict(v),
    change: changeOf(v.ratio, v.ci, /** @type {any} */ (v).difference ?? null, /** @type {any} */ (v).differenceCi ?? null, /** @type {any} */ (v).scale), confirmed: v.confirmed ?? false,
  })).sort((a, b) => Number(a.counted) - Number(b.counted) || a.test.localeCompare(b.test) || a.metric.localeCompare(b.metric));
  const leaning = suspects.map((s) => {
    const verdict = comparison.tests.find((v) => v.test === s.test && v.metric === s.metric);
    return {
      kind: /** @type {const} */ ('suspect'), test: s.test, metric: s.metric, label: verdict ? labelOf(verdict) : s.metric, counted: isCountedVerdict(s),
      change: s.ratio !== null ? changeOf(s.ratio, s.interval, null, null, 'log') : changeOf(null, null, s.difference, s.interval, 'linear'), confirmed: false,
    };
  });
  return [...regressions, ...leaning];
}

/**
 * @param {{metric: string, label?: string|null}} v
 * @returns {string}
 */
function labelOf(v) {
  return v.label ?? v.metric;
}

/**
 * The change in compare's words: a ratio as a signed percentage with its interval, a linear
 * metric's difference with its interval.
 * @param {number|null} ratio
 * @param {[number, number]|null} ci
 * @param {number|null} difference
 * @param {[number, number]|null} differenceCi
 * @param {'log'|'linear'|undefined} scale
 * @returns {string|null}
 */
function changeOf(ratio, ci, difference, differenceCi, scale) {
  if (scale === 'linear') {
    if (difference === null) return null;
    return `${formatValue(difference, { signed: true })}${differenceCi ? ` [${formatValue(differenceCi[0])}, ${formatValue(differenceCi[1])}]` : ''}`;
  }
  if (ratio === null) return null;
  if (!ci) return formatPercentInterval(ratio - 1, [ratio - 1, ratio - 1]).replace(/ \[.*\]$/, '');
  return formatPercentInterval(ratio - 1, [ci[0] - 1, ci[1] - 1]);
}
