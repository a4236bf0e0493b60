/**
 * Which verdicts the adaptive repeats extend: inconclusive ones whose MDE is above the issue
 * threshold, and regressions past the issue threshold that Holm's step held at warn.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, selectUndecided, isUndecided } from '../../scripts/compare/index.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 } } });

/** @param {Record<string, [number[], number[]]>} tests name -> [base, candidate] throughput per instance */
function compare(tests) {
  const rec = (/** @type {string} */ id, /** @type {string} */ v, /** @type {0|1} */ side) => makeRecord({ id, version: v, steps: Object.entries(tests).map(([name, pair]) => ({ name, throughput: pair[side] })) });
  return compareRuns({ base: { version: 'a', records: [rec('b', 'a', 0)] }, candidate: { version: 'b', records: [rec('c', 'b', 1)] }, thresholds, createdAt: 'x' });
}

test('noisy inconclusive and Holm-held regressions are undecided; unchanged, clear and small ones are not', () => {
  const cmp = compare({
    noisy: [[1000, 1100, 900], [950, 1060, 860]], // inconclusive, MDE far above 5 %
    held: [[1000, 1010, 990], [900, 905, 895]], // -10 %, interval below 1, but 3 vs 3 cannot pass Holm over 6 verdicts
    quiet: [[1000, 1001, 999], [1000.5, 1001.5, 999.5]], // unchanged
    small: [[1000, 1010, 990], [960, 965, 955]], // -4 %: a warn-level regression by its size, not held by Holm
  });
  const byTest = Object.fromEntries(cmp.tests.filter((t) => t.metric === 'throughput').map((t) => [t.test, t]));
  assert.equal(byTest.noisy.verdict, 'inconclusive');
  assert.ok((byTest.noisy.mde ?? 0) > 0.05);
  assert.equal(byTest.held.verdict, 'regression');
  assert.equal(byTest.held.level, 'warn');
  assert.equal(byTest.small.verdict, 'regression');
  assert.equal(byTest.small.level, 'warn');
  assert.equal(isUndecided(byTest.noisy), true);
  assert.equal(isUndecided(byTest.held), true);
  assert.equal(isUndecided(byTest.quiet), false);
  assert.equal(isUndecided(byTest.small), false);
  // the regression Holm held back goes first: an issue may be waiting behind it
  assert.deepEqual(selectUndecided(cmp, { maxInstances: 9 }).tests, ['held', 'noisy']);
  // a test already at the most instances is not extended further, but stays undecided
  const capped = selectUndecided(cmp, { maxInstances: 3 });
  assert.deepEqual(capped.tests, []);
  assert.equal(capped.undecided.length, 2);
});
