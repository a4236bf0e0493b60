import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseMycnf, normalizeOptionName, renderMycnf, appendMycnfOptions } from '../../scripts/server/mycnf.js';
import { selectServerOptions, buildServerArgs } from '../../scripts/server/build-server-args.js';
import { UserError } from '../../scripts/errors.js';
import { config } from './helpers.js';

test('parses groups, values, bare flags, quotes, comments and repeated keys in file order', () => {
  const text = [
    '# comment', '; also a comment', '', '[mysqld]', 'skip-name-resolve', 'innodb_buffer_pool_size = 1G  # trailing',
    'plugin-load-add=ha_rocksdb.so', 'plugin-load-add=ha_archive.so', '[MariaDB]', 'init_connect="SET a=1 # not a comment"',
    'rocksdb_default_cf_options=level0_slowdown_writes_trigger=20;level0_stop_writes_trigger=30',
  ].join('\n');
  const opts = parseMycnf(text, 't');
  assert.deepEqual(opts.map((o) => [o.group, o.name, o.value, o.line]), [
    ['mysqld', 'skip-name-resolve', null, 5],
    ['mysqld', 'innodb_buffer_pool_size', '1G', 6],
    ['mysqld', 'plugin-load-add', 'ha_rocksdb.so', 7],
    ['mysqld', 'plugin-load-add', 'ha_archive.so', 8],
    ['mariadb', 'init_connect', 'SET a=1 # not a comment', 10],
    ['mariadb', 'rocksdb_default_cf_options', 'level0_slowdown_writes_trigger=20;level0_stop_writes_trigger=30', 11],
  ]);
});

test('rejects !include, options before a group and malformed lines, listing every problem with its line', () => {
  const text = ['port=1', '[mysqld]', '!includedir /etc/mysql/conf.d/', 'bad line here', '[broken'].join('\n');
  assert.throws(() => parseMycnf(text, "my.cnf template 'x'"), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /my\.cnf template 'x': 4 problems/);
    assert.match(err.message, /line 1: option 'port' comes before any \[group\]/);
    assert.match(err.message, /line 3: '!includedir \/etc\/mysql\/conf\.d\/' is not allowed/);
    assert.match(err.message, /line 4: cannot read 'bad line here'/);
    assert.match(err.message, /line 5: malformed group header/);
    return true;
  });
});

test('option names compare equal across - and _ and without loose-', () => {
  assert.equal(normalizeOptionName('Innodb_Buffer_Pool-Size'), 'innodb-buffer-pool-size');
  assert.equal(normalizeOptionName('loose-rocksdb_block_cache_size'), 'rocksdb-block-cache-size');
});

const TEMPLATE = [
  '# buffer pool: {{innodb_buffer_pool_size}} in a comment stays as written',
  '[mysqld]',
  'innodb_buffer_pool_size={{innodb_buffer_pool_size}}',
  'innodb_io_capacity={{innodb_io_capacity:2000}}',
  'max_connections=1000',
  'sync_binlog=0',
].join('\n');

test('placeholders take host values, else their default; literal options take host values of the same name', () => {
  const r = renderMycnf({
    name: 'innodb', template: TEMPLATE,
    overrides: { innodb_buffer_pool_size: '24G', 'max-connections': 500, rocksdb_block_cache_size: '8G' },
  });
  assert.equal(r.text, [
    '# buffer pool: {{innodb_buffer_pool_size}} in a comment stays as written',
    '[mysqld]',
    'innodb_buffer_pool_size=24G',
    'innodb_io_capacity=2000',
    'max_connections=500',
    'sync_binlog=0',
  ].join('\n'));
  assert.equal(r.sha256, createHash('sha256').update(r.text).digest('hex'));
  assert.deepEqual(r.unusedOverrides, ['rocksdb_block_cache_size']);
  assert.equal(r.name, 'innodb');
});

