/**
 * The insert benchmark's steps against a server: l.i0 / l.i1 / l.i2 (writeStep), l.x
 * (createIndexes), the query steps with their background writers (queryStep) and
 * ibench.cleanup, and the outcome the write and query steps share (measured). Each step opens its
 * own connections (closed by the plug-in's runStep) and reads where it starts from the tables.
 */
import { createConnection } from 'mysql2/promise';
import { runPostwrite } from '../postwrite.js';
import { LatencyRecorder, SecondBuckets, keepUp, pacerDelayMs, ratePercentiles } from './ibench-stats.js';
import { INDEXES, addIndexesSql, countedNow, createTableSql, deleteSql, hashSeed, insertSql, pointSql, rangeSql, seededRandom, sqlNow } from './table-sql.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */
/** @typedef {import('../types.js').StepContext} StepContext */
/** @typedef {import('./ibench-stats.js').OpKind} OpKind */
/** @typedef {import('./table-sql.js').TableLayout} TableLayout */
/** @typedef {import('mysql2/promise').Connection} Conn a client connection */

/**
 * @param {BenchTarget} target
 * @param {Conn[]} conns every connection opened, closed by runStep
 * @returns {Promise<Conn>}
 */
export async function connect(target, conns) {
  const c = await createConnection({
    ...(target.socket ? { socketPath: target.socket } : { host: target.host ?? '127.0.0.1', port: target.port ?? 3306 }),
    user: target.user, password: target.password ?? '', database: target.database,
  });
  conns.push(c);
  return c;
}

/**
 * Where each client goes on: its next row to insert and its oldest row to delete.
 * @param {Conn} conn
 * @param {TableLayout} layout
 * @returns {Promise<{nextK: number, oldestK: number, minId: number, maxId: number}[]>}
 */
export async function readPositions(conn, layout) {
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
    // What a counted run's instructions are divided by: rows inserted, or queries.
    operations: m.rows[m.primary],
  };
}

/**
 * @param {string} reason
 * @param {number} durationS
 * @param {string[]} log
 * @param {boolean} stateValid
 * @returns {StepOutcome}
 */
export function failed(reason, durationS, log, stateValid) {
  return {
    status: 'failed', reason, stateValid, durationS, throughput: null, tps: null, latencyMs: null,
    errors: 0, reconnects: 0, intervals: [], rawOutput: `${log.join('\n')}\n`,
  };
}

export function recorders() {
  return { insert: new LatencyRecorder(), delete: new LatencyRecorder(), query: new LatencyRecorder() };
}

/**
 * l.i0 (drop, create, load in PK order), l.i1 and l.i2 (insert + delete as fast as possible).
 * A counted run (ctx.work) writes `work.events` rows per client from `work.seed`, the clients one
 * after the other on a fixed clock: the same statements in the same order for every release
 * (concurrent clients would interleave differently on each server).
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {StepContext} ctx
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
export async function writeStep(step, target, ctx, layout, conns, log) {
  const load = step.name === 'l.i0';
  const work = ctx.work;
  const rowsPerClient = work ? work.events : Number(step.params.rowsPerClient);
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
  const tally = { rec, rows, buckets };
  const runClient = async (/** @type {Conn} */ conn, /** @type {number} */ c) => {
    const rand = seededRandom(hashSeed(step.name, work ? work.seed : ctx.pass, c));
    let k = positions[c].nextK;
    let oldest = positions[c].oldestK;
    for (let done = 0; done < rowsPerClient; done += perCommit) {
      if (ctx.signal?.aborted) throw new Error('interrupted');
      const n = Math.min(perCommit, rowsPerClient - done);
      await insertBatch(conn, tally, { layout, client: c, k, oldest: load ? null : oldest, rows: n, rand, now: work ? countedNow(k) : null });
      k += n;
      if (!load) oldest += n;
    }
  };
  if (work) for (const [c, conn] of clientConns.entries()) await runClient(conn, c);
  else await Promise.all(clientConns.map(runClient));
  return measured(step, { buckets, recorders: rec, rows, startMs, endMs: Date.now(), primary: 'insert', keep: null, clients: layout.clients, log });
}

/**
 * @typedef {object} Tally what a step has done so far: response times per operation, rows per
 *   operation, and both per second
 * @property {Record<OpKind, LatencyRecorder>} rec
 * @property {Record<OpKind, number>} rows
 * @property {SecondBuckets} buckets
 */

