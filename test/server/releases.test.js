/**
 * Every other reference release starts and stops through the same code: Oracle MySQL 9.7.4
 * (sid), MariaDB 11.8.9 (trixie, also with MyRocks) and 10.5.23 (bullseye). Each flavor's
 * specifics must hold: MySQL without X Protocol and with a private secure-file-priv, TCP
 * root login on MySQL (which creates only root@localhost), the template's per-flavor groups.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection } from 'mysql2/promise';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { skipReason, getInstall, tempWorkDir, serverOptions } from './helpers.js';

const skip = skipReason;
/** @type {(() => Promise<void>)[]} */
const cleanups = [];
after(async () => {
  await stopAllServers();
  for (const c of cleanups) await c();
});

/**
 * @type {{product: string, version: string, engine: 'innodb'|'rocksdb', port: number, versionRe: RegExp,
 *   vars: Record<string, string|number>}[]}
 */
const CASES = [
  {
    product: 'mysql', version: '9.7.4', engine: 'innodb', port: 23130, versionRe: /^9\.7\.4/,
    // innodb_redo_log_capacity comes from the [mysqld-oracle] group: 256M from the local host class.
    vars: { innodb_redo_log_capacity: 256 * 1024 * 1024, log_bin: 1, sync_binlog: 0, character_set_server: 'latin1' },
  },
  {
    product: 'mariadb', version: '11.8.9', engine: 'innodb', port: 23131, versionRe: /^11\.8\.9-MariaDB/,
    vars: { innodb_log_file_size: 256 * 1024 * 1024, binlog_format: 'ROW', log_bin: 1, character_set_server: 'latin1' },
  },
  {
    product: 'mariadb', version: '11.8.9', engine: 'rocksdb', port: 23132, versionRe: /^11\.8\.9-MariaDB/,
    vars: { default_storage_engine: 'ROCKSDB', rocksdb_flush_log_at_trx_commit: 2, rocksdb_block_cache_size: 512 * 1024 * 1024 },
  },
  {
    product: 'mariadb', version: '10.5.23', engine: 'innodb', port: 23133, versionRe: /^10\.5\.23-MariaDB/,
    // [mariadb-10.5] sets O_DIRECT (later releases default to it).
    vars: { innodb_flush_method: 'O_DIRECT', innodb_log_file_size: 256 * 1024 * 1024, log_bin: 1 },
  },
];

for (const c of CASES) {
  test(`${c.product} ${c.version} (${c.engine}) starts, answers on socket and TCP, stops cleanly`, { skip }, async () => {
    const install = await getInstall(c.product, c.version);
    const w = await tempWorkDir(`${c.version}-${c.engine}`);
    cleanups.push(w.remove);
    const h = await startServer(install, serverOptions(w.dir, c.port, c.engine));
    assert.match(h.version, c.versionRe);
    assert.equal(h.flavor, install.flavor);
    assert.equal(h.command.includes('--mysqlx=OFF'), c.product === 'mysql');
    if (c.product === 'mysql') {
      const [x] = await h.query("SELECT COUNT(*) AS n FROM information_schema.PLUGINS WHERE PLUGIN_NAME = 'mysqlx' AND PLUGIN_STATUS = 'ACTIVE'");
      assert.equal(Number(x.n), 0, 'X Protocol is off (no listener on 33060)');
      const [f] = await h.query('SELECT @@secure_file_priv AS dir');
      assert.equal(String(f.dir).replace(/\/$/, ''), `${w.dir}/files`);
    }

    const names = Object.keys(c.vars);
    const [row] = await h.query(`SELECT ${names.map((n) => `@@${n} AS ${n}`).join(', ')}`);
    for (const n of names) assert.equal(typeof c.vars[n] === 'number' ? Number(row[n]) : row[n], c.vars[n], n);

    const tcp = await createConnection({ host: h.host, port: h.port, user: h.user, password: h.password, database: h.database });
    await tcp.query('CREATE TABLE sbtest1 (id INT PRIMARY KEY, k INT)');
    await tcp.end();
    const [t] = await h.query("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1'");
    assert.equal(String(t.ENGINE).toLowerCase(), c.engine);

    const health = await h.checkHealth();
    assert.equal(health.ok, true, health.reason ?? '');
    assert.deepEqual(await h.stop(), { code: 0, signal: null, expected: true });
    assert.equal(h.isAlive(), false);
  });
}
