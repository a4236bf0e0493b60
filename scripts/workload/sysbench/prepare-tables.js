/**
 * The suite's `load` step: create and fill sbtest1..N with stock sysbench 1.0.x `prepare`,
 * which makes exactly DESIGN's tables (id INT AUTO_INCREMENT PK, k INT, c CHAR(120),
 * pad CHAR(60), rows inserted in id order) and builds the secondary index k_<N> on k after the
 * rows are in. `--rand-type=uniform` makes k uniform in 1..tableSize (1.0.20 would otherwise
 * draw k from its skewed `special` distribution), which the `si` tests rely on.
 */
import { loadStep } from './plan.js';
import { buildCommand } from './command.js';
import { spawnSysbench } from '../spawn-sysbench.js';

/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').PrepareResult} PrepareResult */

/**
 * Drop and re-create the suite's tables in the target database, then check engine, index and
 * row count.
 * @param {import('../../types.js').SuiteConfig} suite tables, tableSize, clients
 * @param {BenchTarget} target
 * @param {object} [opts]
 * @param {'innodb'|'rocksdb'} [opts.engine] default innodb
 * @param {string|null} [opts.clientCpus] taskset CPU list for sysbench
 * @param {AbortSignal} [opts.signal]
 * @param {number} [opts.timeoutS] default 300 s + 1 s per 5,000 rows
 * @param {string} [opts.sysbenchBin]
 * @param {(line: string) => void} [opts.onProgress] sysbench's progress lines (default: stderr)
 * @returns {Promise<PrepareResult>} failed (with reason) when sysbench or the checks fail
 * @throws never for server or sysbench errors
 */
export async function prepareTables(suite, target, opts = {}) {
  const engine = opts.engine ?? 'innodb';
  const progress = opts.onProgress ?? ((/** @type {string} */ l) => process.stderr.write(`load: ${l}\n`));
  const load = loadStep(suite, engine);
  // sysbench prepares one table per thread: more threads than tables would idle.
  const step = { ...load, threads: Math.max(1, Math.min(suite.tables, suite.clients)) };
  const argv = buildCommand(step, target, { command: 'prepare' });
  if (opts.sysbenchBin) argv[0] = opts.sysbenchBin;
  const started = Date.now();
  const elapsed = () => (Date.now() - started) / 1000;
  /** @param {string} reason @param {string} [rawOutput] @returns {PrepareResult} */
  const failed = (reason, rawOutput = '') => ({ status: 'failed', reason, durationS: elapsed(), argv, rawOutput });

  const conn = await openQuery(target).catch((err) => err instanceof Error ? err : new Error(String(err)));
  if (conn instanceof Error) return failed(`cannot connect to the server to prepare database '${target.database}': ${conn.message}`);
  try {
    const tables = Array.from({ length: suite.tables }, (_, i) => `sbtest${i + 1}`);
    try {
      await conn.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`);
    } catch (err) {
      return failed(`cannot drop old tables before the load: ${errText(err)}`);
    }
    const rows = suite.tables * suite.tableSize;
    const res = await spawnSysbench(argv, {
      clientCpus: opts.clientCpus ?? null,
      timeoutS: opts.timeoutS ?? 300 + rows / 5000,
      signal: opts.signal,
      onLine: (l) => { if (l.trim()) progress(l); },
    });
    if (res.spawnError) return failed(`cannot start ${argv[0]}: ${res.spawnError}; install sysbench 1.0.x (bash setup/bench.sh)`, res.output);
    if (res.aborted) return failed('load aborted (run interrupted)', res.output);
    if (res.timedOut) return failed(`load timed out after ${Math.round(res.elapsedS)} s`, res.output);
    const fatal = res.output.split('\n').filter((l) => l.startsWith('FATAL')).slice(0, 3).join(' | ');
    if (res.exitCode !== 0) return failed(`sysbench prepare exited with ${res.signal ?? `code ${res.exitCode}`}${fatal ? `: ${fatal}` : ''}`, res.output);
    // sysbench 1.0.20 has no option for table options (its mysql_table_options is never set):
    // a suite's (or matrix cell's) options are applied to the loaded tables, rebuilding them.
    const tableOptions = /** @type {{tableOptions?: string}} */ (suite).tableOptions;
    if (tableOptions) {
      for (const table of tables) {
        try {
          await conn.query(`ALTER TABLE ${table} ${tableOptions}`);
        } catch (err) {
          return failed(`cannot apply the suite's tableOptions '${tableOptions}' (ALTER TABLE ${table}): ${errText(err)}`, res.output);
        }
      }
    }
    const problem = await checkTables(conn, tables, suite.tableSize, engine);
    if (problem) return failed(problem, res.output);
    // The load log says what the server made of the options (a row format it silently ignored shows).
    const applied = tableOptions ? `\ntable options: ${tableOptions}\n${await describeTables(conn, tables)}` : '';
    return { status: 'ok', durationS: elapsed(), argv: res.argv, rawOutput: `${res.output}${applied}` };
  } finally {
    await conn.close();
  }
}

