/**
 * The MyRocks postwrite waits until RocksDB has no memtable flush and no compaction pending
 * (information_schema.ROCKSDB_CFSTATS), or records that it gave up. The first test uses a real
 * MariaDB 10.11 with ha_rocksdb.so; the second a stand-in server for the timeout.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { prepareTables, runStepRepeat, planSuite, runPostwrite } from '../../scripts/workload/index.js';
import { findTestPrefix, startTestServer } from './helpers/test-server.js';

/** @type {import('../../scripts/types.js').SuiteConfig} */
const SUITE = {
  name: 'rocks', description: 'MyRocks postwrite test', tables: 2, tableSize: 20000, clients: 1,
  readDurationS: 1, writeDurationS: 2, warmupS: 0, scanWarmDurationS: 1, restS: 0,
  only: ['update-index'],
};
const PENDING_SQL = "SELECT CF_NAME, STAT_TYPE, VALUE FROM information_schema.ROCKSDB_CFSTATS WHERE STAT_TYPE IN ('MEM_TABLE_FLUSH_PENDING', 'COMPACTION_PENDING')";

/** @type {import('./helpers/test-server.js').TestServer|undefined} */
let server;
after(async () => { await server?.stop(); });

test('real MyRocks: after writes, the postwrite flushes, compacts L0 and waits until nothing is pending', { timeout: 600_000 }, async () => {
  server = await startTestServer({ prefix: await findTestPrefix(), port: 23205, rocksdb: true });
  const load = await prepareTables(SUITE, server, { engine: 'rocksdb', onProgress: () => {} });
  assert.equal(load.status, 'ok', load.reason ?? '');
  const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (planSuite(SUITE, { engine: 'rocksdb' }).find((s) => s.name === 'update-index'));
  const rep = await runStepRepeat(step, server);
  assert.equal(rep.status, 'ok', rep.status === 'failed' ? rep.reason : '');
  // The writes sit in the memtables: the postwrite has something to flush.
  const before = await server.query("SELECT SUM(VALUE) AS n FROM information_schema.ROCKSDB_CFSTATS WHERE STAT_TYPE = 'NUM_ENTRIES_ACTIVE_MEM_TABLE'");
  assert.ok(Number(before[0].n) > 0, `memtable entries before the postwrite: ${before[0].n}`);

  const pw = await runPostwrite(server.query, 'rocksdb', SUITE, { onProgress: () => {}, pollS: 0.2 });
  assert.equal(pw.status, 'ok', pw.reason ?? '');
  assert.equal(pw.flushComplete, true, pw.note ?? '');
  assert.equal(pw.note, undefined);
  const flushAt = pw.statements.findIndex((s) => /SET GLOBAL rocksdb_(force_flush_memtable_and_lzero_now|force_flush_memtable_now) = 1/.test(s));
  const pollAt = pw.statements.indexOf(PENDING_SQL);
  assert.ok(flushAt >= 0 && pollAt > flushAt, `flush, then the poll:\n${pw.statements.join('\n')}`);
  assert.ok(pw.statements.indexOf('ANALYZE TABLE sbtest1, sbtest2') > pollAt, 'ANALYZE after the wait');

  // What the postwrite waited for, seen independently: every column family, nothing pending.
  const rows = await server.query(PENDING_SQL);
  assert.ok(rows.some((/** @type {any} */ r) => r.CF_NAME === 'default'), JSON.stringify(rows));
  assert.deepEqual(rows.filter((/** @type {any} */ r) => Number(r.VALUE) !== 0), []);
  const afterFlush = await server.query("SELECT SUM(VALUE) AS n FROM information_schema.ROCKSDB_CFSTATS WHERE STAT_TYPE = 'NUM_ENTRIES_ACTIVE_MEM_TABLE'");
  assert.ok(Number(afterFlush[0].n) < Number(before[0].n), `memtable entries: ${before[0].n} before, ${afterFlush[0].n} after`);
});

/**
 * A stand-in for a MyRocks server whose compaction never finishes. It answers only the
 * statements a MariaDB MyRocks server answers for the postwrite and refuses any other, as a
 * server refuses an unknown variable or table; SET GLOBAL only of the `*_now` variable it has.
 * @param {{pendingRows: {CF_NAME: string, STAT_TYPE: string, VALUE: number}[]}} state
 */
function standInServer(state) {
  /** @type {string[]} */
  const seen = [];
  const query = async (/** @type {string} */ sql) => {
    seen.push(sql);
    if (sql === "SHOW GLOBAL VARIABLES LIKE 'rocksdb\\_%\\_now'") return [{ Variable_name: 'rocksdb_force_flush_memtable_and_lzero_now', Value: 'OFF' }];
    if (sql === 'SET GLOBAL rocksdb_force_flush_memtable_and_lzero_now = 1') return [];
    if (sql === PENDING_SQL) return state.pendingRows;
    const analyze = /^ANALYZE TABLE (sbtest\d+(?:, sbtest\d+)*)$/.exec(sql);
    if (analyze) return analyze[1].split(', ').map((t) => ({ Table: `sbtest.${t}`, Op: 'analyze', Msg_type: 'status', Msg_text: 'OK' }));
    throw new Error(`stand-in server: unknown statement ${sql}`);
  };
  return { query, seen };
}

test('stand-in: a compaction still pending at the timeout is recorded in the result, the step stays ok', async () => {
  const { query, seen } = standInServer({ pendingRows: [
    { CF_NAME: 'default', STAT_TYPE: 'COMPACTION_PENDING', VALUE: 1 },
    { CF_NAME: 'default', STAT_TYPE: 'MEM_TABLE_FLUSH_PENDING', VALUE: 0 },
    { CF_NAME: '__system__', STAT_TYPE: 'COMPACTION_PENDING', VALUE: 0 },
  ] });
  const pw = await runPostwrite(query, 'rocksdb', SUITE, { onProgress: () => {}, flushTimeoutS: 0.3, pollS: 0.05 });
  assert.equal(pw.status, 'ok', pw.reason ?? '');
  assert.equal(pw.flushComplete, false);
  assert.match(pw.note ?? '', /^RocksDB work still pending after 0 s \(ROCKSDB_CFSTATS: default COMPACTION_PENDING 1\)$/);
  assert.ok(pw.flushS >= 0.3, `waited ${pw.flushS} s`);
  assert.ok(seen.filter((s) => s === PENDING_SQL).length >= 3, 'polled until the timeout');
  assert.ok(seen.includes('ANALYZE TABLE sbtest1, sbtest2'), 'ANALYZE still runs');
});

test('stand-in: a server without the pending stats fails the step with a reason, not a silent "done"', async () => {
  const { query } = standInServer({ pendingRows: [] });
  const pw = await runPostwrite(query, 'rocksdb', SUITE, { onProgress: () => {}, flushTimeoutS: 1, pollS: 0.05 });
  assert.equal(pw.status, 'failed');
  assert.match(pw.reason ?? '', /ROCKSDB_CFSTATS has no MEM_TABLE_FLUSH_PENDING nor COMPACTION_PENDING row/);
});
