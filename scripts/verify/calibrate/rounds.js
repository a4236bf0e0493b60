/**
 * The runs of `tagbench calibrate` (see pipeline.js): the timed strategy's reference run that measures the
 * CPU each test's server uses, and one calibration round: A, B and S side by side, with S's
 * server held in a cgroup CPU quota, then A against B and A against S each through compare
 * --adaptive and confirm, exactly the path a benchmark run takes before an issue.
 * The counted strategy's: the reference count of a query, and a counted round of A, B and
 * the injected servers, judged the same way, each query-path verdict with the functions judged
 * from the per-function profiles behind it (which functions gained the count).
 */
import { join } from 'node:path';
import { runReleases } from '../../run/index.js';
import { UserError } from '../../errors.js';
import { compareRuns, confirmVerdicts, listRegressedTests } from '../../compare/index.js';
import { watchServer, computeCpuUse } from './server-throttle.js';
import { extendUndecided } from '../adaptive-repeats.js';
import { attachFunctionMoves } from '../attach-function-moves.js';

/**
 * @typedef {{product: string, version: string, provider?: string, path?: string, label?: string, serverEnv?: Record<string, string>, mycnf?: string}} ServerSpec
 *   serverEnv: the injected-cost library's environment; mycnf: the server's own my.cnf template
 */

/**
 * @typedef {object} CalibrationSetup what every calibration run shares
 * @property {Readonly<import('../../types.js').Config>} config
 * @property {import('../../compare/index.js').CompareThresholds} thresholds
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
 * @property {import('../../types.js').MeterName[]} [meters] the runs' meters; none: the suite's
 * @property {string} [library] the injected-cost library, when S is slowed by its spin (--inject
 *   preload) instead of a quota
 */

/**
 * The reference run: the release alone, one repeat of each test, with the CPU its server uses
 * during each test sampled from /proc.
 * @param {CalibrationSetup} setup
 * @returns {Promise<{reference: {runId: string, serverCpusByTest: Record<string, number>}, host: any}|null>}
 *   the server CPUs per test and the host the run recorded; null when interrupted
 * @throws {UserError} when a test's CPU use could not be measured
 */
