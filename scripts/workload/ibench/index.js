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
 */
import { seededUniform } from '../../seeded-random.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { suiteBlock } from '../sequence-helpers.js';
import { runPostwrite } from '../postwrite.js';
import { LatencyRecorder, SecondBuckets, keepUp, pacerDelayMs, ratePercentiles } from './ibench-stats.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').IbenchSettings} IbenchSettings */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */
/** @typedef {import('./ibench-stats.js').OpKind} OpKind */

/** Rows per INSERT of the load and write steps (DESIGN.md). */
export const ROWS_PER_COMMIT = Object.freeze({ 'l.i0': 100, 'l.i1': 50, 'l.i2': 5 });
/** Rows per INSERT of the background writers of the query steps. */
export const WRITER_ROWS_PER_COMMIT = 10;
/** Target inserts per second per client of the query steps. */
export const QUERY_STEP_RATES = Object.freeze([100, 500, 1000]);
/** Rows a range query returns. */
export const RANGE_ROWS = 10;

const INDEXES = Object.freeze([
  { name: 'ix_product', columns: ['productid', 'customerid', 'price'] },
  { name: 'ix_register', columns: ['cashregisterid', 'customerid', 'price'] },
  { name: 'ix_price', columns: ['price', 'dateandtime', 'customerid'] },
]);
/** Value ranges of the random columns: [0, max). */
const MAX = Object.freeze({ cashregisterid: 1000, customerid: 100000, productid: 10000, price: 500 });
const DATA_LENGTH = Object.freeze({ min: 10, max: 20 });
/** 64 KiB of random lowercase letters (fixed seed) that row data is sliced from. */
const LETTERS = (() => {
  const rand = seededRandom(0x1b3);
  let text = '';
  for (let i = 0; i < 65536; i++) text += String.fromCharCode(97 + Math.floor(rand() * 26));
  return text;
})();

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
    ...(durationS === 0 && group !== 'setup' ? { workRows: workRowsOf(name) } : {}),
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

/**
 * @typedef {object} TableLayout
 * @property {number} clients
 * @property {boolean} tablePerClient
 * @property {(client: number) => string} table name of client c's table
 * @property {(client: number, k: number) => number} id client c's k-th row (0-based)
 * @property {(client: number, id: number) => number} kAtOrAfter first k whose id >= id
 */

/**
 * @param {StepPlan} step
 * @returns {TableLayout}
 */
export function tableLayout(step) {
  const clients = step.threads;
  const tablePerClient = step.params.tablePerClient !== false;
  const stride = tablePerClient ? 1 : clients;
  return {
    clients,
    tablePerClient,
    table: (c) => (tablePerClient ? `pi${c + 1}` : 'pi1'),
    id: (c, k) => k * stride + (tablePerClient ? 0 : c) + 1,
    kAtOrAfter: (c, id) => Math.max(0, Math.ceil((id - (tablePerClient ? 0 : c) - 1) / stride)),
  };
}

/** @typedef {import('mysql2/promise').Connection} Conn */

/**
 * @param {BenchTarget} target
 * @param {Conn[]} conns every connection opened, closed by runStep
 * @returns {Promise<Conn>}
 */
async function connect(target, conns) {
  const c = await createConnection({
    ...(target.socket ? { socketPath: target.socket } : { host: target.host ?? '127.0.0.1', port: target.port ?? 3306 }),
    user: target.user, password: target.password ?? '', database: target.database,
  });
  conns.push(c);
  return c;
}

/**
 * @param {string} engine
 * @param {string} table
 */
function createTableSql(engine, table) {
  return `CREATE TABLE ${table} (
  transactionid BIGINT NOT NULL AUTO_INCREMENT,
  dateandtime DATETIME,
  cashregisterid INT NOT NULL,
  customerid INT NOT NULL,
  productid INT NOT NULL,
  price INT NOT NULL,
  data VARCHAR(4000),
  PRIMARY KEY (transactionid)
) ENGINE=${engine === 'rocksdb' ? 'ROCKSDB' : 'InnoDB'}`;
}

/**
 * The seeded generator of the insert benchmark's rows: the same pass, step and client draw the
 * same rows.
 */
export function seededRandom(/** @type {number} */ seed) {
  return seededUniform(seed);
}

