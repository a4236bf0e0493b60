import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { renderMycnf } from '../../scripts/server/index.js';
import { UserError } from '../../scripts/errors.js';
import { config } from './helpers.js';

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
