/**
 * The insert benchmark's query steps as a fixed amount of work (the instructions meter's counted
 * runs): how often the writer writes between queries, and the step itself. The timed query steps
 * are in steps.js.
 */
import { INDEXES, countedNow, hashSeed, pointSql, rangeSql, seededRandom } from './table-sql.js';
import { SecondBuckets } from './ibench-stats.js';
import { connect, insertBatch, measured, readPositions, recorders } from './steps.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */
/** @typedef {import('./table-sql.js').TableLayout} TableLayout */
/** @typedef {import('./steps.js').Conn} Conn */

/**
 * Queries a client runs per write batch in a counted query step, so that the writer's share
 * follows the timed step's target rate: one batch (`perCommit` rows inserted and as many
 * deleted) per `NOMINAL_QUERIES_PER_S * perCommit / rate` queries, i.e. the writes the timed
 * writer would make beside a client doing 10,000 queries/s. The nominal rate is a convention,
 * not a measurement: what the count needs is a ratio that is the same for every release and grows
 * with the step's rate (qr100: a batch per 1000 queries, qr1000: per 100), so qr100 and qr1000
 * still differ in the work they count.
 * @param {number} ratePerS the step's writer target, inserts/s per client
 * @param {number} perCommit rows per writer INSERT
 * @returns {number} queries between two write batches (>= 1)
 */
export function countedWriteEvery(ratePerS, perCommit) {
  return Math.max(1, Math.round((NOMINAL_QUERIES_PER_S * perCommit) / ratePerS));
}
const NOMINAL_QUERIES_PER_S = 10000;

/**
 * A query step as a fixed amount of work (a counted run): per client in turn, `work.events`
 * queries drawn from `work.seed`, and after every countedWriteEvery of them the writer's INSERT of
 * 10 rows and DELETE of its 10 oldest, on the same connection. The writer stays (rather than a
 * read-only count) because what qr100..qp1000 measure is queries on a table being written: purge,
 * page splits and change buffering are part of their cost, and without it the six steps would
 * count the same reads thrice. In one client, in a fixed ratio, so the statements and their order
 * are the same for every release; no pacing (time is not work).
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {{work: import('../types.js').FixedWork, signal?: AbortSignal}} run
 * @param {TableLayout} layout
 * @param {Conn[]} conns
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
export async function countedQueryStep(step, target, { work, signal }, layout, conns, log) {
  const perCommit = Number(step.params.writerRowsPerCommit);
  const writeEvery = countedWriteEvery(Number(step.params.insertsPerClientPerS), perCommit);
  const range = step.params.query === 'range';
  const conn = await connect(target, conns);
  const positions = await readPositions(conn, layout);
  const rec = recorders();
  const rows = { insert: 0, delete: 0, query: 0 };
  const startMs = Date.now();
  const tally = { rec, rows, buckets: new SecondBuckets(startMs, 'query') };
  log.push(`${step.name} counted: ${work.events} queries per client, seed ${work.seed}, ${perCommit} rows written (and deleted) after every ${writeEvery} queries`);
  for (let c = 0; c < layout.clients; c++) {
    const rand = seededRandom(hashSeed(`${step.name}.q`, work.seed, c));
    const writerRand = seededRandom(hashSeed(`${step.name}.w`, work.seed, c));
    const { minId, maxId } = positions[c];
    let { nextK: k, oldestK: oldest } = positions[c];
    for (let i = 0; i < work.events; i++) {
      if (signal?.aborted) throw new Error('interrupted');
      const sql = range ? rangeSql(layout.table(c), i % INDEXES.length, rand) : pointSql(layout.table(c), minId, maxId, rand);
      const t0 = Date.now();
      await conn.query(sql);
      const t1 = Date.now();
      rec.query.add(t1 - t0);
      tally.buckets.record('query', 1, t1, t1 - t0);
      rows.query += 1;
      if ((i + 1) % writeEvery !== 0) continue;
      await insertBatch(conn, tally, { layout, client: c, k, oldest, rows: perCommit, rand: writerRand, now: countedNow(k) });
      k += perCommit;
      oldest += perCommit;
    }
  }
  return measured(step, { buckets: tally.buckets, recorders: rec, rows, startMs, endMs: Date.now(), primary: 'query', keep: null, clients: layout.clients, log });
}
