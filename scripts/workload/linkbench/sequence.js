/**
 * LinkBench as a sequence benchmark (scripts/workload/README.md "Sequence benchmarks"): per pass
 * `linkbench.load` (drop + create the schema, the driver's load phase), `linkbench.index`
 * (id1_type, timed), then `linkbench.request.1..N` (N request phases of `maxtimeS` each, as the
 * seed author's hourly loops). Sizes come from the suite's `linkbench` block. The jar is built
 * (or taken from the install cache) on the first step that needs it.
 */
import { suiteBlock } from '../sequence-helpers.js';
import { measureDatabaseFiles } from '../../metrics/index.js';
import { cacheDirFrom } from '../../run-options.js';
import { ensureLinkbench } from './build.js';
import { parseLinkbenchOutput, requestIntervals } from './parse.js';
import { createLinkbenchIndex, createLinkbenchSchema, linkbenchDatabaseSize, runLinkbenchPhase } from './phases.js';
import { LINKBENCH_DATABASE } from './schema.js';
import { OPERATION_PROPERTIES } from './properties.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */

/**
 * @typedef {object} LinkbenchSettings the suite's `linkbench` block (scripts/config/schemas/suite.schema.json)
 * @property {number} maxid1
 * @property {number} loaders
 * @property {number} requesters
 * @property {number} maxtimeS seconds of each request phase
 * @property {number} [requestPhases] request phases per pass, default 1
 * @property {number} [warmupS] warm-up of each request phase, default 0
 * @property {number} [partitions] linktable and counttable partitioned by KEY(id1) into this many
 * @property {boolean} [hdrHistogram] HDR latency histograms (default true: µs percentiles)
 * @property {{func: string, default?: number, config?: number}} [nlinks] replaces the fork's
 *   `real` links-per-node distribution (see README.md: at toy sizes it still loads > 4 M links)
 * @property {{maxid1: number, requests: number, requestsPerType?: number}} [counted] the counted
 *   sequence (the instructions meter): the graph of maxid1 - 1 nodes loaded by one loader, and
 *   `requests` requests of one requester per request phase, then, with requestsPerType, a phase
 *   of that many requests of each operation type alone; absent = LinkBench is not counted
 */

/** @type {import('../types.js').Benchmark} */
export const linkbench = Object.freeze({
  name: 'linkbench',
  planSteps,
  runStep,
  parseOutput: parseLinkbenchOutput,
  // The Maven build (tens of CPU-seconds) before any server starts: inside the first load step it
  // was counted into that step's time and CPU per operation. runStep still asks for the jar,
  // which is then a cache hit, so a step run on its own (a test, a fixture capture) works alike.
  prepareRun: async (/** @type {import('../types.js').PrepareRunContext} */ { cacheDir, log }) => {
    await ensureLinkbench({ cacheDir, log });
  },
});

/**
 * The suite's `linkbench` block, checked beyond the schema.
 * @param {import('../../types.js').SuiteConfig} suite
 * @returns {LinkbenchSettings & {requestPhases: number, warmupS: number, partitions: number, hdrHistogram: boolean}}
 * @throws {UserError} when the block is missing
 */
export function linkbenchSettings(suite) {
  return /** @type {LinkbenchSettings & {requestPhases: number, warmupS: number, partitions: number, hdrHistogram: boolean}} */ (suiteBlock(suite, 'linkbench', { fields: 'maxid1, loaders, requesters, maxtimeS', defaults: { requestPhases: 1, warmupS: 0, partitions: 0, hdrHistogram: true } }));
}

/**
 * @param {import('../../types.js').SuiteConfig} suite
 * @param {{engine: 'innodb'|'rocksdb'}} opts
 * @returns {StepPlan[]}
 */
