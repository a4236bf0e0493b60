import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, confirmVerdicts, listRegressedTests, hasIssueRegression, resolveThresholds } from '../../scripts/compare/index.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 } } });

/**
 * @param {string} tag
 * @param {Record<string, number[]>} base test -> repeats
 * @param {Record<string, number[]>} cand
 */
function cmp(tag, base, cand) {
  const steps = (/** @type {Record<string, number[]>} */ m) => Object.entries(m).map(([name, throughput]) => ({ name, throughput }));
  return compareRuns({
    base: { version: 'a', records: [makeRecord({ id: `b${tag}`, version: 'a', steps: steps(base) })] },
    candidate: { version: 'b', records: [makeRecord({ id: `c${tag}`, version: 'b', steps: steps(cand) })] },
    thresholds,
    createdAt: 'x',
  });
}

test('a regression stands only when the rerun agrees', () => {
  const first = cmp('1', { p: [1000, 1010, 990], q: [1000, 1010, 990], r: [1000, 1010, 990] }, { p: [900, 905, 895], q: [900, 905, 895], r: [1001, 1011, 991] });
  assert.deepEqual(listRegressedTests(first), ['p', 'q']);
  // rerun: p regresses again, q does not (unchanged)
  const rerun = cmp('2', { p: [1000, 1010, 990], q: [1000, 1010, 990] }, { p: [890, 895, 885], q: [1001, 1011, 991] });
  const confirmed = confirmVerdicts(first, rerun);
  const p = confirmed.tests.find((t) => t.test === 'p');
  const q = confirmed.tests.find((t) => t.test === 'q');
  const r = confirmed.tests.find((t) => t.test === 'r');
  assert.equal(p?.confirmed, true);
  assert.equal(p?.confirmation?.verdict, 'regression');
  assert.equal(p?.confirmation?.ratio, 890 / 1000);
  assert.deepEqual(p?.confirmation?.runIds, { base: ['b2'], candidate: ['c2'] });
  assert.equal(q?.confirmed, false);
  assert.equal(q?.verdict, 'regression'); // the first run's verdict is kept, marked not confirmed
  assert.match(q?.reason ?? '', /Not confirmed by the rerun: unchanged/);
  assert.equal(r?.confirmed, undefined);
  assert.equal(hasIssueRegression(confirmed, { confirmedOnly: true }), true);
  assert.equal(first.tests.find((t) => t.test === 'p')?.confirmed, undefined, 'the original is not changed');
});

test('an issue needs both runs at the issue level; a failed rerun does not confirm', () => {
  const first = cmp('1', { p: [1000, 1010, 990], q: [1000, 1010, 990] }, { p: [900, 905, 895], q: [900, 905, 895] });
  const rerun = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b2', version: 'a', steps: [{ name: 'p', throughput: [1000, 1010, 990] }, { name: 'q', throughput: [1000, 1010, 990] }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c2', version: 'b', steps: [{ name: 'p', throughput: [960, 965, 955] }, { name: 'q', status: 'failed', reason: 'crash' }] })] },
    thresholds,
    createdAt: 'y',
  });
  const confirmed = confirmVerdicts(first, rerun);
  const p = confirmed.tests.find((t) => t.test === 'p');
  assert.equal(p?.confirmed, true);
  assert.equal(p?.level, 'warn');
  assert.equal(confirmed.tests.find((t) => t.test === 'q')?.confirmed, false);
  assert.equal(hasIssueRegression(confirmed, { confirmedOnly: true }), false);
});
