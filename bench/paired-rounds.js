#!/usr/bin/env node
/**
 * Is the noise between server instances a property of the instance, or of the moment it ran?
 * A calibration run measures three servers of one release (A, B and S, `tagbench calibrate`)
 * round after round; within a round each test runs on A, B and S one after another, seconds
 * apart. If the host drifts over minutes (its speed, the datadir all three servers change alike),
 * a round's values move together, and the ratio within a round, ln(B/A), varies less than the
 * values themselves. Today's verdicts treat instances as independent samples (an exact rank-sum
 * test of A's instances against B's); this bench measures how much a comparison paired by round
 * would remove, on the calibrations' own records.
 *
 * Per test and calibration it prints the pooled within-run sd of ln(throughput) of one side (what
 * the unpaired verdict's noise is) and the pooled within-run sd of the round's ln(other/A),
 * divided by √2 to be per side like the first (A/B: A/A pairs; A/S: the slowed copy, whose
 * run mean takes out its slowdown), each with its degrees of freedom and 95 % interval.
 *
 * The records: `--store DIR --suite NAME` (a calibration's results store) writes a compact
 * extract beside the report (bench/paired-rounds-<suite>.json: per run and test the rounds'
 * throughputs), from which `--extract FILE` recomputes without the store.
 *
 * Usage: node bench/paired-rounds.js --store /var/tmp/cal-store --suite smoke [--out bench/paired-rounds.md]
 *        node bench/paired-rounds.js --extract bench/paired-rounds-smoke.json --extract bench/paired-rounds-smoke-15s.json
 */
import { parseArgs } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UserError, EXIT } from '../scripts/errors.js';
import { readRecords } from '../scripts/store/index.js';
import { runIdLabel, runGroupKey } from '../scripts/run-id.js';
import { sdInterval } from './instance-noise.js';
import { computePairedShift } from '../scripts/compare/paired-shift.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TESTS = ['point-query', 'update-nonindex'];

/**
 * Which server of a calibration run a record is, by the run label in its id (verify/calibrate/timed.js):
 * A has none, B is `B`, S is `S<pid>`; anything else (the reference run `ref<pid>`) is null.
 * @param {{id: string, release: {product: string, version: string}, config: {suite: string}}} r
 * @returns {'A'|'B'|'S'|null}
 */
export function serverOf(r) {
  const label = runIdLabel(/** @type {import('../scripts/types.js').RunRecord} */ (r));
  if (label === null) return 'A';
  if (label === 'B') return 'B';
  return /^S\d+$/.test(label) ? 'S' : null;
}

/**
 * @typedef {object} Extract one calibration's rounds
 * @property {string} suite
 * @property {string} source where the records came from
 * @property {{run: string, test: string, rounds: {instance: number, A: number|null, B: number|null, S: number|null}[]}[]} series
 *   per calibration run (its run id suffix) and test, the throughput of each server per round
 */

/**
 * The rounds of every calibration run in a results store: records of one run share the id's
 * last part; A is the unlabelled release, B the `-B-` one, S the `-S<pid>-` one (verify/calibrate/timed.js).
 * Reference runs (`-ref<pid>-`) are left out; runs that lack A are left out.
 * @param {import('../scripts/types.js').RunRecord[]} records
 * @param {string[]} tests
 * @returns {Extract['series']}
 */
