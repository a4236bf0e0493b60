/**
 * The figures of a calibration report (bench/calibration-<host-class>.json, and
 * bench/calibration-<meter>-<host-class>.json for a counted meter): what each run says, small
 * enough to keep every run, and the rates over all runs with exact bounds. Pure.
 */
import { listRegressedTests, hasIssueRegression, upperBound, clopperPearson } from '../../compare/index.js';
import { INJECTED_FUNCTION, INJECTED_OBJECT } from './inject-cost/build-inject-cost.js';

/**
 * A comparison's verdicts, cut to what the report reads.
 * @param {any} c a FullComparison after confirmation
 * @returns {Record<string, any>[]}
 */
function verdicts(c) {
  return c.tests.map((/** @type {any} */ t) => ({
    test: t.test, metric: t.metric, verdict: t.verdict, level: t.level, confirmed: t.confirmed ?? null, ratio: t.ratio,
    instances: [t.base?.n ?? 0, t.candidate?.n ?? 0], noiseCv: t.noiseCv, noiseDf: t.noiseDf ?? null, mdeDrop: t.mdeDrop ?? null, mdeRise: t.mdeRise ?? null, pAdjusted: t.pAdjusted ?? null,
    pairedRounds: t.pairedRounds ?? null,
  }));
}

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

/**
 * @typedef {{queryPath: {metric: string}, process: {metric: string}}} JudgedMetrics the counted
 *   meter's metrics in the report's two roles (counted.js JudgedFigures, from the meter)
 */

/**
 * What one counted calibration run says.
 * @param {number} index 1-based
 * @param {string[]} injectedNames the sizes injected in this run, in the order of run.injected
 * @param {{aa: any, injected: Record<string, any>, runIds: Record<string, string>, confirmRunIds: string[],
 *   noise: Record<string, any>}} run from runCountedRound (the injected comparisons' instructions
 *   verdicts carry `functions`, the profile difference compare attaches)
 * @param {number} seconds the run's wall time, its confirmation included
 * @param {string} finishedAt ISO time
 * @param {JudgedMetrics} judged
 * @returns {Record<string, any>} index, finishedAt, seconds, runIds, confirmRunIds, aa {issue,
 *   flagged, family, verdicts}, injections [{name, label, family, verdicts, attribution}], noise
 * @throws nothing
 */
export function summarizeCountedRun(index, injectedNames, run, seconds, finishedAt, judged) {
  return {
    index, finishedAt, seconds, runIds: run.runIds, confirmRunIds: run.confirmRunIds,
    aa: { issue: hasIssueRegression(run.aa, { confirmedOnly: true }), flagged: listRegressedTests(run.aa), family: run.aa.family ?? null, verdicts: verdicts(run.aa) },
    injections: Object.entries(run.injected).map(([label, c], i) => ({
      name: injectedNames[i], label, family: c.family ?? null, verdicts: verdicts(c), attribution: attributions(c, judged.queryPath.metric),
    })),
    noise: run.noise,
  };
}

/**
 * The rates over all counted calibration runs: false issues per A/A run with the one-sided
 * 95 % bound; per injected size and test, detections (a confirmed issue-level regression of the
 * query-path count) with their Clopper-Pearson interval, the realised ratio, and what the
 * function findings named (compare's judgement per function, as a run's report shows it:
 * whatever the total's verdict, in how many trials the injected cost was a finding, and which
 * function was the largest finding); the A/A noise of each test's counts across processes.
 * @param {any[]} runs as summarizeCountedRun returns them
 * @param {({name: string, label: string, share: number|null} & Record<string, any>)[]} injections
 *   each with its added count under the meter's name (counted.js Injection)
 * @param {JudgedMetrics} judged
 * @param {string} meter the meter's name
 * @returns {{falseIssues: Record<string, any>, aaVerdicts: Record<string, Record<string, number>>, detection: Record<string, any>, noiseByTest: Record<string, any>}}
 * @throws nothing
 */
