/**
 * Real MariaDB 10.11.18 servers (InnoDB and MyRocks) from the install stage: start, what the
 * handle says, pinning, no /etc/mysql leak, TCP and socket access, crash detection, stop.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { countRunningServers } from '../../scripts/server/server-registry.js';
import { skipReason, getInstall, tempWorkDir, serverOptions, exitOf, TEST_CPU } from './helpers.js';

const skip = skipReason;
/** @type {(() => Promise<void>)[]} */
const cleanups = [];
after(async () => {
  await stopAllServers();
  for (const c of cleanups) await c();
});

/**
 * @param {string} label
 * @returns {Promise<string>}
 */
async function workDir(label) {
  const w = await tempWorkDir(label);
  cleanups.push(w.remove);
  return w.dir;
}

/** @param {number} pid */
async function cpusAllowed(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return /Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1];
}

test('MariaDB 10.11.18 InnoDB: starts pinned, private, reachable; kill -9 is detected', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('innodb');
  // Option files the server must NOT read: --no-defaults keeps these out.
  const home = join(dir, 'home');
  await mkdir(home);
  await writeFile(join(home, '.my.cnf'), '[mysqld]\ninnodb_buffer_pool_size=64M\nmax_connections=7\n');
  const prevHome = process.env.HOME;
  process.env.HOME = home;
  process.env.MYSQL_HOME = home;
  /** @type {import('../../scripts/server/types.js').ServerHandle} */
  let h;
  try {
    h = await startServer(install, serverOptions(join(dir, 'w'), 23110, 'innodb'));
  } finally {
    process.env.HOME = prevHome;
    delete process.env.MYSQL_HOME;
  }

  assert.equal(h.host, '127.0.0.1');
  assert.equal(h.user, 'root');
  assert.equal(h.password, '');
  assert.equal(h.database, 'sbtest');
  assert.equal(h.port, 23110);
  assert.equal(h.engine, 'innodb');
  assert.match(h.version, /^10\.11\.18-MariaDB/);
  assert.equal(h.datadir, join(dir, 'w', 'data'));
  assert.equal(h.command[0], 'taskset');
  assert.equal(h.command[3], install.bin.server);
  assert.equal(h.command[4], '--no-defaults');
  assert.equal(await cpusAllowed(h.pid), TEST_CPU);
  assert.equal(h.mycnf.name, 'innodb');
  assert.equal(h.mycnf.sha256, createHash('sha256').update(h.mycnf.text).digest('hex'));
  assert.equal(await readFile(join(dir, 'w', 'my.cnf'), 'utf8'), h.mycnf.text);
  assert.ok(h.isAlive());

  // The rendered template is what the server runs with, not ~/.my.cnf nor /etc/mysql.
  const [vars] = await h.query('SELECT @@datadir AS datadir, @@innodb_buffer_pool_size AS bp, @@max_connections AS mc, @@log_bin AS binlog, @@sync_binlog AS sb, @@innodb_flush_log_at_trx_commit AS flc, @@port AS port');
  assert.equal(vars.datadir.replace(/\/$/, ''), h.datadir);
  assert.equal(Number(vars.bp), 512 * 1024 * 1024, 'innodb_buffer_pool_size from the local host class');
  assert.equal(Number(vars.mc), 1000);
  assert.equal(Number(vars.binlog), 1);
  assert.equal(Number(vars.sb), 0);
  assert.equal(Number(vars.flc), 2);
  assert.equal(Number(vars.port), 23110);

  // sysbench's way in: TCP to 127.0.0.1, root, no password, database sbtest.
  const tcp = await createConnection({ host: h.host, port: h.port, user: h.user, password: h.password, database: h.database });
  const [[row]] = /** @type {any} */ (await tcp.query('SELECT DATABASE() AS db'));
  assert.equal(row.db, 'sbtest');
  await tcp.end();

  const healthy = await h.checkHealth();
  assert.equal(healthy.ok, true, healthy.reason ?? '');

  const exited = exitOf(h);
  process.kill(h.pid, 'SIGKILL');
  const exit = await exited;
  assert.equal(exit.signal, 'SIGKILL');
  assert.equal(exit.expected, false);
  assert.equal(h.isAlive(), false);
  const health = await h.checkHealth();
  assert.equal(health.ok, false);
  assert.match(String(health.reason), new RegExp(`pid ${h.pid} .*not running: killed by SIGKILL, not asked to stop`));
  assert.match(String(health.logExcerpt), /ready for connections/);
  assert.deepEqual(await h.stop(), exit, 'stop() after a crash returns the crash');
});

test('MariaDB 10.11.18 MyRocks: the plugin is loaded at startup and new tables are RocksDB; SIGSEGV shows in checkHealth', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const h = await startServer(install, serverOptions(await workDir('rocksdb'), 23111, 'rocksdb'));
  const engines = await h.query("SELECT ENGINE, SUPPORT FROM information_schema.ENGINES WHERE ENGINE IN ('ROCKSDB', 'InnoDB') ORDER BY ENGINE");
  assert.deepEqual(engines.map((/** @type {any} */ e) => `${e.ENGINE}:${e.SUPPORT}`), ['InnoDB:YES', 'ROCKSDB:DEFAULT']);
  await h.query('CREATE TABLE sbtest1 (id INT PRIMARY KEY, c CHAR(120))');
  const [t] = await h.query("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1'");
  assert.equal(t.ENGINE, 'ROCKSDB');
  assert.match(h.command.join(' '), /--plugin-load-add=ha_rocksdb\.so/);
  assert.equal((await h.checkHealth()).ok, true);

  const exited = exitOf(h);
  process.kill(h.pid, 'SIGSEGV');
  await exited;
  const health = await h.checkHealth();
  assert.equal(health.ok, false);
  assert.match(String(health.reason), /error log shows a crash: .*got signal 11/);
  assert.match(String(health.logExcerpt), /backtrace|bug/i);
});

test('stop() shuts down cleanly, is idempotent; stopAllServers() stops every server still running', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const a = await startServer(install, serverOptions(await workDir('all-a'), 23112, 'innodb', { serverCpus: null }));
  const b = await startServer(install, serverOptions(await workDir('all-b'), 23113, 'innodb', { serverCpus: null }));
  const c = await startServer(install, serverOptions(await workDir('all-c'), 23114, 'innodb', { serverCpus: null }));
  assert.equal(a.command[0], install.bin.server, 'no taskset without pinning');

  const first = a.stop();
  const second = a.stop();
  const exitA = await first;
  assert.deepEqual(await second, exitA);
  assert.deepEqual(exitA, { code: 0, signal: null, expected: true });
  assert.match(await a.errorLogExcerpt(5), /Shutdown complete/);
  assert.equal(a.isAlive(), false);
  assert.equal((await a.checkHealth()).ok, false);

  assert.equal(countRunningServers(), 2);
  const stopped = await stopAllServers();
  assert.deepEqual(stopped.map((s) => s.port).sort(), [23113, 23114]);
  for (const s of stopped) assert.deepEqual(s.exit, { code: 0, signal: null, expected: true });
  for (const h of [b, c]) {
    assert.equal(h.isAlive(), false);
    assert.throws(() => process.kill(h.pid, 0), /ESRCH/);
  }
  assert.equal(countRunningServers(), 0);
  assert.deepEqual(await stopAllServers(), []);
});
