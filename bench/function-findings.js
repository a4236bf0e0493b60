#!/usr/bin/env node
/**
 * Calibration of the findings per function (scripts/compare/function-findings.js) on the stores
 * of `tagbench calibrate --meter instructions` calls: every run there holds servers A and B of
 * one release (A/A) and injected servers (S0p1: +0.1 % of a point select in the preload
 * library's function, S0p25: +0.25 %), each counted on one server process per round, side by side.
 * Per run and test it judges B against A (a finding there is false) and each S against A (the
 * injected function must be found and named), with the given settings, and for choosing them the
 * A/A noise: per run and test the largest rise that passes the test before the floor.
 *
 * Usage: node bench/function-findings.js --store DIR [--store DIR ...] [--alpha 0.01]
 *          [--floor-per-op 5] [--floor-share 0.0002] [--merge bench/function-findings.json]
 *          [--out bench/function-findings.json]
 * Prints a summary; writes the per-run figures as JSON. --merge keeps the runs of an earlier JSON
 * judged with the same settings (their stores need not exist any more) and adds the stores' runs.
 * Each run's load (1-minute average at its start and end) comes from the calibrate report beside
 * its store (`<store>/../calibration-*.json`), where there is one.
 */
import { parseArgs } from 'node:util';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readRecords, readRawLog } from '../scripts/store/index.js';
import { judgeFunctionProfiles, clopperPearson, upperBound } from '../scripts/compare/index.js';
import { runGroupKey, runIdLabel } from '../scripts/run-id.js';
import { INJECTED_FUNCTION, INJECTED_OBJECT as LIBRARY } from '../scripts/verify/calibrate/inject-cost/build-inject-cost.js';

