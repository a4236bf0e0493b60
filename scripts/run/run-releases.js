/**
 * `tagbench run`: benchmark one or more releases with a suite on a host class and write one
 * run record per release. All servers start first and stay up; each reported step's repeats
 * alternate between the releases. A crashed server fails its step (with an excerpt of the
 * error log) and skips the rest of that release; the other releases go on. Each release's record
 * is stored as soon as that release is done (its last scheduled action, or its server dead), so
 * a run killed later keeps it. Interrupted runs (Ctrl-C, SIGTERM) stop every server and store the
 * records not stored yet as `partial`. `resumeFrom` names finished records of an earlier run of
 * the same releases: those releases are not run again (resume.js).
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';
import { randomBytes } from 'node:crypto';
import { UserError } from '../errors.js';
import { installRelease, findCachedInstall } from '../install/index.js';
import { stopAllServers } from '../server/index.js';
import { planSuite, getBenchmark, suiteBenchmarks } from '../workload/index.js';
import { measureDbSize, collectHostFacts, splitMeters } from '../metrics/index.js';
import { writeRecord, writeRawLog, readRecords } from '../store/index.js';
import { estimateRun, checkBudget, renderEstimate } from './estimate.js';
import { runCountPhase } from './count-phase.js';
import { resolveCountSlots, validateAloneNames } from './count-schedule.js';
import { startRelease, resolveMeters, countSettings, describeCounting, withMeterWrapper } from './start-release.js';
import { executeSchedule } from './execute-schedule.js';
import { startRunBudget, checkCountedPhase, skipCountedPhase } from './run-budget.js';

/** @typedef {import('./start-release.js').RunState} RunState */
import { finishRecord } from './record-builder.js';
import { resolveRun, releaseKey } from './resolve-run.js';
import { readToolVersions } from './tool-versions.js';
import { chooseResumed } from './resume.js';

/**
 * @typedef {object} RunOptions
 * @property {{product: string, version: string, provider?: string, commit?: string, path?: string, label?: string, serverEnv?: Record<string, string>, movedFrom?: string, source?: {gitUrl: string, ref?: string, profile?: string}, refRun?: import('../types.js').RecordRef}[]} releases
 *   label: tells apart two servers of the same release (A/A calibration); in keys, folders and ids.
 *   commit: the source build of exactly this commit (from the cache, else built).
 *   source: where the source provider fetches it from and, for a commit that is no release, the
 *   ref it builds (a ref run: scripts/install/source/resolve-ref.js), and the build profile when
 *   not the product's default.
 *   refRun: the ad-hoc ref run it belongs to (its record's release.ref: stored under refs/).
 *   serverEnv: extra environment of that release's servers (a calibration's injected cost).
 *   movedFrom: the commit its tag pointed at when it was benchmarked before (the record says
 *   "moved from <movedFrom> to <commit>")
 * @property {string} suite suite name (configs/suites)
 * @property {string} hostClass host class name (configs/hosts)
 * @property {'innodb'|'rocksdb'} [engine] default innodb
 * @property {string} [mycnf] my.cnf template name (configs/mycnf), default = engine
 * @property {number} [repeats] default from the host class
 * @property {number} [instances] server instances the repeats are spread over; default from the
 *   host class (else 2, at most repeats)
 * @property {string[]} [only] run only these tests (setup steps they need still run)
 * @property {string} storeDir results store
 * @property {string} workDir datadirs and working files
 * @property {string} cacheDir install cache
 * @property {number} [portBase] first TCP port; release i uses portBase + i (default: free ports chosen by the kernel)
 * @property {AbortSignal} [signal] aborts the run (Ctrl-C)
 * @property {boolean} [keepWork] keep this run's datadirs after it ends (default: removed)
 * @property {(text: string) => void} [write] progress output (default stderr)
 * @property {import('../types.js').MeterName[]} [meters] how the run measures (`run --meter`);
 *   default: the suite's meters, else the host class's, else wall
 * @property {number} [budgetH] hours the run may take (`run --budget-h`; 0 = no limit); default:
 *   the host class's legBudgetH
 * @property {{index: number, of: number}} [countShard] count only this shard's share of the
 *   counted tests (`run --count-shard k/n`: count-schedule.js shardUnits); counting meters only
 * @property {string[]} [resumeFrom] run ids in the store (`run --resume-from`): a release with a
 *   finished (`ok`) record among them, measured as this run would, is not run again; ids of
 *   other releases are left to the run they belong to (the reference's, a matrix suite's cells)
 */