/**
 * The VALUES list of one multi-row INSERT of ids firstK.. (text protocol: only digits and
 * letters, nothing to escape).
 * @param {TableLayout} layout
 * @param {number} client
 * @param {number} firstK
 * @param {number} rows
 * @param {() => number} rand
 * @param {string} now `YYYY-MM-DD hh:mm:ss`
 */
export function insertSql(layout, client, firstK, rows, rand, now) {
  let sql = `INSERT INTO ${layout.table(client)} (transactionid,dateandtime,cashregisterid,customerid,productid,price,data) VALUES `;
  for (let k = firstK; k < firstK + rows; k++) {
    const len = DATA_LENGTH.min + Math.floor(rand() * (DATA_LENGTH.max - DATA_LENGTH.min + 1));
    // A random slice of a fixed random text: as incompressible as fresh letters, at a fraction
    // of the client CPU (the driver shares a CPU with the server on small hosts).
    const at = Math.floor(rand() * (LETTERS.length - len));
    sql += `${k === firstK ? '' : ','}(${layout.id(client, k)},'${now}',${Math.floor(rand() * MAX.cashregisterid)},${Math.floor(rand() * MAX.customerid)},${Math.floor(rand() * MAX.productid)},${Math.floor(rand() * MAX.price)},'${LETTERS.slice(at, at + len)}')`;
  }
  return sql;
}

/**
 * DELETE of client c's rows firstK..firstK+rows-1 (its oldest).
 * @param {TableLayout} layout
 * @param {number} client
 * @param {number} firstK
 * @param {number} rows
 */
export function deleteSql(layout, client, firstK, rows) {
  const t = layout.table(client);
  if (layout.tablePerClient) return `DELETE FROM ${t} WHERE transactionid BETWEEN ${layout.id(client, firstK)} AND ${layout.id(client, firstK + rows - 1)}`;
  const ids = Array.from({ length: rows }, (_, i) => layout.id(client, firstK + i));
  return `DELETE FROM ${t} WHERE transactionid IN (${ids.join(',')})`;
}

/** The last second sqlNow formatted: a DATETIME changes once a second, statements come far faster. */
let nowCache = { second: -1, text: '' };

