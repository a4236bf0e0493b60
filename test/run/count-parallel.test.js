// Two counting servers at once through the production path: `tagbench run --meter instructions`
// on two servers of one real MariaDB release (Debian package) under real valgrind callgrind with
// real sysbench, counting.parallel 2: both count point-query at the same time, each pinned with its
// client to its own CPU, and give the same instructions per op (an A/A pair in parallel); a test of
// counting.alone is counted one server after the other, its slot saying why. One round, small
// table: the file is about the scheduling, test/run/instructions-meter.test.js about the meter.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { validateRecord } from '../../scripts/store/index.js';
import { stopAllServers } from '../../scripts/server/index.js';

const execFileP = promisify(execFile);
const hasValgrind = await execFileP('valgrind', ['--version']).then(() => true, () => false);
const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const config = {
  ...loaded,
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, counting: { rounds: 1, repeats: 1, warmupShare: 0.3, parallel: 2, alone: ['points-covered-si'] } } },
  suites: { ...loaded.suites, 'test-count-parallel': { ...loaded.suites.smoke, name: 'test-count-parallel', tableSize: 2000, scanWarmDurationS: 1, restS: 0 } },
};
after(() => stopAllServers());

test('two counting servers at once: both count per op, agree, each on its own CPU; a test of counting.alone one after the other', {
  skip: (!hasValgrind && 'valgrind is not installed (Debian: apt-get install valgrind)') || (cpus().length < 2 && 'needs 2 CPUs'),
  timeout: 600_000,
}, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-countpar-'));
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.18', label: 'b' }],
    suite: 'test-count-parallel', hostClass: 'local', only: ['point-query', 'points-covered-si'], meters: ['instructions'],
    storeDir: join(base, 'results'), workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  const log = lines.join('');
  assert.match(log, /instructions: 2 counting servers at once \(counting\.parallel = 2/);
  // local pins: the slots' CPUs are the machine's last two, the first release on the last.
  const last = cpus().length - 1;
  assert.ok(log.includes(`mariadb@10.11.18 round 1 of 1: start the server under the instructions meter's wrapper on CPU ${last}\n`), log);
  assert.ok(log.includes(`mariadb@10.11.18#b round 1 of 1: start the server under the instructions meter's wrapper on CPU ${last - 1}\n`), log);
  // ...and the servers really start under taskset there (server/start-server.js's line).
  for (const cpu of [last, last - 1]) assert.match(log, new RegExp(`pinned to CPUs ${cpu} \\(innodb\\) under valgrind --tool=callgrind`));
  /** @type {Record<string, import('../../scripts/types.js').CountedRepeat>[]} */
  const byTest = [{}, {}];
  for (const [i, record] of outcome.records.entries()) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', `${record.reason ?? ''}\n${log}`);
    assert.equal(record.config.meterSetup?.instructions.counting.parallel, 2, 'the record says two counted at once');
    for (const name of ['point-query', 'points-covered-si']) {
      const slot = record.steps.find((s) => s.name === name)?.meters?.instructions;
      assert.equal(slot?.status, 'ok', `${name}: ${slot?.reason ?? 'no slot'}\n${log}`);
      assert.equal(slot?.repeats.length, 1);
      const perOp = /** @type {number} */ (slot?.repeats[0].instructions?.queryPathPerOp);
      // bench/instructions-noise.md: about 63 thousand per point select, 3.6 million per points-covered-si op (50 points).
      const [low, high] = name === 'point-query' ? [20e3, 200e3] : [1e6, 20e6];
      assert.ok(perOp > low && perOp < high, `${name} query path ${perOp} instructions/op`);
      byTest[i][name] = /** @type {import('../../scripts/types.js').CountedRepeat} */ (slot?.repeats[0]);
      if (name === 'points-covered-si') assert.match(String(slot?.alone), /^counted alone: listed in counting\.alone/);
      else assert.equal(slot?.alone, undefined);
    }
  }
  const [a, b] = byTest;
  const at = (/** @type {import('../../scripts/types.js').CountedRepeat} */ r) => Date.parse(r.startedAt);
  // Paired: both repeats start from the same point (the group's previous unit done), milliseconds apart.
  assert.ok(Math.abs(at(a['point-query']) - at(b['point-query'])) < 1000, `point-query repeats started ${at(b['point-query']) - at(a['point-query'])} ms apart`);
  // Alone: the second server's repeat starts after the first's counted work has ended.
  const [first, second] = at(a['points-covered-si']) <= at(b['points-covered-si']) ? [a, b] : [b, a];
  assert.ok(at(second['points-covered-si']) >= at(first['points-covered-si']) + 1000 * first['points-covered-si'].durationS, 'counted one after the other');
  // The same release counted side by side: the same instructions per point select (A/A).
  const [pa, pb] = [a, b].map((x) => /** @type {number} */ (x['point-query'].instructions?.queryPathPerOp));
  assert.ok(Math.abs(pa - pb) / pa < 0.001, `two servers counting at once agree to 0.1 %: ${pa} vs ${pb}`);
});

