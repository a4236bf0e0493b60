/**
 * A release's part of a run: which meters measure the run, and the release's server started
 * the way its meter needs it (the meter's wrapper) with the run record it fills in. What a
 * record says about its meters (config.meters, config.meterMetrics, config.meterSetup) is
 * decided here, from the meters' own facts.
 */
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { startServer, findFreePort } from '../server/index.js';
import { planSuite } from '../workload/index.js';
import { DEFAULT_METERS, recordMeterMetrics, meterNames as knownMeterNames } from '../metrics/index.js';
import { createRecord } from './record-builder.js';
import { releaseKey } from './resolve-run.js';
import { formatRecordId } from '../run-id.js';

/** @typedef {import('./run-releases.js').RunOptions} RunOptions */

/**
 * @typedef {object} RunState
 * @property {import('../types.js').RunRecord} record
 * @property {any} server ServerHandle from scripts/server
 * @property {string|null} deadReason set once the server crashed or a setup step failed
 * @property {import('../types.js').InstallResult} install
 * @property {import('../server/types.js').ServerOptions} serverOptions how the server was started (a restart reuses
 *   them, on the same datadir, with the meter's wrapper if any)
 * @property {'innodb'|'rocksdb'} engine storage engine of this release's server
 * @property {import('../metrics/types.js').Meter|null} meter what measures this release's timed
 *   repeats; null = the run has no timed meter (its measured steps run counted only)
 * @property {string} [snapshotDir] the copy of the datadir taken after the load, which every
 *   round starts from (same-data-rounds.js); absent = the run takes none
 * @property {string} [budgetStop] why the run's budget stopped this release before its next step
 *   (run-budget.js): its record is stored `partial` with this reason
 * @property {import('../metrics/types.js').WorkCounterNames} [workCounters] the product's names of
 *   the work counters (products config): the timed repeats keep them per op as context
 */

/**
 * @param {import('./types.js').RunRelease} rel
 * @param {number} i
 * @param {any} ctx
 * @returns {Promise<RunState>}
 */
export async function startRelease(rel, i, { plan, options, workRoot, host, tools, steps, runStamp, runTag, write, meter, meterNames, meterSetup, workCounters }) {
  const safe = `${rel.product}-${rel.version}${rel.label ? `-${rel.label}` : ''}`.replace(/[^A-Za-z0-9._-]/g, '_');
  // Each release's own engine and template (`--engine innodb,rocksdb` runs one server per engine).
  const { engine, mycnfName, mycnfTemplate } = plan.releases[i];
  write(`start ${rel.key} (${engine}, my.cnf ${mycnfName}${plan.host.pinning.serverCpus ? `, server on CPU ${plan.host.pinning.serverCpus}` : ''})\n`);
  /** @type {import('../server/types.js').ServerOptions} */
  const serverOptions = {
    workDir: join(workRoot, safe),
    port: options.portBase ? options.portBase + i : await findFreePort(),
    engine,
    mycnfName,
    mycnfTemplate,
    // A suite's own my.cnf values (an IO-bound pool, a matrix cell's settings) win over the host's.
    mycnfOverrides: { ...(plan.host.mycnf ?? {}), ...(/** @type {{mycnf?: Record<string, string|number>}} */ (plan.suite).mycnf ?? {}) },
    serverCpus: plan.host.pinning.serverCpus,
    ...(rel.serverEnv ? { env: { ...rel.serverEnv } } : {}),
    log: (/** @type {string} */ m) => write(`    ${m}\n`),
  };
  if (meter) withMeterWrapper(serverOptions, meter);
  const server = await startServer(rel.install, serverOptions);
  const id = formatRecordId({ stamp: runStamp, host: plan.host.name, product: rel.product, version: rel.version, label: rel.label, suite: plan.suite.name, tag: runTag });
  const record = createRecord({
    id,
    startedAt: new Date().toISOString(),
    release: rel,
    host,
    config: {
      suite: plan.suite.name,
      scale: {
        tables: plan.suite.tables, tableSize: plan.suite.tableSize, clients: plan.suite.clients,
        readDurationS: plan.suite.readDurationS, writeDurationS: plan.suite.writeDurationS, warmupS: plan.suite.warmupS,
      },
      engine,
      mycnf: server.mycnf,
      tools,
      repeats: plan.repeats,
      instances: plan.instances,
      ...(options.only?.length ? { only: [...options.only] } : {}),
      alternatedWith: plan.releases.map(releaseKey).filter((/** @type {string} */ k) => k !== rel.key),
      // A run of the default meters says nothing (older records read alike); any other names
      // its meters and carries their metrics' facts, so readers need no meter registry.
      ...(meterNames.join(',') === DEFAULT_METERS.join(',') ? {} : { meters: [...meterNames], meterMetrics: recordMeterMetrics(meterNames) }),
      ...(Object.keys(meterSetup).length > 0 ? { meterSetup } : {}),
    },
    // The same steps for every engine; only the load's and postwrite's parameters differ.
    steps: engine === plan.engine ? steps : planSuite(plan.suite, { engine }),
  });
  return { record, server, deadReason: null, install: rel.install, serverOptions, engine, meter, ...(workCounters ? { workCounters } : {}) };
}