function planSteps(suite, { engine }) {
  const s = linkbenchSettings(suite);
  /** @type {Record<string, string|number|boolean>} */
  const common = {
    maxid1: s.maxid1, loaders: s.loaders, requesters: s.requesters, maxtimeS: s.maxtimeS, warmupS: s.warmupS,
    partitions: s.partitions, hdrHistogram: s.hdrHistogram,
    ...(s.nlinks ? { nlinksFunc: s.nlinks.func, nlinksDefault: s.nlinks.default ?? 0, nlinksConfig: s.nlinks.config ?? 1 } : {}),
  };
  /**
   * @param {string} name
   * @param {StepPlan['group']} group
   * @param {StepPlan['metric']} metric
   * @param {number} threads
   * @param {number} durationS
   * @returns {StepPlan}
   */
  const step = (name, group, metric, threads, durationS) => ({
    name, kind: 'linkbench', benchmark: 'linkbench', sequence: 'linkbench', measured: true, group, reported: true, runOnce: false, metric,
    script: null, scriptSource: null, params: { ...common }, durationS, warmupS: name.startsWith('linkbench.request') ? s.warmupS : 0,
    threads, tables: 3, tableSize: s.maxid1 - 1, engine, rowsPerEvent: 0, postwriteAfter: false, restS: 0,
    // The load writes a node, about 5 links and 2 counts per node (the demo's load: 10,000
    // nodes, 50,000 links, 20,000 counts); the index build reads the links: for the time estimate.
    // Their paces were measured in the demo of 2026-11-28 17:39 UTC on this project's 2-vCPU VM at
    // load 0.85 (3 passes of each of two releases): the load 148,000 rows/s, the index build
    // 730,000-780,000; rounded down towards slower.
    ...(name === 'linkbench.load' ? { workRows: 8 * (s.maxid1 - 1), workRowsPerS: 100_000 } : name === 'linkbench.index' ? { workRows: 5 * (s.maxid1 - 1), workRowsPerS: 500_000 } : {}),
    // Counted: nodes of the graph for the load and the index (the index step's operation is a
    // node's links: its rows are not known without a count, which would be counted too),
    // requests for a request phase.
    ...(s.counted && s.counted.requestsPerType && name.startsWith('linkbench.request') ? { countedParts: Object.keys(OPERATION_PROPERTIES).map((op) => ({ name: op, events: /** @type {number} */ (s.counted?.requestsPerType) })) } : {}),
    ...(s.counted ? { countedEvents: name.startsWith('linkbench.request') ? s.counted.requests : s.counted.maxid1 - 1 } : { notCounted: `configs/suites/${suite.name}.yml sets no linkbench.counted sizes (the timed sizes would take minutes under valgrind)` }),
  });
  return [
    step('linkbench.load', 'write', 'inserts/s', s.loaders, 0),
    step('linkbench.index', 'write', 'rows/s', 1, 0),
    ...Array.from({ length: s.requestPhases }, (_, i) => step(`linkbench.request.${i + 1}`, 'point', 'qps', s.requesters, s.maxtimeS)),
  ];
}

/**
 * @param {StepPlan} step
 * @returns {import('./properties.js').LinkbenchParams}
 */
function paramsOf(step) {
  const p = step.params;
  return {
    maxid1: Number(p.maxid1), loaders: Number(p.loaders), requesters: Number(p.requesters), maxtimeS: Number(p.maxtimeS),
    warmupS: Number(p.warmupS), hdrHistogram: p.hdrHistogram === true,
    ...(p.nlinksFunc ? { nlinks: { func: String(p.nlinksFunc), default: Number(p.nlinksDefault), config: Number(p.nlinksConfig) } } : {}),
  };
}

/**
 * A counted run's parameters (the instructions meter's fixed work, the same for every release):
 * the load of `work.events` nodes by one loader (the graph is the load seed's, fixed), or
 * `work.events` requests of one requester drawn from `work.seed`, ended by their number rather
 * than by time (maxtime only as a bound). One thread each: with several, which requester's
 * statement the server runs next depends on timing, and so do lock waits and the pages each
 * finds. One thing stays outside the seed: the fork stamps links with the client's clock
 * (`link.time = System.currentTimeMillis()`), so the `time` values (not their number) differ
 * between runs; the A/A figures of bench/instructions-sequences.md show what that costs.
 * @param {'load'|'request'} phase
 * @param {import('./properties.js').LinkbenchParams} params
 * @param {import('../types.js').FixedWork} work
 * @returns {import('./properties.js').LinkbenchParams}
 */
