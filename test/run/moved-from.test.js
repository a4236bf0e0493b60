// A moved tag's run: --releases names the source build of the tag's new commit
// (product@version:source@<commit>), --moved-from the commit it was benchmarked at before, and
// the record says "moved from <old> to <new>" (release.movedFrom beside release.commit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseReleaseList } from '../../scripts/run/index.js';
import { applyMovedFrom } from '../../scripts/run/commands.js';
import { createRecord } from '../../scripts/run/record-builder.js';
import { validateRecord } from '../../scripts/store/validate-record.js';

const NEW = 'b'.repeat(40);
const OLD = 'a'.repeat(40);

test('--releases takes a source build\'s commit; anything else after @ is refused', () => {
  assert.deepEqual(parseReleaseList(`mariadb@10.11.18:source,mariadb@10.11.19:source@${NEW}`), [
    { product: 'mariadb', version: '10.11.18', provider: 'source' },
    { product: 'mariadb', version: '10.11.19', provider: 'source', commit: NEW },
  ]);
  assert.throws(() => parseReleaseList(`mariadb@10.11.19:deb@${NEW}`), /@<commit> follows :source and is a full commit id/);
  assert.throws(() => parseReleaseList('mariadb@10.11.19:source@abc1234'), /@<commit> follows :source/);
});

test('--moved-from marks the release whose new commit is named, and refuses what cannot be said', () => {
  const releases = parseReleaseList(`mariadb@10.11.18:source,mariadb@10.11.19:source@${NEW}`);
  const marked = applyMovedFrom(releases, [`mariadb@10.11.19=${OLD}`]);
  assert.deepEqual(marked.map((r) => r.movedFrom), [undefined, OLD]);
  assert.throws(() => applyMovedFrom(releases, ['mariadb@10.11.19=abc']), /expected product@version=<the old full commit id>/);
  assert.throws(() => applyMovedFrom(releases, [`mariadb@10.11.20=${OLD}`]), /mariadb@10\.11\.20 is not one of --releases \(mariadb@10\.11\.18, mariadb@10\.11\.19\)/);
  assert.throws(() => applyMovedFrom(releases, [`mariadb@10.11.18=${OLD}`]), /give mariadb@10\.11\.18's new commit in --releases/);
  assert.throws(() => applyMovedFrom(releases, [`mariadb@10.11.19=${NEW}`]), /that is the commit mariadb@10\.11\.19 is built from/);
});

test('the record says where the tag moved from and to, and validates', async () => {
  const fixture = JSON.parse(await readFile(new URL('../fixtures/store/run-record-v2.json', import.meta.url), 'utf8'));
  const install = /** @type {any} */ ({
    provider: 'source',
    provenance: { serverSha256: 'ab'.repeat(32), serverVersionString: 'mariadbd Ver 10.11.19', packages: [], tag: 'mariadb-10.11.19', commit: NEW, buildProfile: 'release', buildFlags: [] },
  });
  const record = createRecord({
    id: 'r-moved', startedAt: '2026-11-27T07:00:00.000Z',
    release: { key: 'mariadb@10.11.19', product: 'mariadb', version: '10.11.19', line: '10.11', install, movedFrom: OLD },
    host: fixture.host, config: fixture.config, steps: [],
  });
  assert.equal(record.release.commit, NEW);
  assert.equal(record.release.movedFrom, OLD);
  assert.deepEqual(validateRecord(record), []);
  const unmoved = createRecord({ id: 'r-unmoved', startedAt: '2026-11-27T07:00:00.000Z', release: { key: 'mariadb@10.11.19', product: 'mariadb', version: '10.11.19', line: '10.11', install }, host: fixture.host, config: fixture.config, steps: [] });
  assert.equal('movedFrom' in unmoved.release, false, 'absent when the tag did not move');
  assert.match(validateRecord({ ...record, release: { ...record.release, movedFrom: 'not a commit' } }).join('\n'), /release\.movedFrom/);
});
