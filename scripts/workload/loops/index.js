/**
 * Long runs as series (seed 001: QPS of the Nth hourly loop, and the database size per loop), a
 * sequence benchmark (README.md "Sequence benchmarks"). Every pass runs
 *
 *   loops.load -> <test>.loop1 -> <test>.loop2 -> ... -> <test>.loopN
 *
 * loops.load fills the server's benchmark schema with the suite's sysbench tables (tables x
 * tableSize, sysbench prepare, as the sysbench suite's load); then one request phase is split
 * into N equal loops of `loops.loopDurationS` seconds, each a repeat of the sysbench test
 * `loops.test` (default read-write.range10, the sysbench suite's own definition, run by the
 * sysbench plug-in's runStepRepeat) with no warm-up, on the data the loops before it changed.
 * After each loop the database size is measured, logical and on disk (scripts/metrics
 * measureDbSize).
 *
 * Every loop is a step of its own (`read-write.range10.loop3`, params.loop = 3), so "QPS falls over
 * time" is the series of the loop steps' throughput, and "the database grows" the series of
 * their details.loops.dbSize; both are judged and charted like any test (a release whose 8th
 * loop falls behind its base's 8th loop gets a verdict on `<test>.loop8`; compare's
 * dbOnDiskBytes judges the size once thresholds.yml lists it).
 *
 * LinkBench's request phases (`linkbench.request.1..N`) are the same shape: to get the size
 * series there too, its runStep calls measureDbSize after each phase and records the result as
 * `details.linkbench.dbSize` (compare reads a `dbSize` under any benchmark's name).
 */
import { UserError } from '../../errors.js';
import { measureDbSize } from '../../metrics/index.js';
import { planSysbench, runStepRepeat } from '../sysbench/index.js';
import { failedOutcome, loadSysbenchTables, secondsSince, sequenceBenchmark, setupOutcome } from '../sequence-helpers.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */

/**
 * @typedef {object} LoopsSettings the suite's `loops` block (scripts/config/schemas/suite.schema.json)
 * @property {number} loops N, the loops the request phase is split into
 * @property {number} loopDurationS seconds of each loop
 * @property {string} [test] the sysbench test each loop runs (default read-write.range10)
 */

export const DEFAULT_LOOP_TEST = 'read-write.range10';

/**
 * The step name of loop k (1-based) of a test: `<test>.loop<k>`.
 * @param {string} test
 * @param {number} loop
 */
export function loopStepName(test, loop) {
  return `${test}.loop${loop}`;
}

/**
 * @param {string} name a step name
 * @returns {{test: string, loop: number}|null} null for a name that is not a loop step's
 */
export function parseLoopStepName(name) {
  const m = /^(.+)\.loop([1-9]\d*)$/.exec(name);
  return m ? { test: m[1], loop: Number(m[2]) } : null;
}

export const loops = sequenceBenchmark({ name: 'loops', block: { fields: 'loops, loopDurationS', defaults: { test: DEFAULT_LOOP_TEST } }, plan: planLoops, runStep });

/**
 * The steps of one pass: the load, then the test once per loop (its plan taken from the sysbench plug-in's own).
 * @param {Required<LoopsSettings>} s the suite's checked `loops` block
 * @param {import('../../types.js').SuiteConfig} suite
 * @param {'innodb'|'rocksdb'} engine
 * @returns {StepPlan[]}
 * @throws {UserError} when loops.test is not a measured sysbench test
 */
function planLoops(s, suite, engine) {
  // The sysbench plug-in's own plan of the whole suite: the test's definition and the load.
  const sysbenchPlan = planSysbench({ ...suite, only: undefined }, { engine });
  const template = sysbenchPlan.find((p) => p.name === s.test);
  const measured = sysbenchPlan.filter((p) => p.kind === 'sysbench' && p.reported).map((p) => p.name);
  if (!template || template.kind !== 'sysbench' || !template.reported) {
    throw new UserError(`configs/suites/${suite.name}.yml: loops.test = '${s.test}' is not a measured test of the sysbench suite; valid: ${measured.join(', ')}`);
  }
  // Each pass loads its own tables (a sequence step): not the run-wide load (no loadsData).
  const { loadsData: _runWide, ...load } = /** @type {StepPlan} */ (sysbenchPlan.find((p) => p.kind === 'load'));
  return [
    { ...load, name: 'loops.load', kind: 'loops', benchmark: 'loops', sequence: 'loops', measured: false, reported: false, runOnce: false, params: { ...load.params, load: 'sysbench prepare' } },
    ...Array.from({ length: s.loops }, (_, i) => ({
      ...template, name: loopStepName(s.test, i + 1), kind: /** @type {const} */ ('loops'), benchmark: 'loops', sequence: 'loops', measured: true, runOnce: false,
      durationS: s.loopDurationS, warmupS: 0, postwriteAfter: false,
      params: { ...template.params, loop: i + 1, loops: s.loops },
    })),
  ];
}

/**
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @returns {Promise<StepOutcome>}
 */
async function runStep(step, target, ctx) {
  const log = [`${step.name} pass ${ctx.pass + 1}`];
  const started = process.hrtime.bigint();
  if (step.name === 'loops.load') {
    const out = await loadSysbenchTables(target, ctx, { database: target.database, tables: step.tables, tableSize: step.tableSize });
    log.push(`sysbench prepare: ${out.status} in ${out.durationS.toFixed(3)} s`, out.rawOutput);
    if (out.status !== 'ok') return failedOutcome(`${step.name}: ${out.reason}`, secondsSince(started), log, false);
    return setupOutcome(secondsSince(started), log);
  }
  const parsed = parseLoopStepName(step.name);
  if (!parsed) throw new Error(`loops: unknown step ${step.name}`);
  const { loop, loops: of, ...sysbenchParams } = step.params;
  // The loop is one repeat of the sysbench test, under the test's own name and options.
  const rep = await runStepRepeat({ ...step, name: parsed.test, kind: 'sysbench', params: sysbenchParams }, target, { clientCpus: ctx.clientCpus, signal: ctx.signal });
  const outcome = {
    status: rep.status, stateValid: true, durationS: rep.durationS, throughput: rep.throughput, tps: rep.tps,
    latencyMs: rep.latencyMs, errors: rep.errors, reconnects: rep.reconnects, intervals: rep.intervals,
    ...(rep.status === 'failed' ? { reason: rep.reason } : {}),
  };
  /** @type {import('../../types.js').DbSize|null} */
  let dbSize = null;
  if (target.datadir && target.query) {
    dbSize = await measureDbSize({ datadir: target.datadir, query: target.query, database: target.database }).catch(() => null);
  }
  const details = { loops: { test: parsed.test, loop: Number(loop), loops: Number(of), qps: rep.qps, dbSize } };
  const sizeText = dbSize ? `logical ${dbSize.logicalBytes} bytes, on disk ${dbSize.onDiskBytes} bytes` : 'size not measured';
  return { ...outcome, details, rawOutput: `${rep.rawOutput}\nloop ${loop} of ${of}: ${rep.status === 'ok' ? `${rep.throughput} qps` : rep.reason}; ${sizeText}\n` };
}