export function countedParams(phase, params, work) {
  if (phase === 'load') return { ...params, maxid1: work.events + 1, loaders: 1 };
  return {
    ...params, requesters: 1, requestsPerRequester: work.events, requestSeed: work.seed, warmupS: 0, maxtimeS: COUNTED_MAX_TIME_S,
    ...(work.part ? { onlyOperation: work.part } : {}),
  };
}
/** The bound of a counted request phase: far beyond the ~60 s a counted step is sized for. */
const COUNTED_MAX_TIME_S = 3600;

/**
 * How many operations of each type a phase ran (the driver's per-operation statistics): a counted
 * repeat keeps them, so that two releases' counts are seen to be of the same work.
 * @param {import('./parse.js').OperationStats[]} ops
 * @returns {Record<string, number>}
 */
export function operationsByType(ops) {
  return Object.fromEntries(ops.filter((o) => o.kind === 'latency').map((o) => [o.op, o.count]));
}

/**
 * @param {import('../types.js').BenchTarget} target
 * @returns {import('./phases.js').LinkbenchTarget}
 */
function linkbenchTarget(target) {
  if (!target.query) throw new Error('linkbench needs the target\'s query function (a scripts/server handle)');
  if (!target.port) throw new Error('linkbench needs a TCP port: its JDBC driver does not use unix sockets');
  return { host: target.host ?? '127.0.0.1', port: target.port, user: target.user, password: target.password, query: target.query };
}

/**
 * ANALYZE (so information_schema's sizes are current), then the size, logical and on disk.
 * MyRocks reports the sizes of its SST files only, so its memtable is flushed first (else a
 * fresh load reads 0). The on-disk figure is the one to trust (measureDatabaseFiles says why);
 * the logical one stays for the per-table rows and for older records.
 * @param {import('./phases.js').LinkbenchTarget} target
 * @param {'innodb'|'rocksdb'} engine
 * @param {string|undefined} datadir the server's datadir; without it no on-disk size (null)
 * @returns {Promise<Awaited<ReturnType<typeof linkbenchDatabaseSize>> & {filesBytes: number|null, filesNote: string}>}
 *   filesNote: a line for the raw log saying why the on-disk size is missing ('' when measured)
 */
async function sizeNow(target, engine, datadir) {
  if (engine === 'rocksdb') await target.query('SET GLOBAL rocksdb_force_flush_memtable_now = 1');
  await target.query(`ANALYZE TABLE \`${LINKBENCH_DATABASE}\`.\`linktable\`, \`${LINKBENCH_DATABASE}\`.\`counttable\`, \`${LINKBENCH_DATABASE}\`.\`nodetable\``);
  const logical = await linkbenchDatabaseSize(target);
  if (!datadir) return { ...logical, filesBytes: null, filesNote: '-- linkdb0 on disk not measured: the runner gave no datadir\n' };
  // A side figure: when it cannot be measured the phase's own figures still stand.
  try {
    return { ...logical, filesBytes: await measureDatabaseFiles({ datadir, query: target.query, database: LINKBENCH_DATABASE, engine }), filesNote: '' };
  } catch (err) {
    return { ...logical, filesBytes: null, filesNote: `-- linkdb0 on disk not measured: ${err instanceof Error ? err.message : String(err)}\n` };
  }
}

/**
 * The repeat's latency from per-operation statistics: avg over every operation (exact, from
 * counts and means), max over all, p95/p99 = the worst operation's (LinkBench prints no overall
 * percentile).
 * @param {import('./parse.js').OperationStats[]} ops latency statistics only
 * @returns {import('../types.js').LatencyMs|null}
 */
export function overallLatency(ops) {
  const latency = ops.filter((o) => o.kind === 'latency' && o.count > 0);
  if (latency.length === 0) return null;
  const count = latency.reduce((n, o) => n + o.count, 0);
  return {
    avg: latency.reduce((t, o) => t + o.meanMs * o.count, 0) / count,
    p95: Math.max(...latency.map((o) => o.percentiles.p95.ms)),
    p99: Math.max(...latency.map((o) => o.percentiles.p99.ms)),
    max: Math.max(...latency.map((o) => o.maxMs)),
  };
}