/**
 * Cheap checks (no full count): engine, the k index, and max(id) = rows loaded in id order.
 * @param {{query: (sql: string) => Promise<any>}} conn
 * @param {string[]} tables
 * @param {number} tableSize
 * @param {string} engine
 * @returns {Promise<string|null>} what is wrong, or null
 */
async function checkTables(conn, tables, tableSize, engine) {
  for (const [i, t] of tables.entries()) {
    const [info] = await conn.query(`SELECT ENGINE AS engine FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${t}'`);
    if (!info) return `table ${t} missing after the load`;
    if (String(info.engine).toLowerCase() !== engine) return `table ${t} uses engine ${info.engine}, expected ${engine}`;
    const idx = await conn.query(`SHOW INDEX FROM ${t} WHERE Key_name = 'k_${i + 1}'`);
    if (!Array.isArray(idx) || idx.length === 0) return `table ${t} has no secondary index k_${i + 1} on k`;
    const [mx] = await conn.query(`SELECT MAX(id) AS maxId FROM ${t}`);
    if (Number(mx.maxId) !== tableSize) return `table ${t} has max(id) ${mx.maxId}, expected ${tableSize} rows`;
  }
  return null;
}

/**
 * Row format and create options of each table, as information_schema has them, one line each.
 * @param {{query: (sql: string) => Promise<any>}} conn
 * @param {string[]} tables plain sbtestN names
 * @returns {Promise<string>}
 */
async function describeTables(conn, tables) {
  const rows = await conn.query(`SELECT TABLE_NAME AS name, ROW_FORMAT AS rowFormat, CREATE_OPTIONS AS options FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${tables.map((t) => `'${t}'`).join(', ')}) ORDER BY TABLE_NAME`);
  return (Array.isArray(rows) ? rows : []).map((r) => `${r.name}: row_format=${r.rowFormat} create_options=${r.options}\n`).join('');
}

/**
 * The target's own query function, or a connection of our own (mysql2, loaded only here) that
 * creates the database when it is missing.
 * @param {BenchTarget} target
 * @returns {Promise<{query: (sql: string) => Promise<any>, close: () => Promise<void>}>}
 */
async function openQuery(target) {
  if (target.query) {
    const query = target.query;
    return { query: (sql) => query(sql), close: async () => {} };
  }
  const { createConnection } = await import('mysql2/promise');
  const c = await createConnection({
    ...(target.socket ? { socketPath: target.socket } : { host: target.host ?? '127.0.0.1', port: target.port ?? 3306 }),
    user: target.user, password: target.password ?? '',
  });
  await c.query(`CREATE DATABASE IF NOT EXISTS \`${target.database.replace(/`/g, '``')}\``);
  await c.changeUser({ database: target.database });
  return { query: async (sql) => (await c.query(sql))[0], close: async () => { await c.end(); } };
}

/** @param {unknown} err */
function errText(err) {
  return err instanceof Error ? err.message : String(err);
}
