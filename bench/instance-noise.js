#!/usr/bin/env node
/**
 * Where does the noise between server instances come from on this host, and does a longer
 * repeat shrink it? Runs one release through `tagbench run`'s own path (runReleases) with the
 * smoke suite's tests at several repeat durations, each on K server instances (restarts on the
 * same datadir, warm-ups rerun) with R back-to-back repeats per instance, and splits the
 * variance of ln(throughput) into a part within an instance (repeat to repeat) and a part
 * between instances (one-way random-effects analysis of variance). The verdicts count
 * instances (docs/method.md "Instances, not repeats"): what decides whether a 5 % change is
 * detectable is the spread of the instance medians, which this prints with its 95 % interval.
 *
 * Durations run in the order given; the runs' records are kept under
 * bench/instance-noise-records/ so the figures can be recomputed (`--from-records`, which takes
 * the time, host and release from the records themselves). Rounds run one after another, so
 * what the analysis calls the instance part is a restart plus whatever drifted between rounds.
 *
 * Usage: node bench/instance-noise.js [--durations 3,15] [--instances 6] [--repeats 3]
 *          [--tests point-query,update-nonindex] [--version 10.11.18] [--host local]
 *          [--out bench/instance-noise.md] [--from-records]
 * Needs the cached MariaDB install ($TAGBENCH_CACHE, else .tagbench/installs) and sysbench.
 */
import { parseArgs } from 'node:util';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mean, median } from 'simple-statistics';
import chisquareQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import { UserError, EXIT } from '../scripts/errors.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORDS_DIR = join(ROOT, 'bench', 'instance-noise-records');
export const DEFAULT_TESTS = ['point-query', 'update-nonindex'];

/**
 * One-way random-effects analysis of ln(throughput) grouped by instance (balanced or not).
 * @param {number[][]} groups throughputs, one array per instance (each value > 0)
 * @returns {{instances: number, repeats: number, sdWithin: number, dfWithin: number,
 *   sdWithinCi: [number, number], sdBetween: number, sdOneRepeat: number, sdInstanceMedians: number,
 *   sdInstanceMediansCi: [number, number], dfBetween: number, f: number, p: number,
 *   shareBetween: number}}
 *   sd* are of ln(throughput) (≈ relative sd); repeats is the total count; sdBetween is the
 *   instance component's estimate (0 when the instances differ less than their repeats predict);
 *   sdOneRepeat = √(within² + between²), the spread of a single repeat on a fresh instance, which
 *   is what verdicts see when each instance runs one repeat (every shipped host class);
 *   sdInstanceMedians is the spread of the medians of the R repeats per instance; p is the F
 *   test's chance of instance means at least this spread if instances added nothing;
 *   shareBetween is the between component's share of one repeat's variance
 * @throws {RangeError} fewer than 2 instances, an instance with no value, a value not > 0
 */
export function splitInstanceNoise(groups) {
  if (groups.length < 2) throw new RangeError(`need at least 2 instances, got ${groups.length}`);
  const logs = groups.map((g, i) => {
    if (g.length === 0) throw new RangeError(`instance ${i + 1} has no repeat`);
    return g.map((x) => {
      if (!(Number.isFinite(x) && x > 0)) throw new RangeError(`instance ${i + 1}: throughput must be a positive number, got ${x}`);
      return Math.log(x);
    });
  });
  const all = logs.flat();
  const grand = mean(all);
  const k = logs.length;
  const n = all.length;
  const ssWithin = logs.reduce((s, g) => { const m = mean(g); return s + g.reduce((t, x) => t + (x - m) ** 2, 0); }, 0);
  const ssBetween = logs.reduce((s, g) => s + g.length * (mean(g) - grand) ** 2, 0);
  const dfWithin = n - k;
  const dfBetween = k - 1;
  if (dfWithin < 1) throw new RangeError('need at least one instance with 2 or more repeats to tell repeat noise from instance noise');
  const msWithin = ssWithin / dfWithin;
  const msBetween = ssBetween / dfBetween;
  // n0: the effective repeats per instance of an unbalanced design (equals R when balanced).
  const n0 = (n - logs.reduce((s, g) => s + g.length ** 2, 0) / n) / dfBetween;
  const varBetween = Math.max(0, (msBetween - msWithin) / n0);
  const f = msWithin > 0 ? msBetween / msWithin : Infinity;
  const p = Number.isFinite(f) ? 1 - fCdf(f, dfBetween, dfWithin) : 0;
  const medians = logs.map((g) => median(g));
  const medianMean = mean(medians);
  const ssMedians = medians.reduce((s, x) => s + (x - medianMean) ** 2, 0);
  return {
    instances: k,
    repeats: n,
    sdWithin: Math.sqrt(msWithin),
    dfWithin,
    sdWithinCi: sdInterval(ssWithin, dfWithin),
    sdBetween: Math.sqrt(varBetween),
    sdOneRepeat: Math.sqrt(msWithin + varBetween),
    sdInstanceMedians: Math.sqrt(ssMedians / dfBetween),
    sdInstanceMediansCi: sdInterval(ssMedians, dfBetween),
    dfBetween,
    f,
    p,
    shareBetween: varBetween + msWithin > 0 ? varBetween / (varBetween + msWithin) : 0,
  };
}