/**
 * @typedef {object} RunOutcome
 * @property {import('../types.js').RunRecord[]} records
 * @property {string[]} paths where the records were written
 * @property {boolean} interrupted
 * @property {import('../types.js').RunRecord[]} [resumed] finished records of `resumeFrom` that
 *   stand for their releases in this run (not run again)
 */

/**
 * Refuse counting options that cannot work before anything starts: a shard of a run that also
 * times (a shard counts a share of the tests only), and a `counting.alone` name no suite has.
 * @param {import('../types.js').Config} config
 * @param {{countShard?: {index: number, of: number}|null}} options
 * @param {import('../types.js').HostClass} host
 * @param {import('../types.js').MeterName[]} meterNames
 * @throws {UserError}
 */
function checkCountOptions(config, options, host, meterNames) {
  if (options.countShard && splitMeters(meterNames).timed) {
    throw new UserError(`--count-shard ${options.countShard.index}/${options.countShard.of} counts a share of the counted tests and times nothing, but this run's meters (${meterNames.join(', ')}) include a timed one: give --meter with counting meters only (e.g. --meter instructions); the timed leg runs apart`);
  }
  const unknownAlone = validateAloneNames(host, knownStepNames(config));
  if (unknownAlone.length > 0) throw new UserError(unknownAlone.join('\n'));
}

/**
 * @param {import('../types.js').Config} config
 * @param {RunOptions} options
 * @returns {Promise<RunOutcome>}
 * @throws {UserError} bad input (unknown suite, release, engine), missing tools, server that won't start
 */
