// InnoDB against MyRocks on one release in one run: `--engine innodb,rocksdb` as the CLI expands
// it, real MariaDB 10.11.18 servers from the deb provider, real sysbench, two tests. The two
// servers alternate like two releases; each record says its engine and template; the MyRocks
// record carries RocksDB's figures per repeat; the two records compare like two releases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { expandEngines } from '../../scripts/run/resolve-run.js';
import { validateRecord } from '../../scripts/store/index.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { compareCommand } from '../../scripts/verify/commands.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const config = {
  ...loaded,
  suites: { ...loaded.suites, 'test-tiny': { ...loaded.suites.smoke, name: 'test-tiny', tableSize: 5000, readDurationS: 2, writeDurationS: 3, warmupS: 1, scanWarmDurationS: 1, restS: 0 } },
  // CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, pinning: { serverCpus: '0', clientCpus: '0' } } },
};

test('InnoDB and MyRocks on MariaDB 10.11.18 alternate in one run and compare like two releases', { timeout: 900_000 }, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-engines-'));
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runReleases(config, {
    releases: expandEngines([{ product: 'mariadb', version: '10.11.18' }], ['innodb', 'rocksdb']),
    suite: 'test-tiny', hostClass: 'local', repeats: 2, instances: 1, only: ['point-query', 'update-index'],
    storeDir: join(base, 'results'), workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  assert.equal(outcome.records.length, 2);
  const [innodb, rocksdb] = outcome.records;
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', record.reason ?? '');
  }
  assert.deepEqual(outcome.records.map((r) => r.config.engine), ['innodb', 'rocksdb']);
  assert.deepEqual(outcome.records.map((r) => r.config.mycnf.name), ['innodb', 'rocksdb']);
  assert.match(rocksdb.config.mycnf.text, /rocksdb_default_cf_options=.*bottommost_compression=kZSTD/);
  assert.doesNotMatch(innodb.config.mycnf.text, /rocksdb/);
  assert.deepEqual(outcome.records.map((r) => r.config.alternatedWith), [['mariadb@10.11.18#rocksdb'], ['mariadb@10.11.18#innodb']]);
  assert.match(innodb.id, /-mariadb-10\.11\.18-innodb-/);
  assert.match(rocksdb.id, /-mariadb-10\.11\.18-rocksdb-/);
  assert.match(lines.join(''), /start mariadb@10\.11\.18#rocksdb \(rocksdb, my\.cnf rocksdb/);

  for (const name of ['point-query', 'update-index']) {
    const a = innodb.steps.find((s) => s.name === name);
    const b = rocksdb.steps.find((s) => s.name === name);
    assert.ok(a && b && a.repeats.length === 2 && b.repeats.length === 2, name);
    // Alternation: innodb, rocksdb, innodb, rocksdb.
    const order = [a.repeats[0].startedAt, b.repeats[0].startedAt, a.repeats[1].startedAt, b.repeats[1].startedAt];
    assert.deepEqual([...order].sort(), order, `${name}: A B A B`);
    for (const rep of a.repeats) assert.equal('rocksdb' in rep, false, `${name}: no RocksDB figures on InnoDB`);
    for (const rep of b.repeats) {
      assert.ok(rep.rocksdb, `${name}: RocksDB figures on MyRocks`);
      assert.ok(rep.rocksdb.levels.length >= 1 && rep.rocksdb.sst && rep.rocksdb.sst.files >= 1, JSON.stringify(rep.rocksdb));
      if (name === 'update-index') assert.ok(rep.rocksdb.userBytesWritten > 0 && rep.rocksdb.walBytesWritten > 0, JSON.stringify(rep.rocksdb));
    }
  }
  // The MyRocks tables really are MyRocks tables: RocksDB saw the point queries' reads.
  assert.ok(rocksdb.dbSize.afterLoad && rocksdb.dbSize.afterLoad.logicalBytes > 0);

  // The compare stage takes the two engines as base and candidate, as it takes two releases.
  const comparison = compareRuns({
    base: { version: '10.11.18#innodb', records: [innodb] },
    candidate: { version: '10.11.18#rocksdb', records: [rocksdb] },
    thresholds: resolveThresholds(config.thresholds),
    createdAt: new Date().toISOString(),
  });
  const throughput = comparison.tests.filter((t) => t.metric === 'throughput').map((t) => t.test).sort();
  assert.deepEqual(throughput, ['point-query', 'update-index']);
  for (const t of comparison.tests.filter((v) => v.metric === 'throughput')) assert.ok(t.ratio !== null && t.ratio > 0, `${t.test} ratio ${t.ratio}`);
  // RocksDB's figures ride along, for the MyRocks side only.
  const update = comparison.rocksdb?.find((r) => r.test === 'update-index');
  assert.ok(update && update.base === null && update.candidate && update.candidate.repeats === 2, JSON.stringify(comparison.rocksdb));

  // `tagbench compare` on the stored records: the labelled form picks each engine's record; the
  // plain version, which would pool both engines, is refused.
  const storeDir = join(base, 'results');
  let printed = '';
  const jsonFile = join(base, 'engines.json');
  await compareCommand({ product: 'mariadb', releases: '10.11.18#innodb,10.11.18#rocksdb', hostClass: 'local', suite: 'test-tiny', store: storeDir, json: jsonFile, changePoints: false, out: (/** @type {string} */ t) => (printed += t), color: false });
  assert.match(printed, /^mariadb 10\.11\.18#rocksdb vs 10\.11\.18#innodb \(test-tiny, local\)/m);
  assert.match(printed, /RocksDB figures, base → candidate/);
  const stored = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.deepEqual([stored.comparisons[0].base.runIds, stored.comparisons[0].candidate.runIds], [[innodb.id], [rocksdb.id]]);
  await assert.rejects(
    compareCommand({ product: 'mariadb', releases: '10.11.18', hostClass: 'local', suite: 'test-tiny', store: storeDir, changePoints: false, out: () => {}, color: false }),
    /has run records of 2 engines .*--releases 10\.11\.18#innodb,10\.11\.18#rocksdb/,
  );
  // Kept when an assertion fails, for a look at the records and logs.
  await rm(base, { recursive: true, force: true });
});
