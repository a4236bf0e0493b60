// Cached vs IO-bound end to end: `tagbench run` of the iobound-smoke suite (its 8 MB buffer pool,
// the data cut to 2 tables x 50k rows, about 3x the pool, and to point-query) with real
// MariaDB 10.11.18 and 10.11.19 servers and real sysbench, then `tagbench compare`: the rendered
// my.cnf holds the suite's pool over the host class's, the records are their own series (suite
// iobound-smoke), the point lookups read from storage, and the comparison prints reads per
// operation next to throughput.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { runSuite } from '../../scripts/run/index.js';
import { validateRecord, readRecords } from '../../scripts/store/index.js';
import { compareReleases } from '../../scripts/verify/compare-releases.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const config = {
  ...loaded,
  suites: { ...loaded.suites, 'iobound-smoke': { ...loaded.suites['iobound-smoke'], tables: 2, tableSize: 50000, readDurationS: 3, writeDurationS: 3, warmupS: 1, scanWarmDurationS: 1, restS: 0 } },
  // CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, pinning: { serverCpus: '0', clientCpus: '0' } } },
};

test('iobound-smoke: a buffer pool far below the data, its own series, reads per operation in the comparison', { timeout: 900_000 }, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-iobound-'));
  const storeDir = join(base, 'results');
  const outcome = await runSuite(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'iobound-smoke', hostClass: 'local', repeats: 3, instances: 1, only: ['point-query'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: () => {},
  });
  assert.equal(outcome.records.length, 2);
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', record.reason ?? '');
    assert.equal(record.config.suite, 'iobound-smoke');
    // The suite's pool wins over the host class's 512M.
    assert.match(record.config.mycnf.text, /^innodb_buffer_pool_size=8M$/m);
    assert.doesNotMatch(record.config.mycnf.text, /innodb_buffer_pool_size=512M/);
    // The data is several times the pool.
    assert.ok(record.dbSize.afterLoad && record.dbSize.afterLoad.logicalBytes > 2 * 8 * 2 ** 20, JSON.stringify(record.dbSize));
    const step = record.steps.find((s) => s.name === 'point-query');
    const reads = (step?.repeats ?? []).map((r) => r.efficiency?.readsPerOp ?? 0);
    // Most lookups miss the pool: about a page read each (a cached run reads next to none).
    assert.ok(reads.every((x) => x >= 0.2), `reads per operation ${reads.join(', ')}`);
  }
  // A cached suite's series does not see these records.
  assert.deepEqual(await readRecords(storeDir, { hostClass: 'local', suite: 'smoke' }), []);

  /** @type {string[]} */
  const printed = [];
  await compareReleases({ store: storeDir, hostClass: 'local', suite: 'iobound-smoke', product: 'mariadb', base: '10.11.18', storeVerdicts: false, changePoints: false, color: false, root, out: (/** @type {string} */ t) => printed.push(t) });
  const text = printed.join('');
  assert.match(text, /reads\/op = storage reads per operation/);
  assert.match(text, /^test\s+10\.11\.18 \(base\)\s+reads\/op\s+10\.11\.19\s+reads\/op\s+ratio$/m);
  assert.match(text, /^point-query\s+\d+ \[\d+–\d+\]\s+\d+\.\d+\s+\d+ \[\d+–\d+\]\s+\d+\.\d+\s+\d\.\d\d/m);
});
