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
 *   injected  A against S, slowed by 5, 10 and 15 % in turn from run to run. The same path; a
 *             confirmed issue-level throughput regression of a test is a detection. Two ways
 *             to slow S (--inject):
 *             quota    S's server sits in a cgroup CPU quota set, test by test, to
 *                      (1 - slowdown) x the CPU that test's server used in a reference run;
 *             preload  every server loads the injected-cost library (inject-cost/), A and B at
 *                      0; S's spins on each query answer for slowdown / (1 - slowdown) of the
 *                      CPU time its thread spent on that query: real work in the server's own
 *                      threads, the same share of every query of every test, with no cgroup and
 *                      no reference run. The quota also slows background threads and leaves
 *                      idle CPU; the spin slows the query path only.
 * The report (bench/calibration-<host-class>.md and .json) is rewritten after every run, so an
 * interrupted calibration keeps what it measured, and a later call with the same settings adds
 * runs to it until --runs are reached.
 *
 * `--meter instructions` calibrates the counted figures the same way, with costs that are real
 * instructions instead of a CPU quota: every server runs under callgrind (the instructions
 * meter), and an injected server S loads a preload library (inject-cost/) that adds a known
 * count to each query answer, sized as a share of point-query's instructions per query in a
 * reference run, or runs with performance_schema on (a real server-side cost). Every server,
 * A and B included, loads the library (at 0 for them), so S differs from A by exactly the
 * injected count. The first size is injected in every run, the others take turns as a fourth
 * server: each run is 4 servers x the host class's counting rounds of callgrind processes.
 * Report: bench/calibration-instructions-<host-class>.md and .json. That path is
 * inject-cost/calibrate-counted.js.
 */
import { resolve, join } from 'node:path';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { parseList } from '../command-spec.js';
import { UserError, EXIT } from '../errors.js';
import { findHostClass } from '../config/index.js';
import { formatValue } from '../format-number.js';
import { resolveRepeats } from '../run/index.js';
import { installRelease } from '../install/index.js';
import { replaceFileAtomic } from '../store/index.js';
import { findCpuCgroupRoot } from './server-throttle.js';
import { resolveAdaptiveLimits } from './adaptive-repeats.js';
import { renderCalibration } from './render-calibration.js';
import { runReference, runCalibrationRound } from './run-calibration-round.js';
import { summarizeRun, summarizeCalibration } from './summarize-calibration.js';
import { loadVerifyContext } from './load-verify-context.js';
import { withInterrupt } from '../with-interrupt.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';
import { CALIBRATION_METERS, CALIBRATION_DEFAULTS, WALL_INJECTIONS, log, loadPrevious } from './calibration-common.js';
import { buildInjectCost, injectCpuShareEnv } from './inject-cost/build-inject-cost.js';

export { log, loadPrevious };

/** Injected slowdowns, one per run in turn. */
export const DEFAULT_SLOWDOWNS = Object.freeze([0.05, 0.1, 0.15]);
const FORMAT = 'tagbench-calibration/2';

/** @typedef {import('./run-calibration-round.js').CalibrationSetup} CalibrationSetup */

/**
 * @typedef {object} CalibrationPlan the settings of a calibration, from the options and the host class
 * @property {Record<string, any>} settings what the report records and a later call must repeat
 *   to add runs to it: product, version, hostClass, suite, tests, slowdowns, budgetS,
 *   maxInstances, repeats, instances, inject (reports from before --inject existed were all
 *   quota, and still take quota runs)
 * @property {'quota'|'preload'} inject how S is slowed
 * @property {number} wantedRuns runs the report should hold
 * @property {number[]} slowdowns
 * @property {string} reportMd
 * @property {string} reportJson
 * @property {Omit<CalibrationSetup, 'config'|'thresholds'|'signal'|'servers'>} setup
 */

/**
 * `tagbench calibrate` (see the module comment).
 * @param {Record<string, any>} options product, version, meter, hostClass, suite, only, runs,
 *   slowdowns and inject (wall), sizes (instructions), adaptiveBudget, instances, note, report, store,
 *   workDir, cacheDir, root
 * @returns {Promise<number>} 0, or 130 when interrupted (the report keeps the runs done)
 * @throws {UserError} bad options, no cgroup (wall quota), no gcc (instructions, wall preload), a report of other
 *   settings in the way
 */
