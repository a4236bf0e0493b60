#!/usr/bin/env node
/**
 * Unit simulation of the verdict statistics: Monte Carlo over seeded synthetic run records with
 * lognormal noise, fed through `compareRuns` (scripts/compare/index.js) with the shipped
 * thresholds (configs/thresholds.yml, loaded and resolved as `tagbench compare` does), so what is
 * measured is the production code: exact rank interval on instance-level values, exact rank-sum
 * p-values, Holm over every gated verdict of the run, the MDE the verdict reports.
 *
 * Prints three Markdown tables, each rate with its 95 % Wilson interval:
 *   1. coverage of the interval of the ratio, and the false-regression rate of one A/A test,
 *      without and with a per-instance offset, analysed per repeat (old records without
 *      `instance`) or per instance;
 *   2. the A/A false-issue rate per run of 38 tests (after Holm, and the per-test rule without it);
 *   3. the detection rate of one dropped test among 38, at the reported MDE and at 5, 10, 15 %;
 *   4. releases side by side with a shared round effect (normal, heavy-tailed and stalling
 *      noise): the A/A false-issue rate and detection of 5, 10, 15 % drops, judged paired by
 *      round and as independent instances.
 * Asserts nothing.
 *
 * Usage: node bench/verdict-statistics.js [--runs 200] [--seed 1] [--tests 38] [--out FILE]
 *   --out FILE  also write the Markdown (with the command line, seed and date) to FILE
 */
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../scripts/config/index.js';
import { compareRuns, resolveThresholds, minInstancesFor } from '../scripts/compare/index.js';
import { prng } from '../test/support/generate-history.js';

