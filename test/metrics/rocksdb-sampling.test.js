/**
 * The samplers around a step on a real MyRocks server (MariaDB 10.11.18 from the deb provider,
 * configs/mycnf/rocksdb.cnf, started by the server stage): the step's RocksDB figures arrive in
 * StepSamples.rocksdb, and an InnoDB-only server gets none. The "step" is SQL: 100,000 rows
 * inserted, then a memtable flush inside the sampled window, so flush bytes and write
 * amplification are known to be non-zero.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { startSampling } from '../../scripts/metrics/index.js';
import { getInstall, serverOptions, tempWorkDir } from '../server/helpers.js';

const install = await getInstall('mariadb', '10.11.18');
const work = await tempWorkDir('rocks-sampling');
after(async () => {
  await stopAllServers();
  await work.remove();
});

test('a MyRocks step: write amplification, stalls, LSM tree and SST files in the samples', { timeout: 600_000 }, async () => {
  // CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
  const server = await startServer(install, serverOptions(`${work.dir}/r`, 23296, 'rocksdb', { serverCpus: '0' }));
  try {
    await server.query('CREATE TABLE sbtest.t (id INT PRIMARY KEY, k INT, c CHAR(120), KEY (k))');
    const sampler = await startSampling({ pid: server.pid, datadir: server.datadir, query: server.query, intervalS: 1 });
    await server.query("INSERT INTO sbtest.t SELECT seq, seq % 1000, REPEAT('x', 120) FROM seq_1_to_100000");
    await server.query('SET GLOBAL rocksdb_force_flush_memtable_now = 1');
    const samples = await sampler.stop();
    const r = samples.rocksdb;
    assert.ok(r, `figures read (warnings: ${samples.warnings.join('; ')})`);
    // 100k rows of the PK (id + k + c) and 100k of index k: several MB of keys and values.
    assert.ok(r.userBytesWritten > 5e6, `user bytes ${r.userBytesWritten}`);
    assert.ok(r.flushBytesWritten > 0, 'the flush ran inside the window');
    assert.equal(r.writeAmp, (r.flushBytesWritten + r.compactionBytesWritten) / r.userBytesWritten);
    assert.ok(r.writeAmp !== null && r.writeAmp > 0);
    assert.ok(r.walBytesWritten > 0);
    assert.equal(r.stallStops, 0, 'a 100k-row insert does not stop writes');
    assert.ok(r.levels.length >= 1 && r.levels[0].level === 'L0' && r.levels[0].files >= 1, JSON.stringify(r.levels));
    assert.ok(r.sst && r.sst.files >= 1 && r.sst.bytes > 0 && r.sst.rawBytes > r.sst.bytes, `LZ4 shrinks the repeated 'x': ${JSON.stringify(r.sst)}`);
  } finally {
    await server.stop();
  }
});

test('an InnoDB server: no RocksDB figures in the samples', { timeout: 600_000 }, async () => {
  const server = await startServer(install, serverOptions(`${work.dir}/i`, 23297, 'innodb', { serverCpus: '0' }));
  try {
    const sampler = await startSampling({ pid: server.pid, datadir: server.datadir, query: server.query, intervalS: 1 });
    await server.query('SELECT 1');
    const samples = await sampler.stop();
    assert.ok(samples.status, 'the status was read');
    assert.equal('rocksdb' in samples, false);
  } finally {
    await server.stop();
  }
});
