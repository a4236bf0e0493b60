/**
 * The insert benchmark's tables `pi1..N` and every statement sent to them: which client writes
 * which ids (the layout), the CREATE TABLE and its three secondary indexes, the seeded rows of
 * an INSERT, the DELETE of a client's oldest rows and the range and point queries. Pure: text
 * out, nothing sent (the steps in steps.js send it).
 */
import { seededUniform } from '../../seeded-random.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */

/** Rows a range query returns. */
export const RANGE_ROWS = 10;

/** The three secondary indexes l.x builds, which the range queries use in turn. */
export const INDEXES = Object.freeze([
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

/**
 * @typedef {object} TableLayout
 * @property {number} clients
 * @property {boolean} tablePerClient
 * @property {(client: number) => string} table name of client c's table
 * @property {(client: number, k: number) => number} id client c's k-th row (0-based)
 * @property {(client: number, id: number) => number} kAtOrAfter first k whose id >= id
 */

/**
 * Which table and ids each client of a step writes (from the step's threads and
 * `params.tablePerClient`).
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

/**
 * The CREATE TABLE of one pi table (the insert benchmark's schema; the primary key only: l.x adds
 * the secondary indexes).
 * @param {string} engine
 * @param {string} table
 * @returns {string}
 */
export function createTableSql(engine, table) {
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
 * The one ALTER TABLE of l.x: the three secondary indexes of a table at once.
 * @param {string} table
 * @returns {string}
 */
export function addIndexesSql(table) {
  return `ALTER TABLE ${table} ${INDEXES.map((ix) => `ADD INDEX ${ix.name} (${ix.columns.join(', ')})`).join(', ')}`;
}

/**
 * A point lookup of a random id in [minId, maxId] (ids deleted since are misses, which still cost
 * a lookup).
 * @param {string} table
 * @param {number} minId
 * @param {number} maxId
 * @param {() => number} rand
 * @returns {string}
 */
export function pointSql(table, minId, maxId, rand) {
  return `SELECT * FROM ${table} WHERE transactionid = ${minId + Math.floor(rand() * (maxId - minId + 1))}`;
}

/**
 * One covering 10-row range on secondary index `which`, from a random start.
 * @param {string} table
 * @param {number} which index 0..2
 * @param {() => number} rand
 * @returns {string}
 */
export function rangeSql(table, which, rand) {
  const ix = INDEXES[which];
  const first = /** @type {keyof typeof MAX} */ (ix.columns[0]);
  const from = Math.floor(rand() * MAX[first]);
  const cols = ix.columns.join(', ');
  return `SELECT ${cols} FROM ${table} FORCE INDEX (${ix.name}) WHERE ${first} >= ${from} ORDER BY ${cols} LIMIT ${RANGE_ROWS}`;
}

/**
 * The seeded generator of the insert benchmark's rows: the same pass, step and client draw the
 * same rows.
 * @returns {() => number} uniform draws in [0, 1)
 */
export function seededRandom(/** @type {number} */ seed) {
  return seededUniform(seed);
}

/**
 * The seed of one client's rows in one step of one pass (FNV-1a of the three): a rerun draws the
 * same rows, and no two clients or steps draw the same.
 * @param {string} text the step's name (with `.w` / `.q` for a query step's writer / querier)
 * @param {number} pass
 * @param {number} client
 * @returns {number} an unsigned 32-bit seed
 */
export function hashSeed(text, pass, client) {
  let h = 2166136261;
  for (const ch of `${text}|${pass}|${client}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
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
 * @returns {string}
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
 * @returns {string}
 */
export function deleteSql(layout, client, firstK, rows) {
  const t = layout.table(client);
  if (layout.tablePerClient) return `DELETE FROM ${t} WHERE transactionid BETWEEN ${layout.id(client, firstK)} AND ${layout.id(client, firstK + rows - 1)}`;
  const ids = Array.from({ length: rows }, (_, i) => layout.id(client, firstK + i));
  return `DELETE FROM ${t} WHERE transactionid IN (${ids.join(',')})`;
}

/** The last second sqlNow formatted: a DATETIME changes once a second, statements come far faster. */
let nowCache = { second: -1, text: '' };

/**
 * A time as a DATETIME literal's text.
 * @param {number} ms epoch milliseconds
 * @returns {string} `YYYY-MM-DD hh:mm:ss` (UTC)
 */
export function sqlNow(ms) {
  const second = Math.floor(ms / 1000);
  if (second !== nowCache.second) nowCache = { second, text: new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ') };
  return nowCache.text;
}

/**
 * The DATETIME of client row k in a counted run: a fixed clock (100 rows a second from
 * 2026-01-01), so every release stores the same values and ix_price orders the same rows alike;
 * the timed steps store the wall clock, as the insert benchmark does.
 * @param {number} k
 * @returns {string}
 */
export function countedNow(k) {
  return sqlNow(COUNTED_EPOCH_MS + k * 10);
}
const COUNTED_EPOCH_MS = Date.UTC(2026, 0, 1);
