#!/usr/bin/env node
/**
 * Does the harness cost anything measurable? Measures sysbench the way `tagbench run` does
 * (runStepRepeat with the samplers started around it as scripts/run/run-releases.js starts
 * them, client and server pinned as the host class says, the runner's warm-up checkpoint)
 * against the very same sysbench argv spawned bare (same taskset, no samplers, no wrapper) on
 * the same server, and prints per test the ratio of medians tagbench / bare with a 95 % interval,
 * the CV of each path and the load average while it ran. Replaces bench/metrics-overhead.js,
 * which measured the samplers alone with 4 rounds on a loaded machine.
 *
 * Paths alternate A B, B A, A B ... per round (ABBA over two rounds), so a drift of the host
 * (another job starting, the buffer pool, the page cache) hits both paths alike. The interval is
 * the project's exact rank interval of the ratio (scripts/compare/shift-interval.js), the one the
 * verdicts use; the point estimate is the ratio of medians, as in the comparisons.
 *
 * Usage: node bench/harness-overhead.js [--rounds 10] [--time 10] [--host local]
 *          [--tests point-query,update-nonindex,read-only.range100] [--out bench/harness-overhead.md]
 * Needs the cached MariaDB 10.11.18 install ($TAGBENCH_CACHE, else .tagbench/installs) and sysbench.
 */
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg, cpus, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mean, median, sampleStandardDeviation } from 'simple-statistics';
import { computeShiftInterval } from '../scripts/compare/shift-interval.js';
import { UserError, EXIT } from '../scripts/errors.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PATHS = /** @type {const} */ (['tagbench', 'bare']);
export const DEFAULT_TESTS = ['point-query', 'update-nonindex', 'read-only.range100'];
const CONFIDENCE = 0.95;

/**
 * Which path runs first in a round: tagbench first in even rounds, bare first in odd ones, so
 * two consecutive rounds are A B B A and a linear drift cancels.
 * @param {number} round 0-based
 * @returns {Array<'tagbench'|'bare'>}
 */
export function pathOrder(round) {
  if (!Number.isInteger(round) || round < 0) throw new RangeError(`round must be an integer >= 0, got ${round}`);
  return round % 2 === 0 ? ['tagbench', 'bare'] : ['bare', 'tagbench'];
}

/**
 * The whole schedule: every round runs every test once per path, tests in the given order.
 * @param {string[]} tests
 * @param {number} rounds
 * @returns {{round: number, test: string, path: 'tagbench'|'bare'}[]}
 */
export function buildSchedule(tests, rounds) {
  const out = [];
  for (let round = 0; round < rounds; round++) {
    for (const test of tests) for (const path of pathOrder(round)) out.push({ round, test, path });
  }
  return out;
}

/**
 * Ratio of medians tagbench / bare, the exact rank interval of the ratio, and each path's CV.
 * @param {number[]} tagbench throughputs of the tagbench path (> 0)
 * @param {number[]} bare throughputs of the bare path (> 0)
 * @param {number} [confidence] two-sided, default 0.95
 * @returns {{ratio: number, lo: number|null, hi: number|null, coverage: number|null,
 *   medianTagbench: number, medianBare: number, cvTagbench: number|null, cvBare: number|null,
 *   n: {tagbench: number, bare: number}}} lo/hi null when the samples are too small for that confidence
 * @throws {RangeError} for an empty sample or a value that is not a positive number
 */
export function summarizeOverhead(tagbench, bare, confidence = CONFIDENCE) {
  for (const [name, xs] of /** @type {const} */ ([['tagbench', tagbench], ['bare', bare]])) {
    if (xs.length === 0) throw new RangeError(`no ${name} values to summarize`);
    const bad = xs.find((x) => !(Number.isFinite(x) && x > 0));
    if (bad !== undefined) throw new RangeError(`${name} values must be positive numbers, got ${bad}`);
  }
  const interval = computeShiftInterval(bare, tagbench, confidence, 'ratio');
  const medianTagbench = median(tagbench);
  const medianBare = median(bare);
  return {
    ratio: medianTagbench / medianBare,
    lo: interval?.lo ?? null,
    hi: interval?.hi ?? null,
    coverage: interval?.coverage ?? null,
    medianTagbench,
    medianBare,
    cvTagbench: coefficientOfVariation(tagbench),
    cvBare: coefficientOfVariation(bare),
    n: { tagbench: tagbench.length, bare: bare.length },
  };
}

/**
 * @param {number[]} xs
 * @returns {number|null} sample standard deviation / mean, null below 2 values
 */
export function coefficientOfVariation(xs) {
  return xs.length < 2 ? null : sampleStandardDeviation(xs) / mean(xs);
}

/**
 * Mean, min and max of load-average samples.
 * @param {number[]} samples 1-minute load averages
 * @returns {{mean: number, min: number, max: number}|null}
 */