/**
 * @param {string} reason
 * @param {number} durationS
 * @param {string} log
 * @param {boolean} stateValid
 * @param {Record<string, object>} [details]
 * @returns {StepOutcome}
 */
function failed(reason, durationS, log, stateValid, details) {
  return {
    status: 'failed', reason, stateValid, durationS, throughput: null, tps: null, latencyMs: null,
    errors: 0, reconnects: 0, intervals: [], ...(details ? { details } : {}), rawOutput: log,
  };
}

/**
 * @param {StepPlan} step
 * @param {import('../types.js').BenchTarget} benchTarget
 * @param {import('../types.js').StepContext} ctx
 * @returns {Promise<StepOutcome>}
 */
async function runStep(step, benchTarget, ctx) {
  const started = Date.now();
  const schema = { engine: step.engine, partitions: Number(step.params.partitions ?? 0) };
  const params = paramsOf(step);
  const log = (/** @type {string} */ l) => ctx.onProgress?.(l);
  try {
    const target = linkbenchTarget(benchTarget);
    if (ctx.work) return await runCounted(step, target, params, { ...ctx, work: ctx.work });
    if (step.name === 'linkbench.index') {
      const { durationS, statement } = await createLinkbenchIndex(target, schema);
      const size = await sizeNow(target, step.engine, benchTarget.datadir);
      const rows = size.tables.linktable?.rows ?? 0;
      const ms = durationS * 1000;
      return {
        status: 'ok', stateValid: true, durationS, throughput: rows / durationS, tps: 1 / durationS,
        latencyMs: { avg: ms, p95: ms, p99: ms, max: ms }, errors: 0, reconnects: 0, intervals: [],
        details: { linkbench: { step: step.name, statement, indexS: durationS, linktableRows: rows, sizeAfterBytes: size.bytes, filesAfterBytes: size.filesBytes, tables: size.tables } },
        rawOutput: `${statement}\n-- ${durationS.toFixed(3)} s, linktable ~${rows} rows, linkdb0 ${size.bytes} bytes after\n${size.filesNote}`,
      };
    }
    const phase = step.name === 'linkbench.load' ? 'load' : 'request';
    const build = await ensureLinkbench({ cacheDir: ctx.cacheDir ?? cacheDirFrom(undefined), log });
    if (phase === 'load') await createLinkbenchSchema(target, schema);
    const res = await runLinkbenchPhase(phase, build, target, params, { clientCpus: ctx.clientCpus, signal: ctx.signal, onProgress: log });
    const rawOutput = `${res.argv.join(' ')}\n${res.properties}\n${res.rawOutput}`;
    const summary = phase === 'load' ? res.parsed.load : res.parsed.request;
    /** @type {Record<string, unknown>} */
    const facts = {
      step: step.name, phase, summary, latencyFormat: res.parsed.latencyFormat, operations: res.parsed.operations,
      seeds: res.parsed.seeds, wallS: res.wallS, jarCommit: build.provenance.commit,
      jarSourceEdits: build.provenance.sourceEdits.map((e) => e.id),
    };
    if (res.status === 'failed' || !summary) {
      return failed(`${step.name}: ${res.reason ?? 'no summary line'}`, res.wallS, rawOutput, phase === 'request', { linkbench: facts });
    }
    const size = await sizeNow(target, step.engine, benchTarget.datadir);
    const latencyMs = overallLatency(res.parsed.operations);
    const durationS = summary.seconds;
    const throughput = 'linksPerS' in summary ? summary.linksPerS : summary.requestsPerS;
    if (!(throughput > 0) || !latencyMs) {
      const what = 'linksPerS' in summary ? `${summary.links} links in ${summary.seconds} s` : `${summary.requests} requests in ${summary.seconds} s`;
      return failed(`${step.name}: ${what}, a rate the driver rounds to 0/s`, res.wallS, rawOutput, phase === 'request', { linkbench: facts });
    }
    // The load phase keeps none: the fork reports load progress only when a loader finishes a
    // chunk of loader_chunk_size id1s (LinkBenchLoad.processChunk), and with the `real` links
    // distribution one chunk can hold nearly all links (load-hdr.txt: one line in 300 s), so
    // per-second figures would be an interpolation across minutes, hiding the stalls they are for.
    const intervals = phase === 'request' ? requestIntervals(res.rawOutput) : [];
    return {
      status: 'ok', stateValid: true, durationS, throughput, tps: throughput, latencyMs, errors: res.parsed.errors.length, reconnects: 0, intervals,
      details: { linkbench: { ...facts, errorLines: res.parsed.errors.slice(0, 20), sizeAfterBytes: size.bytes, filesAfterBytes: size.filesBytes, tables: size.tables } },
      rawOutput: rawOutput + size.filesNote,
    };
  } catch (err) {
    const reason = ctx.signal?.aborted ? 'interrupted' : `${step.name}: ${err instanceof Error ? err.message : String(err)}`;
    return failed(reason, (Date.now() - started) / 1000, `failed: ${reason}\n`, false);
  }
}