export function summarizeCountedCalibration(runs, injections, judged, meter) {
  const queryPath = judged.queryPath.metric;
  const processMetric = judged.process.metric;
  const withIssue = runs.filter((r) => r.aa.issue).length;
  const flaggedRuns = runs.filter((r) => r.aa.flagged.length > 0).length;
  /** @type {Record<string, any>} */
  const detection = {};
  for (const inj of injections) {
    const done = runs.flatMap((r) => r.injections.filter((/** @type {any} */ i) => i.name === inj.name));
    const tests = [...new Set(done.flatMap((i) => i.verdicts.map((/** @type {any} */ v) => v.test)))];
    /** @type {Record<string, any>} */
    const byTest = {};
    for (const test of tests) {
      const rows = done.map((i) => ({ v: i.verdicts.find((/** @type {any} */ x) => x.test === test && x.metric === queryPath), p: i.verdicts.find((/** @type {any} */ x) => x.test === test && x.metric === processMetric), a: i.attribution?.[test] ?? null }));
      const trials = rows.filter((r) => r.v);
      const hits = trials.filter((r) => isDetection(r.v));
      const ratios = trials.map((r) => r.v.ratio).filter((x) => typeof x === 'number');
      // Judged per function: the trials whose verdict had the rounds' profiles to judge.
      const judgedTrials = trials.filter((r) => Array.isArray(r.a?.findings));
      /** @type {Record<string, number>} */
      const firstNames = {};
      for (const r of judgedTrials) {
        const name = r.a.findings[0]?.name ?? '(no finding)';
        firstNames[name] = (firstNames[name] ?? 0) + 1;
      }
      const pTrials = rows.filter((r) => r.p);
      byTest[test] = {
        trials: trials.length, detected: hits.length, flagged: trials.filter((r) => r.v.verdict === 'regression').length,
        interval: trials.length ? clopperPearson(hits.length, trials.length) : null,
        medianRatio: median(ratios), minRatio: ratios.length ? Math.min(...ratios) : null, maxRatio: ratios.length ? Math.max(...ratios) : null,
        attributedToInjected: hits.filter((r) => r.a?.injected?.first === true).length,
        named: { judged: judgedTrials.length, found: judgedTrials.filter((r) => r.a.injected).length, first: judgedTrials.filter((r) => r.a.injected?.first === true).length,
          interval: judgedTrials.length ? clopperPearson(judgedTrials.filter((r) => r.a.injected).length, judgedTrials.length) : null },
        firstNames,
        medianInjectedSelfDelta: median(trials.map((r) => r.a?.injectedSelfDelta).filter((x) => typeof x === 'number')),
        process: { trials: pTrials.length, detected: pTrials.filter((r) => isDetection(r.p)).length, medianRatio: median(pTrials.map((r) => r.p.ratio).filter((x) => typeof x === 'number')) },
      };
    }
    // The added count under the meter's name, as the injection has it (counted.js Injection).
    detection[inj.name] = { label: inj.label, share: inj.share, [meter]: inj[meter], runs: done.length, byTest };
  }
  return {
    falseIssues: { runs: runs.length, runsWithFalseIssue: withIssue, runsFlagged: flaggedRuns, upper95: runs.length ? upperBound(withIssue, runs.length) : 1 },
    aaVerdicts: tallyVerdicts(runs),
    detection,
    noiseByTest: summarizeCountedNoise(runs, queryPath),
  };
}

/**
 * Where each test's extra count went, as compare shows it: the function findings attached to
 * its query-path verdict (verify/attach-function-moves.js, judged by compare's
 * judgeFunctionProfiles round by round, the same code and settings a run's report and issue
 * print as "below the threshold, named"), with the profile difference's totals beside them.
 * @param {any} c an injected comparison
 * @param {string} queryPath the query-path metric
 * @returns {Record<string, {findings: {name: string, object: string, kind: string, measure: string, deltaPerOp: number, shareOfTotal: number}[]|null,
 *   injected: {name: string, kind: string, measure: string, deltaPerOp: number, shareOfTotal: number, first: boolean}|null,
 *   injectedSelfDelta: number, queryPathDelta: number|null, totalDelta: number, unnamedDelta: number}|null>} by test;
 *   null where the verdict has no profiles; findings null where its rounds were not judged per function
 */
function attributions(c, queryPath) {
  return Object.fromEntries(c.tests.filter((/** @type {any} */ t) => t.metric === queryPath).map((/** @type {any} */ t) => {
    const f = t.functions;
    if (!f) return [t.test, null];
    /** @type {any[]|null} */
    const all = t.functionFindings?.findings ?? null;
    const brief = (/** @type {any} */ x) => ({ name: x.name, object: x.object, kind: x.kind, measure: x.measure, deltaPerOp: x.deltaPerOp, shareOfTotal: x.shareOfTotal });
    // The injected cost as a finding: its own function, else its caller in the library.
    const inLibrary = (all ?? []).filter((x) => INJECTED_OBJECT.test(x.object));
    const injected = inLibrary.find((x) => x.name === INJECTED_FUNCTION) ?? inLibrary[0] ?? null;
    return [t.test, {
      findings: all === null ? null : all.slice(0, 3).map(brief),
      injected: injected ? { ...brief(injected), first: all?.[0] === injected } : null,
      injectedSelfDelta: injected?.name === INJECTED_FUNCTION && injected.measure === 'self' ? injected.deltaPerOp : 0,
      queryPathDelta: f.queryPathDelta, totalDelta: f.totalDelta, unnamedDelta: f.unnamedDelta,
    }];
  }));
}

