// The engine check at server start (scripts/server/verify-engine.js) for MyRocks: every
// compression the template's column-family options name must be built into the server, since
// MyRocks starts without a word when one is not. Real values from the captured servers, then a
// real MariaDB 10.11.18 started with a template asking for a compression its build lacks.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { verifyEngine, namedCompressions } from '../../scripts/server/verify-engine.js';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { config, getInstall, serverOptions, tempWorkDir } from '../server/helpers.js';

const work = await tempWorkDir('engine-verify');
after(async () => {
  await stopAllServers();
  await work.remove();
});

test('the compressions of a column-family options string, wherever they are set', () => {
  assert.deepEqual(namedCompressions('write_buffer_size=64m;compression=kLZ4Compression;bottommost_compression=kZSTD;block_based_table_factory={filter_policy=bloomfilter:10:false}'), [
    { option: 'compression', compression: 'kLZ4Compression' }, { option: 'bottommost_compression', compression: 'kZSTD' },
  ]);
  assert.deepEqual(namedCompressions('compression_per_level=kNoCompression:kLZ4Compression;max_write_buffer_number=4').map((c) => c.compression), ['kNoCompression', 'kLZ4Compression']);
  assert.deepEqual(namedCompressions('write_buffer_size=64m'), []);
});

/**
 * A stand-in for the server's query function: answers the engine check's statements from a
 * captured server's variables the way a real MyRocks server does, and fails on any other SQL.
 * @param {{cf: string, supported: string}} vars
 */
function standIn(vars) {
  /** @param {string} sql */
  return async (sql) => {
    if (/information_schema\.ENGINES/.test(sql)) return [{ ENGINE: 'ROCKSDB', SUPPORT: 'DEFAULT' }];
    if (/@@default_storage_engine/.test(sql)) return [{ engine: 'ROCKSDB' }];
    if (/@@rocksdb_default_cf_options/.test(sql)) return [{ cf: vars.cf, supported: vars.supported }];
    if (/^(DROP|CREATE|INSERT) /.test(sql)) return [];
    if (/COUNT\(\*\)/.test(sql)) return [{ n: 2 }];
    if (/information_schema\.TABLES/.test(sql)) return [{ ENGINE: 'ROCKSDB' }];
    throw new Error(`stand-in got SQL the engine check does not send: ${sql}`);
  };
}

for (const version of ['10.5.23', '10.11.18', '11.8.6']) {
  test(`${version}: the project's template passes on the server it was captured from`, async () => {
    const server = JSON.parse(readFileSync(new URL(`../fixtures/metrics/rocksdb/${version}-server.json`, import.meta.url), 'utf8'));
    assert.match(server.rocksdb_supported_compression_types, /LZ4/);
    await verifyEngine(standIn({ cf: server.rocksdb_default_cf_options, supported: server.rocksdb_supported_compression_types }), 'rocksdb', { pluginDir: '/p', version });
    const xpress = server.rocksdb_default_cf_options.replace('bottommost_compression=kZSTD', 'bottommost_compression=kXpressCompression');
    await assert.rejects(verifyEngine(standIn({ cf: xpress, supported: server.rocksdb_supported_compression_types }), 'rocksdb', { pluginDir: '/p', version }),
      /sets bottommost_compression=kXpressCompression, but this build supports only Snappy, Zlib, LZ4, LZ4HC, ZSTDNotFinal/);
    await assert.rejects(verifyEngine(standIn({ cf: 'compression=kLZ5', supported: server.rocksdb_supported_compression_types }), 'rocksdb', { pluginDir: '/p', version }),
      /compression=kLZ5, which is no RocksDB compression/);
  });
}

test('a real server asked for a compression its build lacks does not get benchmarked', { timeout: 600_000 }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const template = config.mycnf.rocksdb.replace('bottommost_compression=kZSTD', 'bottommost_compression=kXpressCompression');
  assert.notEqual(template, config.mycnf.rocksdb, 'the template sets bottommost_compression=kZSTD');
  // CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
  await assert.rejects(startServer(install, serverOptions(`${work.dir}/x`, 23299, 'rocksdb', { serverCpus: '0', mycnfTemplate: template })),
    /bottommost_compression=kXpressCompression, but this build supports only .*LZ4/);
});
