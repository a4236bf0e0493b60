/**
 * How sure a comparison's verdicts are, in one sentence for every place a verdict reaches a
 * reader (the terminal and Markdown reports, the GitHub issue, the job summary): what the host
 * class's calibration caught of slowdowns of known size, the smallest drop the comparison's
 * throughput verdicts could detect (best and median test), and how many counted verdicts
 * decided. Pure.
 */
import { formatDetectable, formatPercent } from '../format-number.js';

/**
 * @typedef {object} HostCalibration what the host class's calibration measured (its report,
 *   bench/calibration-<host-class>.json)
 * @property {number} runs A/A runs through compare and confirm
 * @property {number} runsWithFalseIssue
 * @property {number} upper95 one-sided 95 % upper bound of the per-run false-issue rate
 * @property {string} file the report
 * @property {{slowdown: number, trials: number, detected: number}[]} [detection] injected
 *   slowdowns (wall meter) and how many of their trials opened a confirmed issue
 */

/** A ratio metric's detectable change, for formatDetectable. */
const RATIO = /** @type {import('../format-number.js').JudgedChange} */ ({ scale: 'log', ratio: null });

/**
 * @param {{tests: {metric: string, verdict: string, mde?: number|null}[]}} comparison
 * @param {HostCalibration|null} calibration
 * @returns {string} one sentence without the leading "how sure", ending in a full stop
 */
export function describeHowSure(comparison, calibration) {
  const parts = [];
  const caught = (calibration?.detection ?? []).filter((d) => d.trials > 0);
  if (caught.length > 0) {
    parts.push(`on this host class, ${caught.map((d) => `a ${formatPercent(d.slowdown)} slowdown was caught in ${d.detected} of ${d.trials} calibration trials (${formatPercent(d.detected / d.trials)})`).join(', ')} (${calibration?.file})`);
  } else {
    parts.push('this host class has no calibration of detection (tagbench calibrate)');
  }
  const drops = comparison.tests.filter((t) => t.metric === 'throughput' && typeof t.mde === 'number').map((t) => /** @type {number} */ (t.mde)).sort((a, b) => a - b);
  if (drops.length > 0) {
    const median = drops[Math.floor((drops.length - 1) / 2)];
    parts.push(`this run's throughput verdicts could detect drops of ${formatDetectable(RATIO, drops[0])} at best, ${formatDetectable(RATIO, median)} for the median test`);
  }
  const counted = comparison.tests.filter((t) => t.metric === 'instructionsPerOp');
  if (counted.length > 0) {
    const decided = counted.filter((t) => t.verdict !== 'inconclusive' && t.verdict !== 'failed').length;
    parts.push(`${decided} of ${counted.length} counted verdicts (instructions per operation) decided`);
  }
  return `${parts.join('; ')}.`;
}
