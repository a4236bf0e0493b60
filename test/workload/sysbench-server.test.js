/**
 * The bench stage against a real MariaDB server and real sysbench: load the smoke suite's
 * tables, run every step of the smoke plan once (1 s warm-up + 1 s measured instead of the
 * suite's 3 s, to keep the suite short), and check that each gives a valid positive result and
 * that our own Lua scripts really ran their SQL (server status counters). Then postwrite, and
 * the failure paths: server killed mid-step, timeout, missing executable.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite, prepareTables, runStepRepeat, runPostwrite, getBenchmark } from '../../scripts/workload/index.js';
import { findTestPrefix, startTestServer } from './helpers/test-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const prefix = await findTestPrefix();
const quiet = () => {};

/** @type {import('./helpers/test-server.js').TestServer} */
let server;
/** @type {import('../../scripts/types.js').SuiteConfig} */
let suite;

before(async () => {
  const config = await loadConfig(root);
  suite = { ...config.suites.smoke, readDurationS: 1, writeDurationS: 1, warmupS: 1, scanWarmDurationS: 1, restS: 0 };
  server = await startTestServer({ prefix: prefix, port: 23202 });
});

after(async () => {
  await server?.stop();
});

/**
 * @param {TestServerLike} s
 * @returns {Promise<Record<string, number>>}
 * @typedef {{query: (sql: string) => Promise<any>}} TestServerLike
 */
async function status(s) {
  const rows = await s.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select', 'Com_update', 'Com_delete', 'Com_insert', 'Handler_read_rnd_next', 'Handler_read_key', 'Handler_read_next', 'Handler_update')");
  return Object.fromEntries(rows.map((/** @type {any} */ r) => [r.Variable_name, Number(r.Value)]));
}

test('smoke plan: load, every step once, postwrite — real server, real sysbench', async (t) => {
  const plan = planSuite(suite, { engine: 'innodb' });
  // Without target.query prepareTables opens its own connection (and creates the database).
  const { query: _q, ...noQuery } = server;
  const load = await prepareTables(suite, { ...noQuery, database: 'sbtest_load' }, { onProgress: quiet });
  assert.equal(load.status, 'ok', load.reason ?? '');
  assert.match(load.rawOutput, /Creating a secondary index on 'sbtest1'/);
  const [cols] = await server.query("SELECT COUNT(*) AS n FROM sbtest_load.sbtest1");
  assert.equal(Number(cols.n), suite.tableSize);

  const loaded = await prepareTables(suite, server, { onProgress: quiet, clientCpus: '1' });
  assert.equal(loaded.status, 'ok', loaded.reason ?? '');
  assert.equal(loaded.argv[0], 'taskset');
  // k is uniform over 1..tableSize (1.0.20's default `special` would bunch it), index built.
  const [k] = await server.query('SELECT MIN(k) AS lo, MAX(k) AS hi, COUNT(DISTINCT k) AS d FROM sbtest1');
  assert.ok(Number(k.hi) > suite.tableSize * 0.9 && Number(k.d) > suite.tableSize * 0.5, JSON.stringify(k));

  for (const step of plan) {
    if (step.kind === 'load') continue;
    if (step.kind === 'postwrite') {
      const pw = await runPostwrite(server.query, 'innodb', suite, { onProgress: quiet });
      assert.equal(pw.status, 'ok', pw.reason ?? '');
      assert.ok(pw.statements.some((s) => s.startsWith('ANALYZE TABLE sbtest1')));
      continue;
    }
    await t.test(step.name, async () => {
      const before = await status(server);
      const rep = await runStepRepeat(step, server, { clientCpus: '1' });
      const after = await status(server);
      assert.equal(rep.status, 'ok', rep.status === 'failed' ? `${rep.reason}\n${rep.rawOutput}` : '');
      if (rep.status !== 'ok') return;
      const d = Object.fromEntries(Object.keys(after).map((key) => [key, after[key] - before[key]]));
      assert.ok(rep.throughput > 0 && rep.qps > 0 && rep.tps > 0);
      // The configured second, measured: on a loaded host sysbench's last report comes late
      // (1.64 s beside an act run), never a multiple of it.
      assert.ok(rep.durationS > 0.9 && rep.durationS < 3, `measured ${rep.durationS} s`);
      assert.ok(rep.latencyMs.avg > 0 && rep.latencyMs.max >= rep.latencyMs.avg);
      assert.equal(rep.argv[0], 'taskset');
      assert.ok(rep.argv.includes('--rand-type=uniform') && rep.argv.includes('--db-ps-mode=disable'));
      const events = rep.tps * rep.durationS;
      checkOwnScript(step, rep, d, events);
    });
  }
  // The write phase changed rows: the last step (insert) grew the table past the load.
  const [mx] = await server.query('SELECT MAX(id) AS m FROM sbtest1');
  assert.ok(Number(mx.m) > suite.tableSize);
});

