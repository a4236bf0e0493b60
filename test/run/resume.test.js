/**
 * `tagbench run --resume-from` (chooseResumed): which releases of a resumed run have a finished
 * record already and are not run again. Pure; the servers side is run-releases.test.js's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseResumed } from '../../scripts/run/resume.js';
import { makeRecord } from '../store/store-testkit.js';

const base = { key: 'mariadb@10.11.18', product: 'mariadb', version: '10.11.18', provider: 'deb' };
const candidate = { key: 'mariadb@10.11.19', product: 'mariadb', version: '10.11.19', provider: 'deb' };
const expected = { hostClass: 'local', suite: 'smoke', repeats: 2, instances: 2, only: [], meters: ['wall'], mycnfOf: () => 'innodb' };

/**
 * A record of one release as `tagbench run` writes it, measured as `expected` says.
 * @param {string} version
 * @param {'ok'|'failed'|'partial'} status
 * @param {string} [tag]
 */
function record(version, status, tag = 'a1b2c3') {
  const r = makeRecord(`20261126T180000Z-local-mariadb-${version}-smoke-${tag}`, { version, status });
  r.config.instances = 2;
  if (status === 'partial') r.reason = 'interrupted by SIGTERM after 3 of 9 steps had run';
  return r;
}

test('a release with a finished record is not run again; the others are', () => {
  const done = record('10.11.19', 'ok');
  const choice = chooseResumed([base, candidate], [done.id], [done], expected);
  assert.deepEqual(choice.resumed.map((x) => [x.key, x.record.id]), [['mariadb@10.11.19', done.id]]);
  assert.deepEqual(choice.toRun, ['mariadb@10.11.18']);
  assert.deepEqual(choice.notes, []);
  const both = [record('10.11.18', 'ok'), done];
  assert.deepEqual(chooseResumed([base, candidate], both.map((r) => r.id), both, expected).toRun, [], 'nothing left to run');
});

test('a partial or failed record is history: its release runs again, and says why', () => {
  const partial = record('10.11.18', 'partial');
  const failed = record('10.11.19', 'failed');
  const choice = chooseResumed([base, candidate], [partial.id, failed.id], [partial, failed], expected);
  assert.deepEqual(choice.resumed, []);
  assert.deepEqual(choice.toRun, ['mariadb@10.11.18', 'mariadb@10.11.19']);
  assert.match(choice.notes[0], /^mariadb@10\.11\.18: run record .* is partial \(interrupted by SIGTERM after 3 of 9 steps had run\): not a finished one, the release runs again$/);
  assert.match(choice.notes[1], /^mariadb@10\.11\.19: run record .* is failed/);
});

test('a finished record measured otherwise than this run would is refused, the difference named', () => {
  const done = record('10.11.19', 'ok');
  assert.throws(() => chooseResumed([base, candidate], [done.id], [done], { ...expected, repeats: 5, only: ['point-query'] }),
    /--resume-from: run record .* of mariadb@10\.11\.19 was measured with repeats 2 \(this run: 5\), tests all \(this run: point-query\); a resumed run measures as the run it resumes/);
  const otherBuild = chooseResumed([base, { ...candidate, provider: 'source' }], [done.id], [done], expected);
  assert.deepEqual(otherBuild.toRun, ['mariadb@10.11.18', 'mariadb@10.11.19'], 'a Debian build does not stand for a source build');
});

test('an id the store lacks is an error; one of another run\'s release (the reference) is left to that run', () => {
  const done = record('10.11.19', 'ok');
  assert.throws(() => chooseResumed([base, candidate], [done.id, 'nope-1'], [done], expected), /--resume-from: no run record 'nope-1' in the store: fetch it first/);
  const reference = record('10.11.16', 'ok', 'd4e5f6');
  const choice = chooseResumed([base, candidate], [done.id, reference.id], [done, reference], expected);
  assert.deepEqual(choice.toRun, ['mariadb@10.11.18']);
  assert.match(choice.notes[0], /run record .*10\.11\.16.* is of no release of this run \(mariadb@10\.11\.18, mariadb@10\.11\.19\): left for the run it belongs to/);
});

test('runReleases with every release resumed starts nothing and returns the resumed records', async () => {
  const { runReleases } = await import('../../scripts/run/index.js');
  const { loadConfig } = await import('../../scripts/config/index.js');
  const { writeRecord } = await import('../../scripts/store/index.js');
  const { tempDir, cleanupTempDirs } = await import('../store/store-testkit.js');
  const storeDir = await tempDir('resume-store');
  try {
    const done = record('10.11.18', 'ok');
    await writeRecord(storeDir, done);
    /** @type {string[]} */
    const lines = [];
    const config = await loadConfig(new URL('../..', import.meta.url).pathname);
    const outcome = await runReleases(config, {
      releases: [{ product: 'mariadb', version: '10.11.18', provider: 'deb' }], suite: 'smoke', hostClass: 'local', repeats: 2, instances: 2,
      resumeFrom: [done.id], storeDir, workDir: '/nonexistent/work', cacheDir: await tempDir('resume-cache'), write: (t) => lines.push(t),
    });
    assert.deepEqual(outcome.records, []);
    assert.deepEqual(outcome.resumed?.map((r) => r.id), [done.id]);
    assert.match(lines.join(''), /resume: mariadb@10\.11\.18 has the finished run record .*: not run again\nresume: every release has a finished run record; nothing to run\n/);
  } finally {
    await cleanupTempDirs();
  }
});
