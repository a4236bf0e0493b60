/**
 * The insert benchmark (DESIGN.md "Insert benchmark"), our own implementation on mysql2: a
 * sequence benchmark (README.md "Sequence benchmarks") whose every pass runs
 *
 *   l.i0 -> l.x -> l.i1 -> l.i2 -> ibench.cleanup -> qr100 qp100 qr500 qp500 qr1000 qp1000
 *
 * from a fresh table. Tables `pi1..N` (one per client) or one shared `pi1`. Every statement is a
 * single autocommit statement sent as text, so "rows per commit" = rows per INSERT.
 *
 * Decisions beyond DESIGN.md (which is silent on them):
 * - Row ids are assigned by the client (`transactionid` keeps AUTO_INCREMENT as in the schema):
 *   client c's k-th row has id k+1 in its own table, or k*clients + c + 1 in a shared table, so
 *   every client appends in PK order and deletes only its own oldest rows.
 * - l.i1 / l.i2 and the background writers alternate an INSERT of n rows with a DELETE of the n
 *   oldest rows on the same connection: deletes run at exactly the insert rate.
 * - Background writers insert 10 rows per statement (100/s = 10 statements/s, smooth enough for
 *   per-second rates) paced by pacerDelayMs; a writer below 95 % of its target over the step
 *   fails the step ("did not keep up"), with the query figures kept in `details`.
 * - qr = a 10-row range on one of the three secondary indexes in turn (covering, ascending from
 *   a random start); qp = a point lookup of a random id between the table's smallest and largest
 *   id at the step's start (ids deleted since are misses, which still cost a lookup).
 * - Each step finds its starting ids by SELECT MIN/MAX on the table, so nothing is kept in memory
 *   between steps (a restarted server or a later pass needs nothing from this process).
 *
 * Files: this plug-in (planning, and runStep choosing the step), table-sql.js (the tables and
 * every statement), steps.js (the steps against a server), counted-query.js (a query step as a
 * fixed amount of work, for the instructions meter), ibench-stats.js (per-second rates,
 * response times, keep-up).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { suiteBlock } from '../sequence-helpers.js';
import { INDEXES, RANGE_ROWS, tableLayout } from './table-sql.js';
import { cleanup, createIndexes, failed, queryStep, writeStep } from './steps.js';
import { countedQueryStep } from './counted-query.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').IbenchSettings} IbenchSettings */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */
/** @typedef {import('./steps.js').Conn} Conn */

/** Rows per INSERT of the load and write steps (DESIGN.md). */
export const ROWS_PER_COMMIT = Object.freeze({ 'l.i0': 100, 'l.i1': 50, 'l.i2': 5 });
/** Rows per INSERT of the background writers of the query steps. */
export const WRITER_ROWS_PER_COMMIT = 10;
/** Target inserts per second per client of the query steps. */
export const QUERY_STEP_RATES = Object.freeze([100, 500, 1000]);
/**
 * Rows a second of the steps whose time is their rows (workRows), for the run's estimate only:
 * measured in the demo of 2026-11-28 17:39 UTC on this project's 2-vCPU VM at load 0.85 (MariaDB
 * 10.11.18 and 10.11.19, configs/suites/demo.yml, 3 passes each: l.i0 148,000, l.x 286,000-302,000,
 * l.i1 33,000-45,000, l.i2 16,000-19,000 rows/s), rounded down towards slower.
 */
const WORK_ROWS_PER_S = Object.freeze(/** @type {Record<string, number>} */ ({ 'l.i0': 100_000, 'l.x': 200_000, 'l.i1': 25_000, 'l.i2': 12_000 }));

/** @type {import('../types.js').Benchmark} */
export const ibench = Object.freeze({
  name: 'ibench',
  planSteps,
  runStep,
});

/**
 * The suite's `ibench` block, checked beyond the schema.
 * @param {import('../../types.js').SuiteConfig} suite
 * @returns {IbenchSettings}
 * @throws {UserError} when the block is missing
 */
export function ibenchSettings(suite) {
  return /** @type {IbenchSettings} */ (suiteBlock(suite, 'ibench', { fields: 'loadRows, l1Rows, l2Rows, queryDurationS', defaults: { tablePerClient: true } }));
}

/**
 * The events of one counted run of each step (the instructions meter: a fixed amount of work,
 * the same for every release), from the suite's `ibench.counted` sizes: rows per client of the
 * loads and inserts/deletes, rows to index for l.x, queries per client for the query steps. The
 * cleanup is a setup step (flushed and analyzed uncounted, so every release's query steps start
 * from the same state). Without `ibench.counted` no step is counted (the counted phase then
 * marks them skipped, saying so): the timed sizes take minutes under valgrind.
 * @param {string} name the step
 * @param {IbenchSettings} s
 * @param {number} clients the suite's clients
 * @returns {number|undefined}
 */
function countedEventsOf(name, s, clients) {
  const c = s.counted;
  if (!c) return undefined;
  if (name === 'l.i0') return c.loadRows;
  // Every client loaded its rows, into its own table or the shared one.
  if (name === 'l.x') return c.loadRows * clients;
  if (name === 'l.i1') return c.l1Rows;
  if (name === 'l.i2') return c.l2Rows;
  if (/^q[rp]\d+$/.test(name)) return c.queries;
  return undefined;
}

/**
 * @param {import('../../types.js').SuiteConfig} suite
 * @param {{engine: 'innodb'|'rocksdb'}} opts
 * @returns {StepPlan[]}
 */