/**
 * What each own script must have done on the server, from status counter deltas over the
 * repeat (warm-up included, so at least the measured events' work).
 * @param {import('../../scripts/workload/types.js').StepPlan} step
 * @param {import('../../scripts/workload/types.js').RepeatOk} rep
 * @param {Record<string, number>} d
 * @param {number} events measured events
 */
function checkOwnScript(step, rep, d, events) {
  const p = step.params;
  const msg = `${step.name}: ${JSON.stringify(d)} for ${events.toFixed(0)} events`;
  if (step.scriptSource !== 'own') return;
  if (step.script === 'scan.lua') {
    assert.equal(rep.throughput, Math.round(rep.tps * step.tableSize * 1000) / 1000, 'rows/s = scans/s x rows per table');
    assert.ok(d.Handler_read_rnd_next >= events * step.tableSize, `every scan reads the whole table: ${msg}`);
    return;
  }
  // No own script other than scan may fall back to a table scan. (Some sequential reads are
  // legitimate: MariaDB turns an IN-list of >= 1000 values into a temporary table it scans.)
  assert.ok(d.Handler_read_rnd_next < (events + 1) * step.tableSize / 2, `no full scan: ${msg}`);
  if (step.script === 'update-inlist.lua') {
    assert.ok(d.Com_update >= events, msg);
    assert.ok(d.Handler_update >= 0.9 * Number(p['random-points']) * events, `about ${p['random-points']} rows per UPDATE: ${msg}`);
  } else if (step.script === 'update-zipf.lua') {
    assert.ok(d.Com_update >= events && d.Handler_update >= 0.9 * events, msg);
  } else if (step.script === 'points.lua') {
    assert.ok(d.Com_select >= events, msg);
    // One index lookup per distinct IN value (random duplicates are few at these sizes).
    assert.ok(d.Handler_read_key >= 0.8 * Number(p['random-points']) * events, `IN-list of ${p['random-points']} by index: ${msg}`);
  } else if (step.script === 'ranges.lua') {
    assert.ok(d.Com_select >= events, msg);
    // k is random, so a range of k values holds range-size rows on average, not exactly.
    const perQuery = p['key-index'] === 'pk' ? 0.95 : 0.5;
    assert.ok(d.Handler_read_next >= perQuery * Number(p['range-size']) * events, `range of ${p['range-size']} rows by index: ${msg}`);
  } else {
    assert.fail(`no check for own script ${step.script}`);
  }
}

test('postwrite: InnoDB flushes to ~0 dirty pages and restores the settings', async () => {
  const [saved] = await server.query('SELECT @@innodb_max_dirty_pages_pct AS pct, @@innodb_max_dirty_pages_pct_lwm AS lwm');
  const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (planSuite(suite).find((s) => s.name === 'update-nonindex'));
  const rep = await runStepRepeat({ ...step, warmupS: 0, durationS: 2 }, server);
  assert.equal(rep.status, 'ok');
  const pw = await runPostwrite(server.query, 'innodb', { ...suite, restS: 1 }, { onProgress: quiet });
  assert.equal(pw.status, 'ok', pw.reason ?? '');
  assert.equal(pw.flushComplete, true, pw.note ?? '');
  assert.ok(pw.dirtyPagesAtEnd !== null && pw.dirtyPagesAtEnd <= 16, `dirty at end: ${pw.dirtyPagesAtEnd}`);
  assert.ok(pw.statements.includes('SET GLOBAL innodb_max_dirty_pages_pct = 0'));
  const [now] = await server.query('SELECT @@innodb_max_dirty_pages_pct AS pct, @@innodb_max_dirty_pages_pct_lwm AS lwm');
  assert.deepEqual(now, saved);
});

test('postwrite: a failing statement is a failed result naming it', async () => {
  const pw = await runPostwrite(server.query, 'innodb', { ...suite, tables: 3 }, { onProgress: quiet });
  assert.equal(pw.status, 'failed');
  assert.match(pw.reason ?? '', /ANALYZE TABLE sbtest1, sbtest2, sbtest3/);
});

test('postwrite: MyRocks flush on a server without the plugin fails, InnoDB settings untouched', async () => {
  const pw = await runPostwrite(server.query, 'rocksdb', suite, { onProgress: quiet });
  assert.equal(pw.status, 'failed');
  assert.match(pw.reason ?? '', /MyRocks plugin loaded/);
  assert.equal(pw.statements.some((s) => s.includes('innodb')), false);
});