export async function runReference({ config, suite, hostClass, tests, meters, storeDir, workBase, cacheDir, signal, servers }) {
  const watch = await watchServer({ match: `-ref${process.pid}/`, quotaCpus: null, name: 'unused' });
  const outcome = await runReleases(config, { releases: [{ ...servers.A, label: `ref${process.pid}` }], suite, hostClass, only: tests, ...(meters ? { meters } : {}), repeats: 1, instances: 1, storeDir, workDir: workBase, cacheDir, signal });
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
 * One calibration round: A, B and S run side by side with S throttled test by test (or slowed
 * by its servers' environment, the preload library's spin), then the A/A and the injected
 * comparison, each through compare --adaptive and confirm.
 * @param {CalibrationSetup} setup
 * @param {Record<string, number>|null} quotaByTest server CPUs S may use per test; null: no quota
 * @returns {Promise<{aa: import('../../compare/index.js').FullComparison, injected: import('../../compare/index.js').FullComparison, runIds: string[], host: import('../../types.js').RunRecord['host']}|null>}
 *   null when interrupted before the three servers finished
 * @throws {UserError} when the throttle, a run or a rerun cannot start
 */
export async function runCalibrationRound(setup, quotaByTest) {
  const { config, suite, hostClass, tests, meters, perSide, storeDir, workBase, cacheDir, signal, servers: { A, B, S } } = setup;
  return withThrottle(setup.servers.slowLabel, quotaByTest, async (follow) => {
    const outcome = await runReleases(config, { releases: [A, B, S], suite, hostClass, only: tests, ...(meters ? { meters } : {}), ...perSide, storeDir, workDir: workBase, cacheDir, write: follow, signal });
    if (outcome.interrupted) return null;
    const [ra, rb, rs] = outcome.records;
    const createdAt = new Date().toISOString();
    const aa = await judgeLikeARun(setup, side('A', ra), side('B', rb), [A, B], createdAt, follow);
    const injected = await judgeLikeARun(setup, side('A', ra), side('S', rs), [A, S], createdAt, follow);
    return { aa, injected, runIds: [ra.id, rb.id, rs.id], host: ra.host };
  });
}

/**
 * @param {string} version the side's name in the comparison (A, B, S)
 * @param {import('../../types.js').RunRecord} record
 * @returns {import('../../compare/index.js').ReleaseRecords}
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
 * @param {import('../../compare/index.js').ReleaseRecords} base
 * @param {import('../../compare/index.js').ReleaseRecords} candidate
 * @param {ServerSpec[]} specs how to run base and candidate again
 * @param {string} createdAt ISO time of the comparison
 * @param {(text: string) => void} follow progress writer (moves the throttle along)
 * @returns {Promise<import('../../compare/index.js').FullComparison>}
 */
async function judgeLikeARun(setup, base, candidate, specs, createdAt, follow) {
  const { config, thresholds, product, suite, hostClass, meters, perSide, storeDir, workBase, cacheDir, budgetS, maxInstances, signal } = setup;
  const ctx = { config, thresholds, product, suite, hostClass, storeDir, workDir: workBase, cacheDir, budgetS, maxInstances, releases: specs, write: follow, signal };
  const extended = await extendUndecided(base, candidate, createdAt, ctx);
  const comparison = extended.comparison;
  const regressed = listRegressedTests(comparison).filter((t) => comparison.tests.some((v) => v.test === t && v.verdict === 'regression' && v.level === 'issue'));
  if (regressed.length === 0) return comparison;
  const again = await runReleases(config, { releases: specs, suite, hostClass, only: regressed, ...(meters ? { meters } : {}), ...perSide, storeDir, workDir: workBase, cacheDir, write: follow, signal });
  const rerun = compareRuns({ base: side(base.version, again.records[0]), candidate: side(candidate.version, again.records[1]), thresholds, createdAt: new Date().toISOString(), familyControl: false });
  return confirmVerdicts(comparison, rerun);
}

/**
 * @typedef {object} CountedSetup what every counted calibration run shares
 * @property {Readonly<import('../../types.js').Config>} config with the performance_schema template
 * @property {import('../../types.js').MeterName} meter the counted meter every server runs under
 * @property {{queryPath: string, process: string}} figures where the judged figures are in the
 *   meter's figures of a counted repeat (their metrics' `figure` paths)
 * @property {import('../../compare/index.js').CompareThresholds} thresholds
 * @property {string} product
 * @property {string} hostClass
 * @property {string} suite
 * @property {string[]} tests
 * @property {number} budgetS adaptive repeats per comparison (counted verdicts never need them)
 * @property {number} maxInstances
 * @property {string} storeDir
 * @property {string} workBase
 * @property {string} cacheDir
 * @property {AbortSignal} signal
 */

/**
 * The reference count: one server process under the meter, the reference test alone.
 * @param {CountedSetup} setup
 * @param {ServerSpec} spec the release with the library at 0, as A and B run it
 * @param {string} test
 * @returns {Promise<{reference: {runId: string, test: string, queryPathPerOp: number, processPerOp: number}, host: any}|null>}
 *   null when interrupted
 * @throws {UserError} when the count failed
 */
export async function runCountedReference(setup, spec, test) {
  const { config, suite, hostClass, meter, figures, storeDir, workBase, cacheDir, signal } = setup;
  const host = config.hosts[hostClass];
  // One process is enough: a size is a share of a figure that moves by hundredths of a percent.
  const once = { ...config, hosts: { ...config.hosts, [hostClass]: { ...host, counting: { ...(host.counting ?? {}), rounds: 1 } } } };
  const outcome = await runReleases(once, { releases: [spec], suite, hostClass, only: [test], meters: [meter], repeats: 1, instances: 1, storeDir, workDir: workBase, cacheDir, signal });
  if (outcome.interrupted) return null;
  const record = outcome.records[0];
  const slot = record.steps.find((s) => s.name === test)?.meters?.[meter];
  const rep = slot?.repeats.find((r) => r.status === 'ok' && readFigure(r, meter, figures.queryPath) !== null);
  if (!rep) throw new UserError(`calibrate: the reference run counted nothing under the ${meter} meter for ${test} (${slot?.reason ?? record.reason ?? 'no counted repeat'}); its logs are in ${join(storeDir, 'logs', record.id)}`);
  return {
    reference: { runId: record.id, test, queryPathPerOp: Number(readFigure(rep, meter, figures.queryPath)), processPerOp: Number(readFigure(rep, meter, figures.process)) },
    host: record.host,
  };
}

/**
 * One counted round: A, B and the injected servers side by side under the counted meter;
 * A/B and A/S judged like a run (compare, whose family-wise rule covers the run's counted
 * verdicts, then confirm). The regressed tests of every comparison are confirmed by one rerun of
 * A and the servers concerned: each comparison is then judged on its own pair of that rerun, as
 * `tagbench confirm` would, for one process start per server instead of one per comparison. Each
 * injected comparison's query-path verdicts then get the per-function difference of the
 * profiles behind them (attachFunctionMoves, as compare does): which functions gained.
 * @param {CountedSetup} setup
 * @param {{A: ServerSpec, B: ServerSpec, injected: {key: string, spec: ServerSpec}[]}} servers
 *   key: the injected server's label, its side's name in the comparisons
 * @returns {Promise<{aa: import('../../compare/index.js').FullComparison, injected: Record<string, import('../../compare/index.js').FullComparison>,
 *   runIds: Record<string, string>, confirmRunIds: string[],
 *   noise: Record<string, Record<string, {queryPath: number[], process: number[]}>>, meterSetup: import('../../types.js').MeterSetup|null}|null>}
 *   null when interrupted; meterSetup: how A's counting servers ran (wrapper, rounds, what counts depend on)
 * @throws {UserError} when a run or the rerun cannot start
 */
export async function runCountedRound(setup, { A, B, injected }) {
  const { config, thresholds, product, suite, hostClass, tests, meter, figures, storeDir, workBase, cacheDir, budgetS, maxInstances, signal } = setup;
  const write = (/** @type {string} */ t) => process.stderr.write(t);
  const common = { suite, hostClass, meters: [meter], repeats: 1, instances: 1, storeDir, workDir: workBase, cacheDir, write, signal };
  const outcome = await runReleases(config, { releases: [A, B, ...injected.map((s) => s.spec)], only: tests, ...common });
  if (outcome.interrupted) return null;
  const [ra, rb, ...rs] = outcome.records;
  const candidates = [{ key: 'B', spec: B, record: rb }, ...injected.map((s, i) => ({ ...s, record: rs[i] }))];
  const createdAt = new Date().toISOString();
  /** @type {Record<string, import('../../compare/index.js').FullComparison>} */
  const judged = {};
  for (const c of candidates) {
    const ctx = { config, thresholds, product, suite, hostClass, storeDir, workDir: workBase, cacheDir, budgetS, maxInstances, releases: [A, c.spec], write, signal };
    judged[c.key] = (await extendUndecided(side('A', ra), side(c.key, c.record), createdAt, ctx)).comparison;
  }
  const issueTests = (/** @type {import('../../compare/index.js').FullComparison} */ c) => listRegressedTests(c).filter((t) => c.tests.some((v) => v.test === t && v.verdict === 'regression' && v.level === 'issue'));
  const toConfirm = candidates.filter((c) => issueTests(judged[c.key]).length > 0);
  /** @type {string[]} */
  let confirmRunIds = [];
  if (toConfirm.length > 0) {
    const only = [...new Set(toConfirm.flatMap((c) => issueTests(judged[c.key])))];
    const again = await runReleases(config, { releases: [A, ...toConfirm.map((c) => c.spec)], only, ...common });
    if (again.interrupted) return null;
    confirmRunIds = again.records.map((r) => r.id);
    toConfirm.forEach((c, i) => {
      const rerun = compareRuns({ base: side('A', again.records[0]), candidate: side(c.key, again.records[i + 1]), thresholds, createdAt: new Date().toISOString(), familyControl: false });
      judged[c.key] = confirmVerdicts(judged[c.key], rerun);
    });
  }
  // Where the count went, as compare attaches it to every query-path verdict of a run.
  for (const c of candidates.slice(1)) await attachFunctionMoves(judged[c.key], side('A', ra), side(c.key, c.record), storeDir);
  return {
    aa: judged.B,
    injected: Object.fromEntries(candidates.slice(1).map((c) => [c.key, judged[c.key]])),
    runIds: Object.fromEntries([['A', ra.id], ...candidates.map((c) => [c.key, c.record.id])]),
    confirmRunIds,
    noise: Object.fromEntries(tests.map((t) => [t, { A: countedValues(ra, t, meter, figures), B: countedValues(rb, t, meter, figures) }])),
    meterSetup: ra.config.meterSetup?.[meter] ?? null,
  };
}

/**
 * Each server process's figures of one test (one per round: the median of its repeats).
 * @param {import('../../types.js').RunRecord} record
 * @param {string} test
 * @param {string} meter the counted meter whose slot holds the figures
 * @param {{queryPath: string, process: string}} figures their paths in the meter's figures
 * @returns {{queryPath: number[], process: number[]}} in round order
 */
function countedValues(record, test, meter, figures) {
  const reps = record.steps.find((s) => s.name === test)?.meters?.[meter]?.repeats.filter((r) => r.status === 'ok' && readFigure(r, meter, figures.queryPath) !== null) ?? [];
  /** @type {Map<number, {q: number[], p: number[]}>} */
  const rounds = new Map();
  for (const r of reps) {
    const g = rounds.get(r.instance) ?? { q: [], p: [] };
    g.q.push(Number(readFigure(r, meter, figures.queryPath)));
    g.p.push(Number(readFigure(r, meter, figures.process)));
    rounds.set(r.instance, g);
  }
  const med = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const ordered = [...rounds.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
  return { queryPath: ordered.map((g) => med(g.q)), process: ordered.map((g) => med(g.p)) };
}

/**
 * A figure of a counted repeat, where the meter's metric says it is: `<meter>.<figure path>`
 * (the record's home of a counted meter's figures, as compare/metrics.js reads them).
 * @param {import('../../types.js').CountedRepeat} rep
 * @param {string} meter
 * @param {string} path the metric's `figure`, a dot path
 * @returns {number|null} null where the repeat has no such number
 */
function readFigure(rep, meter, path) {
  /** @type {unknown} */
  let v = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (rep))[meter];
  for (const key of path.split('.')) v = v !== null && typeof v === 'object' ? /** @type {Record<string, unknown>} */ (v)[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
