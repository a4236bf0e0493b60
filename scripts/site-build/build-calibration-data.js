/**
 * What the Hosts page shows of a host class's calibration and of its false alarms in service:
 * the figures of bench/calibration-<host-class>.json (false issues per A/A run with their 95 %
 * bound, the detection rate of each injected slowdown with its interval, the minimum detectable
 * effect per test) and, from the noise summary `tagbench triage --out FILE` counts, the
 * regression issues engineers judged noise, per metric. Pure: store readers' results in, data out.
 */

/** @import { CalibrationReport, NoiseSummary } from '../store/index.js' */

/**
 * @typedef {object} HostCalibration data/hosts/<host>.json's `calibration`
 * @property {string} file the report in the project (bench/calibration-<host>.json)
 * @property {string} measuredAt
 * @property {string} release product and version that was calibrated
 * @property {string} suite
 * @property {{runs: number, withIssue: number, upper95: number}} falseIssues per A/A run
 * @property {{slowdown: number, trials: number, detected: number, flagged: number, interval: [number, number]|null}[]} detection
 * @property {{test: string, drop: number|null, rise: number|null}[]} mde per test
 */

/**
 * @typedef {object} HostFalseAlarms data/hosts/<host>.json's `falseAlarms`
 * @property {string} countedAt when triage counted
 * @property {string} repo
 * @property {number} issues official issues of this host class judged noise
 * @property {{metric: string, noise: number}[]} metrics false alarms per metric (an issue counts once per metric it lists)
 * @property {{number: number, url: string, product: string, version: string, suite: string, tests: string[]}[]} list
 */

/**
 * @param {CalibrationReport|null} report
 * @returns {HostCalibration|null}
 */
export function hostCalibration(report) {
  if (!report) return null;
  return {
    file: report.file,
    measuredAt: report.measuredAt,
    release: [report.product, report.version].filter(Boolean).join(' '),
    suite: report.suite,
    falseIssues: { runs: report.runs, withIssue: report.runsWithFalseIssue, upper95: report.upper95 },
    detection: report.detection.map(({ slowdown, trials, detected, flagged, interval }) => ({ slowdown, trials, detected, flagged, interval })),
    mde: report.mdeByTest.map(({ test, drop, rise }) => ({ test, drop, rise })),
  };
}

/**
 * @param {NoiseSummary|null} summary
 * @param {string} host
 * @returns {HostFalseAlarms|null} null without a summary
 */
export function hostFalseAlarms(summary, host) {
  if (!summary) return null;
  const list = summary.noise.filter((n) => n.hostClass === host);
  /** @type {Map<string, number>} */
  const perMetric = new Map();
  for (const n of list) {
    // tests are `<test>:<metric>`, and a metric name holds no colon (the summary's schema).
    for (const metric of new Set(n.tests.map((t) => t.slice(t.lastIndexOf(':') + 1)))) perMetric.set(metric, (perMetric.get(metric) ?? 0) + 1);
  }
  return {
    countedAt: summary.createdAt,
    repo: summary.repo,
    issues: list.length,
    metrics: [...perMetric].map(([metric, noise]) => ({ metric, noise })).sort((a, b) => (a.metric < b.metric ? -1 : 1)),
    list: list.map(({ number, url, product, version, suite, tests }) => ({ number, url, product, version, suite, tests: [...tests] })),
  };
}

/**
 * The noise summary's own per-metric table (every host class), for the Hosts list.
 * @param {NoiseSummary|null} summary
 */
export function noiseOverview(summary) {
  if (!summary) return null;
  return {
    countedAt: summary.createdAt,
    repo: summary.repo,
    issues: summary.issues,
    answers: { ...summary.answers },
    metrics: Object.entries(summary.metrics).map(([metric, m]) => ({ metric, ...m })).sort((a, b) => (a.metric < b.metric ? -1 : 1)),
  };
}
