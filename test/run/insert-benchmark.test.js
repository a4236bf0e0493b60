// The insert benchmark through `tagbench run` against a real MariaDB server (deb provider, from
// the install cache): a tiny suite, one release, two passes on two server instances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { validateRecord } from '../../scripts/store/index.js';
import { KEEP_UP_SHARE } from '../../scripts/workload/ibench/ibench-stats.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
/**
 * The local host class pinned to CPU 0 instead of 1: the same pinning path (server and the
 * insert benchmark's in-process clients on one CPU) without landing on the CPU that timing runs
 * of this machine use.
 */
const hosts = { ...loaded.hosts, 'test-cpu0': { ...loaded.hosts.local, name: 'test-cpu0', pinning: { serverCpus: '0', clientCpus: '0' } } };
const SEQUENCE = ['l.i0', 'l.x', 'l.i1', 'l.i2', 'ibench.cleanup', 'qr100', 'qp100', 'qr500', 'qp500', 'qr1000', 'qp1000'];

/** This process's CPU affinity as taskset prints it. */
function affinity() {
  return execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }).trim().replace(/^.*: /, '');
}

/** @param {string} needle */
function pidsMatching(needle) {
  try {
    return execFileSync('pgrep', ['-f', '--', needle], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

test('a tiny insert-benchmark suite: every step of both passes recorded, per-second intervals, keep-up figures', { timeout: 900_000 }, async () => {
  const suite = {
    ...loaded.suites['insert-smoke'], name: 'test-insert-tiny', clients: 2, restS: 0,
    ibench: { tablePerClient: true, loadRows: 3000, l1Rows: 1000, l2Rows: 200, queryDurationS: 3 },
  };
  const config = { ...loaded, hosts, suites: { ...loaded.suites, [suite.name]: suite } };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-ibench-'));
  const storeDir = join(base, 'results');
  const workDir = join(base, 'work');
  const lines = /** @type {string[]} */ ([]);
  const affinityBefore = affinity();
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }],
    suite: suite.name, hostClass: 'test-cpu0', repeats: 2, instances: 2,
    storeDir, workDir, cacheDir, portBase: 23740, write: (t) => lines.push(t),
  });
  const [record] = outcome.records;
  assert.deepEqual(validateRecord(record), [], 'schema-valid record');
  assert.deepEqual(record.steps.map((s) => s.name), SEQUENCE);
  const by = Object.fromEntries(record.steps.map((s) => [s.name, s]));
  for (const name of SEQUENCE.filter((n) => n !== 'ibench.cleanup')) {
    const step = by[name];
    assert.equal(step.kind, 'ibench');
    assert.equal(step.repeats.length, 2, `${name}: one repeat per pass`);
    assert.deepEqual(step.repeats.map((r) => [r.index, r.instance]), [[0, 0], [1, 1]], `${name}: pass k on instance k`);
  }
  assert.equal(by['ibench.cleanup'].status, 'ok', by['ibench.cleanup'].reason ?? '');
  assert.equal(by['ibench.cleanup'].reported, false);
  for (const name of ['l.i0', 'l.x', 'l.i1', 'l.i2']) {
    for (const rep of by[name].repeats) {
      assert.equal(rep.status, 'ok', `${name}: ${rep.reason ?? ''}`);
      assert.ok((rep.throughput ?? 0) > 0, `${name} throughput`);
    }
  }
  const details = (/** @type {any} */ rep) => rep.details.ibench;
  for (const rep of by['l.i0'].repeats) assert.deepEqual(details(rep).rows, { insert: 6000, delete: 0, query: 0 }, 'two clients x 3000 rows');
  for (const rep of by['l.i1'].repeats) assert.deepEqual(details(rep).rows, { insert: 2000, delete: 2000, query: 0 }, 'deletes match inserts');
  assert.equal(details(by['l.x'].repeats[0]).indexedRows, 6000);
  for (const name of SEQUENCE.filter((n) => n.startsWith('q'))) {
    for (const rep of by[name].repeats) {
      const d = details(rep);
      assert.equal(rep.intervals.length, 3, `${name}: three full seconds`);
      for (const iv of rep.intervals) {
        for (const f of ['inserts', 'deletes', 'queries', 'insertMaxMs', 'deleteMaxMs', 'queryMaxMs']) assert.equal(typeof iv[/** @type {keyof typeof iv} */ (f)], 'number', `${name} interval ${f}`);
        assert.equal(iv.qps, iv.queries, 'a query step\'s qps is its query rate');
      }
      assert.equal(d.keepUp.targetPerClientPerS, Number(name.slice(2)));
      assert.equal(d.keepUp.clients, 2);
      assert.ok(d.keepUp.achievedPerS > 0);
      assert.ok(d.responseMs.query.count > 0 && d.responseMs.insert.count > 0);
      assert.ok(d.ratesPerS.queries.p.p50 > 0);
      // The keep-up rule decides the repeat: below 95 % it is failed with the figures, never silently ok.
      if (d.keepUp.sustained) {
        assert.equal(rep.status, 'ok');
        assert.ok((rep.throughput ?? 0) > 0);
      } else {
        assert.equal(rep.status, 'failed');
        assert.equal(rep.throughput, null);
        assert.match(rep.reason ?? '', /background writers did not keep up: .* inserts\/s/);
      }
    }
  }
  // The keep-up rule itself: kept up exactly when every client reached KEEP_UP_SHARE of its target.
  for (const step of Object.values(by)) {
    for (const r of step.repeats) {
      const keep = /** @type {any} */ (r).details?.ibench?.keepUp;
      if (keep) assert.equal(keep.sustained, keep.worstClientShare >= KEEP_UP_SHARE, JSON.stringify(keep));
    }
  }
  // 100 inserts/s per client is far below what this server does: the writers reach most of it
  // even when the test shares 2 cores with three other test files (93 % was seen at a load of 6,
  // under the 95 % that counts as kept up, so whether a repeat kept up is the host's, not asserted).
  assert.ok(by.qr100.repeats.every((r) => details(r).keepUp.share >= 0.5), JSON.stringify(by.qr100.repeats.map((r) => details(r).keepUp)));
  // Measured like a sysbench repeat: the samplers' CPU per operation (the load steps here are
  // shorter than one vmstat sample, so only the 3 s query steps are sure to have one).
  assert.ok(by.qr100.repeats.every((r) => r.efficiency && r.efficiency.cpuUsPerOp > 0), 'qr100 CPU per query');
  assert.ok(record.dbSize.afterLoad && record.dbSize.afterLoad.logicalBytes > 0, 'size after l.i0');
  const log = await readFile(join(storeDir, 'logs', record.id, 'qr100.r1.txt'), 'utf8');
  assert.match(log, /background writers: .* inserts\/s .*kept up/);
  assert.match(lines.join(''), /restart mariadb@10\.11\.18 for instance 2\n/);
  assert.equal(record.host.pinning.clientCpus, '0');
  assert.equal(affinity(), affinityBefore, 'the process\'s CPU affinity is restored after the pinned steps');
  assert.deepEqual(pidsMatching(workDir), [], 'no server left running');
});