export async function calibrateHost(options) {
  const meter = options.meter ?? CALIBRATION_METERS[0];
  if (!CALIBRATION_METERS.includes(meter)) throw new UserError(`--meter ${meter}: calibrate knows ${CALIBRATION_METERS.join(', ')}`);
  const context = await loadVerifyContext(options);
  if (!options.product || !options.version) throw new UserError('missing --product or --version: tagbench calibrate --product mariadb --version 10.11.18');
  if (meter === 'instructions') {
    const { calibrateCounted } = await import('./inject-cost/calibrate-counted.js');
    return calibrateCounted(options, context);
  }
  return calibrateWall(options, context);
}

/**
 * The wall meter's calibration: A, B and S side by side, S in a cgroup CPU quota or spinning in
 * the preload library.
 * @param {Record<string, any>} options see calibrateHost
 * @param {{root: string, config: Readonly<import('../types.js').Config>, thresholds: any}} context
 * @returns {Promise<number>}
 */
async function calibrateWall(options, { root, config, thresholds }) {
  const plan = planCalibration(options, config, root);
  const library = plan.inject === 'preload' ? await buildInjectCost({ cacheDir: plan.setup.cacheDir }) : null;
  if (!library) await findCpuCgroupRoot();
  // Ctrl-C / SIGTERM: the run in progress stops its servers; the report keeps the runs done.
  return withInterrupt(async (signal) => {
    const result = await loadPrevious(plan.reportJson, plan.settings, FORMAT, { inject: 'quota' }) ?? { format: FORMAT, ...plan.settings, measuredAt: new Date().toISOString(), host: null, reference: null, runs: [] };
    const { servers, copies } = await prepareInstalls(options, config, plan.setup);
    const setup = { ...plan.setup, config, thresholds, signal, servers, ...(library ? { library: library.path } : {}) };
    // The spin is sized by each query's own CPU time as it runs: no reference run to size it by.
    if (!result.reference && !library) {
      log(`reference run: the CPU each test's server uses (${setup.tests.join(', ')})`);
      const measured = await runReference(setup);
      if (!measured) return EXIT.interrupted;
      Object.assign(result, measured);
    }
    while (result.runs.length < plan.wantedRuns && !signal.aborted) {
      if (!(await calibrateOnce(result, plan, setup, options.note))) break;
    }
    await rm(copies, { recursive: true, force: true }).catch(() => {});
    return signal.aborted ? EXIT.interrupted : EXIT.ok;
  }, () => log('interrupted: stopping the servers; the report keeps the runs done so far'));
}


/**
 * The settings of a calibration: the options, else the host class's.
 * @param {Record<string, any>} options see calibrateHost
 * @param {Readonly<import('../types.js').Config>} config
 * @param {string} root project root (the report goes to its bench/ by default)
 * @returns {CalibrationPlan}
 * @throws {UserError} an unknown host class, a slowdown out of range, a bad --instances
 */
function planCalibration(options, config, root) {
  const hostClass = options.hostClass ?? 'local';
  const host = findHostClass(config, hostClass, '--host-class');
  const suite = options.suite ?? host.scale;
  const tests = typeof options.only === 'string' ? parseList(options.only) : options.only ?? [...CALIBRATION_DEFAULTS.wall.tests];
  const slowdowns = (typeof options.slowdowns === 'string' ? parseList(options.slowdowns) : options.slowdowns ?? DEFAULT_SLOWDOWNS).map(Number);
  const inject = options.inject ?? WALL_INJECTIONS[0];
  if (!WALL_INJECTIONS.includes(inject)) throw new UserError(`--inject ${inject}: the wall meter's calibration slows S by ${WALL_INJECTIONS.join(' or ')}`);
  for (const s of slowdowns) if (!(s > 0 && s < 0.9)) throw new UserError(`--slowdowns: ${s} is not a fraction between 0 and 0.9 (0.10 = 10 %)`);
  const { budgetS, maxInstances } = resolveAdaptiveLimits(host, options.adaptiveBudget);
  // Instances per side of each run and of its confirmation rerun, one repeat each (--instances);
  // default: the host class's repeats spread over its instances, as `tagbench run` resolves them.
  if (options.instances !== undefined && !(Number.isInteger(Number(options.instances)) && Number(options.instances) >= 2 && Number(options.instances) <= maxInstances)) {
    throw new UserError(`--instances: ${options.instances} is not valid; give a whole number from 2 to ${maxInstances} (the host class's adaptive.maxInstances)`);
  }
  const n = options.instances === undefined ? undefined : Number(options.instances);
  const { repeats, instances } = resolveRepeats(host, { repeats: n, instances: n });
  const reportMd = resolve(options.report ?? join(root, 'bench', `calibration-${hostClass}.md`));
  return {
    settings: { product: options.product, version: options.version, hostClass, suite, tests, slowdowns, budgetS, maxInstances, repeats, instances, inject },
    inject,
    wantedRuns: Number(options.runs ?? CALIBRATION_DEFAULTS.wall.runs),
    slowdowns,
    reportMd,
    reportJson: reportMd.replace(/\.md$/, '.json'),
    setup: {
      product: options.product, hostClass, suite, tests, perSide: { repeats, instances }, budgetS, maxInstances,
      storeDir: resolve(options.store ?? '.tagbench/calibration-store'),
      workBase: resolve(workDirFrom(options.workDir, host)),
      cacheDir: resolve(cacheDirFrom(options.cacheDir)),
    },
  };
}

