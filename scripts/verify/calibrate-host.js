/**
 * `tagbench calibrate`: measure on this host how often the verdicts raise a false alarm and how
 * often they catch a known slowdown.
 *
 *  A/A: one release, 2n repeats per test; even repeats are "A", odd ones "B" (so the halves
 *  alternate in time exactly like A B A B ... of a real comparison). Regressions found are
 *  confirmed by a second A/A run of those tests. Any confirmed regression is a false alarm.
 *  Injected: the same release run twice, n repeats each, the second time with the server in a
 *  cgroup whose CPU quota is (1 - slowdown) x the CPU the server used in the first run; the
 *  regressions found are confirmed by a rerun of both. A confirmed throughput regression of a
 *  test is a detection.
 *
 * Writes bench/calibration-<host-class>.md (and .json with every number).
 */
import { resolve, join } from 'node:path';
import { parseList } from '../command-spec.js';
import { rm } from 'node:fs/promises';
import { loadConfig } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { formatValue } from '../format-number.js';
import { runReleases } from '../run/index.js';
import { replaceFileAtomic } from '../store/index.js';
import { compareRuns, resolveThresholds, confirmVerdicts, listRegressedTests } from '../compare/index.js';
import { watchServer, computeCpuUse, findCpuCgroupRoot } from './server-throttle.js';
import { renderCalibration } from './render-calibration.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';

/** CPU-bound tests of the standard list, one or more per group. */
export const DEFAULT_CALIBRATION_TESTS = Object.freeze(['point-query', 'random-points.range100', 'read-only.range10', 'update-nonindex', 'update-index']);

/**
 * `tagbench calibrate` (see the module comment).
 * @param {Record<string, any>} options product, version, hostClass, suite, only, aa (A/A rounds),
 *   slowdown (0.15), repeats (per side), report, store, workDir, cacheDir, portBase, root
 * @returns {Promise<number>} 0
 * @throws {UserError} bad options, no cgroup
 */
