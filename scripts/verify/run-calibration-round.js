/**
 * The runs of `tagbench calibrate` (see calibrate-host.js): the reference run that measures the
 * CPU each test's server uses, and one calibration round: A, B and S side by side, with S's
 * server held in a cgroup CPU quota, then A against B and A against S each through compare
 * --adaptive and confirm, exactly the path a benchmark run takes before an issue.
 */
import { runReleases } from '../run/index.js';
import { UserError } from '../errors.js';
import { compareRuns, confirmVerdicts, listRegressedTests } from '../compare/index.js';
import { watchServer, computeCpuUse } from './server-throttle.js';
import { extendUndecided } from './adaptive-repeats.js';

/** @typedef {{product: string, version: string, provider?: string, path?: string, label?: string}} ServerSpec */

/**
 * @typedef {object} CalibrationSetup what every calibration run shares
 * @property {Readonly<import('../types.js').Config>} config
 * @property {import('../compare/index.js').CompareThresholds} thresholds
 * @property {string} product
 * @property {string} hostClass
 * @property {string} suite
 * @property {string[]} tests
 * @property {{repeats: number, instances: number}} perSide of each run and of its confirmation rerun
 * @property {number} budgetS adaptive repeats per comparison
 * @property {number} maxInstances
 * @property {string} storeDir
 * @property {string} workBase
 * @property {string} cacheDir
 * @property {AbortSignal} signal
 * @property {{A: ServerSpec, B: ServerSpec, S: ServerSpec, slowLabel: string}} servers A the
 *   release's install, B and S copies of it; slowLabel is S's label, which its server's paths carry
 */

/**
 * The reference run: the release alone, one repeat of each test, with the CPU its server uses
 * during each test sampled from /proc.
 * @param {CalibrationSetup} setup
 * @returns {Promise<{reference: {runId: string, serverCpusByTest: Record<string, number>}, host: any}|null>}
 *   the server CPUs per test and the host the run recorded; null when interrupted
 * @throws {UserError} when a test's CPU use could not be measured
 */
export async function runReference({ config, suite, hostClass, tests, storeDir, workBase, cacheDir, signal, servers }) {
  const watch = await watchServer({ match: `-ref${process.pid}/`, quotaCpus: null, name: 'unused' });
  const outcome = await runReleases(config, { releases: [{ ...servers.A, label: `ref${process.pid}` }], suite, hostClass, only: tests, repeats: 1, instances: 1, storeDir, workDir: workBase, cacheDir, signal });
  if (outcome.interrupted) return null;
  const { samples } = await watch.stop();
  const record = outcome.records[0];
  /** @type {Record<string, number>} */
  const serverCpusByTest = {};
  for (const s of record.steps.filter((st) => tests.includes(st.name))) {
    const used = computeCpuUse(samples, s.repeats.map((r) => ({ startMs: Date.parse(r.startedAt), endMs: Date.parse(r.startedAt) + r.durationS * 1000 })));
    if (used === null) throw new UserError(`calibrate: could not measure the server's CPU use during ${s.name} in the reference run (no samples of its process); is /proc readable?`);
    serverCpusByTest[s.name] = used;
  }
  return { reference: { runId: record.id, serverCpusByTest }, host: record.host };
}

/**
 * One calibration round: A, B and S run side by side with S throttled test by test, then the
 * A/A and the injected comparison, each through compare --adaptive and confirm.
 * @param {CalibrationSetup} setup
 * @param {Record<string, number>} quotaByTest server CPUs S may use per test
 * @returns {Promise<{aa: import('../compare/index.js').FullComparison, injected: import('../compare/index.js').FullComparison, runIds: string[]}|null>}
 *   null when interrupted before the three servers finished
 * @throws {UserError} when the throttle, a run or a rerun cannot start
 */
export async function runCalibrationRound(setup, quotaByTest) {
  const { config, suite, hostClass, tests, perSide, storeDir, workBase, cacheDir, signal, servers: { A, B, S } } = setup;
  return withThrottle(setup.servers.slowLabel, quotaByTest, async (follow) => {
    const outcome = await runReleases(config, { releases: [A, B, S], suite, hostClass, only: tests, ...perSide, storeDir, workDir: workBase, cacheDir, write: follow, signal });
    if (outcome.interrupted) return null;
    const [ra, rb, rs] = outcome.records;
    const createdAt = new Date().toISOString();
    const aa = await judgeLikeARun(setup, side('A', ra), side('B', rb), [A, B], createdAt, follow);
    const injected = await judgeLikeARun(setup, side('A', ra), side('S', rs), [A, S], createdAt, follow);
    return { aa, injected, runIds: [ra.id, rb.id, rs.id] };
  });
}

/**
 * @param {string} version the side's name in the comparison (A, B, S)
 * @param {import('../types.js').RunRecord} record
 * @returns {import('../compare/index.js').ReleaseRecords}
 */
function side(version, record) {
  return { version, records: [record] };
}

/**
 * Run `body` with a throttle watching S's server(s) (it follows restarts: new processes of S's
 * folder are moved into the cgroup as they appear).
 * @template T
 * @param {string} slowLabel S's label: its server's paths carry `-<label>/`
 * @param {Record<string, number>|null} quotaByTest server CPUs allowed per test, null = no throttle
 * @param {(follow: (t: string) => void) => Promise<T>} body gets the progress writer to pass on
 * @returns {Promise<T>}
 */
async function withThrottle(slowLabel, quotaByTest, body) {
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
}

/**
 * compare --adaptive, then confirm: exactly what a benchmark run goes through before an issue.
 * @param {CalibrationSetup} setup
 * @param {import('../compare/index.js').ReleaseRecords} base
 * @param {import('../compare/index.js').ReleaseRecords} candidate
 * @param {ServerSpec[]} specs how to run base and candidate again
 * @param {string} createdAt ISO time of the comparison
 * @param {(text: string) => void} follow progress writer (moves the throttle along)
 * @returns {Promise<import('../compare/index.js').FullComparison>}
 */
async function judgeLikeARun(setup, base, candidate, specs, createdAt, follow) {
  const { config, thresholds, product, suite, hostClass, perSide, storeDir, workBase, cacheDir, budgetS, maxInstances, signal } = setup;
  const ctx = { config, thresholds, product, suite, hostClass, storeDir, workDir: workBase, cacheDir, budgetS, maxInstances, releases: specs, write: follow, signal };
  const extended = await extendUndecided(base, candidate, createdAt, ctx);
  const comparison = extended.comparison;
  const regressed = listRegressedTests(comparison).filter((t) => comparison.tests.some((v) => v.test === t && v.verdict === 'regression' && v.level === 'issue'));
  if (regressed.length === 0) return comparison;
  const again = await runReleases(config, { releases: specs, suite, hostClass, only: regressed, ...perSide, storeDir, workDir: workBase, cacheDir, write: follow, signal });
  const rerun = compareRuns({ base: side(base.version, again.records[0]), candidate: side(candidate.version, again.records[1]), thresholds, createdAt: new Date().toISOString(), familyControl: false });
  return confirmVerdicts(comparison, rerun);
}
