/**
 * The issue policy of a test (thresholds.yml `tests.<name>.policy`): what compare stamps on a
 * verdict, and how a stored verdict is read, including comparisons written before verdicts
 * carried a policy (their thresholds say it) and values no schema checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findPolicy, findVerdictPolicy, resolveThresholds } from '../../scripts/compare/index.js';

const thresholds = resolveThresholds({
  groups: { point: { warn: 0.03, issue: 0.05 } },
  tests: { 'point-query': { policy: 'note' }, 'update-one': { warn: 0.05, issue: 0.08 }, 'scan': { policy: 'ignore' } },
});

test('findPolicy: the test\'s policy, open when it has none', () => {
  assert.equal(findPolicy(thresholds, 'point-query'), 'note');
  assert.equal(findPolicy(thresholds, 'scan'), 'ignore');
  assert.equal(findPolicy(thresholds, 'update-one'), 'open', 'an override without a policy');
  assert.equal(findPolicy(thresholds, 'insert'), 'open', 'a test without an override');
});

test('findPolicy on stored thresholds: no tests key, no thresholds, or an unknown value count as open', () => {
  assert.equal(findPolicy({}, 'point-query'), 'open');
  assert.equal(findPolicy(undefined, 'point-query'), 'open');
  assert.equal(findPolicy({ tests: { 'point-query': { policy: 'bogus' } } }, 'point-query'), 'open', 'never silences a regression');
  assert.equal(findPolicy({ tests: { 'point-query': { policy: 'toString' } } }, 'point-query'), 'open');
});

test('findVerdictPolicy: the stamped policy wins over the comparison\'s thresholds', () => {
  assert.equal(findVerdictPolicy({ test: 'point-query', policy: 'open' }, thresholds), 'open');
  assert.equal(findVerdictPolicy({ test: 'insert', policy: 'ignore' }, thresholds), 'ignore');
  assert.equal(findVerdictPolicy({ test: 'scan', policy: 'bogus' }, thresholds), 'open', 'an unknown stamp counts as open, not as the thresholds\' ignore');
});

test('findVerdictPolicy: a verdict stored before the stamp falls back to its comparison\'s thresholds', () => {
  assert.equal(findVerdictPolicy({ test: 'point-query' }, thresholds), 'note');
  assert.equal(findVerdictPolicy({ test: 'scan' }, thresholds), 'ignore');
  assert.equal(findVerdictPolicy({ test: 'insert' }, thresholds), 'open');
  assert.equal(findVerdictPolicy({ test: 'point-query' }, { tests: { 'point-query': { policy: 'bogus' } } }), 'open');
});
