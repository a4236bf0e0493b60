// A concurrency sweep end to end: `tagbench run` of the sweep-smoke suite (cut to a few seconds
// per test and to point-query) with real MariaDB 10.11.18 and 10.11.19 servers and real
// sysbench, then `tagbench compare` of the stored records: each client count is a test of its
// own in the records and in the verdicts, and the comparison prints a row per release with a
// column per count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { runSuite } from '../../scripts/run/index.js';
import { validateRecord } from '../../scripts/store/index.js';
import { compareReleases } from '../../scripts/verify/compare-releases.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const config = {
  ...loaded,
  suites: { ...loaded.suites, 'sweep-smoke': { ...loaded.suites['sweep-smoke'], tableSize: 5000, readDurationS: 2, writeDurationS: 2, warmupS: 1, scanWarmDurationS: 1, restS: 0 } },
  // CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, pinning: { serverCpus: '0', clientCpus: '0' } } },
};

test('sweep-smoke: point-query at 1, 2 and 4 clients on two releases, records and comparison', { timeout: 900_000 }, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-sweep-'));
  const storeDir = join(base, 'results');
  const outcome = await runSuite(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'sweep-smoke', hostClass: 'local', repeats: 3, instances: 1, only: ['point-query'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: () => {},
  });
  assert.equal(outcome.records.length, 2);
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', record.reason ?? '');
    assert.deepEqual(record.steps.filter((s) => s.reported).map((s) => s.name), ['point-query.c1', 'point-query.c2', 'point-query.c4']);
    for (const s of record.steps.filter((x) => x.reported)) assert.equal(s.repeats.filter((r) => r.status === 'ok').length, 3, s.name);
  }
  // sysbench really ran each count's threads (its own log says so).
  const id = outcome.records[0].id;
  for (const n of [1, 2, 4]) {
    const log = await readFile(join(storeDir, 'logs', id, `point-query.c${n}.r0.txt`), 'utf8');
    assert.match(log, new RegExp(`Number of threads: ${n}\\n`), `point-query.c${n} ran ${n} threads`);
  }

  /** @type {string[]} */
  const printed = [];
  const json = join(base, 'compare.json');
  await compareReleases({ store: storeDir, hostClass: 'local', suite: 'sweep-smoke', product: 'mariadb', base: '10.11.18', storeVerdicts: false, changePoints: false, color: false, json, root, out: (/** @type {string} */ t) => printed.push(t) });
  const text = printed.join('');
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l === 'throughput by clients');
  assert.ok(at >= 0, text);
  assert.match(lines[at + 3], /^point-query\s+1 client\s+2 clients\s+4 clients$/);
  assert.match(lines[at + 4], /^10\.11\.18 \(base\)\s+\d+\s+\d+\s+\d+$/);
  assert.match(lines[at + 5], /^10\.11\.19\s+\d+ \(\d\.\d\d\)\s+\d+ \(\d\.\d\d\)\s+\d+ \(\d\.\d\d\)$/);
  // A verdict per count.
  const { comparisons } = JSON.parse(await readFile(json, 'utf8'));
  const judged = comparisons[0].tests.filter((/** @type {any} */ t) => t.metric === 'throughput').map((/** @type {any} */ t) => t.test).sort();
  assert.deepEqual(judged, ['point-query.c1', 'point-query.c2', 'point-query.c4']);
});
