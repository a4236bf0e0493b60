/**
 * How sure a comparison's verdicts are, in the words every place a verdict reaches a reader
 * prints first (the terminal and Markdown reports, the GitHub issue and summary, the check run,
 * the release page and home): per meter, the change this run could have found at the issue level
 * (its verdicts' issue-level detectable change: median and range over the tests), and what the
 * matching calibration found of injected changes of comparable size, or that there is none.
 *
 * A meter's headline metric speaks for it: the first metric its verdicts judge (throughput for
 * the timed repeats' own figures, the instructions meter's instructions per operation), as a
 * calibration judges detection on that metric. The calibration is chosen by
 * ./select-calibration.js (host class, meter, design, age), never a mismatched one. Pure.
 */
import { median } from 'simple-statistics';
import { formatDetectable, formatPercent, SMALLEST_PERCENT, UNDETECTABLE_OVER } from '../format-number.js';
import { CALIBRATION_MAX_AGE_DAYS, computeRunDesign, describeDesign, selectCalibration } from './select-calibration.js';

/** @typedef {import('../types.js').Calibration} Calibration */

/**
 * @typedef {object} HostCalibration what the host class's calibration report measured of false
 *   issues (bench/calibration-<host-class>.json), which the reports print beside the design bound
 * @property {number} runs A/A runs through compare and confirm
 * @property {number} runsWithFalseIssue
 * @property {number} upper95 one-sided 95 % upper bound of the per-run false-issue rate
 * @property {string} file the report
 * @property {{slowdown: number, trials: number, detected: number}[]} [detection]
 */

/**
 * @typedef {object} SureVerdict the fields of a verdict the sentence reads
 * @property {string} test
 * @property {string} metric
 * @property {string|null} [meter] none (or null) for the timed repeats' own figures
 * @property {string} [label]
 * @property {boolean} higherIsBetter
 * @property {'log'|'linear'} [scale]
 * @property {number|null} [mdeIssue] issue-level detectable change (compare-runs.js)
 * @property {number|null} [pairedRounds]
 * @property {{n: number}|null} base
 * @property {{n: number}|null} candidate
 */

/**
 * @param {{hostClass: string, host?: {cpuModel: string|null, cores: number|null}, createdAt: string, tests: SureVerdict[]}} comparison
 *   host: the machine facts a cited calibration must share where it stored them
 * @param {Calibration[]} calibrations the host class's stored calibrations (store/calibrations.js)
 * @returns {string} one sentence per meter, each ending in a full stop; '' without verdicts
 */
export function describeHowSure(comparison, calibrations) {
  return headlineMetrics(comparison.tests).map((metric) => describeMeter(comparison, metric, calibrations)).join(' ');
}

/**
 * What the calibrations this run cites measured of false issues, per meter: the same choice as the
 * "how sure" sentence (host class, CPU, meter, design, age), so the family line never cites an A/A
 * rate measured on another machine or design, as the host class's old report did.
 * @param {{hostClass: string, host?: {cpuModel: string|null, cores: number|null}, createdAt: string, tests: SureVerdict[]}} comparison
 * @param {Calibration[]} calibrations the host class's stored calibrations
 * @returns {string} e.g. "wall: 0 of 10 A/A runs opened an issue (95 % upper bound 25.9 % per run,
 *   bench/calibration-preload-local.json); instructions: no matching calibration"; '' without verdicts
 */
export function describeMeasuredFalseIssues(comparison, calibrations) {
  return headlineMetrics(comparison.tests).map((metric) => {
    const verdicts = comparison.tests.filter((t) => t.metric === metric);
    const meter = verdicts[0].meter ?? undefined;
    const { calibration: c } = selectCalibration(calibrations, { hostClass: comparison.hostClass, host: comparison.host, metric, meter, design: computeRunDesign(verdicts, metric), at: comparison.createdAt });
    const name = c?.meter ?? meter ?? 'timed repeats';
    return c ? `${name}: ${c.falseIssues.runsWithFalseIssue} of ${c.falseIssues.runs} A/A runs opened an issue (95 % upper bound ${formatPercent(c.falseIssues.upper95)} per run, ${c.source})`
      : `${name}: no matching calibration`;
  }).join('; ');
}

/**
 * Every metric's design (the one its verdicts were made with), and whether it is its meter's
 * headline: what a calibration of the metric must share to be cited. The site keeps this from
 * the full verdicts (its pages' slim ones drop the rounds) so that the host page can name what a
 * run of the host class would cite.
 * @param {SureVerdict[]} tests every verdict of a comparison
 * @returns {{metric: string, meter: string|null, headline: boolean, design: import('../types.js').CalibrationDesign|null}[]}
 *   in verdict order; design null when no verdict of the metric has instances
 */
export function computeRunDesigns(tests) {
  const headline = new Set(headlineMetrics(tests));
  return [...new Set(tests.map((t) => t.metric))].map((metric) => ({
    metric, meter: tests.find((t) => t.metric === metric)?.meter ?? null, headline: headline.has(metric), design: computeRunDesign(tests, metric),
  }));
}

/**
 * The first metric of each meter among the verdicts, in verdict order.
 * @param {SureVerdict[]} tests
 * @returns {string[]}
 */
function headlineMetrics(tests) {
  /** @type {Map<string, string>} */
  const byMeter = new Map();
  for (const t of tests) if (!byMeter.has(t.meter ?? '')) byMeter.set(t.meter ?? '', t.metric);
  return [...byMeter.values()];
}

