/**
 * The timed strategy of `tagbench calibrate` (pipeline.js picks it for a meter of kind 'timed'):
 * every run starts three servers of one release side by side, each from its own install (the
 * release's install and two copies of it) with its own datadir, and runs the tests alternating
 * between them, spread over server instances like any run:
 *   A/A       A against B, two independent servers of the same release: compare with the run's
 *             family-wise rule, adaptive repeats of undecided tests, confirmation rerun. An issue
 *             that survives all of it is a false issue.
 *   injected  A against S, slowed by 5, 10 and 15 % in turn from run to run. The same path; a
 *             confirmed issue-level throughput regression of a test is a detection. Two ways
 *             to slow S (--inject):
 *             quota    S's server sits in a cgroup CPU quota set, test by test, to
 *                      (1 - slowdown) x the CPU that test's server used in a reference run
 *                      (server-throttle.js);
 *             preload  every server loads the injected-cost library (inject-cost/), A and B at
 *                      0; S's spins on each query answer for slowdown / (1 - slowdown) of the
 *                      CPU time its thread spent on that query: real work in the server's own
 *                      threads, the same share of every query of every test, with no cgroup and
 *                      no reference run. The quota also slows background threads and leaves
 *                      idle CPU; the spin slows the query path only.
 */
import { join } from 'node:path';
import { cp, mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { parseList } from '../../command-spec.js';
import { UserError } from '../../errors.js';
import { formatValue } from '../../format-number.js';
import { resolveRepeats } from '../../run/index.js';
import { installRelease } from '../../install/index.js';
import { findCpuCgroupRoot } from './server-throttle.js';
import { renderCalibration } from './render.js';
import { runReference, runCalibrationRound } from './rounds.js';
import { summarizeRun, summarizeCalibration } from './summarize.js';
import { CALIBRATION_DEFAULTS, TIMED_INJECTIONS, log } from './settings.js';
import { buildInjectCost, injectCpuShareEnv } from './inject-cost/build-inject-cost.js';

const FORMAT = 'tagbench-calibration/2';

/** @typedef {import('./rounds.js').CalibrationSetup} CalibrationSetup */
/** @typedef {import('./pipeline.js').CommonPlan} CommonPlan */

/**
 * @typedef {object} TimedPlanOwn what the timed strategy adds to the common plan
 * @property {Record<string, any>} settings what the report records and a later call must repeat
 *   to add runs to it: product, version, hostClass, suite, tests, slowdowns, budgetS,
 *   maxInstances, repeats, instances, inject
 * @property {string} format
 * @property {Record<string, any>} olderDefaults reports from before --inject existed were all
 *   quota, and still take quota runs
 * @property {'quota'|'preload'} inject how S is slowed
 * @property {number[]} slowdowns
 * @property {{repeats: number, instances: number}} perSide of each run and of its confirmation rerun
 * @property {string} provider the release's install provider
 */
/** @typedef {CommonPlan & TimedPlanOwn} TimedPlan */

/** @type {import('./pipeline.js').CalibrationStrategy} */
export const timedStrategy = {
  kind: 'timed',
  plan: planTimed,
  check: checkTimed,
  newReport: (plan) => ({ format: FORMAT, ...plan.settings, measuredAt: new Date().toISOString(), host: null, reference: null, runs: [] }),
  start: startTimed,
  round: timedRound,
  summarize: (report, plan) => summarizeCalibration(report.runs, plan.slowdowns),
  render: renderCalibration,
  finish: async (session) => { await rm(session.copies, { recursive: true, force: true }).catch(() => {}); },
  interrupted: () => log('interrupted: stopping the servers; the report keeps the runs done so far'),
};

/**
 * The timed settings: slowdowns, how S is slowed, instances per side.
 * @param {Record<string, any>} options see calibrateHost
 * @param {CommonPlan} common
 * @returns {TimedPlan}
 * @throws {UserError} a slowdown out of range, an unknown --inject, a bad --instances
 */
function planTimed(options, common) {
  const slowdowns = (typeof options.slowdowns === 'string' ? parseList(options.slowdowns) : options.slowdowns ?? CALIBRATION_DEFAULTS.timed.slowdowns).map(Number);
  const inject = options.inject ?? TIMED_INJECTIONS[0];
  if (!TIMED_INJECTIONS.includes(inject)) throw new UserError(`--inject ${inject}: the ${common.meter.name} meter's calibration slows S by ${TIMED_INJECTIONS.join(' or ')}`);
  for (const s of slowdowns) if (!(s > 0 && s < 0.9)) throw new UserError(`--slowdowns: ${s} is not a fraction between 0 and 0.9 (0.10 = 10 %)`);
  const { maxInstances } = common;
  // Instances per side of each run and of its confirmation rerun, one repeat each (--instances);
  // default: the host class's repeats spread over its instances, as `tagbench run` resolves them.
  if (options.instances !== undefined && !(Number.isInteger(Number(options.instances)) && Number(options.instances) >= 2 && Number(options.instances) <= maxInstances)) {
    throw new UserError(`--instances: ${options.instances} is not valid; give a whole number from 2 to ${maxInstances} (the host class's adaptive.maxInstances)`);
  }
  const n = options.instances === undefined ? undefined : Number(options.instances);
  const { repeats, instances } = resolveRepeats(common.host, { repeats: n, instances: n });
  const { product, version, hostClass, suite, tests, budgetS } = common;
  return {
    ...common,
    settings: { product, version, hostClass, suite, tests, slowdowns, budgetS, maxInstances, repeats, instances, inject },
    format: FORMAT, olderDefaults: { inject: 'quota' }, inject, slowdowns, perSide: { repeats, instances }, provider: options.provider ?? 'deb',
  };
}

/**
 * The quota needs a cgroup here; the spin needs gcc (checked when the library is built).
 * @param {TimedPlan} plan
 * @returns {Promise<void>}
 * @throws {UserError} no cgroup CPU controller
 */
async function checkTimed(plan) {
  if (plan.inject === 'quota') await findCpuCgroupRoot();
}

/**
 * The three installs, the library (preload) and the reference run (quota, when the report has
 * none: the CPU each test's server uses).
 * @param {TimedPlan} plan
 * @param {Record<string, any>} report updated in place
 * @param {{signal: AbortSignal, note?: string}} io
 * @returns {Promise<{setup: CalibrationSetup, copies: string, plan: TimedPlan, note?: string}|null>} null when interrupted
 * @throws {UserError} gcc missing (preload), the release cannot be installed, no CPU measured
 */
async function startTimed(plan, report, { signal, note }) {
  const library = plan.inject === 'preload' ? await buildInjectCost({ cacheDir: plan.cacheDir }) : null;
  const { servers, copies } = await prepareInstalls(plan);
  const { config, thresholds, product, hostClass, suite, tests, perSide, budgetS, maxInstances, storeDir, workBase, cacheDir, meters } = plan;
  /** @type {CalibrationSetup} */
  const setup = { config, thresholds, product, hostClass, suite, tests, perSide, budgetS, maxInstances, storeDir, workBase, cacheDir, meters, signal, servers, ...(library ? { library: library.path } : {}) };
  // The spin is sized by each query's own CPU time as it runs: no reference run to size it by.
  if (!report.reference && !library) {
    log(`reference run: the CPU each test's server uses (${tests.join(', ')})`);
    const measured = await runReference(setup);
    if (!measured) return null;
    Object.assign(report, measured);
  }
  return { setup, copies, plan, note };
}

/**
 * Three installs side by side: the release's own and two copies (own binaries, own paths), so
 * that A, B and S are three independent servers and S's processes can be told apart.
 * @param {TimedPlan} plan
 * @returns {Promise<{servers: CalibrationSetup['servers'], copies: string}>} copies: the folder
 *   of the two copies, removed at the end
 * @throws {UserError} when the release cannot be installed
 */
async function prepareInstalls({ product, version, provider, config, workBase, cacheDir }) {
  const install = await installRelease({ product, version, provider }, { config, cacheDir, log });
  if (install.status === 'failed') throw new UserError(`cannot install ${product} ${version}: ${install.reason}`);
  const copies = join(workBase, `calibrate-installs-${product}-${version}`);
  /** @param {string} name */
  const copyOf = async (name) => {
    const dir = join(copies, name);
    await rm(dir, { recursive: true, force: true });
    await mkdir(copies, { recursive: true });
    await cp(install.prefix, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    return dir;
  };
  const slowLabel = `S${process.pid}`;
  const A = { product, version };
  const B = { ...A, provider: 'path', path: await copyOf('B'), label: 'B' };
  const S = { ...A, provider: 'path', path: await copyOf('S'), label: slowLabel };
  return { servers: { A, B, S, slowLabel }, copies };
}

/**
 * One calibration run: S slowed by the run's slowdown (its quota per test, or its spin), added to
 * the report's runs.
 * @param {Record<string, any>} report the report so far; runs and host are updated in place
 * @param {{setup: CalibrationSetup, plan: TimedPlan, note?: string}} session
 * @returns {Promise<boolean>} false when the run was interrupted (it is not counted)
 * @throws {UserError} when a run cannot start
 */
async function timedRound(report, { setup, plan, note }) {
  const index = report.runs.length + 1;
  const slowdown = plan.slowdowns[(index - 1) % plan.slowdowns.length];
  const started = Date.now();
  log(`run ${index}/${plan.wantedRuns}: A, B (A/A) and S (${formatValue(slowdown * 100)} % slower${setup.library ? `: spinning ${formatValue(100 * slowdown / (1 - slowdown))} % of each query's CPU time` : ''}), ${setup.tests.join(', ')}`);
  const run = setup.library ? await runCalibrationRound(withSpin(setup, setup.library, slowdown), null)
    : await runCalibrationRound(setup, Object.fromEntries(Object.entries(report.reference.serverCpusByTest).map(([k, v]) => [k, /** @type {number} */ (v) * (1 - slowdown)])));
  // An interrupted run is not counted: its comparisons stopped halfway through the path.
  if (!run || setup.signal.aborted) return false;
  // The host's load while the run went on: a reader can tell quiet runs from shared ones.
  // The conditions belong to the runs measured under them (--note), not to the whole report.
  report.runs.push({
    ...summarizeRun(index, slowdown, run, Math.round((Date.now() - started) / 1000), new Date().toISOString()), loadAverage: Number(loadavg()[1].toFixed(2)),
    ...(note ? { conditions: String(note) } : {}),
  });
  report.host ??= run.host;
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
