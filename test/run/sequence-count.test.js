// The insert benchmark and LinkBench counted through the production path: `tagbench run --meter
// instructions` on two real MariaDB releases (Debian packages) under real valgrind callgrind, the
// real LinkBench driver (its jar from the install cache), records stored and validated, then
// compared. Sizes far below the shipped sequences-counted suite's, and one round: 1 min 52 s on
// the shared 2-core VM at load 5, 3 min 46 s at load 10-14. What is asserted is that both releases did the
// same work, not the figures' noise (bench/instructions-sequences.md measures that).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { validateRecord } from '../../scripts/store/index.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { stopAllServers } from '../../scripts/server/index.js';

const execFileP = promisify(execFile);
const hasValgrind = await execFileP('valgrind', ['--version']).then(() => true, () => false);
const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const shipped = /** @type {any} */ (loaded.suites['sequences-counted']);
const COUNTED_IBENCH = { loadRows: 1000, l1Rows: 200, l2Rows: 50, queries: 100 };
const COUNTED_LINKBENCH = { maxid1: 501, requests: 200 };
const config = {
  ...loaded,
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, counting: { rounds: 1, repeats: 1, warmupShare: 0.3 } } },
  suites: {
    ...loaded.suites,
    'test-seqcount': {
      ...shipped, name: 'test-seqcount',
      ibench: { ...shipped.ibench, counted: COUNTED_IBENCH },
      linkbench: { ...shipped.linkbench, counted: COUNTED_LINKBENCH },
    },
  },
};
after(() => stopAllServers());

const IBENCH_COUNTED = ['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr100', 'qp100', 'qr500', 'qp500', 'qr1000', 'qp1000'];
const LINKBENCH_COUNTED = ['linkbench.load', 'linkbench.index', 'linkbench.request.1'];

test('run --meter instructions counts the insert benchmark and LinkBench: the same work for both releases, figures stored, compare judges them', {
  skip: !hasValgrind && 'valgrind is not installed (Debian: apt-get install valgrind)',
  timeout: 900_000,
}, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-seqcount-'));
  const storeDir = join(base, 'results');
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'test-seqcount', hostClass: 'local', repeats: 1, meters: ['instructions'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  const log = lines.join('');
  assert.equal(outcome.records.length, 2);
  /** @type {Record<string, import('../../scripts/types.js').CountedRepeat>[]} */
  const byRelease = [];
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', `${record.reason ?? ''}\n${log}`);
    /** @type {Record<string, import('../../scripts/types.js').CountedRepeat>} */
    const reps = {};
    for (const name of [...IBENCH_COUNTED, ...LINKBENCH_COUNTED]) {
      const slot = record.steps.find((s) => s.name === name)?.meters?.instructions;
      assert.ok(slot, `${record.release.version} ${name} has the meter's slot`);
      assert.equal(slot.status, 'ok', `${name}: ${slot.reason ?? ''}\n${log}`);
      assert.equal(slot.repeats.length, 1, `${name}: one pass in the one round`);
      const rep = slot.repeats[0];
      assert.ok((rep.instructions?.queryPathPerOp ?? 0) > 1000, `${name}: a query-path figure per operation (${rep.instructions?.queryPathPerOp})`);
      assert.ok(rep.profile, `${name}: its profile is kept`);
      const profile = JSON.parse(await readFile(join(storeDir, 'logs', record.id, String(rep.profile)), 'utf8'));
      assert.ok(Array.isArray(profile.functions) && profile.functions.length > 0, `${name}: the kept profile lists functions`);
      reps[name] = rep;
    }
    const cleanup = record.steps.find((s) => s.name === 'ibench.cleanup');
    assert.equal(cleanup?.meters, undefined, 'the cleanup is a setup step: run between the counted steps, not counted');
    byRelease.push(reps);
  }
  const [a, b] = byRelease;
  // The same work: rows, queries, links and requests, and LinkBench's operations type by type.
  assert.equal(a['l.i0'].operations, COUNTED_IBENCH.loadRows, 'l.i0 loads the counted rows (one client)');
  assert.equal(a['l.x'].operations, COUNTED_IBENCH.loadRows, 'l.x indexes them');
  assert.equal(a['l.i1'].operations, COUNTED_IBENCH.l1Rows);
  assert.equal(a.qp100.operations, COUNTED_IBENCH.queries);
  assert.equal(a['linkbench.request.1'].operations, COUNTED_LINKBENCH.requests, 'one requester, its request count');
  for (const name of [...IBENCH_COUNTED, ...LINKBENCH_COUNTED]) {
    assert.equal(a[name].operations, b[name].operations, `${name}: the same operations for both releases`);
    assert.equal(a[name].seed, b[name].seed, `${name}: the same seed`);
  }
  for (const name of ['linkbench.load', 'linkbench.request.1']) {
    const types = a[name].operationsByType ?? {};
    assert.ok(Object.keys(types).length >= (name === 'linkbench.load' ? 2 : 5), `${name}: per-type counts kept (${JSON.stringify(types)})`);
    assert.deepEqual(b[name].operationsByType, types, `${name}: every operation type ran as often on both releases`);
  }
  assert.ok((a['linkbench.request.1'].operationsByType ?? {}).GET_LINKS_LIST > 0, 'GET_LINKS_LIST is among the request mix');

  // Compare judges each counted sequence step as a test of its own.
  const [r18, r19] = outcome.records;
  const cmp = compareRuns({
    base: { version: '10.11.18', records: [r18] }, candidate: { version: '10.11.19', records: [r19] },
    thresholds: resolveThresholds(loaded.thresholds), createdAt: new Date().toISOString(),
  });
  for (const name of ['l.i0', 'qp1000', 'linkbench.load', 'linkbench.request.1']) {
    const v = cmp.tests.find((t) => t.test === name && t.metric === 'instructionsPerOp');
    assert.ok(v, `${name} has an instructions verdict`);
    assert.notEqual(v.verdict, 'failed', `${name}: ${JSON.stringify(v)}`);
  }
});
