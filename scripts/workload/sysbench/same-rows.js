/**
 * The same rows in every release's tables, for counted repeats. sysbench 1.0.20's `prepare`
 * draws k, c and pad at random whatever `--rand-seed` says (two prepares with the same seed give
 * different tables), so two releases' loads differ: a range over the secondary index returns
 * other rows, and its counted instructions differed by 0.6 % between two servers of one release.
 * Rewriting the three columns from the id with CRC32 (the same function in MariaDB and MySQL)
 * gives every release the same table: k still spread over 1..tableSize, c and pad in sysbench's
 * shape (groups of 11 digits joined by '-'). One UPDATE per table; only runs that count do it.
 *
 * Then the table is rebuilt (ALTER TABLE ... FORCE: a sorted build of every index from the rows),
 * so that its pages are the same too. After the UPDATE alone the secondary index's pages held
 * delete-marked entries and splits in an order that depended on how far purge had got during the
 * rewrite: two servers of one release then differed by 0.7-1.5 % in the counted query path of
 * updates that change k (B-tree searches, page reorganisation), measured here with the same rows.
 */

/** Digits groups of sysbench's c (10 groups, 119 characters) and pad (5 groups, 59 characters). */
const C_GROUPS = 10;
const PAD_GROUPS = 5;

/**
 * The UPDATE statement of one table. Pure.
 * @param {string} table
 * @param {number} tableSize rows per table at load (k's range)
 * @returns {string}
 */
export function sameRowsStatement(table, tableSize) {
  const groups = (/** @type {string} */ col, /** @type {number} */ n) => `CONCAT_WS('-', ${Array.from({ length: n }, (_, i) => `LPAD(CRC32(CONCAT('${col}${i}-', id)), 11, '0')`).join(', ')})`;
  return `UPDATE ${table} SET k = 1 + CRC32(CONCAT('k-', id)) % ${Math.max(1, Math.floor(tableSize))}, c = ${groups('c', C_GROUPS)}, pad = ${groups('p', PAD_GROUPS)}`;
}

/**
 * Rewrite every sysbench table of the suite to the same rows, rebuild it, then ANALYZE, so that
 * the optimizer's statistics describe the new k and not the load's.
 * @param {import('../../types.js').SuiteConfig} suite
 * @param {(sql: string) => Promise<any>} query the server's query function (tables in its database)
 * @returns {Promise<void>}
 * @throws {Error} naming the table when a statement fails
 */
export async function makeRowsSame(suite, query) {
  for (let i = 1; i <= suite.tables; i += 1) {
    const table = `sbtest${i}`;
    try {
      await query(sameRowsStatement(table, suite.tableSize));
      await query(`ALTER TABLE ${table} FORCE`);
      await query(`ANALYZE TABLE ${table}`);
    } catch (err) {
      throw new Error(`cannot give ${table} the same rows as the other releases: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
