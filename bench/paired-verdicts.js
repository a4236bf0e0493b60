#!/usr/bin/env node
/**
 * What does pairing by round change in the verdicts of real runs? `compareRuns` judges two
 * releases that ran side by side in one `tagbench run` round by round (paired t on the rounds'
 * log-ratios, scripts/compare/paired-shift.js) once they have `pairedMinRounds` rounds, and as
 * independent instances (exact rank-sum) otherwise. bench/verdict-statistics.js measures both
 * designs on simulated records; this bench feeds both the real records of the host's
 * calibrations (`tagbench calibrate`: three servers of one release side by side, A = the
 * release, B = a copy, S = a copy slowed by a cgroup CPU quota by 5, 10 or 15 % nominal).
 *
 * Method: of every calibration run in the report, the main run only (the `tagbench run` that
 * started A, B and S side by side: the report's `runIds`); its adaptive rounds and confirmation
 * rerun are left out (other runs, with A and one other server, and only for some tests). A/A
 * is A (base) against B (candidate), A/S is A against S, each through the production
 * `compareRuns` with configs/thresholds.yml resolved as `tagbench compare` resolves it, no
 * noise history (as calibrate judges), family-wise control on: once as configured ("paired")
 * and once with `pairedMinRounds: 0` ("independent"). Printed per calibration and design: A/A
 * runs with an issue-level regression (what would reach the confirmation rerun) with the
 * one-sided 95 % Clopper–Pearson bound, and regression verdicts at any level; A/S throughput
 * verdicts per nominal slowdown at the issue and warn levels, beside the slowdown really
 * injected (per run and test, the median over rounds of S/A throughput); the family size and
 * the median p-values of the A/S throughput verdicts.
 *
 * The records: `--store DIR --report FILE [--suite NAME]` (a calibration's results store and
 * its report JSON) writes a compact extract (bench/paired-verdicts-<suite>.json: per main run,
 * the three records reduced to the fields compareRuns reads) and checks that the reduced
 * records give the same verdicts as the stored ones; `--extract FILE` recomputes from it.
 *
 * Usage: node bench/paired-verdicts.js --store /var/tmp/tagbench-calibration-store --report bench/calibration-local.json [--suite smoke]
 *        node bench/paired-verdicts.js --extract bench/paired-verdicts-smoke.json --extract bench/paired-verdicts-smoke-15s.json [--out bench/paired-verdicts.md]
 */
import { parseArgs } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from 'simple-statistics';
import { UserError, EXIT } from '../scripts/errors.js';
import { readRecords } from '../scripts/store/index.js';
import { loadConfig } from '../scripts/config/index.js';
import { compareRuns, resolveThresholds, upperBound, clopperPearson } from '../scripts/compare/index.js';
import { runGroupKey } from '../scripts/run-id.js';
// One reading of a calibration record's server (A, B, S), shared with the bench that measured the rounds' spread.
import { serverOf } from './paired-rounds.js';
export { serverOf };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FORMAT = 'tagbench-paired-verdicts/1';
/** A fixed creation time: the verdicts do not depend on it, and the extract reproduces them. */
const CREATED_AT = '2026-01-01T00:00:00.000Z';

/** @typedef {import('../scripts/types.js').RunRecord} RunRecord */
/** @typedef {import('../scripts/compare/index.js').CompareThresholds} CompareThresholds */
/** @typedef {import('../scripts/compare/index.js').FullComparison} FullComparison */
/** @typedef {'A'|'B'|'S'} Server */

/**
 * @typedef {object} MinimalRepeat what compareRuns reads of a repeat (scripts/compare/metrics.js,
 *   compare-runs.js): throughput, p95 latency, CPU and KB written per operation, the duration
 *   (minDurationS), the per-second rates as [t, qps] (QoS metrics, gated from 10 samples on)
 * @property {number} index
 * @property {number} [instance]
 * @property {'ok'|'failed'} status
 * @property {number} durationS
 * @property {number|null} throughput
 * @property {{p95: number}|null} latencyMs
 * @property {{cpuUsPerOp: number, kbWrittenPerOp: number}|null} efficiency
 * @property {[number, number][]} intervals
 * @property {Record<string, {dbSize: {onDiskBytes?: number, logicalBytes?: number}}>} [details]
 *   only when the repeat recorded a database size (sequence benchmarks)
 */

