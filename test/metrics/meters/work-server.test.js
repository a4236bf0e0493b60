// The work meter on a real MariaDB 10.11.18: around a fixed amount of known work (point selects
// by primary key, then one sort), the counters it reports are that work's and nothing of its own
// (its status reads and the settling's polls add temporary tables and table scans on MariaDB,
// taken off), and a counter MariaDB lacks is null with the reason; the server handle's dirty-page
// flush the meter settles with.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../scripts/config/index.js';
import { findCachedInstall } from '../../../scripts/install/index.js';
import { startServer, findFreePort, stopAllServers } from '../../../scripts/server/index.js';
import { work } from '../../../scripts/metrics/meters/work.js';

const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
after(() => stopAllServers());

test('a real server: the counts of 200 point selects and one sort of 50 rows, per op, nothing of the meter\'s own', { timeout: 300_000 }, async () => {
  const install = await findCachedInstall(cacheDir, 'mariadb', '10.11.18', { provider: 'deb' });
  assert.ok(install, `mariadb 10.11.18 is not in the install cache ${cacheDir} (TAGBENCH_CACHE): tagbench install mariadb 10.11.18 --provider deb`);
  const config = await loadConfig(root);
  const server = await startServer(install, {
    workDir: await mkdtemp(join(tmpdir(), 'tagbench-work-meter-')), port: await findFreePort(), engine: 'innodb',
    mycnfTemplate: await readFile(join(root, 'configs/mycnf/innodb.cnf'), 'utf8'), log: () => {},
  });
  await server.query('CREATE TABLE sbtest.t (id INT PRIMARY KEY, k INT, pad CHAR(60)) ENGINE=InnoDB');
  await server.query(`INSERT INTO sbtest.t VALUES ${Array.from({ length: 500 }, (_, i) => `(${i + 1}, ${(i * 37) % 500}, 'x')`).join(',')}`);
  let warmed = false;
  const session = await work.start({ pid: server.pid, datadir: server.datadir, query: server.query, flushDirtyPages: server.flushDirtyPages, workCounters: config.products.mariadb.workCounters, beforeZero: async () => { warmed = true; } });
  assert.ok(warmed, 'the meter runs the warm-up before it reads the counters');
  for (let i = 1; i <= 200; i += 1) await server.query(`SELECT pad FROM sbtest.t WHERE id = ${i}`);
  await server.query('SELECT k FROM sbtest.t WHERE id <= 50 ORDER BY k');
  const figures = await session.stop({ ok: true, durationS: 1, throughput: null, tps: null, latencyMs: null, intervals: [], operations: 201 });
  const w = /** @type {any} */ (figures?.repeat).work;
  assert.equal(w.totals.indexLookups, 200, `one lookup per select: ${JSON.stringify(w.totals)}`);
  // The range walks the primary key from its first entry: 1 + 50 reads, the last one past id 50.
  assert.equal(w.totals.indexScans, 1);
  assert.equal(w.totals.indexNextReads, 50);
  assert.equal(w.totals.rowsRead, 251, '200 rows by key, 51 by the range');
  assert.equal(w.operations, 201);
  assert.equal(w.perOp.rowsRead, 251 / 201);
  assert.equal(w.totals.sortRows, 50);
  assert.equal(w.totals.tmpTables, 0, 'the status reads\' own temporary tables are taken off');
  assert.equal(w.totals.tableScans, 0, 'and their table scans');
  assert.equal(w.totals.tableScanRows, 0);
  assert.equal(w.totals.pagesWritten, 0, 'reads write no pages');
  assert.equal(w.perOp.logFsyncs, null);
  assert.match(w.missing.logFsyncs, /MariaDB reports no Innodb_os_log_fsyncs/);
  assert.equal(w.perOp.rocksdbStalls, null, 'no MyRocks on this server: null, not 0');
  assert.match(w.missing.rocksdbStalls, /no status variable Rocksdb_stall_total_slowdowns/);

  // The handle's flush (scripts/server): after a write, no dirty page left and the setting it
  // lowered to 0 back at what it was.
  const setting = async () => (await server.query("SHOW GLOBAL VARIABLES LIKE 'innodb_max_dirty_pages_pct'"))[0].Value;
  const saved = await setting();
  await server.query("UPDATE sbtest.t SET pad = 'y'");
  const flushS = await server.flushDirtyPages();
  assert.ok(flushS >= 0 && flushS < 120, `flushed in ${flushS} s`);
  const [dirty] = await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
  assert.equal(Number(dirty.Value), 0);
  assert.equal(await setting(), saved);
  assert.notEqual(Number(saved), 0, 'the server\'s own setting, not the flush\'s 0');
});