const { values: opts } = parseArgs({
  options: {
    store: { type: 'string', multiple: true },
    alpha: { type: 'string', default: '0.01' },
    'floor-per-op': { type: 'string', default: '5' },
    'floor-share': { type: 'string', default: '0.0002' },
    merge: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!opts.store?.length) throw new Error('give at least one --store (a calibrate --meter instructions store)');
const settings = { alpha: Number(opts.alpha), floorPerOp: Number(opts['floor-per-op']), floorShare: Number(opts['floor-share']) };
// Before the floor: what the test alone would let through, to see how large A/A rises get.
const noFloor = { ...settings, floorPerOp: 0, floorShare: 0 };
// Neither test nor floor (a level over 1 for each function): the largest mean rise of any function.
const anything = { ...settings, alpha: 1e9, floorPerOp: 0, floorShare: 0 };

/**
 * The profiles of one record's counted repeats of a test, by round (instance).
 * @param {string} store
 * @param {import('../scripts/types.js').RunRecord} r
 * @param {string} test
 */
async function profilesByRound(store, r, test) {
  const reps = r.steps.find((s) => s.name === test)?.meters?.instructions?.repeats ?? [];
  const out = new Map();
  for (const rep of reps) {
    if (rep.status !== 'ok' || !rep.profile) continue;
    const text = await readRawLog(store, r.id, rep.profile);
    if (text !== null) out.set(rep.instance, JSON.parse(text));
  }
  return out;
}

/**
 * @param {Map<number, any>} base
 * @param {Map<number, any>} candidate
 */
function pair(base, candidate) {
  return [...base.keys()].filter((k) => candidate.has(k)).sort((a, b) => a - b).map((k) => ({ base: base.get(k), candidate: candidate.get(k) }));
}

/** @typedef {{test: string, against: string, findings: any[], injected: any, largestBeforeFloor: any[]} & Record<string, any>} Judged one server against A on one test */
/** @typedef {{one: number, five: number, fifteen: number}} Load */
/** @type {{store: string, run: string, startedAt: string, load?: {start: Load|null, end: Load|null}, tests: Judged[]}[]} */
const runs = [];
if (opts.merge) {
  const earlier = JSON.parse(await readFile(opts.merge, 'utf8'));
  if (JSON.stringify(earlier.settings) !== JSON.stringify(settings)) throw new Error(`--merge ${opts.merge}: judged with ${JSON.stringify(earlier.settings)}, not ${JSON.stringify(settings)}`);
  runs.push(...earlier.runs.filter((/** @type {any} */ r) => !(opts.store ?? []).includes(r.store)));
}

/**
 * The load of each run of a store, by A's record id, from the calibrate report beside the store.
 * @param {string} store
 * @returns {Promise<Map<string, {start: Load|null, end: Load|null}>>}
 */
async function loadsByRun(store) {
  const dir = dirname(store);
  const out = new Map();
  for (const name of (await readdir(dir).catch(() => [])).filter((n) => /^calibration-.*\.json$/.test(n))) {
    const report = JSON.parse(await readFile(join(dir, name), 'utf8'));
    for (const r of report.runs ?? []) if (r.runIds?.A) out.set(r.runIds.A, { start: r.loadAverageAtStart ?? null, end: r.loadAverage ?? null });
  }
  return out;
}

for (const store of opts.store) {
  const records = await readRecords(store);
  const loads = await loadsByRun(store);
  /** @type {Map<string, Map<string, import('../scripts/types.js').RunRecord>>} */
  const groups = new Map();
  for (const r of records) {
    const key = runGroupKey(r);
    const label = runIdLabel(r);
    if (!key || !label || label === 'ref') continue;
    groups.set(key, (groups.get(key) ?? new Map()).set(label, r));
  }
  for (const [key, byLabel] of groups) {
    const a = byLabel.get('A');
    if (!a) continue;
    const tests = a.steps.filter((s) => s.meters?.instructions).map((s) => s.name);
    const run = { store, run: key, startedAt: a.startedAt, ...(loads.has(a.id) ? { load: loads.get(a.id) } : {}), tests: /** @type {Judged[]} */ ([]) };
    for (const test of tests) {
      const pa = await profilesByRound(store, a, test);
      for (const [label, other] of byLabel) {
        if (label === 'A') continue;
        const rounds = pair(pa, await profilesByRound(store, other, test));
        // A run cut short (stopped between rounds) is left out: every figure is of 3 paired rounds.
        if (rounds.length < 3) continue;
        const judged = /** @type {import('../scripts/types.js').TestFunctionFindings} */ (judgeFunctionProfiles(rounds, settings));
        const loose = /** @type {import('../scripts/types.js').TestFunctionFindings} */ (judgeFunctionProfiles(rounds, noFloor));
        const any = /** @type {import('../scripts/types.js').TestFunctionFindings} */ (judgeFunctionProfiles(rounds, anything));
        // The preload library is named by its content hash (inject-cost/build-inject-cost.js): a
        // finding there is the injected cost, named by its function or, when the function ran
        // below the profile's cut, by its caller in the library (the library's send()).
        const inLibrary = judged.findings.filter((f) => LIBRARY.test(f.object));
        const injected = inLibrary.find((f) => f.name === INJECTED_FUNCTION) ?? inLibrary[0] ?? null;
        run.tests.push({
          test, against: label, rounds: rounds.length, judged: judged.judged, totalPerOp: judged.totalPerOp, floorPerOp: judged.floorPerOp,
          findings: judged.findings.map((f) => ({ name: f.name, object: f.object, kind: f.kind, measure: f.measure, deltaPerOp: f.deltaPerOp, shareOfTotal: f.shareOfTotal })),
          injected: injected ? { name: injected.name, kind: injected.kind, measure: injected.measure, deltaPerOp: injected.deltaPerOp, shareOfTotal: injected.shareOfTotal, first: LIBRARY.test(judged.findings[0]?.object ?? '') } : null,
          // The largest rises the test alone passes (before the floor): what the floor must stop in A/A.
          largestBeforeFloor: loose.findings.slice(0, 3).map((f) => ({ name: f.name, measure: f.measure, deltaPerOp: f.deltaPerOp, shareOfTotal: f.shareOfTotal })),
          // With neither: the largest mean rises at all, and how many functions rose on average.
          largestAny: any.findings.slice(0, 3).map((f) => ({ name: f.name, measure: f.measure, deltaPerOp: f.deltaPerOp, pGreater: f[f.measure].pGreater })),
        });
      }
    }
    if (run.tests.length > 0) runs.push(run);
  }
}

const aa = runs.filter((r) => r.tests.some((t) => t.against === 'B'));
const falseRuns = aa.filter((r) => r.tests.some((t) => t.against === 'B' && t.findings.length > 0));
console.log(`settings: alpha ${settings.alpha}, floor max(${settings.floorPerOp} /op, ${settings.floorShare} x total)`);
console.log(`A/A: ${falseRuns.length} of ${aa.length} runs with a finding (one-sided 95 % Clopper-Pearson upper bound ${aa.length ? upperBound(falseRuns.length, aa.length, 0.95).toFixed(3) : 'n/a'})`);
for (const r of falseRuns) for (const t of r.tests.filter((/** @type {any} */ x) => x.against === 'B' && x.findings.length > 0)) console.log(`  ${r.run} ${t.test}: ${t.findings.map((/** @type {any} */ f) => `${f.name} ${f.measure} +${f.deltaPerOp}`).join('; ')}`);
for (const label of ['S0p1', 'S0p25']) {
  for (const test of ['point-query', 'read-only.range100']) {
    const trials = runs.flatMap((r) => r.tests.filter((t) => t.against === label && t.test === test));
    if (trials.length === 0) continue;
    const found = trials.filter((t) => t.injected);
    const exact = found.filter((t) => t.injected.name === INJECTED_FUNCTION);
    const first = found.filter((t) => t.injected.first);
    const others = trials.reduce((n, t) => n + t.findings.filter((/** @type {any} */ f) => !LIBRARY.test(f.object)).length, 0);
    const sizes = found.map((t) => t.injected.deltaPerOp);
    console.log(`${label} ${test}: found in the library in ${found.length} of ${trials.length} runs (one-sided 95 % lower bound ${clopperPearson(found.length, trials.length, 0.90)[0].toFixed(3)}), as ${INJECTED_FUNCTION} in ${exact.length}, the largest finding in ${first.length}; size ${Math.min(...sizes)}-${Math.max(...sizes)} /op; findings outside the library ${others}`);
  }
}
for (const test of ['point-query', 'read-only.range100']) {
  const judgedAa = aa.flatMap((r) => r.tests.filter((t) => t.against === 'B' && t.test === test));
  const passing = judgedAa.map((t) => t.largestBeforeFloor[0] ?? null).filter(Boolean).sort((x, y) => y.deltaPerOp - x.deltaPerOp);
  const any = judgedAa.map((t) => t.largestAny[0] ?? null).filter(Boolean).sort((x, y) => y.deltaPerOp - x.deltaPerOp);
  console.log(`A/A ${test} (${judgedAa.length} runs): rises passing the test before the floor in ${passing.length} runs${passing.length ? `, largest ${passing.slice(0, 3).map((f) => `${f.name.slice(0, 40)} ${f.measure} +${f.deltaPerOp}`).join('; ')}` : ''}; `
    + `largest mean rise of any function, no test: ${any.slice(0, 3).map((f) => `${f.name.slice(0, 40)} ${f.measure} +${f.deltaPerOp} (p ${f.pGreater.toPrecision(2)})`).join('; ') || 'none'}`);
}
const injectedPairs = runs.flatMap((r) => r.tests.filter((t) => t.against !== 'B'));
console.log(`injected comparisons: ${injectedPairs.length}, with a finding outside the library: ${injectedPairs.filter((t) => t.findings.some((f) => !LIBRARY.test(f.object))).length}`);
if (opts.out) await writeFile(opts.out, `${JSON.stringify({ settings, runs }, null, 1)}\n`);

// The per-run table of bench/function-findings.md.
const cell = (/** @type {Judged|undefined} */ t) => {
  if (!t) return '—';
  if (t.against === 'B') return t.findings.length === 0 ? 'none' : t.findings.map((/** @type {any} */ f) => `\`${f.name}\` +${f.deltaPerOp}`).join(', ');
  return t.injected ? `\`${t.injected.name}\` ${t.injected.kind === 'appeared' ? 'appeared' : `${t.injected.measure} rose`}, +${t.injected.deltaPerOp}/op (${(t.injected.shareOfTotal * 100).toFixed(3)} %)` : 'not found';
};
console.log('\n| run | started (UTC) | call | load, 1 min: start / end | A/A point-query | A/A read-only.range100 | 0.1 % point-query | 0.1 % read-only.range100 | 0.25 % point-query | 0.25 % read-only.range100 | findings outside the library |');
console.log('| ---: | --- | ---: | --- | --- | --- | --- | --- | --- | --- | ---: |');
const calls = [...new Set([...runs].sort((a, b) => a.startedAt.localeCompare(b.startedAt)).map((r) => r.store))];
[...runs].sort((a, b) => a.startedAt.localeCompare(b.startedAt)).forEach((r, i) => {
  const of = (/** @type {string} */ label, /** @type {string} */ test) => r.tests.find((t) => t.against === label && t.test === test);
  const outside = r.tests.filter((t) => t.against !== 'B').reduce((n, t) => n + t.findings.filter((/** @type {any} */ f) => !LIBRARY.test(f.object)).length, 0);
  const load = r.load ? `${r.load.start?.one ?? '?'} / ${r.load.end?.one ?? '?'}` : 'in the call\'s report';
  console.log(`| ${i + 1} | ${r.startedAt.slice(11, 16)} | ${calls.indexOf(r.store) + 1} | ${load} | ${cell(of('B', 'point-query'))} | ${cell(of('B', 'read-only.range100'))} | ${cell(of('S0p1', 'point-query'))} | ${cell(of('S0p1', 'read-only.range100'))} | ${cell(of('S0p25', 'point-query'))} | ${cell(of('S0p25', 'read-only.range100'))} | ${outside} |`);
});