export async function runReleases(config, options) {
  const write = options.write ?? ((/** @type {string} */ t) => process.stderr.write(t));
  const { plan, preinstalled } = await resolveWithCache(config, options);
  const steps = planSuite(plan.suite, { engine: plan.engine });
  const meterNames = resolveMeters(options, plan);
  checkCountOptions(config, options, plan.host, meterNames);
  if (options.resumeFrom?.length) return resumeRun(config, options, plan, meterNames, write);
  // Before anything is installed or started: a run that cannot fit its host class's budget
  // would be killed by its job's timeout with nothing published.
  const countSlots = resolveCountSlots(plan.host, { cpus: cpus().length, memBytes: totalmem() });
  const estimate = estimateRun({ steps, releases: plan.releases.length, repeats: plan.repeats, instances: plan.instances, meters: meterNames, host: plan.host, count: { parallel: countSlots.parallel, shard: options.countShard ?? null } });
  checkBudget(estimate, options.budgetH ?? plan.host.legBudgetH, 'This run');
  // The same budget held again before each step and counted phase starts (run-budget.js).
  const budget = startRunBudget(options.budgetH ?? plan.host.legBudgetH, Date.now);
  write(`estimated time (before it starts; the progress lines correct it as the run goes):\n${renderEstimate(estimate)}\n`);
  const plugins = suiteBenchmarks(plan.suite).map(getBenchmark);
  const tools = await readToolVersions(plugins);
  // What a plug-in's steps need before any server starts (LinkBench's jar): outside every
  // measured window, and a failure stops the run before anything is started.
  for (const plugin of plugins) {
    await plugin.prepareRun?.({ suite: plan.suite, cacheDir: options.cacheDir, log: (l) => write(`    ${l}
`) });
  }
  const runStamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const runTag = randomBytes(3).toString('hex');
  const workRoot = join(options.workDir, `${runStamp}-${runTag}`);
  await mkdir(workRoot, { recursive: true });

  const releases = await installRunReleases(config, options, plan, preinstalled, write);

  const host = await collectHostFacts({ hostClass: plan.host.name, pinning: plan.host.pinning });
  // Timed meters measure the schedule's repeats; counting meters run afterwards on their own servers.
  const { timed, counting } = splitMeters(meterNames);
  const meterSetup = await describeCounting(counting, plan.host, workRoot);
  /** @type {Map<string, RunState>} */
  const states = new Map();
  /** @type {Map<string, {record: import('../types.js').RunRecord, path: string}>} */
  const stored = new Map();
  // A release that is done is closed and stored at once: a run killed later (a job's timeout, a
  // runner that dies) keeps its record. Not once interrupted: storeRecords marks what is left.
  const storeDone = async (/** @type {string} */ key) => {
    const state = states.get(key);
    if (!state || stored.has(key) || options.signal?.aborted) return;
    await closeRelease(state, options);
    stored.set(key, await storeRecord(state, options.storeDir, false, '', write));
  };
  try {
    for (const [i, rel] of releases.entries()) {
      states.set(rel.key, await startRelease(rel, i, { plan, options, workRoot, host, tools, steps, runStamp, runTag, write, meter: timed, meterNames, meterSetup, workCounters: config.products[rel.product]?.workCounters }));
    }
    // Counted right after the load (count-phase.js says why), then timed.
    const countAll = async () => {
      for (const meter of counting) {
        if (options.signal?.aborted) break;
        const over = checkCountedPhase(budget, meter, steps, releases.length, plan.host, { parallel: countSlots.parallel, shard: options.countShard ?? null });
        if (over) {
          write(`${over}\n`);
          skipCountedPhase(meter.name, states.values(), steps, over);
          continue;
        }
        await runCountPhase(meter, {
          steps, order: releases.map((r) => r.key), states, plan, options, write,
          settings: countSettings(plan.host),
          wrap: (opts) => { const o = { ...opts }; withMeterWrapper(o, meter); return o; },
          dispatchFunction: (product) => config.products[product]?.dispatchFunction ?? 'dispatch_command',
          workCounters: (product) => config.products[product]?.workCounters ?? {},
          shard: options.countShard ?? null,
          slots: countSlots,
        });
      }
    };
    await executeSchedule(steps, releases, states, { plan, options, write, afterLoad: countAll, counted: counting.length > 0, timed: timed !== null, onReleaseDone: storeDone, budget });
    for (const [key, state] of states) if (!stored.has(key)) await closeRelease(state, options);
  } finally {
    await stopAllServers();
    // Only this run's own folder: other runs may share workDir (a calibration beside a demo).
    if (!options.keepWork) await rm(workRoot, { recursive: true, force: true }).catch(() => {});
  }
  return storeRecords(states, stored, options, write);
}

/**
 * Every step and sequence name of the configured suites (what `counting.alone` may name).
 * @param {import('../types.js').Config} config
 * @returns {Set<string>}
 */
function knownStepNames(config) {
  const names = new Set();
  for (const suite of Object.values(config.suites)) {
    for (const step of planSuite(suite, { engine: suite.engine ?? 'innodb' })) names.add(step.sequence ?? step.name).add(step.name);
  }
  return names;
}

/**
 * The run's plan, each release found in the install cache marked as such: a release already
 * there (an earlier `tagbench install`, whatever its provider) is benchmarked as installed, so
 * the workflow builds in one job and runs in the next.
 * @param {import('../types.js').Config} config
 * @param {RunOptions} options
 * @returns {Promise<{plan: import('./resolve-run.js').ResolvedRun, preinstalled: Map<string, import('../types.js').InstallResult>}>}
 *   preinstalled: release key -> its cached install
 * @throws {UserError} what resolveRun refuses, or a cache holding two builds of one release
 */
