/**
 * `tagbench calibrate`: measure on this host, through the path that opens issues, how often a
 * run opens an issue for nothing and how often it catches a known slowdown.
 *
 * Every calibration run starts three servers of one release side by side, each from its own
 * install (the release's install and two copies of it) with its own datadir, and runs the tests
 * alternating between them, spread over server instances like any run:
 *   A/A       A against B, two independent servers of the same release: compare with the run's
 *             family-wise rule, adaptive repeats of undecided tests, confirmation rerun. An issue
 *             that survives all of it is a false issue.
 *   injected  A against S, whose server sits in a cgroup CPU quota set, test by test, to
 *             (1 - slowdown) x the CPU that test's server used in a reference run; slowdowns
 *             rotate over 5, 10 and 15 % from run to run. The same path; a confirmed issue-level
 *             throughput regression of a test is a detection.
 * The report (bench/calibration-<host-class>.md and .json) is rewritten after every run, so an
 * interrupted calibration keeps what it measured, and a later call with the same settings adds
 * runs to it until --runs are reached.
 */
import { resolve, join } from 'node:path';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { parseList } from '../command-spec.js';
import { loadConfig } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { formatValue } from '../format-number.js';
import { resolveRepeats, runReleases } from '../run/index.js';
import { installRelease } from '../install/index.js';
import { replaceFileAtomic } from '../store/index.js';
import { resolveThresholds, confirmVerdicts, listRegressedTests, hasIssueRegression, compareRuns, upperBound, clopperPearson } from '../compare/index.js';
import { watchServer, computeCpuUse, findCpuCgroupRoot } from './server-throttle.js';
import { extendUndecided, ADAPTIVE_DEFAULTS } from './adaptive-repeats.js';
import { renderCalibration } from './render-calibration.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';

/** CPU-bound tests of the standard list, one per group but range. */
export const DEFAULT_CALIBRATION_TESTS = Object.freeze(['point-query', 'read-only.range10', 'update-nonindex']);
/** Injected slowdowns, one per run in turn. */
export const DEFAULT_SLOWDOWNS = Object.freeze([0.05, 0.1, 0.15]);
const FORMAT = 'tagbench-calibration/2';

/**
 * `tagbench calibrate` (see the module comment).
 * @param {Record<string, any>} options product, version, hostClass, suite, only, runs, slowdowns,
 *   adaptiveBudget, instances, note, report, store, workDir, cacheDir, root
 * @returns {Promise<number>} 0
 * @throws {UserError} bad options, no cgroup, a report of other settings in the way
 */
