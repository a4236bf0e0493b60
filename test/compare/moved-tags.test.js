// A moved tag's release counts its new commit only: the runs of the commit the tag named before
// (earlier than the run made because it moved) are superseded, in compare's columns as on the site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitSuperseded } from '../../scripts/compare/index.js';
import { selectEntryRecords, parseReleaseEntry } from '../../scripts/verify/release-entry.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);

/**
 * @param {string} id
 * @param {string} startedAt
 * @param {{commit: string|null, movedFrom?: string}} release
 */
const run = (id, startedAt, release) => /** @type {import('../../scripts/types.js').RunRecord} */ (/** @type {unknown} */ ({
  id, startedAt, release: { version: '10.11.19', ...release }, config: { engine: 'innodb' },
}));

test('runs before the moved tag\'s run, of another commit, are superseded; nothing else is', () => {
  const first = run('r1', '2026-11-20T10:00:00Z', { commit: OLD });
  const deb = run('r2', '2026-11-21T10:00:00Z', { commit: null });
  const moved = run('r3', '2026-11-27T10:00:00Z', { commit: NEW, movedFrom: OLD });
  const again = run('r4', '2026-11-28T10:00:00Z', { commit: NEW });
  assert.deepEqual(splitSuperseded([moved, first, deb, again]), { records: [moved, deb, again], superseded: [first] });
  // Without a run made because the tag moved, runs of several commits all stay (a bisect's probes).
  const probe = run('r5', '2026-11-22T10:00:00Z', { commit: NEW });
  assert.deepEqual(splitSuperseded([first, probe]), { records: [first, probe], superseded: [] });
});

test('compare\'s column of a moved release holds its new commit\'s runs only', () => {
  const first = run('r1', '2026-11-20T10:00:00Z', { commit: OLD });
  const moved = run('r3', '2026-11-27T10:00:00Z', { commit: NEW, movedFrom: OLD });
  assert.deepEqual(selectEntryRecords([first, moved], parseReleaseEntry('10.11.19')).map((r) => r.id), ['r3']);
});
