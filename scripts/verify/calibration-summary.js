/**
 * The measured false-issue rate of a host class, from its calibration report
 * (bench/calibration-<host-class>.json, written by `tagbench calibrate`), for every comparison
 * report to print beside the design bound. The calibration owns this file; this is its reader.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * @typedef {object} CalibrationSummary
 * @property {string} hostClass
 * @property {string} measuredAt ISO 8601
 * @property {number} runs full A/A runs through compare and confirm
 * @property {number} runsWithFalseIssue runs that would have opened at least one issue
 * @property {number} upper95 one-sided 95 % upper bound of the per-run false-issue rate
 * @property {string} file where it came from
 */

/**
 * @param {string} root project root
 * @param {string} hostClass
 * @returns {Promise<CalibrationSummary|null>} null when the host class has no calibration report
 *   in the current format (an older report measured something else)
 * @throws {Error} when the file exists but is not JSON (a broken report must not pass silently)
 */
export async function readCalibrationSummary(root, hostClass) {
  const file = join(root, 'bench', `calibration-${hostClass}.json`);
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  /** @type {any} */
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${err instanceof Error ? err.message : err}); rerun tagbench calibrate --host-class ${hostClass}`);
  }
  const f = data?.falseIssues;
  if (!f || typeof f.runs !== 'number' || typeof f.runsWithFalseIssue !== 'number' || typeof f.upper95 !== 'number') return null;
  return { hostClass, measuredAt: String(data.measuredAt ?? ''), runs: f.runs, runsWithFalseIssue: f.runsWithFalseIssue, upper95: f.upper95, file: `bench/calibration-${hostClass}.json` };
}
