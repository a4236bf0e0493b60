/**
 * DDL and maintenance timings on loaded data (seed 001: DROP TABLE 43x slower between two
 * releases), a sequence benchmark (README.md "Sequence benchmarks"). Every pass runs
 *
 *   ddl.load -> ddl.create-index -> ddl.analyze-table -> ddl.optimize-table -> ddl.truncate-table
 *   -> ddl.reload-1 -> ddl.drop-table -> ddl.reload-2 -> ddl.drop-database
 *
 * on sysbench-style tables sbtest1..N (`ddl.tables` x `ddl.tableSize` rows, loaded by sysbench
 * prepare like the sysbench suite's load) in a database of their own (`ddl.database`, default
 * tagbench_ddl), so DROP DATABASE never touches the server's benchmark schema. Each measured step
 * sends its statement once per table, in turn, on one connection, and is timed as a whole.
 *
 * Figures: `throughput` = rows the tables held / seconds (rows/s, higher is better), `latencyMs`
 * = the step's seconds in ms (lower is better; compare's latencyP95Ms judges it), `tps` =
 * statements/s; `details.ddl` = the statement, rows, seconds and each table's seconds.
 */
import { connectTo, failedOutcome, loadSysbenchTables, secondsSince, sequenceBenchmark, setupOutcome, timedOutcome } from '../sequence-helpers.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */

/**
 * @typedef {object} DdlSettings the suite's `ddl` block (scripts/config/schemas/suite.schema.json)
 * @property {number} tables sbtest tables loaded before each timed step
 * @property {number} tableSize rows per table
 * @property {string} [database] database of the tables (default tagbench_ddl)
 */

export const DEFAULT_DDL_DATABASE = 'tagbench_ddl';

/**
 * The timed statements, in sequence order; `{t}` = a table, `{db}` = the database. A `load`
 * entry reloads the tables (sysbench prepare) before the next timed step.
 */
export const DDL_SEQUENCE = Object.freeze([
  { name: 'ddl.load', load: true },
  { name: 'ddl.create-index', sql: 'CREATE INDEX ddl_c ON {t} (c)' },
  { name: 'ddl.analyze-table', sql: 'ANALYZE TABLE {t}' },
  { name: 'ddl.optimize-table', sql: 'OPTIMIZE TABLE {t}' },
  { name: 'ddl.truncate-table', sql: 'TRUNCATE TABLE {t}' },
  { name: 'ddl.reload-1', load: true },
  { name: 'ddl.drop-table', sql: 'DROP TABLE {t}' },
  { name: 'ddl.reload-2', load: true },
  { name: 'ddl.drop-database', sql: 'DROP DATABASE {db}', once: true },
]);

export const ddl = sequenceBenchmark({ name: 'ddl', block: { fields: 'tables, tableSize', defaults: { database: DEFAULT_DDL_DATABASE } }, plan: planDdl, runStep });

/**
 * The steps of one pass: DDL_SEQUENCE, each statement run on every table in turn.
 * @param {Required<DdlSettings>} s the suite's checked `ddl` block
 * @param {import('../../types.js').SuiteConfig} _suite
 * @param {'innodb'|'rocksdb'} engine
 * @returns {StepPlan[]}
 */
function planDdl(s, _suite, engine) {
  return DDL_SEQUENCE.map((entry) => {
    const setup = Boolean(entry.load);
    return {
      name: entry.name, kind: 'ddl', benchmark: 'ddl', sequence: 'ddl', measured: !setup, group: setup ? 'setup' : 'write', reported: !setup, runOnce: false,
      metric: 'rows/s', script: null, scriptSource: null,
      params: { database: s.database, ...(entry.sql ? { statement: entry.sql } : { load: 'sysbench prepare' }) },
      durationS: 0, warmupS: 0, threads: 1, tables: s.tables, tableSize: s.tableSize, engine, rowsPerEvent: 0,
      postwriteAfter: false, restS: 0,
    };
  });
}

/**
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @returns {Promise<StepOutcome>}
 */
async function runStep(step, target, ctx) {
  const database = String(step.params.database);
  const log = [`${step.name} pass ${ctx.pass + 1}: ${step.tables} table(s) of ${step.tableSize} rows in ${database}`];
  const started = process.hrtime.bigint();
  if (step.params.load) {
    const out = await loadSysbenchTables(target, ctx, { database, tables: step.tables, tableSize: step.tableSize });
    log.push(`sysbench prepare: ${out.status} in ${out.durationS.toFixed(3)} s`, out.rawOutput);
    if (out.status !== 'ok') return failedOutcome(`${step.name}: ${out.reason}`, secondsSince(started), log, false);
    return setupOutcome(secondsSince(started), log);
  }
  /** @type {import('mysql2/promise').Connection|null} */
  let conn = null;
  try {
    conn = await connectTo(target, database);
    const statement = String(step.params.statement);
    const once = statement.includes('{db}');
    const tables = once ? [database] : Array.from({ length: step.tables }, (_, i) => `sbtest${i + 1}`);
    const rows = step.tables * step.tableSize;
    const perTableS = [];
    const timed = process.hrtime.bigint();
    for (const table of tables) {
      if (ctx.signal?.aborted) throw new Error('interrupted');
      const sql = statement.replace('{t}', table).replace('{db}', database);
      const t0 = process.hrtime.bigint();
      const [result] = /** @type {any} */ (await conn.query(sql));
      perTableS.push(secondsSince(t0));
      log.push(`sql: ${sql} (${perTableS.at(-1)?.toFixed(4)} s)`);
      const problem = maintenanceError(result);
      if (problem) throw new Error(`${sql}: ${problem}`);
    }
    const seconds = secondsSince(timed);
    log.push(`${step.name}: ${rows} rows, ${tables.length} statement(s) in ${seconds.toFixed(4)} s = ${(rows / seconds).toFixed(1)} rows/s`);
    return timedOutcome({
      seconds, rows, statements: tables.length, log,
      details: { ddl: { statement, tables: step.tables, rows, seconds, perStatementS: perTableS } },
    });
  } catch (err) {
    const reason = ctx.signal?.aborted ? 'interrupted' : `${step.name}: ${err instanceof Error ? err.message : String(err)}`;
    return failedOutcome(reason, secondsSince(started), log, false);
  } finally {
    await conn?.end().catch(() => {});
  }
}

/**
 * ANALYZE / OPTIMIZE report a failure as a result row (Msg_type error), not as an SQL error.
 * @param {unknown} result rows of the statement
 * @returns {string|null}
 */
export function maintenanceError(result) {
  if (!Array.isArray(result)) return null;
  const bad = result.find((r) => r && typeof r === 'object' && String(/** @type {any} */ (r).Msg_type).toLowerCase() === 'error');
  return bad ? `${/** @type {any} */ (bad).Table}: ${/** @type {any} */ (bad).Msg_text}` : null;
}