export function roundsOf(records, tests) {
  /** @type {Map<string, Record<string, import('../scripts/types.js').RunRecord>>} */
  const byRun = new Map();
  for (const r of records) {
    // Records of one runReleases call share their run key (stamp and tag); the label says which
    // server. The extract names a run by its tag.
    const key = runGroupKey(r);
    const who = serverOf(r);
    if (key === null || who === null) continue;
    const suffix = key.split('-')[1];
    const run = byRun.get(suffix) ?? {};
    run[who] = r;
    byRun.set(suffix, run);
  }
  /** @type {Extract['series']} */
  const series = [];
  for (const [run, servers] of [...byRun.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (!servers.A) continue;
    for (const test of tests) {
      const of = (/** @type {string} */ who) => servers[who]?.steps.find((s) => s.name === test)?.repeats ?? [];
      const instances = [...new Set(of('A').map((r) => r.instance ?? r.index))].sort((a, b) => a - b);
      if (instances.length === 0) continue;
      const value = (/** @type {string} */ who, /** @type {number} */ i) => {
        const reps = of(who).filter((r) => (r.instance ?? r.index) === i && r.status === 'ok' && typeof r.throughput === 'number' && r.throughput > 0);
        return reps.length === 1 ? /** @type {number} */ (reps[0].throughput) : null;
      };
      series.push({ run, test, rounds: instances.map((i) => ({ instance: i, A: value('A', i), B: value('B', i), S: value('S', i) })) });
    }
  }
  return series;
}

/**
 * Pooled within-run spread of ln(throughput) of one side, and of the round's ln(other / A).
 * @param {Extract['series']} series
 * @param {string} test
 * @param {'B'|'S'} other
 * @returns {{runs: number, rounds: number, unpaired: {sd: number, df: number, ci: [number, number]}|null,
 *   paired: {sd: number, df: number, ci: [number, number]}|null}}
 *   sd per side (the paired one divided by √2); null with fewer than one degree of freedom
 */
export function pairedSpread(series, test, other) {
  let ssUnpaired = 0;
  let dfUnpaired = 0;
  let ssPaired = 0;
  let dfPaired = 0;
  let runs = 0;
  let rounds = 0;
  for (const s of series.filter((x) => x.test === test)) {
    const pairs = s.rounds.filter((r) => r.A !== null && r[other] !== null);
    if (pairs.length < 2) continue;
    runs++;
    rounds += pairs.length;
    const a = pairs.map((r) => Math.log(/** @type {number} */ (r.A)));
    const o = pairs.map((r) => Math.log(/** @type {number} */ (r[other])));
    // The unpaired noise pools both sides around their own run means, as a verdict's does.
    ssUnpaired += sumSquares(a) + sumSquares(o);
    dfUnpaired += 2 * (pairs.length - 1);
    ssPaired += sumSquares(o.map((x, i) => x - a[i]));
    dfPaired += pairs.length - 1;
  }
  /** @param {number} ss @param {number} df @param {number} scale */
  const spread = (ss, df, scale) => (df < 1 ? null : {
    sd: Math.sqrt(ss / df) / scale,
    df,
    ci: /** @type {[number, number]} */ (sdInterval(ss, df).map((x) => x / scale)),
  });
  return { runs, rounds, unpaired: spread(ssUnpaired, dfUnpaired, 1), paired: spread(ssPaired, dfPaired, Math.SQRT2) };
}

/**
 * An offset of the server that runs second in a round. A and B are one binary; in the committed
 * calibrations B always ran right after A (they predate the order turning each round,
 * scripts/run/schedule.js), so the geometric mean of B/A over every round (each round has fresh
 * servers, so rounds are independent) estimates that offset; the production paired test gives its
 * 95 % interval. On a calibration run since, B/A mixes both orders and estimates nothing of the kind.
 * @param {Extract['series']} series
 * @param {string} test
 * @returns {import('../scripts/compare/paired-shift.js').PairedShift|null}
 */
export function orderOffset(series, test) {
  const pairs = series.filter((x) => x.test === test).flatMap((x) => x.rounds)
    .filter((r) => r.A !== null && r.B !== null)
    .map((r) => /** @type {[number, number]} */ ([r.A, r.B]));
  return computePairedShift(pairs, 0.95, 'ratio');
}

/** @param {number[]} xs @returns {number} Σ (x − mean)² */
function sumSquares(xs) {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return xs.reduce((s, x) => s + (x - m) ** 2, 0);
}

/** @param {{sd: number, df: number, ci: [number, number]}|null} s */
const cell = (s) => (s === null ? 'n/a' : `${(s.sd * 100).toFixed(1)} % (${(s.ci[0] * 100).toFixed(1)}–${(s.ci[1] * 100).toFixed(1)} %, ${s.df} df)`);

/**
 * @param {Extract[]} extracts
 * @returns {string} Markdown
 */
export function renderReport(extracts) {
  const lines = [
    '# Noise of a round vs noise of a ratio within the round (calibration records)',
    '',
    'Computed by `node bench/paired-rounds.js` from the records of `tagbench calibrate` (three servers of one',
    'release, A, B and S, measured round after round; in each round a test runs on A, B and S seconds apart).',
    '"One side" is the pooled within-run sd of ln(throughput) of a server\'s rounds: the noise today\'s verdicts',
    'use, which treat instances as independent. "Ratio within the round" is the pooled within-run sd of',
    'ln(B/A) (or ln(S/A), whose run mean takes out the injected slowdown) divided by √2, per side like the first:',
    'the noise a comparison paired by round would have. Intervals: 95 %, chi-square.',
    '',
    '| calibration | test | pair | runs | rounds | one side | ratio within the round | variance the pairing removes |',
    '| --- | --- | --- | ---: | ---: | --- | --- | ---: |',
  ];
  for (const e of extracts) {
    for (const test of TESTS) {
      for (const other of /** @type {const} */ (['B', 'S'])) {
        const p = pairedSpread(e.series, test, other);
        if (!p.unpaired || !p.paired) continue;
        const removed = 1 - (p.paired.sd / p.unpaired.sd) ** 2;
        lines.push(`| ${e.suite} (${e.source}) | ${test} | A–${other} | ${p.runs} | ${p.rounds} | ${cell(p.unpaired)} | ${cell(p.paired)} | ${(removed * 100).toFixed(0)} % |`);
      }
    }
  }
  lines.push(
    '',
    '## Does the second server of a round run differently?',
    '',
    'A paired verdict takes each round\'s ratio; had the releases run in a fixed order within a round, an offset',
    'of the second position would enter every round\'s ratio. A and B are servers of one binary and in these',
    'calibrations B always ran right after A (they predate the order turning each round, `scripts/run/schedule.js`):',
    'the geometric mean of B/A over every round estimates that offset (95 % interval: the paired t interval of',
    '`scripts/compare/paired-shift.js`, rounds independent, each with fresh servers).',
    '',
    '| calibration | test | rounds | B/A, geometric mean | 95 % interval | p (two-sided) |',
    '| --- | --- | ---: | ---: | --- | ---: |',
  );
  for (const e of extracts) {
    for (const test of TESTS) {
      const o = orderOffset(e.series, test);
      if (!o) continue;
      const pct = (/** @type {number} */ x) => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)} %`;
      lines.push(`| ${e.suite} (${e.source}) | ${test} | ${o.rounds} | ${pct(o.estimate)} | ${pct(o.lo)} to ${pct(o.hi)} | ${Math.min(1, 2 * Math.min(o.pLess, o.pGreater)).toFixed(2)} |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * @param {string[]} args
 * @returns {{store?: string, suite?: string, extracts: string[], out: string}}
 * @throws {UserError} naming what is missing
 */
export function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      store: { type: 'string' },
      suite: { type: 'string' },
      extract: { type: 'string', multiple: true, default: [] },
      out: { type: 'string', default: 'bench/paired-rounds.md' },
    },
  });
  if (values.store && !values.suite) throw new UserError('--store needs --suite: the suite the calibration ran (smoke, smoke-15s, …)');
  if (!values.store && values.extract.length === 0) throw new UserError('give --store DIR --suite NAME (a calibration\'s results store) or --extract FILE (an extract this bench wrote)');
  return { store: values.store, suite: values.suite, extracts: values.extract, out: values.out };
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  /** @type {Extract[]} */
  const extracts = [];
  for (const file of opts.extracts) extracts.push(JSON.parse(await readFile(resolve(file), 'utf8')));
  if (opts.store && opts.suite) {
    const records = (await readRecords(opts.store, {})).filter((r) => r.config.suite === opts.suite);
    if (records.length === 0) throw new UserError(`--store ${opts.store}: no records of suite ${opts.suite}`);
    /** @type {Extract} */
    const extract = { suite: opts.suite, source: `${records.length} records, ${records[0].startedAt.slice(0, 10)}`, series: roundsOf(records, TESTS) };
    const file = join(ROOT, 'bench', `paired-rounds-${opts.suite}.json`);
    await writeFile(file, `${JSON.stringify(extract)}\n`);
    process.stderr.write(`paired-rounds: extract written to ${file}\n`);
    extracts.push(extract);
  }
  const report = renderReport(extracts);
  await writeFile(resolve(ROOT, opts.out), report);
  process.stdout.write(report);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`paired-rounds: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UserError ? EXIT.userError : 1);
  });
}
