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
function cmp(tag, base, cand, familyControl = true) {
  const steps = (/** @type {Record<string, number[]>} */ m) => Object.entries(m).map(([name, throughput]) => ({ name, throughput }));
  return compareRuns({
    base: { version: 'a', records: [makeRecord({ id: `b${tag}`, version: 'a', steps: steps(base) })] },
    candidate: { version: 'b', records: [makeRecord({ id: `c${tag}`, version: 'b', steps: steps(cand) })] },
    thresholds,
    createdAt: 'x',
    familyControl,
  });
}

// 7 instances per side: enough for the exact test to pass Holm over a handful of tests.
const B7 = [1000, 1010, 990, 1005, 995, 1002, 998];
const DOWN10 = B7.map((v) => v * 0.9);

test('a regression stands only when the rerun agrees', () => {
  const first = cmp('1', { p: B7, q: B7, r: B7 }, { p: DOWN10, q: DOWN10, r: B7.map((v) => v + 1) });
  assert.deepEqual(listRegressedTests(first), ['p', 'q']);
  assert.equal(first.tests.find((t) => t.test === 'p')?.level, 'issue');
  // rerun (judged test by test): p regresses again, q does not (unchanged)
  const rerun = cmp('2', { p: [1000, 1010, 990], q: [1000, 1010, 990] }, { p: [890, 895, 885], q: [1001, 1011, 991] }, false);
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
  const first = cmp('1', { p: B7, q: B7 }, { p: DOWN10, q: DOWN10 });
  const rerun = compareRuns({
    base: { version: 'a', records: [makeRecord({ id: 'b2', version: 'a', steps: [{ name: 'p', throughput: [1000, 1010, 990] }, { name: 'q', throughput: [1000, 1010, 990] }] })] },
    candidate: { version: 'b', records: [makeRecord({ id: 'c2', version: 'b', steps: [{ name: 'p', throughput: [960, 965, 955] }, { name: 'q', status: 'failed', reason: 'crash' }] })] },
    thresholds,
    createdAt: 'y',
    familyControl: false,
  });
  const confirmed = confirmVerdicts(first, rerun);
  const p = confirmed.tests.find((t) => t.test === 'p');
  assert.equal(p?.confirmed, true);
  assert.equal(p?.level, 'warn');
  assert.equal(confirmed.tests.find((t) => t.test === 'q')?.confirmed, false);
  assert.equal(hasIssueRegression(confirmed, { confirmedOnly: true }), false);
});
