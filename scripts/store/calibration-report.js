/**
 * The calibration report of a host class (bench/calibration-<host-class>.json of the project,
 * written by `tagbench calibrate`): the measured false issues per A/A run, the detection rate
 * of injected slowdowns and the minimum detectable effect per test. Compare's report prints the
 * false-issue rate beside the design bound; the site's Hosts page shows all of it. The
 * calibration writes the file; this module is its one reader, and checks the fields those two
 * read against schemas/calibration-report.schema.json (the rest of the file is left open).
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { registerSchema, validateAgainst } from '../config/index.js';
import { UserError } from '../errors.js';

const require = createRequire(import.meta.url);
const SCHEMA = /** @type {{$id: string, properties: {format: {const: string}}}} */ (require('./schemas/calibration-report.schema.json'));
registerSchema(SCHEMA);

/** The format of calibration reports this tagbench reads, e.g. `tagbench-calibration/2`. */
export const CALIBRATION_FORMAT = SCHEMA.properties.format.const;
const FORMAT_VERSION = Number(CALIBRATION_FORMAT.split('/')[1]);

/**
 * @typedef {object} CalibrationDetection the detection of one injected slowdown
 * @property {number} slowdown injected CPU slowdown, a share (0.05 = 5 %)
 * @property {number} trials throughput verdicts of the slowed-down candidate
 * @property {number} detected confirmed issue-level regressions among them
 * @property {number} flagged regressions at any level among them
 * @property {[number, number]|null} interval 95 % interval of the detection rate; null without trials
 * @property {number|null} medianRatio median candidate/base throughput ratio
 */

/**
 * @typedef {object} CalibrationMde the minimum detectable effect of one test (last A/A run)
 * @property {string} test
 * @property {number|null} drop smallest detectable drop, a share
 * @property {number|null} rise smallest detectable rise, a share
 * @property {number[]} instances base and candidate instances it was measured with
 */

/**
 * @typedef {object} CalibrationReport
 * @property {string} hostClass
 * @property {string} measuredAt ISO 8601
 * @property {string} product of the calibrated release ('' when the report does not say)
 * @property {string} version
 * @property {string} suite
 * @property {number} runs full A/A runs through compare and confirm
 * @property {number} runsWithFalseIssue runs that would have opened at least one issue
 * @property {number} upper95 one-sided 95 % upper bound of the per-run false-issue rate
 * @property {CalibrationDetection[]} detection by slowdown, smallest first
 * @property {CalibrationMde[]} mdeByTest by test name
 * @property {string} file where it came from, relative to the project
 */

/**
 * @param {string} root project root (holding bench/)
 * @param {string} hostClass
 * @returns {Promise<CalibrationReport|null>} null when the host class has no calibration report,
 *   or only one of an older format (it measured something else)
 * @throws {UserError} when the file exists but is not JSON, is of a newer format, or a field
 *   compare or the site reads is wrong (a broken report must not pass silently)
 */
export async function readCalibrationReport(root, hostClass) {
  const file = `bench/calibration-${hostClass}.json`;
  let text;
  try {
    text = await readFile(join(root, file), 'utf8');
  } catch {
    return null;
  }
  const path = join(root, file);
  /** @type {any} */
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: not valid JSON (${err instanceof Error ? err.message : err}); rerun tagbench calibrate --host-class ${hostClass}`, { cause: err });
  }
  const version = /^tagbench-calibration\/(\d+)$/.exec(String(data?.format ?? ''))?.[1];
  if (version === undefined || Number(version) < FORMAT_VERSION) return null;
  if (Number(version) > FORMAT_VERSION) {
    throw new UserError(`${path}: format ${data.format} is newer than this tagbench reads (${CALIBRATION_FORMAT}); update tagbench`);
  }
  const problems = validateAgainst(SCHEMA.$id, data);
  if (data.hostClass !== undefined && data.hostClass !== hostClass) problems.push(`hostClass is '${data.hostClass}', but the file is named for '${hostClass}'`);
  if (problems.length > 0) {
    throw new UserError(`${path}: not a calibration report: ${problems.join('; ')}; rerun tagbench calibrate --host-class ${hostClass}`);
  }
  const f = data.falseIssues;
  return {
    hostClass,
    measuredAt: data.measuredAt,
    product: data.product ?? '',
    version: data.version ?? '',
    suite: data.suite ?? '',
    runs: f.runs,
    runsWithFalseIssue: f.runsWithFalseIssue,
    upper95: f.upper95,
    detection: Object.entries(data.detection)
      .map(([slowdown, /** @type {any} */ d]) => ({ slowdown: Number(slowdown), trials: d.trials, detected: d.detected, flagged: d.flagged, interval: d.interval, medianRatio: d.medianRatio ?? null }))
      .sort((a, b) => a.slowdown - b.slowdown),
    mdeByTest: Object.entries(data.mdeByTest)
      .map(([test, /** @type {any} */ m]) => ({ test, drop: m.drop, rise: m.rise, instances: m.instances ?? [] }))
      .sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0)),
    file,
  };
}