/**
 * One INSERT of `rows` rows of a client from its k-th on, then, unless `oldest` is null, a
 * DELETE of as many of its oldest rows (the write steps l.i1 / l.i2 and the query steps'
 * background writers keep the table size constant so), each timed and counted in `tally`.
 * @param {Conn} conn the client's connection
 * @param {Tally} tally
 * @param {{layout: TableLayout, client: number, k: number, oldest: number|null, rows: number, rand: () => number, now: string|null}} batch
 *   now: the rows' DATETIME (a counted run's fixed clock), null = the wall clock
 * @returns {Promise<void>}
 */
export async function insertBatch(conn, tally, { layout, client, k, oldest, rows, rand, now }) {
  const t0 = Date.now();
  await conn.query(insertSql(layout, client, k, rows, rand, now ?? sqlNow(t0)));
  const t1 = Date.now();
  tally.rec.insert.add(t1 - t0);
  tally.buckets.record('insert', rows, t1, t1 - t0);
  tally.rows.insert += rows;
  if (oldest === null) return;
  const deleted = affectedRows(await conn.query(deleteSql(layout, client, oldest, rows)));
  const t2 = Date.now();
  tally.rec.delete.add(t2 - t1);
  tally.buckets.record('delete', deleted, t2, t2 - t1);
  tally.rows.delete += deleted;
}

/**
 * l.x: the three secondary indexes, one ALTER TABLE per table, tables in parallel.
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {StepContext} ctx
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
export async function createIndexes(step, target, ctx, layout, conns, log) {
  const tables = layout.tablePerClient ? layout.clients : 1;
  const tableConns = [];
  for (let t = 0; t < tables; t++) tableConns.push(await connect(target, conns));
  const startMs = Date.now();
  await Promise.all(tableConns.map((conn, t) => conn.query(addIndexesSql(`pi${t + 1}`))));
  const durationS = (Date.now() - startMs) / 1000;
  if (ctx.signal?.aborted) throw new Error('interrupted');
  // A counted run loaded its own rows (work.events = every client's), not the timed step's.
  const rows = ctx.work ? ctx.work.events : step.tableSize * tables;
  log.push(`l.x: ${INDEXES.length} indexes on ${tables} table(s) of ${step.tableSize} rows in ${durationS.toFixed(3)} s`);
  const ms = durationS * 1000;
  return {
    status: 'ok', stateValid: true, durationS, throughput: rows / durationS, tps: tables / durationS,
    latencyMs: { avg: ms, p95: ms, p99: ms, max: ms }, errors: 0, reconnects: 0, intervals: [], operations: rows,
    details: { ibench: { step: step.name, clients: layout.clients, tablePerClient: layout.tablePerClient, rows: { insert: 0, delete: 0, query: 0 }, indexedRows: rows, ratesPerS: null, responseMs: null, keepUp: null } },
    rawOutput: `${log.join('\n')}\n`,
  };
}

/**
 * qrN / qpN: queries as fast as possible, one query connection per client, while one writer
 * connection per client holds N inserts/s (and as many deletes).
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {StepContext} ctx
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
export async function queryStep(step, target, ctx, layout, conns, log) {
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
  const tally = { rec, rows, buckets };
  const writers = writerConns.map(async (conn, c) => {
    const rand = seededRandom(hashSeed(`${step.name}.w`, ctx.pass, c));
    let k = positions[c].nextK;
    let oldest = positions[c].oldestK;
    for (let batch = 0; ; batch++) {
      const wait = pacerDelayMs(startMs, batch, perCommit, target1, Date.now());
      if (Date.now() + wait >= deadline || ctx.signal?.aborted) return;
      if (wait > 0) await sleep(wait);
      await insertBatch(conn, tally, { layout, client: c, k, oldest, rows: perCommit, rand, now: null });
      insertedPerClient[c] += perCommit;
      k += perCommit;
      oldest += perCommit;
    }
  });
  const queriers = queryConns.map(async (conn, c) => {
    const rand = seededRandom(hashSeed(`${step.name}.q`, ctx.pass, c));
    const { minId, maxId } = positions[c];
    for (let i = 0; ; i++) {
      if (Date.now() >= deadline || ctx.signal?.aborted) return;
      const sql = range ? rangeSql(layout.table(c), i % INDEXES.length, rand) : pointSql(layout.table(c), minId, maxId, rand);
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
 * ibench.cleanup: the suite's postwrite (flush, ANALYZE, rest) on the benchmark's tables.
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {StepContext} ctx
 * @param {TableLayout} layout
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
export async function cleanup(step, target, ctx, layout, log) {
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