/**
 * @param {{hostClass: string, host?: {cpuModel: string|null, cores: number|null}, createdAt: string, tests: SureVerdict[]}} comparison
 * @param {string} metric
 * @param {Calibration[]} calibrations
 * @returns {string}
 */
function describeMeter(comparison, metric, calibrations) {
  const verdicts = comparison.tests.filter((t) => t.metric === metric);
  const first = verdicts[0];
  const noun = changeNoun(first);
  const detectable = verdicts.map((t) => t.mdeIssue).filter((m) => typeof m === 'number').sort((a, b) => a - b);
  const shown = (/** @type {number} */ v) => (v === 0 ? '0 (exact)' : formatDetectable({ scale: first.scale ?? 'log', ratio: null }, v));
  const over = `${detectable.length} of ${verdicts.length} test${verdicts.length === 1 ? '' : 's'}`;
  // Every figure without noise: a median and range of "0.0 %" said nothing true.
  const sizes = () => (detectable.at(-1) === 0 ? `no noise over ${over}: each repeated exactly in every round`
    : `issue-level detectable change over ${over}: median ${shown(median(detectable))}, ${shown(detectable[0])}–${shown(/** @type {number} */ (detectable.at(-1)))}`);
  const found = detectable.length === 0
    ? `${capitalize(first.label ?? first.metric)}: no verdict of this run could detect a change at the issue level (too few instances for it)`
    : `${plainWords(noun, detectable)} (${sizes()})`;
  const design = computeRunDesign(verdicts, metric);
  const choice = selectCalibration(calibrations, { hostClass: comparison.hostClass, host: comparison.host, metric, meter: first.meter ?? undefined, design, at: comparison.createdAt });
  return `${found}; ${choice.calibration ? citeCalibration(choice.calibration, /** @type {number} */ (choice.ageDays), detectable.length > 0 ? median(detectable) : null)
    : noCalibration(design, choice.passedOver)}.`;
}

/**
 * What the run would have found, in plain words: a change of the largest detectable size in
 * every test (or that some test could find none: a drop of 100 % is no size), and what the
 * median says of half of them.
 * @param {string} noun e.g. "a throughput drop"
 * @param {number[]} detectable the verdicts' issue-level detectable changes, ascending
 * @returns {string}
 */
function plainWords(noun, detectable) {
  const worst = /** @type {number} */ (detectable.at(-1));
  const middle = median(detectable);
  // Zero noise (a counter that never moved in A/A): any change is found.
  if (worst === 0) return `Any ${noun.replace(/^an? /, '')} would have been found in every test`;
  const every = worst >= UNDETECTABLE_OVER || formatPercent(worst) === formatPercent(1)
    ? `Some test could not have found ${noun} of any size`
    : `${capitalize(noun)} of ${formatPercent(worst)} would have been found in every test`;
  const half = middle < SMALLEST_PERCENT
    ? `half of the tests would have found one under ${formatPercent(SMALLEST_PERCENT)}`
    : `one under ${formatPercent(middle)} might not have been`;
  return `${every}, ${half}`;
}

/**
 * @param {SureVerdict} t
 * @returns {string} e.g. "a throughput drop", "a rise in instructions per op in the query path"
 */
function changeNoun(t) {
  const direction = t.higherIsBetter ? 'drop' : 'rise';
  return t.label ? `a ${direction} in ${t.label}` : `a ${t.metric} ${direction}`;
}

/** @param {string} s */
function capitalize(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * What the calibration found at the (at most two) injected sizes nearest the run's median
 * detectable change, by ratio: the sizes a reader can set beside it; every size without one.
 * @param {Calibration} c
 * @param {number} ageDays
 * @param {number|null} around the run's median issue-level detectable change
 * @returns {string}
 */
function citeCalibration(c, ageDays, around) {
  const sizes = c.detection.filter((d) => d.trials > 0);
  const distance = (/** @type {{size: number}} */ d) => (around === null || around <= 0 ? 0 : Math.abs(Math.log(d.size / around)));
  const cited = around === null ? sizes : [...sizes].sort((a, b) => distance(a) - distance(b)).slice(0, 2).sort((a, b) => a.size - b.size);
  // As the kernel reports it (two decimals): a load is a count, not a measurement to round.
  const load = c.load.maxOneMinute === null ? 'load not recorded' : `load up to ${c.load.maxOneMinute}`;
  const caught = cited.map((d) => `${formatPercent(d.size)} in ${d.detected} of ${d.trials} trials`).join(', ');
  return `the calibration of ${c.measuredAt.slice(0, 10)} (${ageDays} day${ageDays === 1 ? '' : 's'} before this run; ${c.suite}, ${describeDesign(c.design)}, ${load}; ${c.source}) found an injected ${caught || 'change in no trial yet'}`;
}

/**
 * @param {import('../types.js').CalibrationDesign|null} design the run's
 * @param {string[]} passedOver
 * @returns {string}
 */
function noCalibration(design, passedOver) {
  const wanted = design ? describeDesign(design) : 'its design';
  const others = passedOver.length > 0 ? `; not cited: ${passedOver.join('; ')}` : '';
  return `no calibration of this host class matches this meter and design (${wanted}, at most ${CALIBRATION_MAX_AGE_DAYS} days old: tagbench calibrate)${others}`;
}
