/**
 * The one ratio a reader sees for a test, wherever it is shown (site pages and charts, CSV,
 * Markdown, issues, terminal): the verdict's own estimate when the test was judged (paired by
 * round: the geometric mean of the rounds' ratios; else the ratio of medians), and otherwise the
 * ratio of medians marked as not judged, with why. A page that led with median ÷ median beside
 * a verdict's paired estimate showed two numbers for one change (scan: 1.14 against a verdict of
 * 1.08 whose own 90 % interval was 1.04–1.11), so no reader computes its own.
 *
 * Pure and imports nothing: the site's pages load this very file in the browser (the build
 * copies it beside them and the page's import map names it `#shown-ratio`, as package.json's
 * `imports` does for Node and tsc).
 */

/**
 * Decimals of a shown ratio: three for timed figures, where a 0.5 % step matters; five for
 * counted ones (instructions), which move by hundredths of a percent (A/A runs agree to 0.06 %).
 */
export const SHOWN_RATIO_DIGITS = Object.freeze({ timed: 3, counted: 5 });

/**
 * @typedef {object} ShownRatio
 * @property {number|null} ratio candidate / base; null when either side has no figure
 * @property {boolean} judged the ratio is a verdict's estimate
 * @property {boolean} counted a counted metric (printed with SHOWN_RATIO_DIGITS.counted)
 * @property {boolean} refused compare declined to judge it (too short a step, quantized, below a
 *   floor, failed), as against merely having no verdict against this base: a refused ratio is
 *   left out of group means and drawn grey against any base
 * @property {string|null} why why it is not judged (null when judged)
 */

/**
 * @typedef {object} ShownRatioInput
 * @property {{ratio: number|null, verdict: string, reason?: string, counted?: boolean}|null} [verdict]
 *   the test's verdict on this metric against `base`, if any
 * @property {{reason: string, ratio?: number}|null} [notJudged] compare's entry for the metric
 *   when it left it unjudged: why, and the ratio of the instances' medians it shows
 * @property {number|null} [baseMedian] the base's median, for the ratio shown without a verdict
 *   (when compare gave none)
 * @property {number|null} [candidateMedian]
 * @property {boolean} [counted] the metric is counted (a verdict's own `counted` wins)
 * @property {string} [noVerdict] why there is no verdict when compare gave no reason (e.g. "no
 *   comparison with 10.11.18"); default "no verdict"
 */

/**
 * The ratio to show for one test and metric against one base.
 * @param {ShownRatioInput} input
 * @returns {ShownRatio}
 */
export function computeShownRatio(input) {
  const { verdict = null, notJudged = null, baseMedian = null, candidateMedian = null } = input;
  const counted = verdict?.counted ?? input.counted ?? false;
  // A failed verdict has no estimate; any other class (inconclusive included) has its ratio.
  if (verdict && verdict.verdict !== 'failed' && isPositive(verdict.ratio)) {
    return { ratio: verdict.ratio, judged: true, refused: false, counted, why: null };
  }
  const ratio = isPositive(notJudged?.ratio) ? notJudged.ratio
    : isPositive(baseMedian) && isPositive(candidateMedian) ? candidateMedian / baseMedian : null;
  const why = notJudged?.reason ?? (verdict?.verdict === 'failed' ? `failed: ${verdict.reason ?? 'no reason recorded'}` : input.noVerdict ?? 'no verdict');
  return { ratio, judged: false, refused: notJudged !== null || verdict?.verdict === 'failed', counted, why };
}

/**
 * A shown ratio's digits, the same string on every page, file and terminal line.
 * @param {{ratio: number|null, counted: boolean}|null|undefined} shown
 * @returns {string} e.g. `1.080`, `1.00303`; `n/a` when there is no ratio
 */
export function formatShownRatio(shown) {
  if (!shown || !isPositive(shown.ratio)) return 'n/a';
  return shown.ratio.toFixed(shown.counted ? SHOWN_RATIO_DIGITS.counted : SHOWN_RATIO_DIGITS.timed);
}

/**
 * A shown ratio with its mark, for text that has no grey to draw it in (CSV, Markdown,
 * terminal, a tooltip).
 * @param {ShownRatio|null|undefined} shown
 * @returns {string} `1.080`, or `1.200 (not judged: repeats of 0.4 s are shorter …)`
 */
export function describeShownRatio(shown) {
  const text = formatShownRatio(shown);
  return shown && !shown.judged ? `${text} (not judged: ${shown.why})` : text;
}

/**
 * @param {number|null|undefined} v
 * @returns {v is number}
 */
function isPositive(v) {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}
