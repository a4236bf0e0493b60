import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServerArgs, releaseClients, selectServerOptions, serverGroups } from '../../scripts/server/build-server-args.js';
import { parseMycnf } from '../../scripts/server/mycnf.js';
import { renderMycnf } from '../../scripts/server/index.js';
import { UserError } from '../../scripts/errors.js';
import { config } from './helpers.js';

const PATHS = {
  basedir: '/p/usr', datadir: '/w/data', socket: '/w/mysqld.sock', pidFile: '/w/mysqld.pid',
  errorLog: '/w/error.log', tmpdir: '/w/tmp', secureFileDir: '/w/files',
};
const TEXT = [
  '[mysqld]', 'sync_binlog=0', '[mariadb]', 'binlog_format=ROW', '[mysqld-oracle]', 'innodb_redo_log_capacity=1G',
  '[mysqld-10.5]', 'innodb_flush_method=O_DIRECT', '[mariadb-11.8]', 'innodb_snapshot_isolation=OFF', '[mysqld]', 'sync_binlog=1',
].join('\n');

/**
 * @param {'mariadb'|'mysql'} flavor
 * @param {string} version
 */
const names = (flavor, version) => selectServerOptions(parseMycnf(TEXT, 't'), flavor, version, 't').map((o) => `${o.name}=${o.value}`);

test('each flavor and release line reads only its groups, in file order', () => {
  assert.deepEqual(names('mariadb', '10.11.18'), ['sync_binlog=0', 'binlog_format=ROW', 'sync_binlog=1']);
  assert.deepEqual(names('mariadb', '10.5.23'), ['sync_binlog=0', 'binlog_format=ROW', 'innodb_flush_method=O_DIRECT', 'sync_binlog=1']);
  assert.deepEqual(names('mariadb', '11.8.6'), ['sync_binlog=0', 'binlog_format=ROW', 'innodb_snapshot_isolation=OFF', 'sync_binlog=1']);
  assert.deepEqual(names('mysql', '9.7.4'), ['sync_binlog=0', 'innodb_redo_log_capacity=1G', 'sync_binlog=1']);
  assert.ok(serverGroups('mysql', '9.7.4').has('mysqld-9.7'));
  assert.ok(!serverGroups('mysql', '9.7.4').has('mariadb'));
});

test('options tagbench sets per instance and groups no server reads are refused, all listed', () => {
  const text = ['[mysqld]', 'datadir=/var/lib/mysql', 'port=3306', '[client]', 'user=root', '[mysqld]', 'loose-socket=/x'].join('\n');
  assert.throws(() => selectServerOptions(parseMycnf(text, 't'), 'mariadb', '10.11.18', 'custom'), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /my\.cnf template 'custom': 4 problems/);
    assert.match(err.message, /line 2: option 'datadir' is set by tagbench/);
    assert.match(err.message, /line 3: option 'port' is set by tagbench/);
    assert.match(err.message, /line 5: group \[client\] is read by no server/);
    assert.match(err.message, /line 7: option 'loose-socket' is set by tagbench/);
    return true;
  });
});

/**
 * @param {'mariadb'|'mysql'} flavor
 * @param {'innodb'|'rocksdb'} engine
 * @param {string} text
 */
function args(flavor, engine, text) {
  const options = selectServerOptions(parseMycnf(text, 't'), flavor, flavor === 'mysql' ? '9.7.4' : '10.11.18', 't');
  return buildServerArgs({ flavor, paths: PATHS, port: 23100, pluginDir: '/p/plugin', shareDir: '/p/share', engine, options, asRoot: true });
}

test('--no-defaults comes first, then the instance paths, then the template', () => {
  const a = args('mariadb', 'innodb', '[mysqld]\nsync_binlog=0\nskip-name-resolve');
  assert.equal(a[0], '--no-defaults');
  for (const want of ['--datadir=/w/data', '--socket=/w/mysqld.sock', '--port=23100', '--bind-address=127.0.0.1', '--tmpdir=/w/tmp', '--log-error=/w/error.log', '--user=root']) {
    assert.ok(a.includes(want), want);
  }
  assert.ok(a.indexOf('--sync_binlog=0') > a.indexOf('--tmpdir=/w/tmp'));
  assert.ok(a.includes('--skip-name-resolve'));
  assert.ok(a.includes('--default-storage-engine=InnoDB'));
  assert.ok(!a.includes('--mysqlx=OFF'));
  assert.ok(!a.some((x) => x.includes('ha_rocksdb')));
});

test('MySQL gets --mysqlx=OFF and --secure-file-priv', () => {
  const a = args('mysql', 'innodb', '[mysqld]\nsync_binlog=0');
  assert.ok(a.includes('--mysqlx=OFF'));
  assert.ok(a.includes('--secure-file-priv=/w/files'));
});

test('rocksdb loads the plugin at startup exactly once and makes it the default engine', () => {
  const without = args('mariadb', 'rocksdb', '[mysqld]\nsync_binlog=0');
  assert.equal(without.filter((x) => x === '--plugin-load-add=ha_rocksdb.so').length, 1);
  assert.ok(without.includes('--default-storage-engine=ROCKSDB'));
  const withIt = args('mariadb', 'rocksdb', '[mysqld]\nplugin-load-add=ha_rocksdb.so\ndefault-storage-engine=rocksdb');
  assert.equal(withIt.filter((x) => x.includes('ha_rocksdb')).length, 1);
  assert.equal(withIt.filter((x) => x.startsWith('--default-storage-engine')).length, 1);
});

test('the shipped templates are accepted for every flavor they apply to', () => {
  for (const [name, template] of Object.entries(config.mycnf)) {
    const r = renderMycnf({ name, template, overrides: config.hosts.local.mycnf });
    for (const [flavor, version] of /** @type {const} */ ([['mariadb', '10.5.23'], ['mariadb', '10.11.18'], ['mariadb', '11.8.6'], ['mysql', '9.7.4']])) {
      const opts = selectServerOptions(parseMycnf(r.text, name), flavor, version, name);
      assert.ok(opts.length > 0, `${name} for ${flavor} ${version}`);
    }
  }
});

test('a release\'s client and dump tools are found beside the server binary its command line runs', () => {
  assert.deepEqual(releaseClients(['taskset', '-c', '1', '/c/mariadb/usr/sbin/mariadbd', '--no-defaults']),
    { client: '/c/mariadb/usr/bin/mariadb', dump: '/c/mariadb/usr/bin/mariadb-dump' });
  assert.deepEqual(releaseClients(['valgrind', '--tool=callgrind', '/c/mysql/usr/sbin/mysqld', '--mysqlx=OFF']),
    { client: '/c/mysql/usr/bin/mysql', dump: '/c/mysql/usr/bin/mysqldump' });
  // A name that only ends like a server binary is not one.
  assert.equal(releaseClients(['/usr/bin/notmysqld-helper', '/opt/xmysqld']), null);
  assert.equal(releaseClients([]), null);
});