test('the hash follows the text: another host value gives another hash', () => {
  const a = renderMycnf({ name: 'innodb', template: TEMPLATE, overrides: { innodb_buffer_pool_size: '1G' } });
  const b = renderMycnf({ name: 'innodb', template: TEMPLATE, overrides: { innodb_buffer_pool_size: '2G' } });
  assert.notEqual(a.sha256, b.sha256);
});

test('a placeholder without value or default is an error naming the line and the host class key', () => {
  assert.throws(() => renderMycnf({ name: 'innodb', template: TEMPLATE }), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /my\.cnf template 'innodb'/);
    assert.match(err.message, /line 3: \{\{innodb_buffer_pool_size\}\} has no value: set mycnf\.innodb_buffer_pool_size in the host class/);
    return true;
  });
});

test('an override value that is empty or spans lines is refused', () => {
  assert.throws(
    () => renderMycnf({ name: 'innodb', template: TEMPLATE, overrides: { innodb_buffer_pool_size: '1G\n[client]\nuser=x' } }),
    /mycnf\.innodb_buffer_pool_size = .* must be a non-empty single-line value/,
  );
});

test('every shipped template renders with every host class', () => {
  assert.ok(Object.keys(config.mycnf).length >= 2, 'configs/mycnf has innodb.cnf and rocksdb.cnf');
  for (const [name, template] of Object.entries(config.mycnf)) {
    for (const host of Object.values(config.hosts)) {
      const r = renderMycnf({ name, template, overrides: host.mycnf });
      assert.doesNotMatch(r.text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n'), /\{\{/, `${name} with ${host.name}`);
      for (const [key, value] of Object.entries(host.mycnf)) {
        if (!r.unusedOverrides.includes(key)) assert.match(r.text, new RegExp(`=${value}$`, 'm'), `${name}: ${key}`);
      }
    }
  }
});

test('a wrapper\'s my.cnf values come last, win over the template and the host class, and change the sha256', () => {
  const r = renderMycnf({ name: 'innodb', template: config.mycnf.innodb, overrides: { innodb_buffer_pool_size: '512M' } });
  assert.equal(appendMycnfOptions(r, {}, 'valgrind'), r, 'nothing to add: the same rendering');
  const w = appendMycnfOptions(r, { innodb_buffer_pool_size_max: '512M', innodb_use_native_aio: 0, innodb_buffer_pool_size: '128M' }, 'valgrind --tool=callgrind');
  assert.ok(w.text.startsWith(r.text.replace(/\n*$/, '\n')), 'the template text is kept as rendered');
  assert.match(w.text, /# Added by tagbench for the wrapper the server runs under \(valgrind --tool=callgrind\)/);
  assert.match(w.text, /\[mysqld\]\ninnodb_buffer_pool_size_max=512M\ninnodb_use_native_aio=0\ninnodb_buffer_pool_size=128M\n$/);
  assert.equal(w.sha256, createHash('sha256').update(w.text).digest('hex'));
  assert.notEqual(w.sha256, r.sha256);
  const args = buildServerArgs({
    flavor: 'mariadb', port: 3306, pluginDir: '/p', shareDir: '/s', engine: 'innodb', asRoot: false,
    paths: { basedir: '/b', datadir: '/d', socket: '/x.sock', pidFile: '/x.pid', errorLog: '/e', tmpdir: '/t', secureFileDir: '/f' },
    options: selectServerOptions(parseMycnf(w.text, 't'), 'mariadb', '10.11.18', 'innodb'),
  });
  // mysqld takes the last of repeated options: the wrapper's value is after the template's.
  const pool = args.filter((a) => a.startsWith('--innodb_buffer_pool_size='));
  assert.deepEqual(pool, ['--innodb_buffer_pool_size=512M', '--innodb_buffer_pool_size=128M']);
  assert.ok(args.includes('--innodb_use_native_aio=0'));
  assert.throws(() => appendMycnfOptions(r, { 'bad name': 1, innodb_use_native_aio: '' }, 'x'), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /"bad name" is not a server option name/);
    assert.match(err.message, /innodb_use_native_aio = "" must be a non-empty single-line value/);
    return true;
  });
});
