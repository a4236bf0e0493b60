/**
 * Issue 21, "failure memory": watch does not propose a leg that failed again before its back-off
 * (6 hours, then 12, then 24), stops after the limit, and says why in what it skips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planMatrix, backOffReason, DEFAULT_BACK_OFF } from '../../scripts/watch/discover-tags.js';

const candidates = [{ product: 'mariadb', line: '10.11', version: '10.11.19', tag: 'mariadb-10.11.19', commit: 'a'.repeat(40) }];
const hostClasses = [{ name: 'small-server', suite: 'small' }];
const T0 = Date.parse('2026-11-27T00:00:00Z');
const H = 3600_000;
/** @param {number} count @param {number} lastAt */
const failed = (count, lastAt) => ({
  hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small', count,
  firstAt: new Date(T0).toISOString(), lastAt: new Date(lastAt).toISOString(), lastOutcome: /** @type {const} */ ('cancelled'),
  lastReason: 'the bench job ended cancelled', lastRunUrl: 'https://github.example/acme/bench/actions/runs/9',
});
/** @param {ReturnType<typeof failed>[]} attempts @param {number} now @param {any[]} [runs] */
const plan = (attempts, now, runs = []) => planMatrix({ candidates, hostClasses, runs, max: 10, attempts, backOff: DEFAULT_BACK_OFF, now });

test('after one failed attempt the leg waits one cycle (6 h), then is proposed as attempt 2', () => {
  const early = plan([failed(1, T0)], T0 + 5 * H);
  assert.deepEqual(early.matrix.include, []);
  assert.equal(early.skipped.length, 1);
  assert.match(early.skipped[0].reason, /^backing off after 1 failed attempt: not before 2026-11-27T06:00:00\.000Z; last: cancelled at 2026-11-27T00:00:00\.000Z: the bench job ended cancelled \(https:\/\/github\.example\/acme\/bench\/actions\/runs\/9\)$/);
  const later = plan([failed(1, T0)], T0 + 6 * H);
  assert.equal(later.matrix.include.length, 1);
  assert.equal(later.matrix.include[0].attempt, 2);
});

test('the wait doubles with each failure, and after three the leg is not proposed again', () => {
  assert.equal(plan([failed(2, T0)], T0 + 11 * H).matrix.include.length, 0);
  assert.equal(plan([failed(2, T0)], T0 + 12 * H).matrix.include.length, 1);
  const stopped = plan([failed(3, T0)], T0 + 1000 * H);
  assert.deepEqual(stopped.matrix.include, []);
  assert.match(stopped.skipped[0].reason, /^stopped after 3 failed attempts \(at most 3\); last: cancelled .*Dispatch benchmark\.yml by hand once it is fixed$/);
  assert.equal(backOffReason(failed(1, T0), { hours: 0, maxAttempts: 3 }, T0), null, 'a zero back-off retries at once');
});

test('a leg benchmarked since (a dispatch by hand) is done, whatever its failed attempts; other legs are not held back', () => {
  const run = { id: 'r1', hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small', status: 'ok' };
  const done = plan([failed(3, T0)], T0 + H, [run]);
  assert.deepEqual(done.matrix.include, []);
  assert.match(done.skipped[0].reason, /^already benchmarked: run r1/);
  const twoClasses = planMatrix({ candidates, hostClasses: [...hostClasses, { name: 'medium-server', suite: 'medium' }], runs: [], max: 10, attempts: [failed(1, T0)], now: T0 + H });
  assert.deepEqual(twoClasses.matrix.include.map((e) => e.hostClass), ['medium-server']);
  assert.equal(twoClasses.matrix.include[0].attempt, undefined);
});