test('more slots than releases: two lanes, each a server per release on its own datadir copy, count their own tests at once and agree', {
  skip: (!hasValgrind && 'valgrind is not installed (Debian: apt-get install valgrind)') || (cpus().length < 2 && 'needs 2 CPUs'),
  timeout: 600_000,
}, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-countlanes-'));
  const lines = /** @type {string[]} */ ([]);
  // 4 slots for 2 releases: 2 lanes (on a 2-CPU machine two servers share a CPU: counts do not depend on it).
  const lanes = { ...config, hosts: { ...config.hosts, local: { ...config.hosts.local, counting: { rounds: 1, repeats: 1, warmupShare: 0.3, parallel: 4 } } } };
  const outcome = await runReleases(lanes, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.18', label: 'b' }],
    suite: 'test-count-parallel', hostClass: 'local', only: ['point-query', 'update-nonindex'], meters: ['instructions'],
    storeDir: join(base, 'results'), workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  const log = lines.join('');
  assert.match(log, /instructions: 4 counting servers at once \(counting\.parallel = 4 .*\): 2 lanes of 2/);
  assert.match(log, /mariadb@10\.11\.18#b: lane 2's copy of the datadir, [\d.]+ MB/);
  /** @type {Record<string, import('../../scripts/types.js').CountedRepeat>[]} */
  const byTest = [{}, {}];
  for (const [i, record] of outcome.records.entries()) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', `${record.reason ?? ''}\n${log}`);
    assert.equal(record.config.meterSetup?.instructions.counting.parallel, 4, 'the record says four counted at once');
    // Nothing timed: only the load ran of the timed schedule; every other step says why it did not.
    assert.deepEqual(record.steps.filter((s) => s.status !== 'skipped').map((s) => s.name), ['load']);
    for (const s of record.steps.filter((x) => x.name !== 'load')) {
      assert.match(String(s.reason), s.reported ? /^not timed: this run's meters are instructions \(no timed meter\)/ : /^not run: no timed meter in this run \(meters: instructions\)/, s.name);
    }
    for (const name of ['point-query', 'update-nonindex']) {
      const slot = record.steps.find((s) => s.name === name)?.meters?.instructions;
      assert.equal(slot?.status, 'ok', `${name}: ${slot?.reason ?? 'no slot'}\n${log}`);
      byTest[i][name] = /** @type {import('../../scripts/types.js').CountedRepeat} */ (slot?.repeats[0]);
    }
  }
  const at = (/** @type {import('../../scripts/types.js').CountedRepeat} */ r) => Date.parse(r.startedAt);
  // Lane 1 counts point-query while lane 2 counts update-nonindex: the two tests overlap in time.
  for (const x of byTest) {
    const [p, u] = [x['point-query'], x['update-nonindex']];
    assert.ok(at(u) < at(p) + 1000 * p.durationS && at(p) < at(u) + 1000 * u.durationS, `the lanes' tests overlap: point-query ${p.startedAt} +${p.durationS}s, update-nonindex ${u.startedAt} +${u.durationS}s`);
  }
  // The same release in both columns: the same instructions per op on the original and on the copy's lane.
  for (const name of ['point-query', 'update-nonindex']) {
    const [pa, pb] = byTest.map((x) => /** @type {number} */ (x[name].instructions?.queryPathPerOp));
    assert.ok(Math.abs(pa - pb) / pa < 0.01, `${name}: ${pa} vs ${pb}`);
  }
});