export async function resolveWithCache(config, options) {
  /** @type {Map<string, import('../types.js').InstallResult>} */
  const preinstalled = new Map();
  for (const r of options.releases) {
    if (r.path) continue;
    // With a provider named, only that provider's install counts (the cache keys installs by it).
    const hit = await findCachedInstall(options.cacheDir, r.product, r.version, r.provider ? { provider: r.provider, ...(r.commit ? { commit: r.commit } : {}) } : undefined);
    // Keyed like the run's releases: a labelled second server of the release has its own install.
    if (hit) preinstalled.set(releaseKey(r), hit);
  }
  const plan = resolveRun(config, {
    ...options,
    // Each server starts with its own release's engine and template (`--engine innodb,rocksdb`).
    enginePerRelease: true,
    releases: options.releases.map((r) => {
      const hit = preinstalled.get(releaseKey(r));
      return hit ? { ...r, provider: hit.provider, preinstalled: true } : r;
    }),
  });
  return { plan, preinstalled };
}

/**
 * Install every release of the plan that the cache does not hold (a source build of a ref
 * run's commit, from its repository), before any server starts.
 * @param {import('../types.js').Config} config
 * @param {RunOptions} options
 * @param {import('./resolve-run.js').ResolvedRun} plan
 * @param {Map<string, import('../types.js').InstallResult>} preinstalled from resolveWithCache
 * @param {(t: string) => void} write
 * @returns {Promise<import('./types.js').RunRelease[]>} in the plan's order
 * @throws {UserError} when an install fails
 */
export async function installRunReleases(config, options, plan, preinstalled, write) {
  /** @type {import('./types.js').RunRelease[]} */
  const releases = [];
  for (const r of plan.releases) {
    const cached = preinstalled.get(releaseKey(r));
    write(`install ${r.product} ${r.version} (${r.provider}${cached ? ', already in the cache' : ''})\n`);
    const given = options.releases.find((o) => releaseKey(o) === releaseKey(r));
    const install = cached ?? await installRelease(
      { product: r.product, version: r.version, provider: r.provider, ...(r.path ? { path: r.path } : {}), ...(given?.commit ? { commit: given.commit } : {}),
        ...(given?.source ? { gitUrl: given.source.gitUrl, ...(given.source.ref ? { ref: given.source.ref } : {}), ...(given.source.profile ? { profile: given.source.profile } : {}) } : {}) },
      { config, cacheDir: options.cacheDir, log: (/** @type {string} */ m) => write(`    ${m}\n`) },
    );
    if (install.status === 'failed') throw new UserError(`cannot install ${r.product} ${r.version}: ${install.reason}`);
    const serverEnv = given?.serverEnv;
    const movedFrom = given?.movedFrom;
    const refRun = given?.refRun;
    releases.push({ key: releaseKey(r), product: r.product, version: r.version, line: r.line, install, ...(r.label ? { label: r.label } : {}), ...(serverEnv ? { serverEnv } : {}), ...(movedFrom ? { movedFrom } : {}), ...(refRun ? { refRun } : {}) });
  }
  return releases;
}

/**
 * The part of a run its resumed records do not stand for: runReleases again with only the
 * releases still to run (its own estimate, schedule and alternation), or nothing at all.
 * @param {import('../types.js').Config} config
 * @param {RunOptions} options with resumeFrom
 * @param {import('./resolve-run.js').ResolvedRun} plan resolved with every release
 * @param {import('../types.js').MeterName[]} meterNames
 * @param {(t: string) => void} write
 * @returns {Promise<RunOutcome>}
 */