/**
 * @typedef {object} MinimalRecord a run record reduced to what compareRuns reads: the id (its run,
 *   shared by the servers of one run, pairs the rounds), the release, host class and suite it
 *   checks, the reported steps
 * @property {string} id
 * @property {{product: string, version: string, line: string}} release
 * @property {{class: string}} host
 * @property {{suite: string}} config
 * @property {{name: string, group: string, reported: boolean, status: string, reason?: string, repeats: MinimalRepeat[]}[]} steps
 */

/**
 * @typedef {object} Extract one calibration's main runs
 * @property {string} format
 * @property {string} suite
 * @property {string} source where the records came from
 * @property {string} [conditions] the host's conditions, as the calibration report says
 * @property {string} leftOut what of the store is not here, and why
 * @property {{index: number, slowdown: number, A: MinimalRecord, B: MinimalRecord, S: MinimalRecord}[]} runs
 */

/**
 * A record reduced to what compareRuns reads (reported steps only; no raw output, no latency but
 * p95, no efficiency figures but CPU and KB written per operation).
 * @param {RunRecord} r
 * @returns {MinimalRecord}
 */
export function minimalRecord(r) {
  return {
    id: r.id,
    release: { product: r.release.product, version: r.release.version, line: r.release.line },
    host: { class: r.host.class },
    config: { suite: r.config.suite },
    steps: r.steps.filter((s) => s.reported && s.group !== 'setup').map((s) => ({
      name: s.name,
      group: s.group,
      reported: s.reported,
      status: s.status,
      ...(s.reason ? { reason: s.reason } : {}),
      repeats: s.repeats.map((rep) => {
        const sizes = Object.entries(rep.details ?? {})
          .map(([name, figures]) => [name, /** @type {{dbSize?: {onDiskBytes?: number, logicalBytes?: number}|null}} */ (figures).dbSize])
          .filter(([, size]) => size);
        return {
          index: rep.index,
          ...(rep.instance === undefined ? {} : { instance: rep.instance }),
          status: rep.status,
          durationS: rep.durationS,
          throughput: rep.throughput,
          latencyMs: rep.latencyMs ? { p95: rep.latencyMs.p95 } : null,
          efficiency: rep.efficiency ? { cpuUsPerOp: rep.efficiency.cpuUsPerOp, kbWrittenPerOp: rep.efficiency.kbWrittenPerOp } : null,
          intervals: (rep.intervals ?? []).map((i) => /** @type {[number, number]} */ ([i.t, i.qps])),
          ...(sizes.length > 0 ? { details: Object.fromEntries(sizes.map(([name, dbSize]) => [name, { dbSize }])) } : {}),
        };
      }),
    })),
  };
}

/**
 * The run record compareRuns takes, from a reduced one (the fields it does not read left out).
 * @param {MinimalRecord} m
 * @returns {RunRecord}
 */
export function rebuildRecord(m) {
  return /** @type {RunRecord} */ (/** @type {unknown} */ ({
    ...m,
    steps: m.steps.map((s) => ({
      ...s,
      repeats: s.repeats.map((rep) => ({ ...rep, intervals: rep.intervals.map(([t, qps]) => ({ t, qps })) })),
    })),
  }));
}

/**
 * The main run of every calibration run in the report, A, B and S told apart by label, reduced.
 * @param {RunRecord[]} records a calibration's store
 * @param {{suite: string, runs: {index: number, slowdown: number, runIds: string[]}[]}} report
 *   the calibration report (bench/calibration-<host-class>.json)
 * @returns {{runs: Extract['runs'], leftOut: string}}
 * @throws {UserError} when a run id of the report is not in the store, or a run lacks A, B or S
 */
