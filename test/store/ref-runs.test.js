// The store keeps ad-hoc ref runs apart (refs/runs/, refs/verdicts/): placed by their content,
// refused where they do not belong, indexed as refRuns/refComparisons, published to the results
// branch with the index extended (not rebuilt) on the next publish, and read back only when
// asked for. Records: the captured real runs relabelled as a ref run (test/support/ref-store.js).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { writeRecord, writeComparison, readRecords, readComparisons, readIndex, publishToBranch, refRunKey, refRunPagePath } from '../../scripts/store/index.js';
import { migrateStore } from '../../scripts/store/migrate-store.js';
import { writeRefRunStore } from '../support/ref-store.js';
import { tempDir, git, bareRepo, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const CANDIDATE = '1a2b3c4d5e6f'.padEnd(40, '0');
const BASE = 'f6e5d4c3b2a1'.padEnd(40, '0');

test('ref runs are stored under refs/, indexed apart, published and found again', async () => {
  const store = await tempDir('store');
  const { records, candidateVersion, baseVersion } = await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE, withReleases: true });
  const candidate = records.find((r) => r.release.ref?.role === 'candidate');
  assert.ok(candidate);
  const comparison = JSON.parse(await readFile(new URL('../fixtures/github/captured-store/verdicts/local/mariadb/10.11.19/smoke/vs-10.11.18-20261121T135658Z-480feaf2.json', import.meta.url), 'utf8'));
  const refComparison = { ...comparison, base: { ...comparison.base, version: baseVersion }, candidate: { ...comparison.candidate, version: candidateVersion }, ref: { name: 'pull/7/head', repository: 'https://github.com/acme/server.git', pullRequest: 7, commit: CANDIDATE, base: { ...candidate.release.ref?.base } } };
  const { id, path } = await writeComparison(store, refComparison);
  assert.equal(path, join(store, 'refs/verdicts/local/mariadb', candidateVersion, 'smoke', `${id}.json`));
  assert.match(id, /^vs-10\.11\.18_f6e5d4c3b2a1-/, 'a file name of the store\'s characters');

  assert.equal((await readRecords(store)).length, 4, 'the release series: the captured records alone');
  assert.equal((await readRecords(store, { refs: true })).length, 4);
  assert.equal((await readComparisons(store, { refs: true }))[0].ref?.commit, CANDIDATE);
  const index = await readIndex(store);
  assert.deepEqual(index.refRuns?.map((r) => r.path.split('/').slice(0, 2).join('/')), ['refs/runs', 'refs/runs', 'refs/runs', 'refs/runs']);
  assert.equal(index.refComparisons?.length, 1);
  assert.equal(index.runs.length, 4);

  const key = refRunKey(candidate);
  assert.deepEqual(key, { hostClass: 'local', product: 'mariadb', suite: 'smoke', commit: CANDIDATE });
  assert.equal(refRunPagePath(candidate), refRunPagePath(refComparison), 'a record and its comparison name one page');
  assert.equal(refRunPagePath(key), `ref.html?host=local&product=mariadb&suite=smoke&commit=${CANDIDATE}`);
  assert.throws(() => refRunKey(comparison), /is not of a ref run/);

  const bare = await bareRepo();
  const first = await publishToBranch(store, { repo: bare, progress: () => {} });
  assert.ok(first.added.some((p) => p.startsWith('refs/runs/')) && first.added.some((p) => p.startsWith('refs/verdicts/')));
  assert.match(git(['log', '-1', '--format=%s', 'bench-data'], bare), /8 runs, 3 comparisons/);
  // One more ref run on top: the branch's index is extended with it.
  const more = { ...candidate, id: `${candidate.id.slice(0, -6)}0a0b0c` };
  await writeRecord(store, more);
  /** @type {string[]} */
  const lines = [];
  await publishToBranch(store, { repo: bare, progress: (l) => lines.push(l) });
  assert.ok(lines.some((l) => /indexing 1 new file on top of index.json/.test(l)), lines.join(' | '));
  const branchIndex = JSON.parse(git(['show', 'bench-data:index.json'], bare));
  assert.equal(branchIndex.refRuns.length, 5);
  assert.equal(branchIndex.runs.length, 4, 'watch reads runs: releases only');

  assert.equal((await migrateStore(store, { dryRun: true })).current, 4 + 2 + 5 + 1, 'migrate checks the ref runs\' files too');
});

test('a ref run\'s record where the release series is (or the reverse) is an error naming where it belongs', async () => {
  const store = await tempDir('misplaced');
  const { records } = await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE });
  const r = records[0];
  const from = join(store, 'refs/runs/local/mariadb', r.release.version, 'smoke', `${r.id}.json`);
  const to = join(store, 'runs/local/mariadb', r.release.version, 'smoke', `${r.id}.json`);
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
  await rename(from.replace(/\.json$/, '.samples.json.gz'), to.replace(/\.json$/, '.samples.json.gz'));
  await assert.rejects(readRecords(store), new RegExp(`its content belongs at refs/runs/local/mariadb/${r.release.version.replace(/[.+]/g, '\\$&')}/smoke/`));
});
