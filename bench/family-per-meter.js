#!/usr/bin/env node
/**
 * What splitting the run's family-wise level between meters changes (docs/method.md,
 * "Family-wise control"; bench/family-per-meter.md): the same real records judged by the
 * compare stage of two checkouts, the rule before (one Holm over every gated verdict) and after
 * (familyAlpha split between the meters, Holm within each).
 *
 *   demo: one stored comparison's records (the demo's 10.11.18 vs 10.11.19): per meter the
 *         gated verdicts decided (anything but inconclusive and failed) and held back by the
 *         family rule, the issue-level detectable change of the throughput verdicts (median and
 *         range), the family line and the "how sure" sentence.
 *   aa:   the stored A/A runs (bench/paired-verdicts-<suite>.json: A against B, two servers of
 *         one release side by side; and any results store of A/A runs, both servers of one
 *         release, told apart by their record ids): runs with an issue-level regression, with the
 *         one-sided 95 % Clopper-Pearson bound, and the meters each run judged.
 *
 * The rule's code is the checkout's: `--code DIR` (default: this one) is a tagbench tree whose
 * scripts/ is imported, e.g. the commit before the split extracted with
 * `git archive <commit> scripts | tar -x -C DIR` (plus DIR/node_modules linked to this one's).
 *
 * Usage: node bench/family-per-meter.js demo --store DIR [--code DIR]
 *        node bench/family-per-meter.js aa [--extract FILE]... [--aa-store DIR]... [--code DIR]
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { median } from 'simple-statistics';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { positionals, values: opts } = parseArgs({
  allowPositionals: true,
  options: {
    store: { type: 'string' },
    code: { type: 'string', default: ROOT },
    extract: { type: 'string', multiple: true, default: [] },
    'aa-store': { type: 'string', multiple: true, default: [] },
  },
});

/** @param {string} path relative to the checkout whose rule is measured */
const fromCode = (path) => import(pathToFileURL(join(/** @type {string} */ (opts.code), path)).href);
/** @type {typeof import('../scripts/compare/index.js')} the same surface in both checkouts */
const compare = await fromCode('scripts/compare/index.js');
const { readRecords, readCalibrations } = await import('../scripts/store/index.js');
const { loadConfig } = await import('../scripts/config/index.js');
const { rebuildRecord } = await import('./paired-verdicts.js');
const thresholds = compare.resolveThresholds((await loadConfig(/** @type {string} */ (opts.code))).thresholds);
/** The verdicts do not depend on the creation time; the how-sure sentence's calibration age does. */
const CREATED_AT = '2026-11-28T17:57:00Z';

process.stdout.write(`rule of ${opts.code}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')} (no timing is taken)\n`);
if (positionals[0] === 'demo') await reportDemo(/** @type {string} */ (opts.store));
else if (positionals[0] === 'aa') await reportAa(/** @type {string[]} */ (opts.extract), /** @type {string[]} */ (opts['aa-store']));
else throw new Error('usage: family-per-meter.js demo --store DIR | aa [--extract FILE]... [--aa-store DIR]...');

/**
 * @param {string} store a results store with the two releases' records of one run
 */