/**
 * The run's meters: `run --meter`, else the suite's, else the host class's, else wall.
 * @param {RunOptions} options
 * @param {any} plan
 * @returns {import('../types.js').MeterName[]}
 */
export function resolveMeters(options, plan) {
  // Like a suite's benchmarks, configured meter names are checked against the registry here.
  for (const [where, names] of [[`configs/suites/${plan.suite.name}.yml`, plan.suite.meters], [`configs/hosts/${plan.host.name}.yml`, plan.host.meters]]) {
    const known = knownMeterNames();
    const i = (names ?? []).findIndex((/** @type {string} */ n) => !known.includes(n));
    if (i >= 0) throw new UserError(`unknown meter in ${where}: meters[${i}] = '${names[i]}'; known: ${known.join(', ')}`);
  }
  return options.meters ?? plan.suite.meters ?? plan.host.meters ?? [...DEFAULT_METERS];
}

/**
 * The host class's counting settings with their defaults (host.schema.json `counting`).
 * @param {import('../types.js').HostClass} host
 * @returns {import('./count-phase.js').CountSettings}
 */
export function countSettings(host) {
  return { rounds: host.counting?.rounds ?? 3, repeats: host.counting?.repeats ?? 1, warmupShare: host.counting?.warmupShare ?? 0.3 };
}

/**
 * What each counting meter's record entry says: its wrapper, settings and what its counts depend on.
 * @param {import('../metrics/types.js').Meter[]} counting
 * @param {import('../types.js').HostClass} host
 * @param {string} workRoot
 * @returns {Promise<Record<string, import('../types.js').MeterSetup>>}
 */
export async function describeCounting(counting, host, workRoot) {
  /** @type {Record<string, import('../types.js').MeterSetup>} */
  const out = {};
  for (const meter of counting) {
    const wrap = meter.serverWrapper?.({ workDir: join(workRoot, '<instance>') }) ?? null;
    out[meter.name] = {
      wrapper: wrap ? wrap.argv.map((a) => a.replace(workRoot, '<work>')) : [],
      mycnf: { ...(wrap?.mycnfOverrides ?? {}) },
      counting: countSettings(host),
      dependsOn: (await meter.dependsOn?.()) ?? {},
    };
  }
  return out;
}

/**
 * Start the server the way the meter needs it (its wrapper and my.cnf values), or plainly when
 * it names no wrapper (the wall meter); the server stage is not told which meter it is.
 * @param {import('../server/types.js').ServerOptions} serverOptions updated in place
 * @param {import('../metrics/types.js').Meter} meter
 */
export function withMeterWrapper(serverOptions, meter) {
  const wrap = meter.serverWrapper?.({ workDir: serverOptions.workDir }) ?? null;
  if (!wrap) return;
  // The wrapper's my.cnf values go to the server stage as the wrapper's own (appended last), not
  // into the host's overrides: those only replace options the template already names, and a
  // wrapped server needs options no template has (innodb_buffer_pool_size_max under valgrind).
  serverOptions.wrapper = {
    argv: [...wrap.argv],
    ...(wrap.env ? { env: { ...wrap.env } } : {}),
    ...(wrap.readyTimeoutS ? { readyTimeoutS: wrap.readyTimeoutS } : {}),
    ...(wrap.mycnfOverrides ? { mycnf: { ...wrap.mycnfOverrides } } : {}),
  };
}