function planSteps(suite, { engine }) {
  const s = ibenchSettings(suite);
  const tables = s.tablePerClient ? suite.clients : 1;
  /**
   * @param {string} name
   * @param {StepPlan['group']} group
   * @param {StepPlan['metric']} metric
   * @param {Record<string, string|number|boolean>} params
   * @param {number} [durationS]
   * @returns {StepPlan}
   */
  const step = (name, group, metric, params, durationS = 0) => ({
    name, kind: 'ibench', benchmark: 'ibench', sequence: 'ibench', measured: group !== 'setup', group, reported: group !== 'setup', runOnce: false, metric,
    script: null, scriptSource: null, params: { tablePerClient: Boolean(s.tablePerClient), ...params },
    durationS, warmupS: 0, threads: suite.clients, tables, tableSize: s.loadRows * (s.tablePerClient ? 1 : suite.clients),
    engine, rowsPerEvent: 0, postwriteAfter: false, restS: group === 'setup' ? suite.restS : 0,
    // The load steps' time is their rows (a delete for every insert in l.i1 and l.i2; l.x reads
    // every row), not a duration: for the run's time estimate.
    ...(durationS === 0 && group !== 'setup' ? { workRows: workRowsOf(name), workRowsPerS: WORK_ROWS_PER_S[name] } : {}),
    ...(countedEventsOf(name, s, suite.clients) ? { countedEvents: countedEventsOf(name, s, suite.clients) } : group === 'setup' ? {} : { notCounted: `configs/suites/${suite.name}.yml sets no ibench.counted sizes (the timed sizes would take minutes under valgrind)` }),
  });
  // Every client inserts its rows, into its own table or a shared one.
  /** @param {string} name */
  const workRowsOf = (name) => suite.clients * (name === 'l.i1' ? 2 * s.l1Rows : name === 'l.i2' ? 2 * s.l2Rows : s.loadRows);
  return [
    step('l.i0', 'write', 'inserts/s', { rowsPerClient: s.loadRows, rowsPerCommit: ROWS_PER_COMMIT['l.i0'] }),
    step('l.x', 'write', 'rows/s', { indexes: INDEXES.length }),
    step('l.i1', 'write', 'inserts/s', { rowsPerClient: s.l1Rows, rowsPerCommit: ROWS_PER_COMMIT['l.i1'] }),
    step('l.i2', 'write', 'inserts/s', { rowsPerClient: s.l2Rows, rowsPerCommit: ROWS_PER_COMMIT['l.i2'] }),
    step('ibench.cleanup', 'setup', 'qps', {}),
    ...QUERY_STEP_RATES.flatMap((rate) => [
      step(`qr${rate}`, 'range', 'qps', { query: 'range', durationS: s.queryDurationS, rangeRows: RANGE_ROWS, insertsPerClientPerS: rate, writerRowsPerCommit: WRITER_ROWS_PER_COMMIT }, s.queryDurationS),
      step(`qp${rate}`, 'point', 'qps', { query: 'point', durationS: s.queryDurationS, insertsPerClientPerS: rate, writerRowsPerCommit: WRITER_ROWS_PER_COMMIT }, s.queryDurationS),
    ]),
  ];
}

/**
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @returns {Promise<StepOutcome>}
 */
async function runStep(step, target, ctx) {
  const layout = tableLayout(step);
  /** @type {Conn[]} */
  const conns = [];
  const log = [`${step.name} pass ${ctx.pass + 1}: ${layout.clients} client(s), ${layout.tablePerClient ? `tables pi1..pi${layout.clients}` : 'one shared table pi1'}`];
  const started = Date.now();
  /** @type {() => Promise<void>} */
  let unpin = async () => {};
  try {
    // The clients run in this process: pinning it for the step puts them where the host class
    // puts sysbench (with the server on a small host).
    unpin = await pinThisProcess(ctx.clientCpus);
    if (step.name === 'ibench.cleanup') return await cleanup(step, target, ctx, layout, log);
    if (step.name === 'l.x') return await createIndexes(step, target, ctx, layout, conns, log);
    if (step.name.startsWith('l.i')) return await writeStep(step, target, ctx, layout, conns, log);
    if (/^q[rp]\d+$/.test(step.name) && ctx.work) return await countedQueryStep(step, target, { work: ctx.work, signal: ctx.signal }, layout, conns, log);
    if (/^q[rp]\d+$/.test(step.name)) return await queryStep(step, target, ctx, layout, conns, log);
    throw new Error(`ibench: unknown step ${step.name}`);
  } catch (err) {
    const reason = ctx.signal?.aborted ? 'interrupted' : `${step.name}: ${err instanceof Error ? err.message : String(err)}`;
    log.push(`failed: ${reason}`);
    return failed(reason, (Date.now() - started) / 1000, log, false);
  } finally {
    await Promise.all(conns.map((c) => c.end().catch(() => {})));
    await unpin();
  }
}

const execFileP = promisify(execFile);

/**
 * Pin every thread of this process to `cpus` (taskset) until the returned function restores the
 * affinity it had.
 * @param {string|null} cpus taskset CPU list, null = leave as is
 * @returns {Promise<() => Promise<void>>}
 * @throws {Error} when taskset fails (the step then fails, naming it)
 */
async function pinThisProcess(cpus) {
  if (!cpus) return async () => {};
  const pid = String(process.pid);
  const { stdout } = await execFileP('taskset', ['-p', pid]);
  const mask = /mask:\s*([0-9a-f,]+)/i.exec(stdout)?.[1];
  if (!mask) throw new Error(`cannot read this process's CPU affinity from taskset: ${stdout.trim()}`);
  await execFileP('taskset', ['-a', '-p', '-c', cpus, pid]);
  return async () => { await execFileP('taskset', ['-a', '-p', mask, pid]).catch(() => {}); };
}