const USAGE = 'Usage: node bench/verdict-statistics.js [--runs 200] [--seed 1] [--tests 38] [--out FILE]\n';
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    tests: { type: 'string', default: '38' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
for (const key of /** @type {const} */ (['runs', 'seed', 'tests'])) {
  if (!/^\d+$/.test(args[key] ?? '') || Number(args[key]) < 1) {
    process.stderr.write(`--${key} '${args[key]}' is not a positive integer\n${USAGE}`);
    process.exit(1);
  }
}
const RUNS = Number(args.runs);
const SEED = Number(args.seed);
const TESTS = Number(args.tests);

const root = fileURLToPath(new URL('..', import.meta.url));
const thresholds = resolveThresholds((await loadConfig(root)).thresholds);

// The same seeded generator as the test history (mulberry32): the committed tables are
// reproducible to the digit from the seed; Math.random cannot be seeded.
const uniform = prng(SEED);
/** Standard normal (Box–Muller). */
function normal() {
  return Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Student's t with 3 df, scaled to unit sd (its variance is 3). */
function studentT3() {
  const chi2 = normal() ** 2 + normal() ** 2 + normal() ** 2;
  return normal() / Math.sqrt(chi2 / 3) / Math.sqrt(3);
}

/**
 * 95 % Wilson score interval of a proportion.
 * @param {number} k successes
 * @param {number} n trials
 * @returns {[number, number]}
 */
function wilson(k, n) {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
/** @param {number} v */
const pct = (v) => `${(100 * v).toFixed(1)} %`;
/**
 * @param {number} k
 * @param {number} n
 */
const rate = (k, n) => {
  const [lo, hi] = wilson(k, n);
  return `${pct(k / n)} (${pct(lo)}–${pct(hi)})`;
};

/**
 * @typedef {object} SideSpec
 * @property {string} version
 * @property {number} instances server instances of the side
 * @property {number} repeatsPerInstance
 * @property {number} noise sd of ln(value) per repeat (≈ CV)
 * @property {number} offset sd of ln(offset) per instance and test (0: none)
 * @property {boolean} instanceField false: records made before instances existed (each repeat
 *   is judged as if independent)
 * @property {boolean} otherMetrics also p95 latency and CPU per operation (independent noise of the
 *   same size; no change)
 * @property {number} tests tests of the run
 * @property {Map<number, number>} [factor] throughput multiplier by test index (a true change)
 * @property {number[][]} [rounds] ln of each round's shared speed, by test and instance: both
 *   sides of a run side by side share it (the host's drift); absent = none
 * @property {'normal'|'t3'} [tails] the per-repeat noise: normal, or Student's t with 3 df
 *   scaled to the same sd (heavy tails)
 * @property {number} [stalls] chance that a repeat stalls (its throughput halves), per repeat
 * @property {string} [runKey] `<stamp>-<tag>` when both sides ran side by side (record ids in
 *   the run form, so compare pairs them by round); absent = ids without a run
 */

/**
 * One run record of one side, with the shape of test/compare/make-record.js (what compareRuns
 * reads). Metrics not simulated are left unmeasured (no efficiency sampler for kbWrittenPerOp, no
 * per-second samples for the QoS metrics), so compare does not gate them, as it does for records
 * without them.
 * @param {SideSpec} s
 * @returns {import('../scripts/types.js').RunRecord}
 */
function simulateRecord(s) {
  const noise = () => (s.tails === 't3' ? studentT3() : normal());
  /** @param {number} offsetLn */
  const draw = (offsetLn) => Math.exp(offsetLn + s.noise * noise());
  const steps = [];
  for (let t = 0; t < s.tests; t++) {
    const repeats = [];
    for (let inst = 0; inst < s.instances; inst++) {
      const offsets = [0, 0, 0].map(() => s.offset * normal());
      const round = s.rounds?.[t][inst] ?? 0;
      for (let r = 0; r < s.repeatsPerInstance; r++) {
        const stalled = s.stalls && uniform() < s.stalls ? 0.5 : 1;
        const tp = 1000 * (s.factor?.get(t) ?? 1) * stalled * draw(offsets[0] + round);
        repeats.push({
          index: repeats.length,
          ...(s.instanceField ? { instance: inst } : {}),
          startedAt: '2025-01-01T00:00:00Z',
          durationS: 300,
          status: /** @type {'ok'} */ ('ok'),
          throughput: tp,
          tps: tp,
          latencyMs: { avg: 1, p95: s.otherMetrics ? 2 * draw(offsets[1]) : null, p99: null, max: 3 },
          errors: 0,
          reconnects: 0,
          intervals: [],
          efficiency: s.otherMetrics ? { cpuUsPerOp: 50 * draw(offsets[2]), csPerOp: 1, readsPerOp: 0, kbReadPerOp: 0, kbWrittenPerOp: 0 } : null,
          mysqldRssKb: null,
        });
      }
    }
    steps.push({ name: `test-${String(t + 1).padStart(2, '0')}`, kind: 'sysbench', group: 'point', reported: true, metric: 'qps', params: {}, status: 'ok', repeats });
  }
  return /** @type {import('../scripts/types.js').RunRecord} */ ({
    schemaVersion: 1,
    id: s.runKey ? `${s.runKey.split('-')[0]}-sim-mariadb-${s.version}-sim-${s.runKey.split('-')[1]}` : `sim-${s.version}`,
    startedAt: '2025-01-01T00:00:00Z',
    finishedAt: '2025-01-01T01:00:00Z',
    status: 'ok',
    release: { product: 'mariadb', line: '10.11', version: s.version, tag: null, commit: null, provider: 'deb', buildProfile: null, buildFlags: null, binarySha256: '0'.repeat(64), serverVersionString: s.version, packages: [] },
    host: { class: 'sim', hostname: 'h', cpuModel: 'cpu', cores: 2, kernel: 'k', memoryBytes: 1, governor: null, turbo: null, pinning: { serverCpus: '1', clientCpus: '1' } },
    config: { suite: 'sim', scale: { tables: 1, tableSize: 1, clients: 1, readDurationS: 300, writeDurationS: 300, warmupS: 1 }, engine: 'innodb', mycnf: { name: 'x', text: '', sha256: '0'.repeat(64) }, tools: {}, repeats: s.instances * s.repeatsPerInstance },
    steps,
    dbSize: { afterLoad: null, atEnd: null },
  });
}

/**
 * One simulated comparison, called as `tagbench compare` calls it (no noise history: a host's
 * first run).
 * @param {Omit<SideSpec, 'version'|'factor'>} spec both sides
 * @param {Map<number, number>} [candidateFactor]
 */
function simulateComparison(spec, candidateFactor, th = thresholds) {
  const base = simulateRecord({ ...spec, version: 'A' });
  const candidate = simulateRecord({ ...spec, version: 'B', factor: candidateFactor });
  return compareRuns({ base: { version: 'A', records: [base] }, candidate: { version: 'B', records: [candidate] }, thresholds: th, createdAt: '2025-01-01T02:00:00Z' });
}

/**
 * Two releases side by side in one run: each round's shared speed drawn once per test and
 * instance (sd `roundSd` of ln), then both sides' own noise on top.
 * @param {Omit<SideSpec, 'version'|'factor'|'rounds'|'runKey'>} spec
 * @param {number} roundSd
 * @param {Map<number, number>} [candidateFactor]
 * @param {boolean} [paired] false: the same records judged as independent instances
 */
function simulateSideBySide(spec, roundSd, candidateFactor, paired = true) {
  const rounds = Array.from({ length: spec.tests }, () => Array.from({ length: spec.instances }, () => roundSd * normal()));
  const th = paired ? thresholds : { ...thresholds, pairedMinRounds: 0 };
  return simulateComparison({ ...spec, rounds, runKey: '20250101T000000Z-abcdef' }, candidateFactor, th);
}

/** @param {import('../scripts/compare/index.js').FullComparison['tests'][number]} v */
const holmDowngraded = (v) => v.reason.includes('Not an issue: Holm');
/** @param {import('../scripts/compare/index.js').FullComparison['tests'][number]} v issue-level regression before Holm */
const perTestIssue = (v) => v.verdict === 'regression' && (v.level === 'issue' || holmDowngraded(v));
/** @param {import('../scripts/compare/index.js').FullComparison['tests'][number]} v */
const issueRegression = (v) => v.verdict === 'regression' && v.level === 'issue';

const started = Date.now();
const out = [];

// 1. Coverage and the false-regression rate of one test (the interval is per test: a run of 1).
out.push('## 1. Coverage of the 90 % interval of the ratio (A/A, one test)', '');
out.push(`${RUNS} comparisons per row, true ratio 1. "Offset" multiplies every repeat of one server instance by exp(N(0, 2 %)). Per repeat = 1 instance × 3 repeats per side in records without \`instance\` (how records were judged before instances: each repeat counts as independent); per instance = 3 instances × 1 repeat per side (compare takes one value per instance). False regression = a regression verdict at any level; issue = level 'issue' (Holm over the one verdict of a one-test run).`, '');
out.push('| noise per repeat | instance offset | analysis | coverage of the 90 % CI | false regression | false issue |', '| ---: | ---: | --- | --- | --- | --- |');
for (const noise of [0.02, 0.05, 0.1]) {
  for (const row of [
    { offset: 0, analysis: 'per instance, 3 × 1', instances: 3, repeatsPerInstance: 1, instanceField: true },
    { offset: 0.02, analysis: 'per repeat, 1 × 3 (old)', instances: 1, repeatsPerInstance: 3, instanceField: false },
    { offset: 0.02, analysis: 'per instance, 3 × 1', instances: 3, repeatsPerInstance: 1, instanceField: true },
  ]) {
    let covered = 0;
    let regressions = 0;
    let issues = 0;
    for (let i = 0; i < RUNS; i++) {
      const c = simulateComparison({ tests: 1, noise, offset: row.offset, instances: row.instances, repeatsPerInstance: row.repeatsPerInstance, instanceField: row.instanceField, otherMetrics: false });
      const v = c.tests[0];
      if (v.ci && v.ci[0] <= 1 && v.ci[1] >= 1) covered++;
      if (v.verdict === 'regression') regressions++;
      if (issueRegression(v)) issues++;
    }
    out.push(`| ${pct(noise)} | ${row.offset ? pct(row.offset) : 'none'} | ${row.analysis} | ${rate(covered, RUNS)} | ${rate(regressions, RUNS)} | ${rate(issues, RUNS)} |`);
  }
}

// 2. A/A false issues per run.
out.push('', `## 2. A/A false issues per run of ${TESTS} tests (5 % noise, one repeat per instance)`, '');
out.push(`${RUNS} runs per row. After Holm = runs with any regression at level 'issue' as compare returns it (what opens an issue, before confirmation). Per-test rule = runs with any regression whose point estimate is past the issue threshold with its interval excluding 1 (level 'issue' before Holm's downgrade). Any issue-level verdict also counts improvements at level 'issue' (not Holm-controlled; they open nothing). p95 latency and CPU per operation are simulated as independent lognormal noise of the same 5 %, no change (real ones correlate with throughput, which lowers the per-test rule's rate; Holm's bound holds under any dependence).`, '');
out.push(`The exact rank-sum test reaches Holm's smallest level (familyAlpha / verdicts) only from ${minInstancesFor(thresholds.familyAlpha / TESTS)} instances per side with ${TESTS} verdicts and from ${minInstancesFor(thresholds.familyAlpha / (3 * TESTS))} with ${3 * TESTS} (minInstancesFor): below that no regression can reach level 'issue'.`, '');
out.push('| instances per side | gated metrics | verdicts per run | false issue after Holm | false issue, per-test rule | any issue-level verdict | false issues per run (mean) |', '| ---: | --- | ---: | --- | --- | --- | ---: |');
for (const instances of [3, 7, 9]) {
  for (const otherMetrics of [false, true]) {
    let afterHolm = 0;
    let perTest = 0;
    let anyIssue = 0;
    let count = 0;
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      const c = simulateComparison({ tests: TESTS, noise: 0.05, offset: 0, instances, repeatsPerInstance: 1, instanceField: true, otherMetrics });
      const n = c.tests.filter(issueRegression).length;
      count += n;
      if (n > 0) afterHolm++;
      if (c.tests.some(perTestIssue)) perTest++;
      if (c.tests.some((v) => v.level === 'issue')) anyIssue++;
      size = c.tests.length;
    }
    out.push(`| ${instances} | ${otherMetrics ? 'throughput, latencyP95Ms, cpuUsPerOp' : 'throughput'} | ${size} | ${rate(afterHolm, RUNS)} | ${rate(perTest, RUNS)} | ${rate(anyIssue, RUNS)} | ${(count / RUNS).toFixed(3)} |`);
  }
}

// 3. Power: one test of the run drops.
const DROPPED = 0;
out.push('', `## 3. Detection of a throughput drop in one test of ${TESTS} (throughput gated only)`, '');
out.push(`${RUNS} runs per row; one repeat per instance; the other ${TESTS - 1} tests do not change. "Reported MDE" is the median of the \`mde\` field of that test's verdict over ${RUNS} A/A runs of the same cell (own noise only, 2n − 2 df: no noise history), and the drop simulated is that size. Issue after Holm = the dropped test's verdict is a regression at level 'issue' (what opens an issue); per-test rule = level 'issue' before Holm; any regression = warn or issue. The issue threshold of throughput is 5 %, so a true 5 % drop reaches it only when its point estimate lands past it (about half the time at best).`, '');
out.push('| noise | instances per side | drop | issue after Holm | issue, per-test rule | any regression |', '| ---: | ---: | --- | --- | --- | --- |');
for (const noise of [0.02, 0.05]) {
  for (const instances of [3, 5, 7, 9]) {
    const spec = { tests: TESTS, noise, offset: 0, instances, repeatsPerInstance: 1, instanceField: true, otherMetrics: false };
    /** @type {number[]} */
    const mdes = [];
    for (let i = 0; i < RUNS; i++) {
      const v = simulateComparison({ ...spec, tests: 1 }).tests[0];
      if (v.mde !== null && v.mde !== undefined) mdes.push(v.mde);
    }
    mdes.sort((a, b) => a - b);
    const mde = mdes[Math.floor(mdes.length / 2)];
    for (const [label, drop] of /** @type {[string, number][]} */ ([[`reported MDE ${pct(mde)} (median; 10–90 %: ${pct(mdes[Math.floor(mdes.length * 0.1)])}–${pct(mdes[Math.floor(mdes.length * 0.9)])})`, mde], ['5 %', 0.05], ['10 %', 0.1], ['15 %', 0.15]])) {
      let issue = 0;
      let perTest = 0;
      let any = 0;
      for (let i = 0; i < RUNS; i++) {
        const c = simulateComparison(spec, new Map([[DROPPED, 1 - drop]]));
        const v = c.tests.find((t) => t.test === 'test-01' && t.metric === 'throughput');
        if (!v) throw new Error('unreachable: the dropped test has a throughput verdict');
        if (issueRegression(v)) issue++;
        if (perTestIssue(v)) perTest++;
        if (v.verdict === 'regression') any++;
      }
      out.push(`| ${pct(noise)} | ${instances} | ${label} | ${rate(issue, RUNS)} | ${rate(perTest, RUNS)} | ${rate(any, RUNS)} |`);
    }
  }
}

// 4. Side by side, paired by round.
out.push('', `## 4. Releases side by side: paired by round, or independent instances (${TESTS} tests)`, '');
out.push(`${RUNS} runs per row; one repeat per instance; both releases in one simulated run (record ids of one run, so compare pairs them round by round when the rounds reach pairedMinRounds ${thresholds.pairedMinRounds}). Each round of each test has a shared speed, ln of it N(0, round sd), on both sides: the host's drift, which bench/paired-rounds.md measured as most of the noise between instances here. On top, each repeat's own noise: normal, or heavy-tailed (Student's t, 3 df, scaled to the same sd), and in the last rows also stalls (a repeat halves with chance 5 %, on either side independently). "Independent" judges the same records with pairedMinRounds 0 (exact rank-sum). A/A false issue = runs with any regression at level 'issue' over throughput, latencyP95Ms and cpuUsPerOp (3 × ${TESTS} verdicts, Holm); detection = test-01 dropped, its throughput verdict a regression at level 'issue'.`, '');
out.push('| own noise | round sd | instances | design | A/A false issue (runs) | drop 5 % | drop 10 % | drop 15 % |', '| --- | ---: | ---: | --- | --- | --- | --- | --- |');
for (const row of [
  { tails: /** @type {const} */ ('normal'), noise: 0.05, roundSd: 0.1, stalls: 0 },
  { tails: /** @type {const} */ ('t3'), noise: 0.05, roundSd: 0.1, stalls: 0 },
  { tails: /** @type {const} */ ('t3'), noise: 0.05, roundSd: 0.1, stalls: 0.05 },
]) {
  for (const instances of [3, 5, 9]) {
    for (const paired of [true, false]) {
      const spec = { tests: TESTS, noise: row.noise, offset: 0, instances, repeatsPerInstance: 1, instanceField: true, otherMetrics: true, tails: row.tails, stalls: row.stalls };
      let falseIssue = 0;
      for (let i = 0; i < RUNS; i++) if (simulateSideBySide(spec, row.roundSd, undefined, paired).tests.some(issueRegression)) falseIssue++;
      const detections = [0.05, 0.1, 0.15].map((drop) => {
        let found = 0;
        for (let i = 0; i < RUNS; i++) {
          const v = simulateSideBySide({ ...spec, otherMetrics: false }, row.roundSd, new Map([[DROPPED, 1 - drop]]), paired).tests.find((t) => t.test === 'test-01' && t.metric === 'throughput');
          if (v && issueRegression(v)) found++;
        }
        return rate(found, RUNS);
      });
      const own = `${pct(row.noise)} ${row.tails === 't3' ? 't, 3 df' : 'normal'}${row.stalls ? `, stalls ${pct(row.stalls)}` : ''}`;
      out.push(`| ${own} | ${pct(row.roundSd)} | ${instances} | ${paired ? 'paired' : 'independent'} | ${rate(falseIssue, RUNS)} | ${detections.join(' | ')} |`);
    }
  }
}

const command = `node bench/verdict-statistics.js ${process.argv.slice(2).join(' ')}`.trim();
const header = [
  '# Verdict statistics: unit simulation',
  '',
  `Made by \`${command}\` on ${new Date().toISOString()} (seed ${SEED}, ${RUNS} runs per row, node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s wall, ${(process.cpuUsage().user / 1e6).toFixed(0)} s CPU). Synthetic run records with lognormal noise (seeded mulberry32, so the same seed gives the same tables) through \`compareRuns\` (scripts/compare/index.js) with configs/thresholds.yml as \`tagbench compare\` resolves it (confidence ${thresholds.confidence}, power ${thresholds.power}, familyAlpha ${thresholds.familyAlpha}, throughput warn/issue ${thresholds.groups.point.warn}/${thresholds.groups.point.issue}, latencyP95Ms and cpuUsPerOp ${thresholds.metrics.latencyP95Ms?.warn}/${thresholds.metrics.latencyP95Ms?.issue}). Every rate has its 95 % Wilson interval. Tests are named test-01… in group point (all groups share the same throughput thresholds); ${TESTS} tests as in issue 9 (\`--tests\`).`,
  '',
];
const text = `${[...header, ...out].join('\n')}\n`;
process.stdout.write(text);
if (args.out) writeFileSync(args.out, text);
