/**
 * `tagbench store fetch` (fetchRuns): a resumed leg gets exactly the named records of the results
 * branch into its local store, as they were published, and nothing else; what it cannot fetch
 * is an error naming the id, and the local store is left as it was.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fetchRuns } from '../../scripts/store/fetch-runs.js';
import { publishToBranch, writeRecord, readRecords } from '../../scripts/store/index.js';
import { recordRelPath } from '../../scripts/store/store-paths.js';
import { execFileSync } from 'node:child_process';
import { makeRecord, tempDir, bareRepo, cleanupTempDirs, snapshot, git } from './store-testkit.js';

after(cleanupTempDirs);
const quiet = () => {};
/** @param {import('../../scripts/types.js').RunRecord} r */
const r0HasSamples = (r) => r.steps.some((st) => st.repeats.some((rep) => rep.intervals.length > 0));

/**
 * A results branch holding three records: base and candidate of one run, and a partial one.
 * @returns {Promise<{repo: string, records: import('../../scripts/types.js').RunRecord[]}>}
 */
async function publishedBranch() {
  const repo = await bareRepo();
  const src = await tempDir('fetch-src');
  const records = [
    makeRecord('20261126T180000Z-local-mariadb-10.11.18-smoke-a1b2c3', { version: '10.11.18', status: 'ok' }),
    makeRecord('20261126T180000Z-local-mariadb-10.11.19-smoke-a1b2c3', { version: '10.11.19', status: 'ok' }),
    makeRecord('20261126T120000Z-local-mariadb-10.11.19-smoke-0f0f0f', { version: '10.11.19', status: 'partial' }),
  ];
  for (const r of records) await writeRecord(src, r);
  await publishToBranch(src, { repo, progress: quiet });
  return { repo, records };
}

test('the named records arrive in the local store byte for byte as published; the others do not', async () => {
  const { repo, records } = await publishedBranch();
  const store = await tempDir('fetch-dst');
  const fetched = await fetchRuns(store, { repo, ids: [records[1].id, records[0].id], progress: quiet });
  assert.deepEqual(fetched.map((f) => [f.id, f.status]), [[records[1].id, 'ok'], [records[0].id, 'ok']]);
  const local = await readRecords(store);
  assert.deepEqual(local.map((r) => r.id).sort(), [records[0].id, records[1].id].sort());
  for (const r of records.slice(0, 2)) {
    const rel = recordRelPath(r);
    assert.equal(await readFile(join(store, rel), 'utf8'), git(['--git-dir', repo, 'show', `bench-data:${rel}`]), `${rel} as on the branch`);
    // Its per-second samples file came with it, byte for byte: readers join the record back whole.
    const samples = rel.replace(/\.json$/, '.samples.json.gz');
    assert.ok((await readFile(join(store, samples))).equals(execFileSync('git', ['--git-dir', repo, 'show', `bench-data:${samples}`])), `${samples} as on the branch`);
    assert.deepEqual(local.find((x) => x.id === r.id)?.steps.map((st) => st.repeats.map((rep) => rep.intervals.length)), r.steps.map((st) => st.repeats.map((rep) => rep.intervals.length)));
  }
  assert.ok(r0HasSamples(records[0]), 'the fixture has per-second samples, so the branch holds samples files');
  assert.ok(!existsSync(join(store, 'index.json')), 'the store gets records, not the branch index');
  // Fetching again is a no-op (append-only store, same content).
  const before = await snapshot(store);
  await fetchRuns(store, { repo, ids: [records[0].id], progress: quiet });
  assert.deepEqual(await snapshot(store), before);
});

test('an id the branch does not list, a bad id, a missing branch or a different local file are errors; the store is left as it was', async () => {
  const { repo, records } = await publishedBranch();
  const store = await tempDir('fetch-err');
  await mkdir(store, { recursive: true });
  await writeFile(join(store, 'keep.txt'), 'kept');
  const before = await snapshot(store);
  await assert.rejects(fetchRuns(store, { repo, ids: ['20261126T180000Z-local-mariadb-10.11.20-smoke-a1b2c3'], progress: quiet }),
    /bench-data at [0-9a-f]{12} lists no run '20261126T180000Z-local-mariadb-10\.11\.20-smoke-a1b2c3' in its index\.json/);
  await assert.rejects(fetchRuns(store, { repo, ids: ['../etc/passwd'], progress: quiet }), /--runs: "\.\.\/etc\/passwd" is not a run id/);
  await assert.rejects(fetchRuns(store, { repo, branch: 'nope', ids: [records[0].id], progress: quiet }), /has no branch nope: nothing was published to resume from/);
  assert.deepEqual(await snapshot(store), before);
  // A local record of the same id with other content is never overwritten.
  const other = structuredClone(records[0]);
  other.startedAt = '2026-11-26T18:00:01.000Z';
  await writeRecord(store, other);
  await assert.rejects(fetchRuns(store, { repo, ids: [records[0].id], progress: quiet }), /exists|differ/i);
  assert.equal(JSON.parse(await readFile(join(store, recordRelPath(other)), 'utf8')).startedAt, other.startedAt);
});