export function summarizeLoad(samples) {
  if (samples.length === 0) return null;
  return { mean: mean(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

/**
 * Parse and check the command-line options.
 * @param {string[]} args
 * @returns {{rounds: number, timeS: number, host: string, tests: string[], out: string}}
 * @throws {UserError} naming the option, the value and what is valid
 */
export function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      rounds: { type: 'string', default: '10' },
      time: { type: 'string', default: '10' },
      host: { type: 'string', default: 'local' },
      tests: { type: 'string', default: DEFAULT_TESTS.join(',') },
      out: { type: 'string', default: 'bench/harness-overhead.md' },
    },
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 2) throw new UserError(`--rounds: '${values.rounds}' is not valid; give an integer >= 2 (each path needs 2 values for a CV)`);
  const timeS = Number(values.time);
  if (!Number.isInteger(timeS) || timeS < 1) throw new UserError(`--time: '${values.time}' is not valid; give whole seconds >= 1`);
  const tests = values.tests.split(',').map((t) => t.trim()).filter(Boolean);
  if (tests.length === 0) throw new UserError(`--tests: '${values.tests}' names no test; give a comma-separated list such as ${DEFAULT_TESTS.join(',')}`);
  return { rounds, timeS, host: values.host, tests, out: values.out };
}

/**
 * @param {number|null} x
 * @param {number} digits
 */
const fixed = (x, digits) => (x === null ? 'n/a' : x.toFixed(digits));
/** @param {number|null} x */
const percent = (x) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);

/**
 * One line per test for the terminal and the Markdown table.
 * @param {string} test
 * @param {ReturnType<typeof summarizeOverhead>} s
 * @param {{mean: number, min: number, max: number}|null} load
 * @returns {string}
 */
export function formatRow(test, s, load) {
  const interval = s.lo === null ? 'n/a (too few rounds)' : `${fixed(s.lo, 3)} – ${fixed(s.hi, 3)}`;
  const loadText = load ? `${load.mean.toFixed(2)} (${load.min.toFixed(2)}–${load.max.toFixed(2)})` : 'n/a';
  return `| ${test} | ${s.n.tagbench}/${s.n.bare} | ${s.medianTagbench.toFixed(0)} | ${s.medianBare.toFixed(0)} | **${fixed(s.ratio, 3)}** | ${interval} | ${percent(s.cvTagbench)} | ${percent(s.cvBare)} | ${loadText} |`;
}

export const TABLE_HEADER = [
  '| test | runs tagbench/bare | median tagbench | median bare | ratio tagbench/bare | 95 % interval | CV tagbench | CV bare | load avg 1 min: mean (min–max) |',
  '|---|---|---|---|---|---|---|---|---|',
];

/**
 * Spawn the runner's argv exactly, pinned like the tagbench path, with nothing around it.
 * @param {string[]} argv sysbench argv as sysbench.buildCommand() returns it
 * @param {string|null} cpus taskset CPU list
 * @returns {Promise<string>} stdout and stderr
 */
