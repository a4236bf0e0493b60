/**
 * The rows (and pages) every release counts on: the statement is pure, and makeRowsSame's order
 * matters (rewrite, then rebuild so the pages match, then statistics of the new k).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRowsSame, sameRowsStatement } from '../../scripts/workload/sysbench/same-rows.js';

test('the same-rows UPDATE draws k within the table size and c, pad in sysbench\'s shape from the id', () => {
  const sql = sameRowsStatement('sbtest2', 20000);
  assert.match(sql, /^UPDATE sbtest2 SET k = 1 \+ CRC32\(CONCAT\('k-', id\)\) % 20000, c = CONCAT_WS\('-', /);
  assert.equal((sql.match(/LPAD\(CRC32\(CONCAT\('c\d-', id\)\), 11, '0'\)/g) ?? []).length, 10, 'c: 10 groups of 11 digits');
  assert.equal((sql.match(/LPAD\(CRC32\(CONCAT\('p\d-', id\)\), 11, '0'\)/g) ?? []).length, 5, 'pad: 5 groups of 11 digits');
  assert.match(sameRowsStatement('sbtest1', 0.4), /% 1,/, 'a table size below 1 still gives a valid modulus');
});

test('makeRowsSame rewrites, rebuilds and analyzes each table in that order, and names the table that failed', async () => {
  /** @type {string[]} */
  const seen = [];
  const suite = /** @type {import('../../scripts/types.js').SuiteConfig} */ (/** @type {unknown} */ ({ tables: 2, tableSize: 100 }));
  await makeRowsSame(suite, async (sql) => { seen.push(sql.split(' ').slice(0, 3).join(' ')); return []; });
  assert.deepEqual(seen, [
    'UPDATE sbtest1 SET', 'ALTER TABLE sbtest1', 'ANALYZE TABLE sbtest1',
    'UPDATE sbtest2 SET', 'ALTER TABLE sbtest2', 'ANALYZE TABLE sbtest2',
  ]);
  await assert.rejects(
    makeRowsSame(suite, async (sql) => { if (sql.startsWith('ALTER TABLE sbtest2')) throw new Error('Lock wait timeout exceeded'); return []; }),
    /cannot give sbtest2 the same rows as the other releases: Lock wait timeout exceeded/,
  );
});