export function extractRuns(records, report) {
  const byId = new Map(records.map((r) => [r.id, r]));
  /** @type {Extract['runs']} */
  const runs = [];
  const used = new Set();
  for (const run of report.runs) {
    /** @type {Partial<Record<Server, RunRecord>>} */
    const servers = {};
    for (const id of run.runIds) {
      const r = byId.get(id);
      if (!r) throw new UserError(`run ${run.index} of the report: record ${id} is not in the store (give the store the calibration wrote, --store)`);
      const who = serverOf(r);
      if (who === null || servers[who]) throw new UserError(`run ${run.index} of the report: record ${id} is not one of A, B (label B) and S (label S<pid>), or repeats one`);
      servers[who] = r;
      used.add(id);
    }
    const { A, B, S } = servers;
    if (!A || !B || !S) throw new UserError(`run ${run.index} of the report: its records ${run.runIds.join(', ')} lack ${['A', 'B', 'S'].filter((k) => !servers[/** @type {Server} */ (k)]).join(' and ')}`);
    runs.push({ index: run.index, slowdown: run.slowdown, A: minimalRecord(A), B: minimalRecord(B), S: minimalRecord(S) });
  }
  // What the store has beside the main runs, by the servers of each `tagbench run`.
  /** @type {Map<string, RunRecord[]>} */
  const groups = new Map();
  for (const r of records.filter((x) => !used.has(x.id))) {
    const key = runGroupKey(r) ?? r.id;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  /** @type {Record<string, number>} */
  const kinds = {};
  for (const group of groups.values()) {
    const who = group.map((r) => serverOf(r) ?? 'reference').sort().join('+');
    // Adaptive rounds run 2 instances per side (scripts/verify/adaptive-repeats.js); a
    // confirmation rerun runs the main run's number (here 3 or 5).
    const instances = group[0].config.instances;
    const kind = who === 'reference' ? 'reference run'
      : who === 'A+B' || who === 'A+S' ? `${who} with ${instances} instances per side (${instances === 2 ? 'adaptive round' : 'confirmation rerun'})`
        : who === 'A+B+S' ? `A+B+S not in the report (${group.some((r) => r.status !== 'ok') ? 'partial: ' : ''}an interrupted calibration run)`
          : who;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  const leftOut = Object.entries(kinds).sort((a, b) => a[0].localeCompare(b[0])).map(([kind, n]) => `${n} × ${kind}`).join(', ');
  return { runs, leftOut: leftOut || 'nothing' };
}

/**
 * The A/A and A/S comparisons of one main run.
 * @param {Extract['runs'][number]} run
 * @param {CompareThresholds} thresholds
 * @returns {{aa: FullComparison, as: FullComparison}}
 */
export function judgeRun(run, thresholds) {
  return judgeRecords(rebuildRecord(run.A), rebuildRecord(run.B), rebuildRecord(run.S), thresholds);
}

/**
 * @param {RunRecord} A
 * @param {RunRecord} B
 * @param {RunRecord} S
 * @param {CompareThresholds} thresholds
 * @returns {{aa: FullComparison, as: FullComparison}}
 */
function judgeRecords(A, B, S, thresholds) {
  const judge = (/** @type {string} */ version, /** @type {RunRecord} */ candidate) => compareRuns({
    base: { version: 'A', records: [A] }, candidate: { version, records: [candidate] }, thresholds, createdAt: CREATED_AT,
  });
  return { aa: judge('B', B), as: judge('S', S) };
}

/**
 * Per run and test, the slowdown really injected: 1 − the median over rounds of S/A throughput
 * (each server's value in a round: the median of its ok repeats there).
 * @param {Extract['runs'][number]} run
 * @returns {Record<string, number>} by test; tests without a round both measured left out
 */
export function realisedSlowdown(run) {
  /** @param {MinimalRecord} r @param {string} test */
  const byInstance = (r, test) => {
    /** @type {Map<number, number[]>} */
    const values = new Map();
    const step = r.steps.find((s) => s.name === test);
    if (step?.status !== 'ok') return values;
    for (const rep of step.repeats) {
      if (rep.status !== 'ok' || !(typeof rep.throughput === 'number' && rep.throughput > 0)) continue;
      const i = rep.instance ?? rep.index;
      values.set(i, [...(values.get(i) ?? []), rep.throughput]);
    }
    return values;
  };
  /** @type {Record<string, number>} */
  const out = {};
  for (const step of run.A.steps) {
    const a = byInstance(run.A, step.name);
    const s = byInstance(run.S, step.name);
    const ratios = [...a.keys()].filter((i) => s.has(i)).map((i) => median(/** @type {number[]} */ (s.get(i))) / median(/** @type {number[]} */ (a.get(i))));
    if (ratios.length > 0) out[step.name] = 1 - median(ratios);
  }
  return out;
}

/**
 * @typedef {object} DesignSummary one calibration judged one way
 * @property {string} design
 * @property {{runs: number, withIssue: number, regressions: number, verdicts: number, paired: number}} aa
 *   runs with any issue-level regression; regression verdicts at any level; all verdicts, and how many paired
 * @property {{slowdown: number, trials: number, issue: number, warn: number, paired: number, pWorse: number[], pAdjusted: number[]}[]} as
 *   A/S throughput verdicts per nominal slowdown
 * @property {number[]} familySizes of the A/S comparisons
 * @property {[number, number][]} instances [base, candidate] instances of the A/S throughput verdicts
 */

/**
 * Both designs over one calibration's main runs.
 * @param {Extract} extract
 * @param {CompareThresholds} thresholds as configured (the paired design)
 * @returns {{designs: DesignSummary[], realised: {slowdown: number, values: number[]}[]}}
 */
export function summarize(extract, thresholds) {
  const slowdowns = [...new Set(extract.runs.map((r) => r.slowdown))].sort((a, b) => a - b);
  /** @type {DesignSummary[]} */
  const designs = [];
  for (const [design, t] of /** @type {const} */ ([['paired', thresholds], ['independent', { ...thresholds, pairedMinRounds: 0 }]])) {
    const aa = { runs: 0, withIssue: 0, regressions: 0, verdicts: 0, paired: 0 };
    const as = slowdowns.map((slowdown) => ({ slowdown, trials: 0, issue: 0, warn: 0, paired: 0, pWorse: /** @type {number[]} */ ([]), pAdjusted: /** @type {number[]} */ ([]) }));
    /** @type {number[]} */
    const familySizes = [];
    /** @type {[number, number][]} */
    const instances = [];
    for (const run of extract.runs) {
      const judged = judgeRun(run, t);
      aa.runs++;
      if (judged.aa.tests.some((v) => v.verdict === 'regression' && v.level === 'issue')) aa.withIssue++;
      aa.regressions += judged.aa.tests.filter((v) => v.verdict === 'regression').length;
      aa.verdicts += judged.aa.tests.length;
      aa.paired += judged.aa.tests.filter((v) => v.pairedRounds).length;
      familySizes.push(judged.as.family?.size ?? 0);
      const row = /** @type {typeof as[number]} */ (as.find((x) => x.slowdown === run.slowdown));
      for (const v of judged.as.tests.filter((x) => x.metric === 'throughput')) {
        row.trials++;
        instances.push([v.base?.n ?? 0, v.candidate?.n ?? 0]);
        if (v.verdict === 'regression' && v.level === 'issue') row.issue++;
        if (v.verdict === 'regression' && v.level === 'warn') row.warn++;
        if (v.pairedRounds) row.paired++;
        if (typeof v.pWorse === 'number') row.pWorse.push(v.pWorse);
        if (typeof v.pAdjusted === 'number') row.pAdjusted.push(v.pAdjusted);
      }
    }
    designs.push({ design, aa, as, familySizes, instances });
  }
  const realised = slowdowns.map((slowdown) => ({
    slowdown,
    values: extract.runs.filter((r) => r.slowdown === slowdown).flatMap((r) => Object.values(realisedSlowdown(r))),
  }));
  return { designs, realised };
}

/** @param {number} v fraction @param {number} [digits] */
const pct = (v, digits = 1) => `${(v * 100).toFixed(digits)} %`;
/** @param {number[]} xs */
const medianP = (xs) => (xs.length === 0 ? 'n/a' : formatP(median(xs)));
/** @param {number} p */
function formatP(p) {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
/** @param {number} x @param {number} n */
function countWithInterval(x, n) {
  if (n === 0) return 'n/a';
  const [lo, hi] = clopperPearson(x, n);
  return `${x} of ${n} (${pct(lo, 0)}–${pct(hi, 0)})`;
}
/**
 * The smallest one-sided p-value the exact rank-sum test gives with m vs n instances (all of one
 * side below all of the other): 1 / C(m + n, m).
 * @param {number} m @param {number} n
 */
export function smallestRankSumP(m, n) {
  let c = 1;
  for (let i = 1; i <= m; i++) c = (c * (n + i)) / i;
  return 1 / c;
}
/** @param {number[]} xs */
function range(xs) {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

/**
 * The Markdown report over one or more calibrations.
 * @param {Extract[]} extracts
 * @param {CompareThresholds} thresholds as configured
 * @param {{command: string, date: string}} meta
 * @returns {string}
 */
export function renderReport(extracts, thresholds, meta) {
  const all = extracts.map((e) => ({ e, s: summarize(e, thresholds), name: `${e.suite} (${e.runs.length} runs)` }));
  const lines = [
    '# Verdicts paired by round vs independent instances (calibration records)',
    '',
    `Computed on ${meta.date} by \`${meta.command}\`,`,
    'from the records of `tagbench calibrate` (reduced to bench/paired-verdicts-<suite>.json, which reproduce this',
    'file without the store; three servers of one release side by side, A = the release, B = a copy, S = a copy',
    'slowed by a cgroup CPU quota by the nominal slowdown; in each round a test runs on A, B and S seconds apart).',
    'Only the main run of each calibration run is judged (the run that started A, B and S); its adaptive rounds',
    'and confirmation reruns are left out. A/A = A (base) against B, A/S = A against S, each through the',
    `production \`compareRuns\` with configs/thresholds.yml (confidence ${thresholds.confidence}, familyAlpha ${thresholds.familyAlpha},`,
    'Holm over every gated verdict of the comparison), no noise history, no confirmation rerun. "paired":',
    `as configured (pairedMinRounds ${thresholds.pairedMinRounds}: paired t on the rounds' log-ratios); "independent": pairedMinRounds 0`,
    '(exact rank interval and rank-sum p-values on the instances).',
    '',
    '## A/A (A against B, the same release)',
    '',
    'Runs with an issue-level regression: any verdict (any metric) of the run a regression at level `issue` after',
    'Holm, what would go to the confirmation rerun; bound: one-sided 95 % Clopper–Pearson. Regression verdicts: at',
    'any level, over all the runs\' verdicts; paired: verdicts the design judged paired by round.',
    '',
    '| calibration | design | runs | runs with an issue-level regression | 95 % upper bound | regression verdicts (any level) | verdicts | paired |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { s, name } of all) {
    for (const d of s.designs) {
      lines.push(`| ${name} | ${d.design} | ${d.aa.runs} | ${d.aa.withIssue} | ${pct(upperBound(d.aa.withIssue, d.aa.runs))} | ${d.aa.regressions} | ${d.aa.verdicts} | ${d.aa.paired} |`);
    }
  }
  lines.push(
    '',
    '## A/S throughput verdicts (A against S, slowed)',
    '',
    'Per nominal slowdown, the (run, test) throughput verdicts of A/S that are a regression at level `issue` (after',
    'Holm; with the 95 % Clopper–Pearson interval of the rate) and at level `warn`. Realised slowdown: per run and',
    'test, 1 − the median over rounds of S/A throughput (the injected slowdown and the run\'s noise together; below',
    'zero S was faster); the median over the (run, test) pairs and their range.',
    '',
    '| calibration | nominal slowdown | (run, test) | realised slowdown: median (range) | paired: issue | paired: warn | independent: issue | independent: warn |',
    '| --- | ---: | ---: | --- | --- | ---: | --- | ---: |',
  );
  for (const { s, name } of all) {
    const [p, u] = s.designs;
    for (const [i, row] of p.as.entries()) {
      const r = s.realised[i].values;
      const realised = r.length === 0 ? 'n/a' : `${pct(median(r))} (${pct(Math.min(...r))} to ${pct(Math.max(...r))})`;
      lines.push(`| ${name} | ${pct(row.slowdown, 0)} | ${row.trials} | ${realised} | ${countWithInterval(row.issue, row.trials)} | ${row.warn} | ${countWithInterval(u.as[i].issue, u.as[i].trials)} | ${u.as[i].warn} |`);
    }
  }
  lines.push(
    '',
    '## Where the evidence is: A/S throughput p-values',
    '',
    'Family size: gated verdicts with a p-value in each A/S comparison (Holm runs over them); an issue needs an',
    'adjusted p at most familyAlpha, so the smallest raw p at least familyAlpha / size (Holm\'s first step).',
    'Smallest p: the smallest one-sided p-value the design can give with the run\'s instances (exact rank-sum:',
    '1 / C(m + n, m); the paired t has no floor). Median p: of the one-sided p-value that S is slower, before and',
    'after Holm\'s adjustment; paired: throughput verdicts the design judged paired by round.',
    '',
    '| calibration | design | family size | Holm\'s first step | instances per side | smallest p | nominal slowdown | paired | median p | median Holm-adjusted p |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const { s, name } of all) {
    for (const d of s.designs) {
      const first = formatP(thresholds.familyAlpha / Math.max(...d.familySizes));
      const sides = range(d.instances.map(([m, n]) => Math.min(m, n)));
      const smallest = d.design === 'paired' ? 'no floor' : formatP(Math.min(...d.instances.map(([m, n]) => smallestRankSumP(m, n))));
      for (const row of d.as) {
        lines.push(`| ${name} | ${d.design} | ${range(d.familySizes)} | ${first} | ${sides} | ${smallest} | ${pct(row.slowdown, 0)} | ${row.paired} of ${row.trials} | ${medianP(row.pWorse)} | ${medianP(row.pAdjusted)} |`);
      }
    }
  }
  lines.push('', '## Records', '');
  for (const { e, name } of all) {
    lines.push(`- ${name}: ${e.source}. Left out: ${e.leftOut}.${e.conditions ? ` Conditions (the report's): ${e.conditions}` : ''}`);
  }
  lines.push('', '## What the numbers show', '', ...findings(all.map(({ e, s }) => ({ e, s })), thresholds));
  return lines.join('\n');
}

/**
 * One short paragraph from the numbers: every figure in it is computed, and the only comparison
 * it draws (lower p-values paired) is stated only when the numbers have it.
 * @param {{e: Extract, s: ReturnType<typeof summarize>}[]} all
 * @param {CompareThresholds} thresholds
 * @returns {string[]}
 */
function findings(all, thresholds) {
  const sum = (/** @type {DesignSummary} */ d, /** @type {'issue'|'warn'|'trials'} */ k) => d.as.reduce((n, r) => n + r[k], 0);
  const medianOf = (/** @type {DesignSummary} */ d, /** @type {'pWorse'|'pAdjusted'} */ k) => median(d.as.flatMap((r) => r[k]));
  const sentences = all.map(({ e, s }) => {
    const [p, u] = s.designs;
    const aa = p.aa.withIssue === 0 && u.aa.withIssue === 0
      ? `in A/A neither design put a regression at the issue level in any of the ${p.aa.runs} runs (95 % bound ${pct(upperBound(0, p.aa.runs))})`
      : `in A/A ${p.aa.withIssue} of ${p.aa.runs} runs had an issue-level regression paired, ${u.aa.withIssue} independent`;
    const first = thresholds.familyAlpha / Math.max(...u.familySizes);
    const floor = Math.min(...u.instances.map(([m, n]) => smallestRankSumP(m, n)));
    const byConstruction = floor > first ? `; with ${range(u.instances.map(([m, n]) => Math.min(m, n)))} instances per side the independent design cannot give an issue at all (smallest p ${formatP(floor)}, Holm's first step ${formatP(first)})` : '';
    const r = s.realised.flatMap((x) => x.values);
    return `${e.suite} (${e.runs.length} runs): ${aa}, with ${p.aa.regressions} paired vs ${u.aa.regressions} independent regression verdicts at any level. `
      + `In A/S, paired gave ${sum(p, 'issue')} issue-level and ${sum(p, 'warn')} warn-level throughput regressions of ${sum(p, 'trials')}, independent ${sum(u, 'issue')} and ${sum(u, 'warn')}${byConstruction}; `
      + `the median one-sided p is ${formatP(medianOf(p, 'pWorse'))} paired vs ${formatP(medianOf(u, 'pWorse'))} independent (after Holm ${formatP(medianOf(p, 'pAdjusted'))} vs ${formatP(medianOf(u, 'pAdjusted'))}), `
      + `while the realised slowdown (noise included) ranges from ${pct(Math.min(...r))} to ${pct(Math.max(...r))} per run and test.`;
  });
  const lower = all.every(({ s }) => medianOf(s.designs[0], 'pWorse') < medianOf(s.designs[1], 'pWorse'));
  return [
    `${sentences.join(' ')} ${lower ? 'On the same records the paired design gives the lower median p in every calibration, but with ' : 'With '}${all.map(({ e }) => e.runs.length).join(' and ')} runs`
      + ' these are small counts: the bounds, not the point rates, are what they support. Only the main runs are judged, with fewer'
      + ' instances than calibrate\'s adaptive rounds add, so the counts are not the calibration reports\' detection rates.',
  ];
}

/**
 * @param {string[]} args
 * @returns {{store?: string, report?: string, suite?: string, extracts: string[], out: string}}
 * @throws {UserError} naming what is missing
 */
export function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      store: { type: 'string' },
      report: { type: 'string' },
      suite: { type: 'string' },
      extract: { type: 'string', multiple: true, default: [] },
      out: { type: 'string', default: 'bench/paired-verdicts.md' },
    },
  });
  if (values.store && !values.report) throw new UserError('--store needs --report: the calibration report JSON whose runs the store holds (bench/calibration-local.json)');
  if (values.report && !values.store) throw new UserError('--report needs --store: the results store the calibration wrote (calibrate --store)');
  if (!values.store && values.extract.length === 0) throw new UserError('give --store DIR --report FILE (a calibration\'s results store and report) or --extract FILE (an extract this bench wrote)');
  return { store: values.store, report: values.report, suite: values.suite, extracts: values.extract, out: values.out };
}

/**
 * Build one calibration's extract from its store and report, and check that the reduced records
 * give the stored records' verdicts in both designs.
 * @param {string} store
 * @param {string} reportFile
 * @param {string|undefined} suite
 * @param {CompareThresholds} thresholds
 * @returns {Promise<Extract>}
 * @throws {UserError} a report of another suite, or records that are not there
 */
export async function buildExtract(store, reportFile, suite, thresholds) {
  /** @type {any} */
  let report;
  try {
    report = JSON.parse(await readFile(reportFile, 'utf8'));
  } catch (err) {
    throw new UserError(`--report ${reportFile}: cannot read it as JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(report?.runs) || typeof report.suite !== 'string') throw new UserError(`--report ${reportFile}: not a calibration report (no suite and runs)`);
  if (suite && suite !== report.suite) throw new UserError(`--suite ${suite}, but ${reportFile} calibrated suite ${report.suite}`);
  const records = (await readRecords(store, {})).filter((r) => r.config.suite === report.suite);
  if (records.length === 0) throw new UserError(`--store ${store}: no records of suite ${report.suite}`);
  const { runs, leftOut } = extractRuns(records, report);
  const byId = new Map(records.map((r) => [r.id, r]));
  // The reduced records must judge like the stored ones, or the extract is not what was measured.
  for (const run of runs) {
    for (const t of [thresholds, { ...thresholds, pairedMinRounds: 0 }]) {
      const reduced = judgeRun(run, t);
      const [A, B, S] = [run.A, run.B, run.S].map((m) => /** @type {RunRecord} */ (byId.get(m.id)));
      const full = judgeRecords(A, B, S, t);
      const key = (/** @type {FullComparison} */ c) => JSON.stringify([c.family, c.tests.map((v) => [v.test, v.metric, v.verdict, v.level, v.ratio, v.pWorse, v.pAdjusted, v.pairedRounds])]);
      if (key(reduced.aa) !== key(full.aa) || key(reduced.as) !== key(full.as)) throw new Error(`run ${run.index}: the reduced records judge differently from the stored ones (a field compareRuns reads is missing from minimalRecord)`);
    }
  }
  return {
    format: FORMAT,
    suite: report.suite,
    source: `${basename(reportFile)}, ${runs.length * 3} of ${records.length} records of the store, ${records[0].startedAt.slice(0, 10)}`,
    ...(typeof report.conditions === 'string' ? { conditions: report.conditions } : {}),
    leftOut,
    runs,
  };
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const thresholds = resolveThresholds((await loadConfig(ROOT)).thresholds);
  /** @type {Extract[]} */
  const extracts = [];
  if (opts.store && opts.report) {
    const extract = await buildExtract(resolve(opts.store), resolve(opts.report), opts.suite, thresholds);
    const file = join(ROOT, 'bench', `paired-verdicts-${extract.suite}.json`);
    await writeFile(file, `${JSON.stringify(extract)}\n`);
    process.stderr.write(`paired-verdicts: extract written to ${file}\n`);
    extracts.push(extract);
  }
  for (const file of opts.extracts) {
    /** @type {any} */
    let data;
    try {
      data = JSON.parse(await readFile(resolve(file), 'utf8'));
    } catch (err) {
      throw new UserError(`--extract ${file}: cannot read it as JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (data?.format !== FORMAT) throw new UserError(`--extract ${file}: not an extract of this bench (format ${JSON.stringify(data?.format)}, expected ${FORMAT})`);
    extracts.push(data);
  }
  const command = ['node bench/paired-verdicts.js', ...process.argv.slice(2)].join(' ');
  const report = renderReport(extracts, thresholds, { command, date: new Date().toISOString().slice(0, 10) });
  await writeFile(resolve(ROOT, opts.out), report);
  process.stdout.write(report);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`paired-verdicts: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UserError ? EXIT.userError : 1);
  });
}
