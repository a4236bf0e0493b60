/**
 * What the Hosts page shows of a host class's calibration and of its false alarms in service:
 * the figures of bench/calibration-<host-class>.json (false issues per A/A run with their 95 %
 * bound, the detection rate of each injected slowdown with its interval, the minimum detectable
 * effect per test) and, from the noise summary `tagbench triage --out FILE` counts, the
 * regression issues engineers judged noise, per metric; and per meter, which stored calibration
 * (bench/calibrations/<host-class>/) a run of the host class would cite in its "how sure", and
 * why the others would not be. Pure: store readers' results in, data out.
 */

import { selectCalibration, CALIBRATION_MAX_AGE_DAYS } from '../compare/index.js';

/** @import { CalibrationReport, NoiseSummary } from '../store/index.js' */
/** @import { RunRecord, StoredComparison } from './types.js' */
/** @typedef {import('../types.js').Calibration} Calibration */
/** @typedef {import('../types.js').CalibrationDesign} CalibrationDesign */

/**
 * @typedef {object} HostRunFacts what a run of a host class brings to the choice of a calibration
 * @property {{id: string, startedAt: string, cpuModel: string|null, cores: number|null}|null} newestRun
 *   the newest run record's machine facts: the machine a run made now would most likely get
 * @property {{metric: string, meter: string|null, headline: boolean, design: CalibrationDesign|null, comparison: string, createdAt: string}[]} designs
 *   per metric, the design of the newest comparison that judged it (headline: its meter's first metric there)
 */

/**
 * @typedef {object} HostCitation one meter of data/hosts/<host>.json's `citing.meters`
 * @property {string} meter the calibrations' meter (the verdicts' where no calibration names one; '' for neither)
 * @property {string} metric its headline metric
 * @property {CalibrationDesign|null} design a run's design: the newest comparison's that judged
 *   the metric; null when none did
 * @property {string|null} comparison that comparison's id
 * @property {{calibration: Calibration, ageDays: number, report: string|null}|null} cited the
 *   calibration a run made at the site's build would cite, its age then in whole days and the
 *   site path of its Markdown report (null when the project has none beside its source)
 * @property {string[]} passedOver why each other calibration of the metric would not be cited
 */

/**
 * @typedef {object} HostCiting data/hosts/<host>.json's `citing`
 * @property {string} at the site's build time: when the run would be made
 * @property {number} maxAgeDays the oldest calibration a run cites
 * @property {HostRunFacts['newestRun']} run
 * @property {HostCitation[]} meters
 */

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

/**
 * A slice's part of what a run of its host class would bring: its newest run's machine facts and
 * each metric's design in the newest comparison that judged it.
 * @param {RunRecord[]} records
 * @param {StoredComparison[]} comparisons with their `runDesigns` (read-slice.js)
 * @returns {HostRunFacts}
 */
export function hostRunFacts(records, comparisons) {
  let newest = /** @type {RunRecord|null} */ (null);
  for (const r of records) if (!newest || r.startedAt > newest.startedAt) newest = r;
  return mergeRunFacts([{
    newestRun: newest ? { id: newest.id, startedAt: newest.startedAt, cpuModel: newest.host.cpuModel ?? null, cores: newest.host.cores ?? null } : null,
    designs: comparisons.flatMap((c) => (c.runDesigns ?? []).map((d) => ({ ...d, comparison: c.id, createdAt: c.comparison.createdAt }))),
  }]);
}

/**
 * Several slices' facts as one host class's: the newest run, and per metric the newest design.
 * @param {HostRunFacts[]} parts
 * @returns {HostRunFacts}
 */
export function mergeRunFacts(parts) {
  /** @type {HostRunFacts['newestRun']} */
  let newestRun = null;
  /** @type {Map<string, HostRunFacts['designs'][number]>} */
  const byMetric = new Map();
  for (const p of parts) {
    if (p.newestRun && (!newestRun || p.newestRun.startedAt > newestRun.startedAt)) newestRun = p.newestRun;
    for (const d of p.designs) {
      const had = byMetric.get(d.metric);
      if (!had || d.createdAt > had.createdAt) byMetric.set(d.metric, d);
    }
  }
  return { newestRun, designs: [...byMetric.values()] };
}

/**
 * Per meter, the calibration a run of the host class made at `at` would cite in its "how sure"
 * (compare's selectCalibration, the rule every comparison's sentence follows: host class, CPU
 * model and cores, meter, design, age), and the ones it would pass over with why. The run is the
 * host class's as its store shows it: the newest run's machine, the newest comparison's design.
 * @param {Calibration[]} calibrations the host class's stored calibrations
 * @param {string} hostClass
 * @param {HostRunFacts} facts
 * @param {string} at ISO 8601: the site's build time
 * @param {Map<string, string>} reports a calibration's source -> the site path of its report
 * @returns {HostCiting} a meter per headline metric of the comparisons, then per metric only a
 *   calibration judges
 */
export function hostCitations(calibrations, hostClass, facts, at, reports) {
  // A meter's headline metric (what its "how sure" speaks of), and any metric a calibration judges.
  /** @type {Map<string, {metric: string, meter: string|null, design: CalibrationDesign|null, comparison: string|null}>} */
  const metrics = new Map(facts.designs.filter((d) => d.headline).map((d) => /** @type {const} */ ([d.metric, d])));
  for (const c of calibrations) {
    if (!metrics.has(c.metric)) metrics.set(c.metric, facts.designs.find((d) => d.metric === c.metric) ?? { metric: c.metric, meter: null, design: null, comparison: null });
  }
  const run = facts.newestRun;
  const host = run ? { cpuModel: run.cpuModel, cores: run.cores } : undefined;
  const meters = [...metrics.values()].map((d) => {
    const choice = selectCalibration(calibrations, { hostClass, host, metric: d.metric, meter: d.meter ?? undefined, design: d.design, at });
    const cited = choice.calibration;
    return {
      meter: calibrations.find((c) => c.metric === d.metric)?.meter ?? d.meter ?? '', metric: d.metric, design: d.design, comparison: d.comparison,
      cited: cited ? { calibration: cited, ageDays: /** @type {number} */ (choice.ageDays), report: reports.get(cited.source) ?? null } : null,
      passedOver: choice.passedOver,
    };
  });
  return { at, maxAgeDays: CALIBRATION_MAX_AGE_DAYS, run, meters };
}