async function reportDemo(store) {
  const records = await readRecords(store);
  const versions = [...new Set(records.map((r) => r.release.version))].sort();
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  const cmp = compare.compareRuns({ base: side(versions[0]), candidate: side(versions[1]), thresholds, createdAt: CREATED_AT });
  /** @type {Map<string, {gated: number, decided: number, held: number, context: number}>} */
  const byMeter = new Map();
  for (const t of cmp.tests) {
    if (t.pWorse === null || t.pWorse === undefined) continue;
    const m = byMeter.get(t.meter ?? '(timed repeats)') ?? { gated: 0, decided: 0, held: 0, context: 0 };
    byMeter.set(t.meter ?? '(timed repeats)', m);
    // Shown, not gated (scripts/compare/context-verdicts.js; a checkout before it marks none).
    if (/** @type {{context?: boolean}} */ (t).context) {
      m.context += 1;
      continue;
    }
    m.gated += 1;
    if (t.verdict !== 'inconclusive' && t.verdict !== 'failed') m.decided += 1;
    if (/Not an issue: Holm/.test(t.reason)) m.held += 1;
    byMeter.set(t.meter ?? '(timed repeats)', m);
  }
  const all = [...byMeter.values()].reduce((a, m) => ({ gated: a.gated + m.gated, decided: a.decided + m.decided, held: a.held + m.held, context: a.context + m.context }), { gated: 0, decided: 0, held: 0, context: 0 });
  const pct = (/** @type {number} */ x, /** @type {number} */ n) => `${((100 * x) / n).toFixed(1)} %`;
  for (const [meter, m] of [...byMeter, /** @type {[string, typeof all]} */ (['all', all])]) {
    process.stdout.write(`${String(meter).padEnd(16)} decided ${m.decided} of ${m.gated} (${pct(m.decided, m.gated)}); held back by the family rule ${m.held}; context (not gated) ${m.context}\n`);
  }
  const mdes = cmp.tests.flatMap((t) => (t.metric === 'throughput' && typeof t.mdeIssue === 'number' ? [t.mdeIssue] : [])).sort((a, b) => a - b);
  process.stdout.write(`timed throughput issue-level MDE over ${mdes.length} tests: median ${pct(median(mdes), 1)}, ${pct(mdes[0], 1)}-${pct(mdes[mdes.length - 1], 1)}\n`);
  process.stdout.write(`family: ${JSON.stringify(cmp.family)}\n`);
  const calibrations = await readCalibrations(join(ROOT, 'bench'), cmp.hostClass);
  process.stdout.write(`how sure: ${compare.describeHowSure(cmp, calibrations)}\n`);
}

/**
 * @param {string[]} extracts bench/paired-verdicts-<suite>.json files
 * @param {string[]} stores results stores of A/A runs
 */
async function reportAa(extracts, stores) {
  /** @type {{source: string, run: string, meters: string[], issue: string[]}[]} */
  const runs = [];
  for (const file of extracts) {
    const extract = JSON.parse(await readFile(file, 'utf8'));
    for (const run of extract.runs) {
      const cmp = compare.compareRuns({ base: { version: 'A', records: [rebuildRecord(run.A)] }, candidate: { version: 'B', records: [rebuildRecord(run.B)] }, thresholds, createdAt: CREATED_AT });
      runs.push(judged(file, String(run.index), cmp));
    }
  }
  for (const store of stores) {
    const records = await readRecords(store);
    // An A/A run: two servers of one release, in records of one run whose ids differ.
    for (const tag of new Set(records.map((r) => r.id.split('-').at(-1) ?? ''))) {
      const own = records.filter((r) => r.id.endsWith(`-${tag}`)).sort((a, b) => (a.id < b.id ? -1 : 1));
      if (own.length !== 2) continue;
      const cmp = compare.compareRuns({ base: { version: 'A', records: [own[0]] }, candidate: { version: 'B', records: [own[1]] }, thresholds, createdAt: CREATED_AT });
      runs.push(judged(store, tag, cmp));
    }
  }
  /** @type {Map<string, typeof runs>} */
  const bySource = new Map();
  for (const r of runs) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
  for (const [source, list] of [...bySource, /** @type {[string, typeof runs]} */ (['all', runs])]) {
    const x = list.filter((r) => r.issue.length > 0).length;
    const meters = [...new Set(list.map((r) => r.meters.join('+')))].join(', ');
    process.stdout.write(`${source}: ${x} of ${list.length} A/A runs with an issue-level regression (95 % upper bound ${(100 * compare.upperBound(x, list.length)).toFixed(1)} % per run); meters judged: ${meters}\n`);
    for (const r of list.filter((l) => l.issue.length > 0)) process.stdout.write(`  run ${r.run}: ${r.issue.join('; ')}\n`);
  }
}

/**
 * @param {string} source
 * @param {string} run
 * @param {any} cmp a FullComparison
 * @returns {{source: string, run: string, meters: string[], issue: string[]}}
 */
function judged(source, run, cmp) {
  const meters = [...new Set(cmp.tests.filter((/** @type {any} */ t) => t.pWorse !== null && t.pWorse !== undefined).map((/** @type {any} */ t) => t.meter ?? '(timed repeats)'))];
  const issue = cmp.tests.filter((/** @type {any} */ t) => t.verdict === 'regression' && t.level === 'issue').map((/** @type {any} */ t) => `${t.test} ${t.metric} ${t.ratio?.toFixed(4)}`);
  return { source: source.replace(`${ROOT}`, ''), run, meters, issue };
}