/**
 * The 95 % interval of a standard deviation from a sum of squares (normal data: ss/σ² is χ² with df).
 * @param {number} ss sum of squared deviations
 * @param {number} df its degrees of freedom (>= 1)
 * @returns {[number, number]}
 */
export function sdInterval(ss, df) {
  return [Math.sqrt(ss / chisquareQuantile(0.975, df)), Math.sqrt(ss / chisquareQuantile(0.025, df))];
}

/**
 * The throughputs of one test in a run record, grouped by the instance that produced them.
 * @param {import('../scripts/types.js').RunRecord} record
 * @param {string} test
 * @returns {number[][]} one array per instance, in instance order
 * @throws {UserError} the test is missing, or a repeat failed or names no instance
 */
export function throughputsByInstance(record, test) {
  const step = record.steps.find((s) => s.name === test);
  if (!step) throw new UserError(`record ${record.id}: no step '${test}'; steps: ${record.steps.map((s) => s.name).join(', ')}`);
  /** @type {Map<number, number[]>} */
  const byInstance = new Map();
  for (const r of step.repeats) {
    if (r.status !== 'ok' || r.throughput === null) throw new UserError(`record ${record.id}: ${test} repeat ${r.index} failed (${r.reason ?? 'no reason'}); rerun`);
    if (typeof r.instance !== 'number') throw new UserError(`record ${record.id}: ${test} repeat ${r.index} names no instance (a record from before instances were recorded)`);
    const list = byInstance.get(r.instance) ?? [];
    list.push(r.throughput);
    byInstance.set(r.instance, list);
  }
  return [...byInstance.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

/** @param {number} x a sd of ln(throughput) @returns {string} as a percentage */
const pct = (x) => `${(x * 100).toFixed(1)} %`;

/**
 * The Markdown report.
 * @param {{durationS: number, test: string, split: ReturnType<typeof splitInstanceNoise>, median: number, record: string, load: number[]}[]} rows
 * @param {{version: string, host: string, cpu: string, kernel: string, pinning: string, started: string}} about
 * @returns {string}
 */
export function renderReport(rows, about) {
  const lines = [
    `# Noise within and between server instances: mariadb ${about.version}, host class ${about.host}`,
    '',
    `Measured ${about.started} on ${about.cpu} (kernel ${about.kernel}, pinning ${about.pinning}) with \`node bench/instance-noise.js\`:`,
    'one release through `tagbench run`\'s own path, each duration a run of its own with the smoke suite\'s',
    'tables (1 × 20k rows, 1 client) and the given measured seconds per repeat, K server instances',
    '(restart on the same datadir, warm-ups rerun) with R back-to-back repeats each. All figures are',
    'standard deviations of ln(throughput), close to relative sd. "Within" is repeat to repeat on one',
    'server process; "between" is the instance component on top: a restart, plus whatever drifted',
    'between rounds, since rounds run one after another (one-way random-effects analysis of variance;',
    '0 when instances differ no more than their repeats predict). "One repeat" is √(within² + between²),',
    'the spread of a single repeat on a fresh instance: what verdicts see on the shipped host classes,',
    'which run one repeat per instance. "Medians of R" is the spread of each instance\'s median of its',
    'R repeats, what verdicts would see with R repeats per instance. p is the F test\'s chance of',
    'instance means at least this far apart if instances added nothing (one test per row, uncorrected).',
    '',
    '| seconds per repeat | test | median qps | instances, repeats | within (95 % interval) | between | share of a repeat\'s variance from the instance | one repeat | medians of R (95 % interval, df) | F test p | host load 1 min (min–max) | run record |',
    '| ---: | --- | ---: | --- | --- | ---: | ---: | ---: | --- | ---: | --- | --- |',
  ];
  for (const r of rows) {
    const s = r.split;
    const load = r.load.length ? `${Math.min(...r.load).toFixed(2)}–${Math.max(...r.load).toFixed(2)}` : 'n/a';
    lines.push(`| ${r.durationS} | ${r.test} | ${r.median.toFixed(0)} | ${s.instances}, ${s.repeats} | ${pct(s.sdWithin)} (${pct(s.sdWithinCi[0])}–${pct(s.sdWithinCi[1])}) | ${pct(s.sdBetween)} | ${(s.shareBetween * 100).toFixed(0)} % | ${pct(s.sdOneRepeat)} | ${pct(s.sdInstanceMedians)} (${pct(s.sdInstanceMediansCi[0])}–${pct(s.sdInstanceMediansCi[1])}, ${s.dfBetween}) | ${s.p < 0.001 ? '< 0.001' : s.p.toFixed(3)} | ${load} | ${r.record} |`);
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * @param {string[]} args
 * @returns {{durations: number[], instances: number, repeats: number, tests: string[], version: string, host: string, out: string, fromRecords: boolean}}
 * @throws {UserError} naming the option, the value and what is valid
 */
export function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      durations: { type: 'string', default: '3,15' },
      instances: { type: 'string', default: '6' },
      repeats: { type: 'string', default: '3' },
      tests: { type: 'string', default: DEFAULT_TESTS.join(',') },
      version: { type: 'string', default: '10.11.18' },
      host: { type: 'string', default: 'local' },
      out: { type: 'string', default: 'bench/instance-noise.md' },
      'from-records': { type: 'boolean', default: false },
    },
  });
  const durations = values.durations.split(',').map((d) => Number(d.trim()));
  const bad = durations.find((d) => !Number.isInteger(d) || d < 1);
  if (bad !== undefined || durations.length === 0) throw new UserError(`--durations: '${values.durations}' is not valid; give whole seconds >= 1, comma-separated (e.g. 3,15)`);
  const instances = Number(values.instances);
  if (!Number.isInteger(instances) || instances < 2) throw new UserError(`--instances: '${values.instances}' is not valid; give an integer >= 2 (one instance has no between-instance spread)`);
  const repeats = Number(values.repeats);
  if (!Number.isInteger(repeats) || repeats < 2) throw new UserError(`--repeats: '${values.repeats}' is not valid; give an integer >= 2 per instance (one repeat cannot tell repeat noise from instance noise)`);
  const tests = values.tests.split(',').map((t) => t.trim()).filter(Boolean);
  if (tests.length === 0) throw new UserError(`--tests: '${values.tests}' names no test; give a comma-separated list such as ${DEFAULT_TESTS.join(',')}`);
  return { durations, instances, repeats, tests, version: values.version, host: values.host, out: values.out, fromRecords: values['from-records'] };
}

