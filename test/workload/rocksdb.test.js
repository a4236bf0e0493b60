/**
 * The bench stage with MyRocks: tables loaded with ENGINE=rocksdb, a read and a write step,
 * and the MyRocks postwrite (memtable flush + L0 compaction with whichever `*_now` variable
 * the release has, then ANALYZE). Real MariaDB 10.11 with ha_rocksdb.so loaded at start.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { planSuite, prepareTables, runStepRepeat, runPostwrite } from '../../scripts/workload/index.js';
import { findTestPrefix, startTestServer } from './helpers/test-server.js';

const prefix = await findTestPrefix();

/** @type {import('../../scripts/types.js').SuiteConfig} */
const SUITE = {
  name: 'rocks', description: 'MyRocks test', tables: 2, tableSize: 3000, clients: 1,
  readDurationS: 1, writeDurationS: 1, warmupS: 0, scanWarmDurationS: 1, restS: 0,
  only: ['point-query', 'update-nonindex'],
};
/** @type {import('./helpers/test-server.js').TestServer} */
let server;

before(async () => {
  server = await startTestServer({ prefix: prefix, port: 23203, rocksdb: true });
});
after(async () => { await server?.stop(); });

test('MyRocks: load, steps and postwrite', async () => {
  const plan = planSuite(SUITE, { engine: 'rocksdb' });
  const load = await prepareTables(SUITE, server, { engine: 'rocksdb', onProgress: () => {} });
  assert.equal(load.status, 'ok', load.reason ?? '');
  assert.ok(load.argv.includes('--mysql-storage-engine=rocksdb'));
  const engines = await server.query("SELECT DISTINCT ENGINE AS e FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest'");
  assert.deepEqual(engines.map((/** @type {any} */ r) => r.e), ['ROCKSDB']);

  for (const name of ['point-query', 'update-nonindex']) {
    const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (plan.find((s) => s.name === name));
    const rep = await runStepRepeat(step, server);
    assert.equal(rep.status, 'ok', rep.status === 'failed' ? rep.reason : '');
    assert.ok((rep.throughput ?? 0) > 0);
  }
  const pw = await runPostwrite(server.query, 'rocksdb', SUITE, { onProgress: () => {} });
  assert.equal(pw.status, 'ok', pw.reason ?? '');
  assert.ok(pw.statements.some((s) => /SET GLOBAL rocksdb_(force_flush_memtable_and_lzero_now|force_flush_memtable_now) = 1/.test(s)), pw.statements.join('\n'));
  assert.ok(pw.statements.includes('ANALYZE TABLE sbtest1, sbtest2'));
  assert.equal(pw.dirtyPagesAtEnd, null);
});