async function resumeRun(config, options, plan, meterNames, write) {
  const ids = options.resumeFrom ?? [];
  // A resumed ref run's records are under refs/ (store-paths.js), a release run's under runs/.
  const stored = [...await readRecords(options.storeDir, { ids }), ...await readRecords(options.storeDir, { ids, refs: true })];
  const keys = plan.releases.map(releaseKey);
  const choice = chooseResumed(
    plan.releases.map((r, i) => ({ key: keys[i], product: r.product, version: r.version, ...(r.label ? { label: r.label } : {}), ...(options.releases[i]?.provider ? { provider: options.releases[i].provider } : {}) })),
    ids, stored, {
      hostClass: plan.host.name, suite: plan.suite.name, repeats: plan.repeats, instances: plan.instances, only: options.only ?? [], meters: meterNames,
      mycnfOf: (key) => plan.releases[keys.indexOf(key)].mycnfName,
    },
  );
  for (const note of choice.notes) write(`resume: ${note}\n`);
  for (const { key, record } of choice.resumed) write(`resume: ${key} has the finished run record ${record.id}: not run again\n`);
  const resumed = choice.resumed.map((x) => x.record);
  if (choice.toRun.length === 0) {
    write('resume: every release has a finished run record; nothing to run\n');
    return { records: [], paths: [], interrupted: false, resumed };
  }
  const releases = options.releases.filter((_, i) => choice.toRun.includes(keys[i]));
  return { ...(await runReleases(config, { ...options, releases, resumeFrom: undefined })), resumed };
}

/**
 * Before its server stops: a release's database size at the end (a live server only) and a copy
 * of its server's error log next to the raw benchmark logs.
 * @param {RunState} state
 * @param {RunOptions} options
 */
async function closeRelease(state, options) {
  const { server, record } = state;
  if (!state.deadReason && (await server.checkHealth()).ok) {
    record.dbSize.atEnd = await measureDbSize({ datadir: server.datadir, query: server.query, database: server.database }).catch(() => null);
  }
  const log = await readFile(server.errorLog, 'utf8').catch(() => '');
  await writeRawLog(options.storeDir, record.id, 'server-error.log', log);
}

/**
 * Close and store one release's record (`ok` or `failed`, or `partial` when interrupted).
 * @param {RunState} state
 * @param {string} storeDir
 * @param {boolean} interrupted
 * @param {string} reason why interrupted
 * @param {(t: string) => void} write
 * @returns {Promise<{record: import('../types.js').RunRecord, path: string}>}
 */
async function storeRecord(state, storeDir, interrupted, reason, write) {
  const record = finishRecord(state.record, new Date().toISOString(), interrupted ? { interrupted: true, reason } : {});
  const path = await writeRecord(storeDir, record);
  write(`record ${record.status}: ${path}\n`);
  return { record, path };
}

/**
 * Store every record not stored yet (`partial` when interrupted, else `ok` or `failed`); the
 * outcome lists all of them in release order.
 * @param {Map<string, RunState>} states
 * @param {Map<string, {record: import('../types.js').RunRecord, path: string}>} stored records stored already
 * @param {RunOptions} options
 * @param {(t: string) => void} write
 * @returns {Promise<RunOutcome>}
 */
async function storeRecords(states, stored, options, write) {
  const interrupted = Boolean(options.signal?.aborted);
  const records = [];
  const paths = [];
  for (const [key, state] of states) {
    // A release the budget stopped is partial, as an interrupted one: what ran is kept.
    const done = stored.get(key) ?? await storeRecord(state, options.storeDir, interrupted || Boolean(state.budgetStop), state.budgetStop ?? interruptReason(state.record, options.signal), write);
    records.push(done.record);
    paths.push(done.path);
  }
  return { records, paths, interrupted };
}

/**
 * A partial record says what stopped it and how far it got: the steps that finished are in it
 * as measured, the rest are skipped with this reason.
 * @param {import('../types.js').RunRecord} record
 * @param {AbortSignal} [signal]
 * @returns {string}
 */
function interruptReason(record, signal) {
  // withInterrupt aborts with the signal's name; another caller's abort says less.
  const by = signal?.reason instanceof Error && /^interrupted by /.test(signal.reason.message) ? signal.reason.message : 'interrupted by a signal (Ctrl-C or SIGTERM)';
  const finished = record.steps.filter((s) => s.status !== 'skipped').length;
  return `${by} after ${finished} of ${record.steps.length} steps had run; the others are skipped, and a repeat cut short is left out`;
}