/**
 * Three installs side by side: the release's own and two copies (own binaries, own paths), so
 * that A, B and S are three independent servers and S's processes can be told apart.
 * @param {Record<string, any>} options product, version, provider
 * @param {Readonly<import('../types.js').Config>} config
 * @param {{workBase: string, cacheDir: string}} where
 * @returns {Promise<{servers: CalibrationSetup['servers'], copies: string}>} copies: the folder
 *   of the two copies, removed at the end
 * @throws {UserError} when the release cannot be installed
 */
async function prepareInstalls(options, config, { workBase, cacheDir }) {
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
  return { servers: { A, B, S, slowLabel }, copies };
}

/**
 * One calibration run, added to the report, which is rewritten at once so that an interrupted
 * calibration keeps what it measured.
 * @param {Record<string, any>} result the report so far; runs and summaries are updated in place
 * @param {CalibrationPlan} plan
 * @param {CalibrationSetup} setup
 * @param {string|undefined} note --note: the conditions of this call's runs
 * @returns {Promise<boolean>} false when the run was interrupted (it is not counted)
 * @throws {UserError} when a run cannot start
 */
async function calibrateOnce(result, plan, setup, note) {
  const index = result.runs.length + 1;
  const slowdown = plan.slowdowns[(index - 1) % plan.slowdowns.length];
  const started = Date.now();
  log(`run ${index}/${plan.wantedRuns}: A, B (A/A) and S (${formatValue(slowdown * 100)} % slower${setup.library ? `: spinning ${formatValue(100 * slowdown / (1 - slowdown))} % of each query's CPU time` : ''}), ${setup.tests.join(', ')}`);
  const run = setup.library ? await runCalibrationRound(withSpin(setup, setup.library, slowdown), null)
    : await runCalibrationRound(setup, Object.fromEntries(Object.entries(result.reference.serverCpusByTest).map(([k, v]) => [k, /** @type {number} */ (v) * (1 - slowdown)])));
  // An interrupted run is not counted: its comparisons stopped halfway through the path.
  if (!run || setup.signal.aborted) return false;
  // The host's load while the run went on: a reader can tell quiet runs from shared ones.
  // The conditions belong to the runs measured under them (--note), not to the whole report.
  result.runs.push({
    ...summarizeRun(index, slowdown, run, Math.round((Date.now() - started) / 1000), new Date().toISOString()), loadAverage: Number(loadavg()[1].toFixed(2)),
    ...(note ? { conditions: String(note) } : {}),
  });
  result.measuredAt = new Date().toISOString();
  result.host ??= run.host;
  Object.assign(result, summarizeCalibration(result.runs, plan.slowdowns));
  await replaceFileAtomic(plan.reportJson, `${JSON.stringify(result, null, 2)}\n`);
  await replaceFileAtomic(plan.reportMd, renderCalibration(result));
  const f = result.falseIssues;
  log(`run ${index} done in ${result.runs.at(-1).seconds} s: false issues so far ${f.runsWithFalseIssue} of ${f.runs} runs (95 % bound ${formatValue(f.upper95 * 100)} %); report ${plan.reportMd}`);
  return true;
}


/**
 * The servers of one preload run: all three load the library, A and B spinning for nothing (they
 * read the thread's CPU clock as S does), S for slowdown / (1 - slowdown) of each query's CPU
 * time, so that its server does each query's work at 1 - slowdown of the speed.
 * @param {CalibrationSetup} setup
 * @param {string} library the built library's path
 * @param {number} slowdown
 * @returns {CalibrationSetup}
 */
function withSpin(setup, library, slowdown) {
  const { A, B, S, slowLabel } = setup.servers;
  const idle = injectCpuShareEnv(library, 0);
  return { ...setup, servers: { A: { ...A, serverEnv: idle }, B: { ...B, serverEnv: idle }, S: { ...S, serverEnv: injectCpuShareEnv(library, slowdown / (1 - slowdown)) }, slowLabel } };
}
