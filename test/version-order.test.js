import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions } from '../scripts/version-order.js';

/** Versions as the watched product lines publish them (MariaDB, MySQL, Percona), oldest first. */
const ORDERED = [
  '8.0.36-28', '8.0.36-29', '8.0.37-1', '8.0.40', '8.0.40-31', '8.4.5', '9.7', '9.7.4-er2', '9.7.4', '9.10.0',
  '10.5.23', '10.11.9', '10.11.18', '10.11.19', '11.8.6-alpha', '11.8.6-rc', '11.8.6-rc2', '11.8.6', '11.8.6-1',
  '12.0.1', '99999999999999999999.1',
];

test('compareVersions: numbers as numbers, pre-release tags first, longer versions later', () => {
  const cases = /** @type {[string, string, number][]} */ ([
    ['10.11.9', '10.11.18', -1], ['10.11.18', '10.11.18', 0], ['11.0.1', '10.11.18', 1],
    ['9.7', '9.7.4', -1], ['8.0.40', '8.0.40-31', -1], ['11.8.6-rc', '11.8.6', -1], ['11.8.6', '11.8.6-1', -1],
    ['11.8.6-RC', '11.8.6-rc2', -1], ['10.4', '10.11', -1], ['8.4', '10.11', -1],
    ['99999999999999999999.1', '99999999999999999998.9', 1], ['10.11.018', '10.11.18', -1],
  ]);
  for (const [a, b, sign] of cases) {
    assert.equal(Math.sign(compareVersions(a, b)), sign, `${a} vs ${b}`);
    assert.equal(Math.sign(compareVersions(b, a)), 0 - sign, `${b} vs ${a} (antisymmetric)`);
  }
});

test('compareVersions sorts a shuffled list into release order and is a total order', () => {
  const shuffled = [...ORDERED].reverse();
  [shuffled[0], shuffled[7]] = [shuffled[7], shuffled[0]];
  assert.deepEqual(shuffled.sort(compareVersions), ORDERED);
  // transitivity over every triple: a sort with an inconsistent comparator would depend on input order
  for (const a of ORDERED) {
    for (const b of ORDERED) {
      for (const c of ORDERED) {
        if (compareVersions(a, b) < 0 && compareVersions(b, c) < 0) assert.ok(compareVersions(a, c) < 0, `${a} < ${b} < ${c}`);
      }
    }
  }
  assert.equal(compareVersions('10.11.018', '10.11.18') === 0, false, 'only identical strings are equal');
});
