/**
 * The host pages' data: a host class's reference release over time (its run-by-run throughput
 * per test, split into host series where the host facts changed, with the drifts the compare
 * stage's host check found), and the host series of a table's releases for the per-test
 * history charts. Pure: records and a drift report in, data objects out.
 */
import { findHostDrift, describeHostDrift } from '../compare/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { SCHEMA_VERSION } from './build-table-data.js';

/** @import { RunRecord } from './types.js' */
/** @typedef {ReturnType<typeof findHostDrift>} HostDriftReport */
/** @typedef {HostDriftReport['segments'][number]} HostSegment */

/**
 * @typedef {object} HostSuiteData one suite of data/hosts/<host>.json
 * @property {string} suite
 * @property {HostDriftReport['method']} method
 * @property {HostSegment[]} segments
 * @property {{test: string, group: string, metric: string, warn: number,
 *   runs: {id: string, startedAt: string, segment: number, median: number, values: number[], record: string}[]}[]} tests
 * @property {HostDriftReport['drifts']} drifts
 * @property {{state: string, lines: string[]}} driftWords the host's state in the words compare's
 *   host check prints (describeHostDrift: one function decides them for both)
 */

/**
 * @typedef {object} HostData data/hosts/<host>.json
 * @property {number} schemaVersion
 * @property {string} host
 * @property {{product: string, version: string}} reference
 * @property {HostSuiteData[]} suites
 * @property {import('./build-calibration-data.js').HostCalibration|null} calibration from bench/calibration-<host>.json; null without one
 * @property {import('./build-calibration-data.js').HostFalseAlarms|null} falseAlarms issues judged noise; null without a noise summary
 * @property {import('../types.js').Calibration[]} calibrations every stored calibration of the
 *   host class (bench/calibrations/<host>/), newest first: the ones a run's "how sure" may cite
 * @property {import('./build-calibration-data.js').HostCiting|null} citing per meter, the one a
 *   run of the host class made at the site's build would cite, and why the others would not be
 */

/**
 * The reference series of one host class and suite, analysed.
 * @param {RunRecord[]} records every run of the reference release there (slimmed is fine)
 * @param {import('../compare/index.js').CompareThresholds} thresholds
 * @returns {HostSuiteData}
 */
export function buildHostSuite(records, thresholds) {
  const report = findHostDrift({ records, thresholds });
  const { product, version } = report.reference;
  return {
    suite: report.suite,
    method: report.method,
    segments: report.segments,
    tests: report.tests.map((t) => ({
      test: t.test, group: t.group, metric: t.metric, warn: t.warn,
      runs: t.runs.map((r) => ({
        id: r.runId, startedAt: r.startedAt, segment: r.segment, median: r.median, values: r.values,
        record: dataPaths.runRecord({ host: report.hostClass, product, version, suite: report.suite, id: r.runId }),
      })),
    })),
    drifts: report.drifts,
    driftWords: describeHostDrift(report),
  };
}

/**
 * @param {string} host
 * @param {{product: string, version: string}} reference as configured
 * @param {HostSuiteData[]} suites none when the reference has not run yet
 * @param {Pick<HostData, 'calibration'|'falseAlarms'> & {calibrations?: HostData['calibrations'], citing?: HostData['citing']}} [measured] the host class's
 *   calibration report, false alarms in service, stored calibrations and the ones a run would cite
 * @returns {HostData}
 */
export function buildHostData(host, reference, suites, measured = { calibration: null, falseAlarms: null }) {
  return {
    schemaVersion: SCHEMA_VERSION, host, reference: { ...reference }, suites: [...suites].sort((a, b) => (a.suite < b.suite ? -1 : 1)),
    calibration: measured.calibration, falseAlarms: measured.falseAlarms,
    calibrations: [...(measured.calibrations ?? [])].sort((a, b) => (a.measuredAt < b.measuredAt ? 1 : -1)),
    citing: measured.citing ?? null,
  };
}

/**
 * data/hosts/index.json: every host class with a reference, for the host page's list.
 * @param {HostData[]} hosts
 * @param {ReturnType<typeof import('./build-calibration-data.js').noiseOverview>} [noise] the noise summary's per-metric counts
 */
export function buildHostIndex(hosts, noise = null) {
  return {
    schemaVersion: SCHEMA_VERSION,
    noise,
    hosts: hosts.map((d) => ({
      host: d.host, reference: d.reference,
      runs: d.suites.reduce((n, s) => n + new Set(s.tests.flatMap((t) => t.runs.map((r) => r.id))).size, 0),
      series: d.suites.reduce((n, s) => Math.max(n, s.segments.length), 0),
      drifts: d.suites.reduce((n, s) => n + s.drifts.length, 0),
      calibration: d.calibration ? d.calibration.falseIssues : null,
      falseAlarms: d.falseAlarms ? d.falseAlarms.issues : null,
      file: dataPaths.host(d.host),
    })).sort((a, b) => (a.host < b.host ? -1 : 1)),
  };
}