/** The suite this bench runs at a duration: smoke's tables and tests, `d` measured seconds per repeat. */
const suiteName = (/** @type {number} */ d) => `instance-noise-${d}s`;

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const { loadConfig } = await import('../scripts/config/index.js');
  const { runReleases } = await import('../scripts/run/index.js');
  const config = await loadConfig(ROOT);
  const host = config.hosts[opts.host];
  if (!host) throw new UserError(`--host: '${opts.host}' is not a host class; valid: ${Object.keys(config.hosts).join(', ')}`);
  const smoke = config.suites.smoke;
  const cacheDir = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');
  /** @type {Parameters<typeof renderReport>[0]} */
  const rows = [];
  /** @type {import('../scripts/types.js').RunRecord[]} */
  const used = [];
  await mkdir(RECORDS_DIR, { recursive: true });
  for (const durationS of opts.durations) {
    const name = suiteName(durationS);
    /** @type {import('../scripts/types.js').RunRecord} */
    let record;
    /** @type {number[]} 1-minute load averages every 5 s while the run went on (kept beside the record) */
    let load = [];
    if (opts.fromRecords) {
      // The newest record of this duration, release and host class; its own facts go into the report.
      const mine = (/** @type {string} */ f) => f.includes(`-${opts.host}-mariadb-${opts.version}-${name}-`) && f.endsWith('.json') && !f.endsWith('.load.json');
      const file = (await readdir(RECORDS_DIR)).filter(mine).sort().at(-1);
      if (!file) throw new UserError(`--from-records: no record of mariadb ${opts.version}, suite ${name}, host class ${opts.host} in ${RECORDS_DIR}; run without --from-records first`);
      record = JSON.parse(await readFile(join(RECORDS_DIR, file), 'utf8'));
      // The samples, or (records of the first run, before samples were kept) the range its report printed.
      const kept = JSON.parse(await readFile(join(RECORDS_DIR, file.replace(/\.json$/, '.load.json')), 'utf8').catch(() => '[]'));
      load = Array.isArray(kept) ? kept : [kept.min, kept.max];
    } else {
      const suite = { ...smoke, name, description: `smoke's tests at ${durationS} s per repeat (bench/instance-noise.js)`, readDurationS: durationS, writeDurationS: durationS };
      const sized = { ...config, suites: { ...config.suites, [name]: suite } };
      const work = await mkdtemp(join(tmpdir(), 'tagbench-instance-noise-'));
      const samples = /** @type {number[]} */ ([]);
      const sampler = setInterval(() => samples.push(loadavg()[0]), 5000);
      try {
        process.stderr.write(`instance-noise: ${durationS} s per repeat, ${opts.instances} instances × ${opts.repeats} repeats of ${opts.tests.join(', ')}\n`);
        const outcome = await runReleases(sized, {
          releases: [{ product: 'mariadb', version: opts.version, provider: 'deb' }], suite: name, hostClass: opts.host, only: opts.tests,
          repeats: opts.instances * opts.repeats, instances: opts.instances, storeDir: join(work, 'store'), workDir: join(work, 'work'), cacheDir,
        });
        if (outcome.interrupted) throw new UserError('interrupted: no report written');
        record = outcome.records[0];
        load = samples;
        const file = join(RECORDS_DIR, basename(outcome.paths[0]));
        await writeFile(file, JSON.stringify(record, null, 2) + '\n');
        await writeFile(file.replace(/\.json$/, '.load.json'), JSON.stringify(load) + '\n');
      } finally {
        clearInterval(sampler);
        await rm(work, { recursive: true, force: true });
      }
    }
    used.push(record);
    for (const test of opts.tests) {
      const groups = throughputsByInstance(record, test);
      rows.push({ durationS, test, split: splitInstanceNoise(groups), median: median(groups.flat()), record: record.id, load });
    }
  }
  const first = used[0];
  const p = first.host.pinning;
  const report = renderReport(rows, {
    version: first.release.version, host: opts.host, cpu: `${first.host.cpuModel ?? 'unknown CPU'} (${first.host.cores ?? '?'} cores)`, kernel: first.host.kernel ?? '?',
    pinning: p ? `server ${p.serverCpus ?? 'free'} / client ${p.clientCpus ?? 'free'}` : 'none', started: first.startedAt,
  });
  await writeFile(resolve(ROOT, opts.out), report);
  process.stdout.write(report);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`instance-noise: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UserError ? EXIT.userError : 1);
  });
}
