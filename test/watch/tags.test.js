import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLsRemote, matchTags } from '../../scripts/watch/tags.js';
import { compareVersions } from '../../scripts/version-order.js';

// Shape of `git ls-remote --tags` (git 2.39): annotated tags have a peeled `^{}` line.
const OUTPUT = [
  '1111111111111111111111111111111111111111\trefs/tags/mariadb-10.11.18',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\trefs/tags/mariadb-10.11.18^{}',
  '2222222222222222222222222222222222222222\trefs/tags/mariadb-10.11.9',
  '3333333333333333333333333333333333333333\trefs/tags/weird^name',
  '',
].join('\n');

test('parseLsRemote dereferences annotated tags and keeps lightweight ones', () => {
  assert.deepEqual(parseLsRemote(OUTPUT), [
    { name: 'mariadb-10.11.18', commit: 'a'.repeat(40) },
    { name: 'mariadb-10.11.9', commit: '2'.repeat(40) },
    { name: 'weird^name', commit: '3'.repeat(40) },
  ]);
  assert.deepEqual(parseLsRemote(''), []);
});

test('compareVersions orders numerically, part by part', () => {
  const cases = /** @type {[string, string, number][]} */ ([
    ['10.11.9', '10.11.18', -1], ['10.11.18', '10.11.18', 0], ['11.0.1', '10.11.18', 1],
    ['9.7', '9.7.4', -1], ['8.0.36-28', '8.0.36-29', -1], ['8.0.36-28', '8.0.37-1', -1],
  ]);
  for (const [a, b, sign] of cases) assert.equal(Math.sign(compareVersions(a, b)), sign, `${a} vs ${b}`);
});

test('matchTags: group 1 is the version; the floor is minVersion, else baseVersion', () => {
  const tags = parseLsRemote(OUTPUT);
  /** @type {any} */
  const product = { name: 'mariadb', lines: [{ name: '10.11', tagPattern: '^mariadb-(10\\.11\\.\\d+)$', baseVersion: '10.11.10' }] };
  const { candidates, belowFloor } = matchTags(product, tags);
  assert.deepEqual(candidates.map((c) => c.version), ['10.11.18']);
  assert.deepEqual(belowFloor.map((c) => c.version), ['10.11.9']);
  product.lines[0].minVersion = '10.11.1';
  assert.deepEqual(matchTags(product, tags).candidates.map((c) => c.version), ['10.11.18', '10.11.9']);
});