/**
 * One counted run of a step: the same work as the timed step at the counted sizes, and nothing
 * else inside the meter's window (no ANALYZE, no size query: they would be counted too).
 * @param {StepPlan} step
 * @param {import('./phases.js').LinkbenchTarget} target
 * @param {import('./properties.js').LinkbenchParams} params
 * @param {import('../types.js').StepContext & {work: import('../types.js').FixedWork}} ctx
 * @returns {Promise<StepOutcome>}
 */
async function runCounted(step, target, params, ctx) {
  const schema = { engine: step.engine, partitions: Number(step.params.partitions ?? 0) };
  if (step.name === 'linkbench.index') {
    const { durationS, statement } = await createLinkbenchIndex(target, schema);
    const ms = durationS * 1000;
    return {
      status: 'ok', stateValid: true, durationS, throughput: ctx.work.events / durationS, tps: 1 / durationS,
      latencyMs: { avg: ms, p95: ms, p99: ms, max: ms }, errors: 0, reconnects: 0, intervals: [], operations: ctx.work.events,
      rawOutput: `${statement}\n-- counted: ${durationS.toFixed(3)} s for the graph of ${ctx.work.events} nodes\n`,
    };
  }
  const phase = step.name === 'linkbench.load' ? 'load' : 'request';
  const build = await ensureLinkbench({ cacheDir: ctx.cacheDir ?? cacheDirFrom(undefined), log: (l) => ctx.onProgress?.(l) });
  if (phase === 'load') await createLinkbenchSchema(target, schema);
  const res = await runLinkbenchPhase(phase, build, target, countedParams(phase, params, ctx.work), { clientCpus: ctx.clientCpus, signal: ctx.signal, onProgress: ctx.onProgress });
  const rawOutput = `${res.argv.join(' ')}\n${res.properties}\n${res.rawOutput}`;
  const summary = phase === 'load' ? res.parsed.load : res.parsed.request;
  if (res.status === 'failed' || !summary) return failed(`${step.name}: ${res.reason ?? 'no summary line'}`, res.wallS, rawOutput, phase === 'request');
  // The links (load) or requests the driver says it did: the divisor of the counts. A rate is
  // not asked for: under valgrind a short phase may print 0/s, and time is not what is counted.
  const operations = 'links' in summary ? summary.links : summary.requests;
  const byType = operationsByType(res.parsed.operations);
  return {
    status: 'ok', stateValid: true, durationS: res.wallS, throughput: operations / res.wallS, tps: operations / res.wallS,
    latencyMs: overallLatency(res.parsed.operations), errors: res.parsed.errors.length, reconnects: 0, intervals: [], operations,
    operationsByType: byType,
    details: { linkbench: { step: step.name, phase, summary, operations: res.parsed.operations, seeds: res.parsed.seeds, jarCommit: build.provenance.commit } },
    rawOutput,
  };
}
