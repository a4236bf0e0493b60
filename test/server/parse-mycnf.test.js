import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMycnf, normalizeOptionName } from '../../scripts/server/parse-mycnf.js';
import { UserError } from '../../scripts/errors.js';

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
