// The instructions meter through the production path: `tagbench run --meter instructions` on two
// real MariaDB releases (Debian packages) under real valgrind callgrind with real sysbench, the
// records stored and validated, then compared by compareRuns with the shipped thresholds.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile, execFileSync } from 'node:child_process';
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
// Two rounds keep the file short; the shipped default is three (the fewest compare pairs).
const config = {
  ...loaded,
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, counting: { rounds: 2, repeats: 1, warmupShare: 0.3 } } },
  suites: { ...loaded.suites, 'test-count': { ...loaded.suites.smoke, name: 'test-count', tableSize: 5000, scanWarmDurationS: 1, restS: 0 } },
};
after(() => stopAllServers());

/**
 * @param {string} workDir this test's folder: other processes under callgrind (another test) do not count
 * @returns {number} processes under callgrind with a datadir in workDir running now
 */
function valgrindProcesses(workDir) {
  try {
    return execFileSync('pgrep', ['-f', '--', `--tool=callgrind.*${workDir}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

test('run --meter instructions: counted repeats per round in the record, a query-path figure exact to 0.1 %, profiles kept, compare decides', {
  skip: !hasValgrind && 'valgrind is not installed (Debian: apt-get install valgrind)',
  timeout: 1_200_000,
}, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-instr-'));
  const storeDir = join(base, 'results');
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'test-count', hostClass: 'local', repeats: 2, only: ['point-query', 'update-nonindex'],
    meters: ['instructions'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  const log = lines.join('');
  assert.equal(outcome.records.length, 2);
  /** @type {Record<string, number>} */
  const pointQuery = {};
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', `${record.reason ?? ''}\n${log}`);
    assert.deepEqual(record.config.meters, ['instructions']);
    const setup = record.config.meterSetup?.instructions;
    assert.ok(setup, 'the record keeps how the counting servers were started');
    assert.equal(setup.wrapper[0], 'valgrind');
    assert.ok(setup.wrapper.includes('--tool=callgrind'));
    assert.equal(setup.mycnf.innodb_use_native_aio, 0);
    assert.match(setup.dependsOn.valgrind, /^valgrind-3\./);
    assert.match(setup.dependsOn.glibc, /glibc/);
    for (const name of ['point-query', 'update-nonindex']) {
      const step = /** @type {import('../../scripts/types.js').Step} */ (record.steps.find((s) => s.name === name));
      assert.equal(step.status, 'skipped', 'no timed repeats in an instructions-only run');
      assert.equal(step.repeats.length, 0);
      const slot = step.meters?.instructions;
      assert.ok(slot, `${name} has counted repeats`);
      assert.equal(slot.status, 'ok', slot.reason ?? '');
      assert.deepEqual(slot.repeats.map((r) => r.instance), [0, 1], 'one counted repeat per round');
      for (const rep of slot.repeats) {
        const fig = /** @type {import('../../scripts/types.js').InstructionFigures} */ (rep.instructions);
        assert.equal(rep.meter, 'instructions');
        assert.equal(fig.dispatchFunction, 'dispatch_command');
        assert.equal(fig.purgeHeld, true, 'purge was held by a read view while counted');
        assert.ok(typeof fig.purgeWaitS === 'number', 'the wait for purge before zeroing is recorded');
        assert.ok(fig.processPerOp >= fig.queryPathPerOp, 'the process counts at least the query path');
        assert.ok(fig.unnamedSelfPerOp > 0 && fig.unnamedSelfPerOp < fig.processPerOp, 'Debian binaries leave some code unnamed');
        assert.ok(rep.profile, 'the repeat names its profile');
        const profile = JSON.parse(await readFile(join(storeDir, 'logs', record.id, String(rep.profile)), 'utf8'));
        assert.ok(/** @type {{functions: {name: string}[]}} */ (profile).functions.some((/** @type {{name: string}} */ f) => f.name.includes('dispatch_command')), 'the kept profile names the dispatch function');
      }
      const [a, b] = slot.repeats.map((r) => /** @type {number} */ (r.instructions?.queryPathPerOp));
      if (name === 'point-query') {
        // FIELD-NOTES: 41,832 per point select as a prepared statement, 0.002 % apart over
        // processes; tagbench sends text (--db-ps-mode=disable), which adds the parser's ~17,000.
        assert.ok(a > 40_000 && a < 90_000, `point select query path ${a} instructions/op`);
        assert.ok(Math.abs(a - b) / a < 0.001, `two server processes agree to 0.1 %: ${a} vs ${b}`);
        pointQuery[record.release.version] = a;
      }
    }
  }
  assert.match(log, /instructions: mariadb@10\.11\.1[89] round 2 of 2/, 'progress names release and round');
  assert.match(log, /about .* left/, 'progress says how long is left');
  assert.equal(valgrindProcesses(base), 0, 'no server under valgrind outlives the run');

  // Compare: instruction verdicts (decided: the rounds pair), no wall verdicts for tests not timed.
  const [r18, r19] = outcome.records;
  const cmp = compareRuns({
    base: { version: '10.11.18', records: [r18] }, candidate: { version: '10.11.19', records: [r19] },
    thresholds: { ...resolveThresholds(loaded.thresholds), pairedMinRounds: 2 }, createdAt: new Date().toISOString(),
  });
  const metrics = new Set(cmp.tests.map((t) => t.metric));
  assert.ok(metrics.has('instructionsPerOp') && metrics.has('processInstructionsPerOp'), [...metrics].join(','));
  assert.ok(!metrics.has('throughput'), 'tests that were not timed have no throughput verdict, failed or other');
  const pq = /** @type {import('../../scripts/types.js').TestVerdict} */ (cmp.tests.find((t) => t.test === 'point-query' && t.metric === 'instructionsPerOp'));
  assert.notEqual(pq.verdict, 'inconclusive', `point-query instructions verdict decided: ${JSON.stringify(pq)}`);
  assert.notEqual(pq.verdict, 'failed');
});
