/**
 * Bisect reports go to the results branch like comparisons: added once, a republish changes
 * nothing, and a different report at the same path is refused (append-only).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publishToBranch, readBisectReports, writeBisectReport } from '../../scripts/store/index.js';
import { UserError } from '../../scripts/errors.js';
import { makeBisectReport } from '../support/bisect-report.js';
import { tempDir, git, bareRepo, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const quiet = { progress: () => {} };

test('a bisect report is published once, read back from the branch, and never rewritten', async () => {
  const store = await tempDir('store');
  const bare = await bareRepo();
  const { id, path } = await writeBisectReport(store, makeBisectReport());
  const relPath = `bisects/local/mariadb/smoke/${id}.json`;
  assert.equal(path, join(store, relPath));

  const first = await publishToBranch(store, { repo: bare, ...quiet });
  assert.equal(first.status, 'published');
  assert.deepEqual(first.added, [relPath]);
  assert.match(git(['log', '-1', '--format=%s', 'bench-data'], bare), /0 runs, 0 comparisons, 1 bisect report$/m);
  const clone = await tempDir('clone');
  git(['clone', '-q', '--branch', 'bench-data', bare, clone]);
  const [onBranch] = await readBisectReports(clone);
  assert.equal(onBranch.id, id);
  assert.equal(onBranch.outcome.firstBad, '10.11.21');
  await rm(clone, { recursive: true });

  assert.equal((await publishToBranch(store, { repo: bare, ...quiet })).status, 'unchanged');

  // Another store holding a different report under the same path: refused, the branch stays.
  const other = await tempDir('store');
  const changed = { ...JSON.parse(await readFile(path, 'utf8')), notes: ['edited afterwards'] };
  await writeBisectReport(other, makeBisectReport()); // creates the folders
  await writeFile(join(other, relPath), `${JSON.stringify(changed, null, 2)}\n`);
  await assert.rejects(publishToBranch(other, { repo: bare, ...quiet }),
    (err) => err instanceof UserError && /append-only/.test(err.message) && err.message.includes(relPath));
  assert.equal(git(['rev-parse', 'bench-data'], bare).trim(), first.commit);
});

test('an invalid bisect report is refused before the remote is touched', async () => {
  const store = await tempDir('store');
  const bare = await bareRepo();
  const { path } = await writeBisectReport(store, makeBisectReport());
  const broken = JSON.parse(await readFile(path, 'utf8'));
  delete broken.outcome;
  await writeFile(path, JSON.stringify(broken));
  await assert.rejects(publishToBranch(store, { repo: bare, ...quiet }), (err) => err instanceof UserError && /is not a valid bisect report/.test(err.message) && /outcome/.test(err.message));
  assert.equal(git(['branch', '--list'], bare).trim(), '', 'nothing was pushed');
});
