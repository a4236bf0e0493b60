/**
 * The figures of a calibration report (bench/calibration-<host-class>.json): what each run
 * says, small enough to keep every run, and the rates over all runs with exact bounds. Pure.
 */
import { listRegressedTests, hasIssueRegression, upperBound, clopperPearson } from '../compare/index.js';

/**
 * What one run says, small enough to keep every run in the report.
 * @param {number} index 1-based
 * @param {number} slowdown the fraction injected into S
 * @param {{aa: any, injected: any, runIds: string[]}} run the A/A and injected comparisons after
 *   adaptive repeats and confirmation, and the run records of A, B and S
 * @param {number} seconds the run's wall time
 * @param {string} finishedAt ISO time
 * @returns {Record<string, any>} index, finishedAt, seconds, slowdown, runIds, aa {issue,
 *   flagged, family, adaptive, verdicts}, injected {family, adaptive, verdicts}
 * @throws nothing
 */
export function summarizeRun(index, slowdown, run, seconds, finishedAt) {
  /** @param {any} c */
  const verdicts = (c) => c.tests.map((/** @type {any} */ t) => ({
    test: t.test, metric: t.metric, verdict: t.verdict, level: t.level, confirmed: t.confirmed ?? null, ratio: t.ratio,
    instances: [t.base?.n ?? 0, t.candidate?.n ?? 0], noiseCv: t.noiseCv, noiseDf: t.noiseDf ?? null, mdeDrop: t.mdeDrop ?? null, mdeRise: t.mdeRise ?? null, pAdjusted: t.pAdjusted ?? null,
  }));
  return {
    index, finishedAt, seconds, slowdown, runIds: run.runIds,
    aa: { issue: hasIssueRegression(run.aa, { confirmedOnly: true }), flagged: listRegressedTests(run.aa), family: run.aa.family ?? null, adaptive: run.aa.adaptive ?? null, verdicts: verdicts(run.aa) },
    injected: { family: run.injected.family ?? null, adaptive: run.injected.adaptive ?? null, verdicts: verdicts(run.injected) },
  };
}

/**
 * The rates over all runs, with exact bounds: false issues per A/A run (one-sided 95 % upper
 * bound), detections per injected slowdown (Clopper-Pearson interval), and each test's latest
 * minimum detectable effect.
 * @param {any[]} runs as summarizeRun returns them
 * @param {number[]} slowdowns the report's slowdowns
 * @returns {{falseIssues: {runs: number, runsWithFalseIssue: number, upper95: number},
 *   detection: Record<string, any>, mdeByTest: Record<string, any>}}
 * @throws nothing
 */
export function summarizeCalibration(runs, slowdowns) {
  const withIssue = runs.filter((r) => r.aa.issue).length;
  /** @type {Record<string, any>} */
  const detection = {};
  for (const s of slowdowns) {
    const trials = runs.filter((r) => r.slowdown === s).flatMap((r) => r.injected.verdicts.filter((/** @type {any} */ v) => v.metric === 'throughput'));
    const detected = trials.filter((/** @type {any} */ v) => v.verdict === 'regression' && v.level === 'issue' && v.confirmed === true).length;
    const flagged = trials.filter((/** @type {any} */ v) => v.verdict === 'regression').length;
    const ratios = trials.map((/** @type {any} */ v) => v.ratio).filter((/** @type {any} */ x) => typeof x === 'number');
    detection[String(s)] = {
      trials: trials.length, detected, flagged,
      interval: trials.length ? clopperPearson(detected, trials.length) : null,
      medianRatio: ratios.length ? ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)] : null,
    };
  }
  /** @type {Record<string, any>} */
  const mde = {};
  for (const r of runs) {
    for (const v of r.aa.verdicts.filter((/** @type {any} */ x) => x.metric === 'throughput')) {
      (mde[v.test] ??= []).push({ drop: v.mdeDrop, rise: v.mdeRise, df: v.noiseDf, instances: v.instances, noiseCv: v.noiseCv });
    }
  }
  return {
    falseIssues: { runs: runs.length, runsWithFalseIssue: withIssue, upper95: runs.length ? upperBound(withIssue, runs.length) : 1 },
    detection,
    mdeByTest: Object.fromEntries(Object.entries(mde).map(([test, list]) => [test, list.at(-1)])),
  };
}
