/**
 * Issue 21, "checkpoints": a leg that died after some of its runs finished and were published
 * (remember-failure publishes the bench job's checkpoints) is proposed again, after its back-off,
 * as a resume of those runs; a partial run is not resumed from; a finished leg (a comparison)
 * or a run without a base is benchmarked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planMatrix, DEFAULT_BACK_OFF } from '../../scripts/watch/discover-tags.js';
import { findResume } from '../../scripts/watch/resume-legs.js';

const candidates = [{ product: 'mariadb', line: '10.11', version: '10.11.19', tag: 'mariadb-10.11.19', commit: 'a'.repeat(40) }];
const hostClasses = [{ name: 'small-server', suite: 'small', reference: { product: 'mariadb', version: '10.11.16' } }];
const T0 = Date.parse('2026-11-27T00:00:00Z');
const H = 3600_000;
const attempts = [{
  hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small', count: 1,
  firstAt: new Date(T0).toISOString(), lastAt: new Date(T0).toISOString(), lastOutcome: /** @type {const} */ ('failure'),
  lastReason: 'the bench job ended failure', lastRunUrl: null,
}];

/**
 * An index entry of a run record, with an id in `tagbench run`'s form.
 * @param {string} version
 * @param {string} status
 * @param {{stamp?: string, tag?: string, startedAt?: string, suite?: string}} [o] stamp and tag
 *   are shared by the records of one `tagbench run`
 */
function run(version, status, o = {}) {
  const stamp = o.stamp ?? '20261126T180000Z';
  const tag = o.tag ?? 'a1b2c3';
  const suite = o.suite ?? 'small';
  return {
    id: `${stamp}-small-server-mariadb-${version}-${suite}-${tag}`, hostClass: 'small-server', product: 'mariadb', version, suite, status,
    startedAt: o.startedAt ?? '2026-11-26T18:00:00.000Z',
  };
}
const comparison = { hostClass: 'small-server', product: 'mariadb', suite: 'small', candidateVersion: '10.11.19' };
/** @param {any[]} runs @param {any[]} [comparisons] @param {number} [now] */
const plan = (runs, comparisons = [], now = T0 + 6 * H) => planMatrix({ candidates, hostClasses, runs, comparisons, max: 10, attempts, backOff: DEFAULT_BACK_OFF, now });

test('a leg whose run finished but whose bench job died later is proposed as a resume of that run, after its back-off', () => {
  const runs = [run('10.11.18', 'ok'), run('10.11.19', 'ok')];
  assert.deepEqual(plan(runs, [], T0 + 5 * H).matrix.include, [], 'not before its back-off');
  const [entry] = plan(runs).matrix.include;
  assert.equal(entry.attempt, 2);
  assert.equal(entry.resume, `${runs[1].id},${runs[0].id}`, 'the release\'s own record first, then its base\'s');
});

test('only finished records are resumed from: a partial base runs again, a partial candidate means a new run', () => {
  const partialBase = [run('10.11.18', 'partial'), run('10.11.19', 'ok')];
  assert.equal(plan(partialBase).matrix.include[0].resume, partialBase[1].id);
  const partialBoth = [run('10.11.18', 'partial'), run('10.11.19', 'partial')];
  const [entry] = plan(partialBoth).matrix.include;
  assert.equal(entry.attempt, 2);
  assert.equal(entry.resume, undefined, 'a partial record is not a finished one: the leg runs from the start');
});

test('a leg with a comparison is finished; a run without a base is the leg\'s whole result; no attempt, no resume', () => {
  const runs = [run('10.11.18', 'ok'), run('10.11.19', 'ok')];
  const finished = plan(runs, [comparison]);
  assert.deepEqual(finished.matrix.include, []);
  assert.match(finished.skipped[0].reason, /^already benchmarked: run .*10\.11\.19.* \(ok\)/);
  const alone = plan([run('10.11.19', 'ok')]);
  assert.deepEqual(alone.matrix.include, [], 'a line\'s first release ran alone: nothing to resume');
  assert.equal(findResume({ hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small' }, { runs, comparisons: [] }, undefined, undefined), null);
});

test('the reference\'s own run of the leg is resumed from too; one from before the leg\'s run or after its failure is not', () => {
  const leg = { hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small' };
  const base = run('10.11.18', 'ok');
  const own = run('10.11.19', 'ok');
  const ref = run('10.11.16', 'ok', { stamp: '20261126T220000Z', tag: 'd4e5f6', startedAt: '2026-11-26T22:00:00.000Z' });
  const before = run('10.11.16', 'ok', { stamp: '20261120T220000Z', tag: '0a0b0c', startedAt: '2026-11-20T22:00:00.000Z' });
  const after = run('10.11.16', 'ok', { stamp: '20261127T020000Z', tag: '0d0e0f', startedAt: '2026-11-27T02:00:00.000Z' });
  const index = { runs: [before, base, own, ref, after], comparisons: [] };
  assert.deepEqual(findResume(leg, index, attempts[0], hostClasses[0].reference), [own.id, base.id, ref.id]);
  assert.deepEqual(findResume(leg, { runs: [before, base, own, after], comparisons: [] }, attempts[0], hostClasses[0].reference), [own.id, base.id]);
  // A base that is the reference needs no run of its own: nothing more to look for.
  assert.deepEqual(findResume(leg, index, attempts[0], { product: 'mariadb', version: '10.11.18' }), [own.id, base.id]);
});

test('a base that a resumed attempt ran again and finished is resumed from that later run', () => {
  const first = [run('10.11.18', 'partial'), run('10.11.19', 'ok')];
  // Attempt 2 resumed the candidate, ran the base again (its own run), then failed in compare.
  const rerun = run('10.11.18', 'ok', { stamp: '20261126T230000Z', tag: 'b0b0b0', startedAt: '2026-11-26T23:00:00.000Z' });
  assert.equal(plan([...first, rerun]).matrix.include[0].resume, `${first[1].id},${rerun.id}`);
  // A base record from after the failure is another leg's business.
  const late = run('10.11.18', 'ok', { stamp: '20261127T010000Z', tag: 'c0c0c0', startedAt: '2026-11-27T01:00:00.000Z' });
  assert.equal(plan([...first, late]).matrix.include[0].resume, first[1].id);
});

test('the newest finished run of the release before the failure is the one resumed', () => {
  const old = [run('10.11.18', 'ok', { stamp: '20261101T000000Z', tag: '111111', startedAt: '2026-11-01T00:00:00.000Z' }), run('10.11.19', 'failed', { stamp: '20261101T000000Z', tag: '111111', startedAt: '2026-11-01T00:00:00.000Z' })];
  const recent = [run('10.11.18', 'ok'), run('10.11.19', 'ok')];
  assert.equal(plan([...old, ...recent]).matrix.include[0].resume, `${recent[1].id},${recent[0].id}`);
});