/** @param {number} ms */
function sqlNow(ms) {
  const second = Math.floor(ms / 1000);
  if (second !== nowCache.second) nowCache = { second, text: new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ') };
  return nowCache.text;
}

/**
 * Where each client goes on: its next row to insert and its oldest row to delete.
 * @param {Conn} conn
 * @param {TableLayout} layout
 * @returns {Promise<{nextK: number, oldestK: number, minId: number, maxId: number}[]>}
 */
async function readPositions(conn, layout) {
  const out = [];
  for (let c = 0; c < layout.clients; c++) {
    const [rows] = /** @type {any} */ (await conn.query(`SELECT MIN(transactionid) AS lo, MAX(transactionid) AS hi FROM ${layout.table(c)}`));
    const lo = Number(rows[0].lo ?? 1);
    const hi = Number(rows[0].hi ?? 0);
    out.push({ nextK: layout.kAtOrAfter(c, hi + 1), oldestK: layout.kAtOrAfter(c, lo), minId: lo, maxId: hi });
  }
  return out;
}

/**
 * The measured outcome shared by the write and query steps (pure: figures in, outcome out).
 * @param {StepPlan} step
 * @param {{buckets: SecondBuckets, recorders: Record<OpKind, LatencyRecorder>, rows: Record<OpKind, number>, startMs: number, endMs: number, primary: OpKind, keep: import('./ibench-stats.js').KeepUp|null, clients: number, log: string[]}} m
 * @returns {StepOutcome}
 */
export function measured(step, m) {
  const durationS = (m.endMs - m.startMs) / 1000;
  const intervals = m.buckets.intervals(m.endMs);
  const primary = m.recorders[m.primary];
  const lat = primary.summary();
  /** @type {Record<string, object>} */
  const details = {
    ibench: {
      step: step.name,
      clients: m.clients,
      tablePerClient: step.params.tablePerClient !== false,
      rows: { ...m.rows },
      ratesPerS: {
        inserts: ratePercentiles(intervals.map((i) => i.inserts ?? 0)),
        deletes: ratePercentiles(intervals.map((i) => i.deletes ?? 0)),
        queries: ratePercentiles(intervals.map((i) => i.queries ?? 0)),
      },
      responseMs: { insert: m.recorders.insert.summary(), delete: m.recorders.delete.summary(), query: m.recorders.query.summary() },
      keepUp: m.keep,
    },
  };
  const rate = m.rows[m.primary] / durationS;
  m.log.push(`${step.name}: ${m.rows.insert} inserted, ${m.rows.delete} deleted, ${m.rows.query} queries in ${durationS.toFixed(3)} s = ${rate.toFixed(1)} ${step.metric}`);
  for (const i of intervals) m.log.push(`[ ${i.t}s ] inserts/s ${i.inserts} (max ${i.insertMaxMs} ms) deletes/s ${i.deletes} (max ${i.deleteMaxMs} ms) queries/s ${i.queries} (max ${i.queryMaxMs} ms)`);
  if (m.keep) m.log.push(`background writers: ${m.keep.achievedPerS} of ${m.keep.targetPerS} inserts/s (${(m.keep.share * 100).toFixed(1)} %, worst client ${(m.keep.worstClientShare * 100).toFixed(1)} %): ${m.keep.sustained ? 'kept up' : 'DID NOT KEEP UP'}`);
  m.log.push(`details ${JSON.stringify(details.ibench)}`);
  if (m.keep && !m.keep.sustained) {
    const reason = `background writers did not keep up: ${m.keep.achievedPerS} of ${m.keep.targetPerS} inserts/s (${(m.keep.share * 100).toFixed(1)} %, worst client ${(m.keep.worstClientShare * 100).toFixed(1)} %, below 95 %)`;
    return { ...failed(reason, durationS, m.log, true), intervals, details };
  }
  if (!(rate > 0) || !lat) return { ...failed(`${step.name}: no ${m.primary} completed`, durationS, m.log, false), intervals, details };
  return {
    status: 'ok', stateValid: true, durationS,
    throughput: rate,
    tps: primary.count / durationS,
    latencyMs: { avg: lat.avgMs, p95: lat.p95Ms, p99: lat.p99Ms, max: lat.maxMs },
    errors: 0, reconnects: 0, intervals, details, rawOutput: `${m.log.join('\n')}\n`,
  };
}

/**
 * @param {string} reason
 * @param {number} durationS
 * @param {string[]} log
 * @param {boolean} stateValid
 * @returns {StepOutcome}
 */
function failed(reason, durationS, log, stateValid) {
  return {
    status: 'failed', reason, stateValid, durationS, throughput: null, tps: null, latencyMs: null,
    errors: 0, reconnects: 0, intervals: [], rawOutput: `${log.join('\n')}\n`,
  };
}

function recorders() {
  return { insert: new LatencyRecorder(), delete: new LatencyRecorder(), query: new LatencyRecorder() };
}

/**
 * l.i0 (drop, create, load in PK order), l.i1 and l.i2 (insert + delete as fast as possible).
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 */
async function writeStep(step, target, ctx, layout, conns, log) {
  const load = step.name === 'l.i0';
  const rowsPerClient = Number(step.params.rowsPerClient);
  const perCommit = Number(step.params.rowsPerCommit);
  const clientConns = [];
  for (let c = 0; c < layout.clients; c++) clientConns.push(await connect(target, conns));
  /** @type {{nextK: number, oldestK: number}[]} */
  let positions;
  if (load) {
    const tables = layout.tablePerClient ? layout.clients : 1;
    for (let t = 0; t < tables; t++) {
      await clientConns[0].query(`DROP TABLE IF EXISTS pi${t + 1}`);
      await clientConns[0].query(createTableSql(step.engine, `pi${t + 1}`));
    }
    positions = clientConns.map(() => ({ nextK: 0, oldestK: 0 }));
  } else {
    positions = await readPositions(clientConns[0], layout);
  }
  const rec = recorders();
  const rows = { insert: 0, delete: 0, query: 0 };
  const startMs = Date.now();
  const buckets = new SecondBuckets(startMs, 'insert');
  await Promise.all(clientConns.map(async (conn, c) => {
    const rand = seededRandom(hashSeed(step.name, ctx.pass, c));
    let k = positions[c].nextK;
    let oldest = positions[c].oldestK;
    for (let done = 0; done < rowsPerClient; done += perCommit) {
      if (ctx.signal?.aborted) throw new Error('interrupted');
      const n = Math.min(perCommit, rowsPerClient - done);
      const t0 = Date.now();
      await conn.query(insertSql(layout, c, k, n, rand, sqlNow(t0)));
      const t1 = Date.now();
      rec.insert.add(t1 - t0);
      buckets.record('insert', n, t1, t1 - t0);
      rows.insert += n;
      k += n;
      if (!load) {
        const deleted = affectedRows(await conn.query(deleteSql(layout, c, oldest, n)));
        const t2 = Date.now();
        rec.delete.add(t2 - t1);
        buckets.record('delete', deleted, t2, t2 - t1);
        rows.delete += deleted;
        oldest += n;
      }
    }
  }));
  return measured(step, { buckets, recorders: rec, rows, startMs, endMs: Date.now(), primary: 'insert', keep: null, clients: layout.clients, log });
}

/**
 * l.x: the three secondary indexes, one ALTER TABLE per table, tables in parallel.
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
async function createIndexes(step, target, ctx, layout, conns, log) {
  const tables = layout.tablePerClient ? layout.clients : 1;
  const tableConns = [];
  for (let t = 0; t < tables; t++) tableConns.push(await connect(target, conns));
  const startMs = Date.now();
  await Promise.all(tableConns.map((conn, t) => conn.query(
    `ALTER TABLE pi${t + 1} ${INDEXES.map((ix) => `ADD INDEX ${ix.name} (${ix.columns.join(', ')})`).join(', ')}`)));
  const durationS = (Date.now() - startMs) / 1000;
  if (ctx.signal?.aborted) throw new Error('interrupted');
  const rows = step.tableSize * tables;
  log.push(`l.x: ${INDEXES.length} indexes on ${tables} table(s) of ${step.tableSize} rows in ${durationS.toFixed(3)} s`);
  const ms = durationS * 1000;
  return {
    status: 'ok', stateValid: true, durationS, throughput: rows / durationS, tps: tables / durationS,
    latencyMs: { avg: ms, p95: ms, p99: ms, max: ms }, errors: 0, reconnects: 0, intervals: [],
    details: { ibench: { step: step.name, clients: layout.clients, tablePerClient: layout.tablePerClient, rows: { insert: 0, delete: 0, query: 0 }, indexedRows: rows, ratesPerS: null, responseMs: null, keepUp: null } },
    rawOutput: `${log.join('\n')}\n`,
  };
}

/**
 * qrN / qpN: queries as fast as possible, one query connection per client, while one writer
 * connection per client holds N inserts/s (and as many deletes).
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 */
async function queryStep(step, target, ctx, layout, conns, log) {
  const target1 = Number(step.params.insertsPerClientPerS);
  const perCommit = Number(step.params.writerRowsPerCommit);
  const range = step.params.query === 'range';
  const queryConns = [];
  const writerConns = [];
  for (let c = 0; c < layout.clients; c++) {
    queryConns.push(await connect(target, conns));
    writerConns.push(await connect(target, conns));
  }
  const positions = await readPositions(queryConns[0], layout);
  const rec = recorders();
  const rows = { insert: 0, delete: 0, query: 0 };
  const insertedPerClient = new Array(layout.clients).fill(0);
  const startMs = Date.now();
  const deadline = startMs + step.durationS * 1000;
  const buckets = new SecondBuckets(startMs, 'query');
  const writers = writerConns.map(async (conn, c) => {
    const rand = seededRandom(hashSeed(`${step.name}.w`, ctx.pass, c));
    let k = positions[c].nextK;
    let oldest = positions[c].oldestK;
    for (let batch = 0; ; batch++) {
      const wait = pacerDelayMs(startMs, batch, perCommit, target1, Date.now());
      if (Date.now() + wait >= deadline || ctx.signal?.aborted) return;
      if (wait > 0) await sleep(wait);
      const t0 = Date.now();
      await conn.query(insertSql(layout, c, k, perCommit, rand, sqlNow(t0)));
      const t1 = Date.now();
      rec.insert.add(t1 - t0);
      buckets.record('insert', perCommit, t1, t1 - t0);
      rows.insert += perCommit;
      insertedPerClient[c] += perCommit;
      k += perCommit;
      const deleted = affectedRows(await conn.query(deleteSql(layout, c, oldest, perCommit)));
      const t2 = Date.now();
      rec.delete.add(t2 - t1);
      buckets.record('delete', deleted, t2, t2 - t1);
      rows.delete += deleted;
      oldest += perCommit;
    }
  });
  const queriers = queryConns.map(async (conn, c) => {
    const rand = seededRandom(hashSeed(`${step.name}.q`, ctx.pass, c));
    const { minId, maxId } = positions[c];
    for (let i = 0; ; i++) {
      if (Date.now() >= deadline || ctx.signal?.aborted) return;
      const sql = range ? rangeSql(layout.table(c), i % INDEXES.length, rand) : `SELECT * FROM ${layout.table(c)} WHERE transactionid = ${minId + Math.floor(rand() * (maxId - minId + 1))}`;
      const t0 = Date.now();
      await conn.query(sql);
      const t1 = Date.now();
      rec.query.add(t1 - t0);
      buckets.record('query', 1, t1, t1 - t0);
      rows.query += 1;
    }
  });
  await Promise.all([...writers, ...queriers]);
  if (ctx.signal?.aborted) throw new Error('interrupted');
  const endMs = Math.max(deadline, Date.now());
  const keep = keepUp(target1, insertedPerClient, (endMs - startMs) / 1000);
  return measured(step, { buckets, recorders: rec, rows, startMs, endMs, primary: 'query', keep, clients: layout.clients, log });
}

/**
 * One covering 10-row range on secondary index `which`, from a random start.
 * @param {string} table
 * @param {number} which index 0..2
 * @param {() => number} rand
 */
export function rangeSql(table, which, rand) {
  const ix = INDEXES[which];
  const first = /** @type {keyof typeof MAX} */ (ix.columns[0]);
  const from = Math.floor(rand() * MAX[first]);
  const cols = ix.columns.join(', ');
  return `SELECT ${cols} FROM ${table} FORCE INDEX (${ix.name}) WHERE ${first} >= ${from} ORDER BY ${cols} LIMIT ${RANGE_ROWS}`;
}

/**
 * ibench.cleanup: the suite's postwrite (flush, ANALYZE, rest) on the benchmark's tables.
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @param {TableLayout} layout
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
async function cleanup(step, target, ctx, layout, log) {
  const tables = Array.from({ length: layout.tablePerClient ? layout.clients : 1 }, (_, t) => `pi${t + 1}`);
  if (!target.query) throw new Error('ibench.cleanup needs the target\'s query function (a scripts/server handle)');
  const query = target.query;
  /** @type {string[]} */
  const sent = [];
  const q = (/** @type {string} */ sql) => {
    sent.push(sql);
    return query(sql);
  };
  const out = await runPostwrite(q, ctx.engine, { ...ctx.suite, restS: step.restS }, { tables, signal: ctx.signal, onProgress: ctx.onProgress });
  log.push(...sent.map((s) => `sql: ${s}`), `flush ${out.flushS.toFixed(1)} s${out.note ? ` (${out.note})` : ''}`);
  const reason = out.reason;
  if (out.status !== 'ok') return failed(reason ?? 'postwrite failed', out.flushS, log, false);
  return { status: 'ok', stateValid: true, durationS: out.flushS + step.restS, throughput: null, tps: null, latencyMs: null, errors: 0, reconnects: 0, intervals: [], rawOutput: `${log.join('\n')}\n` };
}

/**
 * @param {string} text
 * @param {number} pass
 * @param {number} client
 */
function hashSeed(text, pass, client) {
  let h = 2166136261;
  for (const ch of `${text}|${pass}|${client}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/**
 * Rows a DELETE really removed (counted, not assumed: a shared table's oldest ids may be gone).
 * @param {any} result what mysql2's query resolved to: [ResultSetHeader, fields]
 * @returns {number}
 */
function affectedRows(result) {
  return Number(result?.[0]?.affectedRows ?? 0);
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}