test('runStepRepeat: timeout, abort, missing executable, bad CPU list are failures with reasons', async () => {
  const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (planSuite(suite).find((s) => s.name === 'point-query'));
  const slow = await runStepRepeat({ ...step, warmupS: 0, durationS: 6 }, server, { timeoutMarginS: -4 });
  assert.equal(slow.status, 'failed');
  assert.match(slow.status === 'failed' ? slow.reason : '', /^timed out: killed after 2 s/);
  assert.equal(slow.throughput, null);
  assert.ok(slow.intervals.length >= 1, 'seconds seen before the kill are kept');
  const missing = await runStepRepeat(step, server, { sysbenchBin: '/nonexistent/sysbench' });
  assert.equal(missing.status, 'failed');
  assert.match(missing.status === 'failed' ? missing.reason : '', /cannot start \/nonexistent\/sysbench/);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 1000);
  const stopped = await runStepRepeat({ ...step, warmupS: 0, durationS: 6 }, server, { signal: ac.signal });
  assert.equal(stopped.status, 'failed');
  assert.match(stopped.status === 'failed' ? stopped.reason : '', /^aborted after/);
  const badCpu = await runStepRepeat(step, server, { clientCpus: '4095' });
  assert.equal(badCpu.status, 'failed');
  assert.match(badCpu.status === 'failed' ? badCpu.reason : '', /last output line: taskset: /);
});

test('scan: rows/s is the rows the scan read (counted before the repeat), not the configured table size', async () => {
  const plan = planSuite(suite, { engine: 'innodb' });
  const scan = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (plan.find((s) => s.name === 'scan'));
  const point = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (plan.find((s) => s.name === 'point-query'));
  const sysbench = getBenchmark('sysbench');
  // The table grows past the configured size, as an insert test's rows made it grow.
  // The earlier tests' writes left the table at some size of their own (their deletes leave ids
  // free): top it up to 3,000 rows over the configured size, whatever it held.
  await server.query(`DELETE FROM sbtest1 WHERE id > ${suite.tableSize}`);
  const [{ n: held }] = await server.query('SELECT COUNT(*) AS n FROM sbtest1');
  const topUp = suite.tableSize + 3000 - Number(held);
  await server.query(`INSERT INTO sbtest1 (id, k, c, pad) SELECT id + ${10 * suite.tableSize}, k, c, pad FROM sbtest1 ORDER BY id LIMIT ${topUp}`);
  const [{ n }] = await server.query('SELECT COUNT(*) AS n FROM sbtest1');
  const rows = Number(n);
  assert.ok(rows > suite.tableSize + 1000, `${rows} rows: more than the configured ${suite.tableSize}`);
  assert.ok(sysbench.beforeRepeat, 'the sysbench plug-in counts before a repeat');
  const counted = await sysbench.beforeRepeat(scan, server);
  assert.equal(counted.rowsPerEvent, rows);
  assert.equal(await sysbench.beforeRepeat(point, server), point, 'other tests are left as planned');
  // No warm-up: the server's count of rows read covers exactly the summary's events.
  // (a full scan is one Handler_read_rnd_next call a row, and one more at its end).
  const before = await status(server);
  const rep = await runStepRepeat({ ...counted, warmupS: 0, durationS: 1 }, server);
  const after = await status(server);
  assert.equal(rep.status, 'ok', rep.status === 'failed' ? rep.reason : '');
  const events = Math.round(/** @type {number} */ (rep.tps) * rep.durationS);
  const readPerEvent = (after.Handler_read_rnd_next - before.Handler_read_rnd_next) / events;
  assert.ok(Math.abs(readPerEvent / rows - 1) < 0.02, `the server read ${readPerEvent} rows a scan`);
  assert.ok(Math.abs(/** @type {number} */ (rep.throughput) / /** @type {number} */ (rep.tps) - rows) < 1, `rows/s ${rep.throughput} = ${rep.tps} scans/s x the counted rows`);
  assert.match(rep.rawOutput, new RegExp(`x ${rows} rows per event`));
  await server.query(`DELETE FROM sbtest1 WHERE id > ${suite.tableSize}`);
});

test('runStepRepeat: server killed mid-step is a failed repeat with the reason', async () => {
  const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (planSuite(suite).find((s) => s.name === 'read-only.range100'));
  const running = runStepRepeat({ ...step, warmupS: 0, durationS: 5 }, server);
  await new Promise((r) => setTimeout(r, 1500));
  await server.kill();
  const rep = await running;
  assert.equal(rep.status, 'failed');
  assert.match(rep.status === 'failed' ? rep.reason : '', /Lost connection|error 20(13|06)|gone away/);
  assert.equal(rep.throughput, null);
  assert.match(rep.rawOutput, /FATAL/);
});
