/**
 * LinkBench through `tagbench run` against a real MariaDB 10.11.18 (deb provider, from the
 * install cache): the linkbench-smoke sequence with a short request phase, one release, one
 * pass. The record must be schema-valid and carry the seed posts' figures: load links/s, size
 * after load, requests/s and size after the request phase. The jar comes from the install cache
 * (built there from ../shared/linkbench/ when missing, as a runner would build from git).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { validateRecord } from '../../scripts/store/index.js';
import { SOURCE_ENV } from '../../scripts/workload/linkbench/index.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);

test('linkbench-smoke through tagbench run: load, index and request recorded with their figures', { timeout: 1_200_000 }, async () => {
  const smoke = /** @type {any} */ (loaded.suites['linkbench-smoke']);
  const suite = { ...smoke, name: 'test-linkbench-tiny', linkbench: { ...smoke.linkbench, maxtimeS: 5 } };
  const config = { ...loaded, suites: { ...loaded.suites, [suite.name]: suite } };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-linkbench-run-'));
  const saved = { source: process.env[SOURCE_ENV], cache: process.env.TAGBENCH_CACHE };
  process.env[SOURCE_ENV] = join(root, '..', 'shared', 'linkbench', 'linkbench-9ef9cc8.tar.gz');
  process.env.TAGBENCH_CACHE = cacheDir;
  /** @type {string[]} */
  const lines = [];
  try {
    const outcome = await runReleases(config, {
      releases: [{ product: 'mariadb', version: '10.11.18' }],
      suite: suite.name, hostClass: 'local', repeats: 1, instances: 1,
      storeDir: join(base, 'results'), workDir: join(base, 'work'), cacheDir, portBase: 23760,
      write: (t) => { lines.push(...t.split('\n')); },
    });
    // The jar is built or found before any server starts, outside every measured window.
    const jarAt = lines.findIndex((l) => /linkbench: .*(from the install cache|cached .* build)/.test(l));
    const startAt = lines.findIndex((l) => l.startsWith('start mariadb'));
    assert.ok(jarAt >= 0 && startAt > jarAt, `the LinkBench jar before the first server start:\n${lines.join('\n')}`);
    const [record] = outcome.records;
    assert.deepEqual(validateRecord(record), [], 'schema-valid record');
    assert.deepEqual(record.steps.map((s) => s.name), ['linkbench.load', 'linkbench.index', 'linkbench.request.1']);
    const by = Object.fromEntries(record.steps.map((s) => [s.name, s]));
    for (const step of record.steps) {
      assert.equal(step.kind, 'linkbench');
      assert.equal(step.repeats.length, 1);
      assert.equal(step.repeats[0].status, 'ok', `${step.name}: ${step.repeats[0].reason ?? ''}`);
      assert.ok((step.repeats[0].throughput ?? 0) > 0, `${step.name} throughput`);
    }
    const details = (/** @type {string} */ name) => /** @type {any} */ (by[name].repeats[0]).details.linkbench;
    assert.equal(by['linkbench.load'].repeats[0].throughput, details('linkbench.load').summary.linksPerS);
    assert.ok(details('linkbench.load').sizeAfterBytes > 0);
    // tagbench run hands the server's datadir to the step: linkdb0's files are measured on disk.
    assert.ok(details('linkbench.load').filesAfterBytes > 1024 * 1024, `linkdb0 on disk after the load: ${details('linkbench.load').filesAfterBytes}`);
    // The record's own size after load: the datadir on disk (its logical part counts the
    // server's database, not linkdb0; LinkBench's logical size is details.sizeAfterBytes).
    assert.ok((record.dbSize.afterLoad?.onDiskBytes ?? 0) > 0, 'size after load in the record');
    assert.equal(by['linkbench.request.1'].repeats[0].throughput, details('linkbench.request.1').summary.requestsPerS);
    assert.ok(details('linkbench.request.1').sizeAfterBytes > 0);
    assert.ok(details('linkbench.request.1').operations.length > 0);
  } finally {
    if (saved.source === undefined) delete process.env[SOURCE_ENV]; else process.env[SOURCE_ENV] = saved.source;
    if (saved.cache === undefined) delete process.env.TAGBENCH_CACHE; else process.env.TAGBENCH_CACHE = saved.cache;
    await rm(base, { recursive: true, force: true });
  }
});