export async function calibrateHost(options) {
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  if (!options.product || !options.version) throw new UserError('missing --product or --version: tagbench calibrate --product mariadb --version 10.11.18');
  const hostClass = options.hostClass ?? 'local';
  const host = config.hosts[hostClass];
  if (!host) throw new UserError(`unknown --host-class '${hostClass}'; known: ${Object.keys(config.hosts).join(', ')}`);
  const suite = options.suite ?? host.scale;
  const only = typeof options.only === 'string' ? parseList(options.only) : options.only ?? [...DEFAULT_CALIBRATION_TESTS];
  const aa = Number(options.aa ?? 3);
  const slowdown = Number(options.slowdown ?? 0.15);
  const n = Number(options.repeats ?? host.repeats);
  const thresholds = resolveThresholds(config.thresholds);
  const cgroup = await findCpuCgroupRoot();
  const storeDir = resolve(options.store ?? '.tagbench/calibration-store');
  const workBase = resolve(workDirFrom(options.workDir, config.hosts[hostClass]));
  const cacheDir = resolve(cacheDirFrom(options.cacheDir));
  const log = (/** @type {string} */ m) => process.stderr.write(`calibrate: ${m}\n`);
  let seq = 0;

  /**
   * @param {string} label
   * @param {string[]} tests
   * @param {number} repeats
   * @param {number|null} quotaCpus quota while no test with its own quota runs (load, warm-ups, postwrite)
   * @param {Record<string, number>} [quotaByTest] each test's own quota, switched as the run reaches it
   */
  const runOnce = async (label, tests, repeats, quotaCpus, quotaByTest = {}) => {
    const workDir = join(workBase, `calibrate-${process.pid}-${++seq}`);
    log(`${label}: ${tests.join(', ')} x ${repeats} repeats${quotaCpus ? `, server CPU quota ${formatValue(quotaCpus)} CPU (per test: ${Object.entries(quotaByTest).map(([k, v]) => `${k} ${formatValue(v)}`).join(', ')})` : ''}`);
    const watch = await watchServer({ match: workDir, quotaCpus, name: `tagbench-calibrate-${process.pid}-${seq}` });
    // The run's progress lines say which step starts; the quota follows them, so every test is
    // slowed by the same fraction of the CPU its server really uses (an average quota would not
    // bind on tests whose server uses less than the average, e.g. point-query beside sysbench).
    /** @param {string} text */
    const follow = (text) => {
      process.stderr.write(text);
      const step = /^\[\d+\/\d+\] \S+ (\S+)/.exec(text)?.[1];
      if (step && quotaCpus) void watch.setQuota(quotaByTest[step] ?? quotaCpus).catch(() => {});
    };
    try {
      // Without --port-base, runReleases asks the kernel for free ports.
      const portBase = options.portBase ? Number(options.portBase) : undefined;
      const outcome = await runReleases(config, { releases: [{ product: options.product, version: options.version }], suite, hostClass, only: tests, repeats, storeDir, workDir, cacheDir, portBase, write: follow });
      const { samples } = await watch.stop();
      return { record: outcome.records[0], samples };
    } catch (err) {
      await watch.stop();
      throw err;
    } finally {
      await rm(workDir, { recursive: true, force: true }).catch(() => {});
    }
  };
  const now = () => new Date().toISOString();

  /** @type {any[]} */
  const aaRounds = [];
  for (let i = 1; i <= aa; i++) {
    const first = await runOnce(`A/A ${i}/${aa}`, only, 2 * n, null);
    const c = compareHalves(first.record, thresholds, now());
    const regressed = listRegressedTests(c);
    let final = c;
    if (regressed.length > 0) {
      const again = await runOnce(`A/A ${i}/${aa} confirmation`, regressed, 2 * n, null);
      final = confirmVerdicts(c, compareHalves(again.record, thresholds, now()));
    }
    aaRounds.push({ runId: first.record.id, comparison: final });
  }

  const normal = await runOnce('injected: reference run', only, n, null);
  const windows = normal.record.steps.filter((s) => only.includes(s.name)).flatMap((s) => s.repeats.map((r) => ({ startMs: Date.parse(r.startedAt), endMs: Date.parse(r.startedAt) + r.durationS * 1000 })));
  const serverCpus = computeCpuUse(normal.samples, windows);
  if (serverCpus === null) throw new UserError('calibrate: could not measure the server\'s CPU use during the reference run (no samples of its process); is /proc readable?');
  const quotaCpus = serverCpus * (1 - slowdown);
  /** @type {Record<string, number>} server CPUs each test used in the reference run */
  const serverCpusByTest = {};
  for (const s of normal.record.steps.filter((st) => only.includes(st.name))) {
    const used = computeCpuUse(normal.samples, s.repeats.map((r) => ({ startMs: Date.parse(r.startedAt), endMs: Date.parse(r.startedAt) + r.durationS * 1000 })));
    if (used !== null) serverCpusByTest[s.name] = used;
  }
  const quotaByTest = Object.fromEntries(Object.entries(serverCpusByTest).map(([k, v]) => [k, v * (1 - slowdown)]));
  const slow = await runOnce('injected: throttled run', only, n, quotaCpus, quotaByTest);
  const injected = compareRuns({ base: { version: options.version, records: [normal.record] }, candidate: { version: `${options.version}`, records: [slow.record] }, thresholds, createdAt: now() });
  const regressed = listRegressedTests(injected);
  let injectedFinal = injected;
  if (regressed.length > 0) {
    const n2 = await runOnce('injected confirmation: reference', regressed, n, null);
    const s2 = await runOnce('injected confirmation: throttled', regressed, n, quotaCpus, quotaByTest);
    injectedFinal = confirmVerdicts(injected, compareRuns({ base: { version: options.version, records: [n2.record] }, candidate: { version: options.version, records: [s2.record] }, thresholds, createdAt: now() }));
  }

  const result = {
    createdAt: now(),
    product: options.product,
    version: options.version,
    hostClass,
    suite,
    host: normal.record.host,
    tests: only,
    repeatsPerSide: n,
    thresholds,
    cgroup: { version: cgroup.version, serverCpus, quotaCpus, slowdown, serverCpusByTest, quotaByTest },
    aa: aaRounds,
    injected: injectedFinal,
  };
  const report = resolve(options.report ?? join(root, 'bench', `calibration-${hostClass}.md`));
  await replaceFileAtomic(report, renderCalibration(result));
  await replaceFileAtomic(report.replace(/\.md$/, '.json'), `${JSON.stringify(result, null, 2)}\n`);
  log(`report written: ${report}`);
  return EXIT.ok;
}

/**
 * A/A comparison of one run: even repeats against odd repeats of every step.
 * @param {import('../types.js').RunRecord} record
 * @param {import('../compare/index.js').CompareThresholds} thresholds
 * @param {string} createdAt
 */
function compareHalves(record, thresholds, createdAt) {
  /** @param {0|1} parity */
  const half = (parity) => ({ ...record, id: `${record.id}.${parity ? 'odd' : 'even'}`, steps: record.steps.map((s) => ({ ...s, repeats: s.repeats.filter((r) => r.index % 2 === parity) })) });
  return compareRuns({ base: { version: record.release.version, records: [half(0)] }, candidate: { version: record.release.version, records: [half(1)] }, thresholds, createdAt });
}
