/**
 * The measured false-issue rate and detection of a host class, from its calibration report
 * (bench/calibration-<host-class>.json, written by `tagbench calibrate`), for every comparison
 * report to print beside the design bound. The "how sure" sentence cites the stored calibrations
 * instead (store/calibrations.js: only one of the run's host class, meter and design). store/
 * reads and checks the file; this keeps the few figures compare prints.
 */
import { readCalibrationReport } from '../store/index.js';

/**
 * @typedef {object} CalibrationSummary
 * @property {string} hostClass
 * @property {string} measuredAt ISO 8601
 * @property {number} runs full A/A runs through compare and confirm
 * @property {number} runsWithFalseIssue runs that would have opened at least one issue
 * @property {number} upper95 one-sided 95 % upper bound of the per-run false-issue rate
 * @property {string} file where it came from
 * @property {{slowdown: number, trials: number, detected: number}[]} detection injected
 *   slowdowns and how often each opened a (confirmed) issue: how sure a verdict of this host is
 */

/**
 * @param {string} root project root
 * @param {string} hostClass
 * @returns {Promise<CalibrationSummary|null>} null when the host class has no calibration report
 *   in the current format (an older report measured something else)
 * @throws {import('../errors.js').UserError} when the file exists but is broken (a broken report
 *   must not pass silently)
 */
export async function readCalibrationSummary(root, hostClass) {
  const report = await readCalibrationReport(root, hostClass);
  if (!report) return null;
  const { measuredAt, runs, runsWithFalseIssue, upper95, file } = report;
  const detection = report.detection.map(({ slowdown, trials, detected }) => ({ slowdown, trials, detected }));
  return { hostClass, measuredAt, runs, runsWithFalseIssue, upper95, file, detection };
}