export async function calibrateHost(options) {
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  if (!options.product || !options.version) throw new UserError('missing --product or --version: tagbench calibrate --product mariadb --version 10.11.18');
  const hostClass = options.hostClass ?? 'local';
  const host = config.hosts[hostClass];
  if (!host) throw new UserError(`unknown --host-class '${hostClass}'; known: ${Object.keys(config.hosts).join(', ')}`);
  const suite = options.suite ?? host.scale;
  const tests = typeof options.only === 'string' ? parseList(options.only) : options.only ?? [...DEFAULT_CALIBRATION_TESTS];
  const wantedRuns = Number(options.runs ?? 10);
  const slowdowns = (typeof options.slowdowns === 'string' ? parseList(options.slowdowns) : options.slowdowns ?? DEFAULT_SLOWDOWNS).map(Number);
  for (const s of slowdowns) if (!(s > 0 && s < 0.9)) throw new UserError(`--slowdowns: ${s} is not a fraction between 0 and 0.9 (0.10 = 10 %)`);
  const budgetS = Number(options.adaptiveBudget ?? host.adaptive?.budgetS ?? ADAPTIVE_DEFAULTS.budgetS);
  const maxInstances = host.adaptive?.maxInstances ?? ADAPTIVE_DEFAULTS.maxInstances;
  // Instances per side of each run and of its confirmation rerun, one repeat each (--instances);
  // default: the host class's repeats spread over its instances, as `tagbench run` resolves them.
  if (options.instances !== undefined && !(Number.isInteger(Number(options.instances)) && Number(options.instances) >= 2 && Number(options.instances) <= maxInstances)) {
    throw new UserError(`--instances: ${options.instances} is not valid; give a whole number from 2 to ${maxInstances} (the host class's adaptive.maxInstances)`);
  }
  const n = options.instances === undefined ? undefined : Number(options.instances);
  const { repeats, instances } = resolveRepeats(host, { repeats: n, instances: n });
  const perSide = { repeats, instances };
  const thresholds = resolveThresholds(config.thresholds);
  await findCpuCgroupRoot();
  const storeDir = resolve(options.store ?? '.tagbench/calibration-store');
  const workBase = resolve(workDirFrom(options.workDir, host));
  const cacheDir = resolve(cacheDirFrom(options.cacheDir));
  const reportMd = resolve(options.report ?? join(root, 'bench', `calibration-${hostClass}.md`));
  const reportJson = reportMd.replace(/\.md$/, '.json');
  const log = (/** @type {string} */ m) => process.stderr.write(`calibrate: ${m}\n`);
  const now = () => new Date().toISOString();

  // Ctrl-C / SIGTERM: the run in progress stops its servers; the report keeps the runs done.
  const controller = new AbortController();
  const onSignal = () => {
    if (!controller.signal.aborted) log('interrupted: stopping the servers; the report keeps the runs done so far');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const signal = controller.signal;
  const settings = { product: options.product, version: options.version, hostClass, suite, tests, slowdowns, budgetS, maxInstances, repeats, instances };
  const result = await loadPrevious(reportJson, settings) ?? { format: FORMAT, ...settings, measuredAt: now(), host: null, reference: null, runs: [] };

  // Three installs side by side: the release's own and two copies (own binaries, own paths).
  const install = await installRelease({ product: options.product, version: options.version, provider: options.provider ?? 'deb' }, { config, cacheDir, log });
  if (install.status === 'failed') throw new UserError(`cannot install ${options.product} ${options.version}: ${install.reason}`);
  const copies = join(workBase, `calibrate-installs-${options.product}-${options.version}`);
  /** @param {string} name */
  const copyOf = async (name) => {
    const dir = join(copies, name);
    await rm(dir, { recursive: true, force: true });
    await mkdir(copies, { recursive: true });
    await cp(install.prefix, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    return dir;
  };
  const slowLabel = `S${process.pid}`;
  const A = { product: options.product, version: options.version };
  const B = { ...A, provider: 'path', path: await copyOf('B'), label: 'B' };
  const S = { ...A, provider: 'path', path: await copyOf('S'), label: slowLabel };

  /**
   * Run `body` with a throttle watching S's server(s) (it follows restarts: new processes of S's
   * folder are moved into the cgroup as they appear).
   * @template T
   * @param {Record<string, number>|null} quotaByTest server CPUs allowed per test, null = no throttle
   * @param {(follow: (t: string) => void) => Promise<T>} body gets the progress writer to pass on
   * @returns {Promise<T>}
   */
  const throttled = async (quotaByTest, body) => {
    const values = Object.values(quotaByTest ?? {});
    const between = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    const watch = await watchServer({ match: `-${slowLabel}/`, quotaCpus: between, name: `tagbench-calibrate-${process.pid}` });
    // Progress lines name the step that starts; the quota follows them, so every test is slowed
    // by the same fraction of the CPU its own server uses.
    const follow = (/** @type {string} */ text) => {
      process.stderr.write(text);
      const step = /\[\d+\/\d+\] \S+ (\S+)/.exec(text)?.[1];
      if (step && quotaByTest && between) void watch.setQuota(quotaByTest[step] ?? between).catch(() => {});
    };
    try {
      return await body(follow);
    } finally {
      await watch.stop();
    }
  };

  if (!result.reference) {
    log(`reference run: the CPU each test's server uses (${tests.join(', ')})`);
    const watch = await watchServer({ match: `-ref${process.pid}/`, quotaCpus: null, name: 'unused' });
    const outcome = await runReleases(config, { releases: [{ ...A, label: `ref${process.pid}` }], suite, hostClass, only: tests, repeats: 1, instances: 1, storeDir, workDir: workBase, cacheDir, signal });
    if (outcome.interrupted) return EXIT.interrupted;
    const { samples } = await watch.stop();
    const record = outcome.records[0];
    /** @type {Record<string, number>} */
    const serverCpusByTest = {};
    for (const s of record.steps.filter((st) => tests.includes(st.name))) {
      const used = computeCpuUse(samples, s.repeats.map((r) => ({ startMs: Date.parse(r.startedAt), endMs: Date.parse(r.startedAt) + r.durationS * 1000 })));
      if (used === null) throw new UserError(`calibrate: could not measure the server's CPU use during ${s.name} in the reference run (no samples of its process); is /proc readable?`);
      serverCpusByTest[s.name] = used;
    }
    result.reference = { runId: record.id, serverCpusByTest };
    result.host = record.host;
  }

  while (result.runs.length < wantedRuns && !signal.aborted) {
    const index = result.runs.length + 1;
    const slowdown = slowdowns[(index - 1) % slowdowns.length];
    const quotaByTest = Object.fromEntries(Object.entries(result.reference.serverCpusByTest).map(([k, v]) => [k, /** @type {number} */ (v) * (1 - slowdown)]));
    const started = Date.now();
    log(`run ${index}/${wantedRuns}: A, B (A/A) and S (${formatValue(slowdown * 100)} % slower), ${tests.join(', ')}`);
    const run = await throttled(quotaByTest, async (follow) => {
      const outcome = await runReleases(config, { releases: [A, B, S], suite, hostClass, only: tests, ...perSide, storeDir, workDir: workBase, cacheDir, write: follow, signal });
      if (outcome.interrupted) return null;
      const [ra, rb, rs] = outcome.records;
      const createdAt = now();
      const side = (/** @type {string} */ version, /** @type {any} */ rec) => ({ version, records: [rec] });
      /**
       * compare --adaptive, then confirm: exactly what a benchmark run goes through before an issue.
       * @param {any} base
       * @param {any} candidate
       * @param {any[]} specs
       */
      const judge = async (base, candidate, specs) => {
        const ctx = { config, thresholds, product: options.product, suite, hostClass, storeDir, workDir: workBase, cacheDir, budgetS, maxInstances, releases: specs, write: follow, signal };
        const extended = await extendUndecided(base, candidate, createdAt, ctx);
        let comparison = extended.comparison;
        const regressed = listRegressedTests(comparison).filter((t) => comparison.tests.some((v) => v.test === t && v.verdict === 'regression' && v.level === 'issue'));
        if (regressed.length > 0) {
          const again = await runReleases(config, { releases: specs, suite, hostClass, only: regressed, ...perSide, storeDir, workDir: workBase, cacheDir, write: follow, signal });
          const rerun = compareRuns({ base: side(base.version, again.records[0]), candidate: side(candidate.version, again.records[1]), thresholds, createdAt: now(), familyControl: false });
          comparison = confirmVerdicts(comparison, rerun);
        }
        return comparison;
      };
      const aa = await judge(side('A', ra), side('B', rb), [A, B]);
      const injected = await judge(side('A', ra), side('S', rs), [A, S]);
      return { aa, injected, runIds: [ra.id, rb.id, rs.id] };
    });
    // An interrupted run is not counted: its comparisons stopped halfway through the path.
    if (!run || signal.aborted) break;
    // The host's load while the run went on: a reader can tell quiet runs from shared ones.
    // The conditions belong to the runs measured under them (--note), not to the whole report.
    result.runs.push({
      ...summarizeRun(index, slowdown, run, Math.round((Date.now() - started) / 1000), now()), loadAverage: Number(loadavg()[1].toFixed(2)),
      ...(options.note ? { conditions: String(options.note) } : {}),
    });
    result.measuredAt = now();
    Object.assign(result, summarize(result.runs, slowdowns));
    await replaceFileAtomic(reportJson, `${JSON.stringify(result, null, 2)}\n`);
    await replaceFileAtomic(reportMd, renderCalibration(result));
    const f = result.falseIssues;
    log(`run ${index} done in ${result.runs.at(-1).seconds} s: false issues so far ${f.runsWithFalseIssue} of ${f.runs} runs (95 % bound ${formatValue(f.upper95 * 100)} %); report ${reportMd}`);
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await rm(copies, { recursive: true, force: true }).catch(() => {});
  return signal.aborted ? EXIT.interrupted : EXIT.ok;
}

/**
 * The earlier report when it was made with the same settings (runs are then added to it).
 * @param {string} file
 * @param {Record<string, any>} settings
 * @returns {Promise<any|null>}
 * @throws {UserError} a report in the current format made with other settings (it would mix)
 */
async function loadPrevious(file, settings) {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  /** @type {any} */
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (data?.format !== FORMAT) return null;
  // Reports from before repeats and instances were kept do not say: those two are not compared there.
  const unknown = new Set(['repeats', 'instances'].filter((k) => data[k] === undefined));
  const differs = Object.entries(settings).filter(([k, v]) => !unknown.has(k) && JSON.stringify(data[k]) !== JSON.stringify(v))
    .map(([k, v]) => `${k} ${JSON.stringify(data[k])} there, ${JSON.stringify(v)} now`);
  if (differs.length > 0) throw new UserError(`${file} was measured with other settings (${differs.join('; ')}): use the same settings to add runs, or --report for a new file`);
  return data;
}

/**
 * What one run says, small enough to keep every run in the report.
 * @param {number} index
 * @param {number} slowdown
 * @param {{aa: any, injected: any, runIds: string[]}} run
 * @param {number} seconds
 * @param {string} finishedAt
 */
function summarizeRun(index, slowdown, run, seconds, finishedAt) {
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
 * The rates over all runs, with exact bounds.
 * @param {any[]} runs
 * @param {number[]} slowdowns
 */
function summarize(runs, slowdowns) {
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