test('one shared table: clients interleave their ids in pi1, inserts and deletes balance, every write step ok', { timeout: 900_000 }, async () => {
  const suite = {
    ...loaded.suites['insert-smoke'], name: 'test-insert-shared', clients: 2, restS: 0,
    ibench: { tablePerClient: false, loadRows: 2000, l1Rows: 500, l2Rows: 100, queryDurationS: 1 },
  };
  const config = { ...loaded, hosts, suites: { ...loaded.suites, [suite.name]: suite } };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-ibench-'));
  const workDir = join(base, 'work');
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }],
    suite: suite.name, hostClass: 'test-cpu0', repeats: 1, instances: 1,
    storeDir: join(base, 'results'), workDir, cacheDir, portBase: 23750, write: () => {},
  });
  const [record] = outcome.records;
  assert.deepEqual(validateRecord(record), []);
  const by = Object.fromEntries(record.steps.map((s) => [s.name, s]));
  for (const name of ['l.i0', 'l.x', 'l.i1', 'l.i2']) assert.equal(by[name].status, 'ok', `${name}: ${by[name].reason ?? ''}`);
  const d = (/** @type {string} */ name) => /** @type {any} */ (by[name].repeats[0].details).ibench;
  assert.equal(d('l.i0').tablePerClient, false);
  assert.deepEqual(d('l.i0').rows, { insert: 4000, delete: 0, query: 0 });
  assert.equal(d('l.x').indexedRows, 4000, 'one table holding both clients\' rows');
  assert.deepEqual(d('l.i2').rows, { insert: 200, delete: 200, query: 0 });
  assert.equal(d('qp100').keepUp.clients, 2);
  assert.deepEqual(pidsMatching(workDir), [], 'no server left running');
});