function runBare(argv, cpus) {
  const full = cpus ? ['taskset', '-c', cpus, ...argv] : argv;
  return new Promise((resolveRun, reject) => {
    const child = spawn(full[0], full.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    child.stderr.on('data', (b) => { out += b; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolveRun(out) : reject(new Error(`bare sysbench exited with ${code}: ${out.trim().split('\n').at(-1)}`))));
  });
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const { loadConfig } = await import('../scripts/config/index.js');
  const { installRelease } = await import('../scripts/install/index.js');
  const { startServer, stopAllServers, findFreePort } = await import('../scripts/server/index.js');
  const { planSuite, prepareTables, runStepRepeat } = await import('../scripts/workload/index.js');
  const { sysbench } = await import('../scripts/workload/sysbench/index.js');
  const { startSampling } = await import('../scripts/metrics/index.js');

  const config = await loadConfig(ROOT);
  const host = config.hosts[opts.host];
  if (!host) throw new UserError(`--host: '${opts.host}' is not a host class; valid: ${Object.keys(config.hosts).join(', ')}`);
  const suite = config.suites.smoke;
  const { clientCpus = null, serverCpus = null } = host.pinning ?? {};
  const planned = planSuite({ ...suite, only: opts.tests }, { engine: 'innodb' });
  const steps = new Map();
  for (const name of opts.tests) {
    const step = planned.find((s) => s.name === name && s.kind === 'sysbench');
    if (!step) throw new UserError(`--tests: '${name}' is not a sysbench test of the suite; valid: ${planned.filter((s) => s.kind === 'sysbench' && s.reported).map((s) => s.name).join(', ')}`);
    steps.set(name, { ...step, durationS: opts.timeS });
  }

  const cacheDir = resolve(process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'));
  const install = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, { config, cacheDir, log: (/** @type {string} */ m) => process.stderr.write(`[install] ${m}\n`) });
  if (install.status === 'failed') throw new UserError(`cannot install mariadb 10.11.18: ${install.reason}`);
  const workDir = await mkdtemp(join(tmpdir(), 'tb-overhead-'));
  /** @type {number[]} */
  const loadSamples = [];
  try {
    const server = await startServer(install, {
      workDir, port: await findFreePort(), engine: 'innodb', mycnfTemplate: config.mycnf.innodb, mycnfName: 'innodb',
      mycnfOverrides: { ...(host.mycnf ?? {}) }, serverCpus, log: (m) => process.stderr.write(`[server] ${m}\n`),
    });
    const load = await prepareTables(suite, server, { engine: 'innodb', clientCpus, onProgress: () => {} });
    if (load.status !== 'ok') throw new Error(`loading the tables failed: ${load.reason}`);

    /** @param {any} step @param {'tagbench'|'bare'} path @returns {Promise<number>} */
    const measure = async (step, path) => {
      if (path === 'bare') {
        const parsed = sysbench.parseOutput(await runBare(sysbench.buildCommand(step, server), clientCpus));
        if (!parsed.ok) throw new Error(`bare ${step.name}: ${parsed.reason}`);
        return step.metric === 'rows/s' ? parsed.tps * step.rowsPerEvent : parsed.qps;
      }
      // As runMeasuredRepeat in scripts/run/run-releases.js: samplers around one repeat.
      const sampling = await startSampling({ pid: server.pid, datadir: server.datadir, query: server.query, intervalS: 1 });
      let out;
      try {
        out = await runStepRepeat(step, server, { clientCpus, onProgress: () => {} });
      } finally {
        await sampling.stop();
      }
      if (out.status !== 'ok') throw new Error(`tagbench ${step.name}: ${out.reason}`);
      if (out.throughput === null) throw new Error(`tagbench ${step.name}: no throughput`);
      return out.throughput;
    };

    // One unmeasured run per test warms the buffer pool, as the suite's .warm steps do.
    for (const step of steps.values()) await measure(step, 'bare');

    const loadTimer = setInterval(() => loadSamples.push(loadavg()[0]), 5000);
    const startedAt = new Date();
    /** @type {Record<string, {tagbench: number[], bare: number[]}>} */
    const values = Object.fromEntries(opts.tests.map((t) => [t, { tagbench: [], bare: [] }]));
    /** @type {Record<string, number[]>} */
    const loadByTest = Object.fromEntries(opts.tests.map((t) => [t, []]));
    try {
      for (const { round, test, path } of buildSchedule(opts.tests, opts.rounds)) {
        const before = loadavg()[0];
        const q = await measure(steps.get(test), path);
        loadByTest[test].push(before, loadavg()[0]);
        values[test][path].push(q);
        process.stderr.write(`round ${round + 1}/${opts.rounds} ${test.padEnd(20)} ${path.padEnd(8)} ${q.toFixed(0)}  load ${loadavg()[0].toFixed(2)}\n`);
      }
    } finally {
      clearInterval(loadTimer);
    }
    const endedAt = new Date();
    await server.stop();

    const rows = opts.tests.map((t) => formatRow(t, summarizeOverhead(values[t].tagbench, values[t].bare), summarizeLoad(loadByTest[t])));
    const all = summarizeLoad(loadSamples);
    const lines = [
      '# Harness overhead: sysbench under `tagbench run` vs the same sysbench bare',
      '',
      'Written by `node bench/harness-overhead.js` (see its header for what each path does). A ratio',
      'tagbench/bare of 1 means the harness costs nothing; the interval is the exact rank interval of',
      'the ratio (scripts/compare/shift-interval.js) at >= 95 %. CV is per path over the rounds. The',
      'load average is the host\'s 1-minute figure sampled around each run: on a loaded host the CVs',
      'and with them the intervals are wide, and the figures say only what that width allows.',
      '',
      `mariadb 10.11.18, suite smoke (${suite.tables} table x ${suite.tableSize} rows, ${suite.clients} client), ${opts.timeS} s per run + ${[...steps.values()][0].warmupS} s warm-up,`,
      `${opts.rounds} rounds (A B / B A), host class ${opts.host} (server CPU ${serverCpus ?? 'any'}, client CPU ${clientCpus ?? 'any'}), ${cpus().length} CPUs, ${hostname()}`,
      `${startedAt.toISOString()} – ${endedAt.toISOString()}; 1-minute load average over the whole measurement: ${all ? `${all.mean.toFixed(2)} (min ${all.min.toFixed(2)}, max ${all.max.toFixed(2)})` : 'n/a'}`,
      '',
      ...TABLE_HEADER,
      ...rows,
      '',
      'values (tagbench | bare), in run order:',
      ...opts.tests.map((t) => `- ${t}: ${values[t].tagbench.map((v) => v.toFixed(0)).join(' ')} | ${values[t].bare.map((v) => v.toFixed(0)).join(' ')}`),
    ];
    console.log(lines.join('\n'));
    await writeFile(resolve(ROOT, opts.out), `${lines.join('\n')}\n`);
    process.stderr.write(`wrote ${opts.out}\n`);
  } finally {
    await stopAllServers();
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    process.stderr.write(`harness-overhead: ${err instanceof Error ? err.message : err}\n`);
    process.exit(err instanceof UserError ? EXIT.userError : 1);
  });
}