/**
 * @param {any} v a compact verdict
 * @returns {boolean} a confirmed issue-level regression: what opens an issue
 */
function isDetection(v) {
  return v.verdict === 'regression' && v.level === 'issue' && v.confirmed === true;
}

/**
 * How the A/A verdicts came out, by test and metric: a decided change between two servers of one
 * release is wrong whichever its direction, even where it opens no issue (an improvement), and
 * says how close that test came to a false issue.
 * @param {any[]} runs
 * @returns {Record<string, Record<string, number>>} by `test metric`: counts by `verdict` or
 *   `verdict level` (regression warn, improvement issue, ...), confirmed regressions apart
 */
function tallyVerdicts(runs) {
  /** @type {Record<string, Record<string, number>>} */
  const out = {};
  for (const r of runs) {
    for (const v of r.aa.verdicts) {
      const row = (out[`${v.test} ${v.metric}`] ??= {});
      const key = v.level ? `${v.verdict} ${v.level}${v.verdict === 'regression' && v.confirmed === true ? ' confirmed' : ''}` : v.verdict;
      row[key] = (row[key] ?? 0) + 1;
    }
  }
  return out;
}

/**
 * A/A noise of each test's counts: every server process of A and B in every run is one value.
 * Within: the sd of ln(value) among one side's processes of one run, pooled over sides and runs
 * (what an unpaired comparison sees); paired: the sd of the rounds' ln(B / A) about their mean,
 * divided by √2 to be per side, pooled over runs (what compare's paired test sees); spread: the
 * largest (max - min) / min among one side's processes of one run.
 * @param {any[]} runs
 * @param {string} queryPath the query-path metric (its A/A verdicts' ratios)
 * @returns {Record<string, any>} by test: processes, meanQueryPath, queryPath {within, paired,
 *   maxSpread}, process {within, paired, maxSpread}, aaRatio {min, max} of the A/A query-path verdicts
 */
function summarizeCountedNoise(runs, queryPath) {
  /** @type {Record<string, any>} */
  const out = {};
  const tests = [...new Set(runs.flatMap((r) => Object.keys(r.noise ?? {})))];
  for (const test of tests) {
    /** @param {'queryPath'|'process'} field */
    const figure = (field) => {
      /** @type {number[][]} */
      const within = [];
      /** @type {number[][]} */
      const paired = [];
      let maxSpread = 0;
      for (const r of runs) {
        const n = r.noise?.[test];
        if (!n) continue;
        const a = n.A[field];
        const b = n.B[field];
        for (const side of [a, b]) {
          if (side.length < 2) continue;
          within.push(side.map(Math.log));
          maxSpread = Math.max(maxSpread, (Math.max(...side) - Math.min(...side)) / Math.min(...side));
        }
        const k = Math.min(a.length, b.length);
        if (k >= 2) paired.push(a.slice(0, k).map((/** @type {number} */ x, /** @type {number} */ i) => (Math.log(b[i]) - Math.log(x)) / Math.SQRT2));
      }
      return { within: poolSd(within), paired: poolSd(paired), maxSpread };
    };
    const values = runs.flatMap((r) => (r.noise?.[test] ? [...r.noise[test].A.queryPath, ...r.noise[test].B.queryPath] : []));
    const aa = runs.map((r) => r.aa.verdicts.find((/** @type {any} */ v) => v.test === test && v.metric === queryPath)?.ratio).filter((x) => typeof x === 'number');
    out[test] = {
      processes: values.length,
      meanQueryPath: values.length ? values.reduce((s, x) => s + x, 0) / values.length : null,
      queryPath: figure('queryPath'),
      process: figure('process'),
      aaRatio: aa.length ? { min: Math.min(...aa), max: Math.max(...aa) } : null,
    };
  }
  return out;
}

/**
 * Pooled standard deviation of groups about their own means.
 * @param {number[][]} groups
 * @returns {{sd: number, df: number}|null} null without a group of two
 */
function poolSd(groups) {
  let ss = 0;
  let df = 0;
  for (const g of groups) {
    if (g.length < 2) continue;
    const m = g.reduce((s, x) => s + x, 0) / g.length;
    ss += g.reduce((s, x) => s + (x - m) ** 2, 0);
    df += g.length - 1;
  }
  return df > 0 ? { sd: Math.sqrt(ss / df), df } : null;
}

/**
 * @param {number[]} xs
 * @returns {number|null} the median (the mean of the middle two for an even count)
 */
function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
