import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { writeRecord, writeRawLog, readRecords, buildIndex, publishToBranch } from '../../scripts/store/index.js';
import { UserError } from '../../scripts/errors.js';
import { makeRecord, tempDir, git, bareRepo, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const quiet = { progress: () => {} };

/**
 * Clone the branch and check it: every record valid and at its path, index.json equal to one
 * regenerated from the files, history without merges, repository consistent.
 * @param {string} bare
 * @param {string} [branch]
 */
async function checkBranch(bare, branch = 'bench-data') {
  const fsck = git(['fsck', '--strict', '--no-dangling'], bare);
  assert.equal(fsck.trim(), '', 'git fsck reports nothing');
  assert.equal(git(['rev-list', '--min-parents=2', branch], bare).trim(), '', 'no merge commits: linear history');
  const clone = await tempDir('clone');
  git(['clone', '-q', '--branch', branch, bare, clone]);
  const records = await readRecords(clone);
  const index = JSON.parse(await readFile(join(clone, 'index.json'), 'utf8'));
  await rm(join(clone, '.git'), { recursive: true });
  assert.deepEqual(await buildIndex(clone, { write: false }), index, 'index.json matches the files');
  await rm(clone, { recursive: true });
  return { records, index };
}

test('publish creates the branch as an orphan, re-publish is a no-op, new records land on top', async () => {
  const store = await tempDir('store');
  const bare = await bareRepo();
  git(['--git-dir', bare, 'symbolic-ref', 'HEAD', 'refs/heads/main']);
  await writeRecord(store, makeRecord('run-1'));
  await writeRawLog(store, 'run-1', 'server-error.log', 'ready for connections\n');
  const first = await publishToBranch(store, { repo: bare, ...quiet });
  assert.equal(first.status, 'published');
  assert.deepEqual(first.added, ['runs/local/mariadb/10.11.18/smoke/run-1.samples.json.gz', 'runs/local/mariadb/10.11.18/smoke/run-1.json'], 'the samples file first, then the record that names it');
  assert.equal(git(['rev-list', '--count', 'bench-data'], bare).trim(), '1');
  assert.equal(git(['rev-list', '--max-parents=0', 'bench-data'], bare).trim(), first.commit, 'root commit: an orphan branch');

  const again = await publishToBranch(store, { repo: bare, ...quiet });
  assert.equal(again.status, 'unchanged');
  assert.equal(git(['rev-parse', 'bench-data'], bare).trim(), first.commit, 'no new commit');

  await writeRecord(store, makeRecord('run-2', { version: '10.11.19' }));
  /** @type {string[]} */
  const lines = [];
  const second = await publishToBranch(store, { repo: bare, logs: true, progress: (l) => lines.push(l) });
  assert.deepEqual(second.added.sort(), ['logs/run-1/server-error.log', 'runs/local/mariadb/10.11.19/smoke/run-2.json', 'runs/local/mariadb/10.11.19/smoke/run-2.samples.json.gz']);
  assert.ok(lines.some((l) => /indexing 1 new file on top of index.json \(1 run, 0 comparisons\)/.test(l)), `the branch's index is extended, not rebuilt: ${lines.join(' | ')}`);
  const { records, index } = await checkBranch(bare);
  assert.deepEqual(records.map((r) => r.id).sort(), ['run-1', 'run-2']);
  assert.deepEqual(index.runs.map((/** @type {any} */ r) => r.version), ['10.11.18', '10.11.19']);
  assert.equal(git(['show', 'bench-data:logs/run-1/server-error.log'], bare), 'ready for connections\n');
});

test('a different record under an existing path is refused and the branch does not move', async () => {
  const bare = await bareRepo();
  const storeA = await tempDir('store');
  const storeB = await tempDir('store');
  await writeRecord(storeA, makeRecord('same-id'));
  const other = makeRecord('same-id');
  other.host.hostname = 'another-runner';
  await writeRecord(storeB, other);
  const { commit } = await publishToBranch(storeA, { repo: bare, ...quiet });
  await assert.rejects(publishToBranch(storeB, { repo: bare, ...quiet }),
    (err) => err instanceof UserError && /append-only/.test(err.message) && err.message.includes('runs/local/mariadb/10.11.18/smoke/same-id.json'));
  assert.equal(git(['rev-parse', 'bench-data'], bare).trim(), commit);
});

test('an invalid local store is refused before the remote is touched', async () => {
  const bare = await bareRepo();
  const store = await tempDir('store');
  const path = await writeRecord(store, makeRecord('r'));
  await chmod(path, 0o644);
  await writeFile(path, '{"schemaVersion": 1');
  await assert.rejects(publishToBranch(store, { repo: bare, ...quiet }), /run-1|r\.json: not valid JSON/);
  assert.equal(git(['for-each-ref'], bare).trim(), '', 'no branch was created');
});

test('a push refused for another reason than a race fails at once with git\'s message', async () => {
  const bare = await bareRepo();
  const hook = join(bare, 'hooks', 'pre-receive');
  await writeFile(hook, '#!/bin/sh\necho "results branch is frozen" >&2\nexit 1\n');
  await chmod(hook, 0o755);
  const store = await tempDir('store');
  await writeRecord(store, makeRecord('r1'));
  const lines = /** @type {string[]} */ ([]);
  await assert.rejects(publishToBranch(store, { repo: bare, progress: (l) => lines.push(l) }), /results branch is frozen/);
  assert.equal(lines.filter((l) => l.includes('attempt')).length, 1, 'no retry');
});

test('credentials in the repository URL never appear in errors', async () => {
  const store = await tempDir('store');
  await writeRecord(store, makeRecord('r1'));
  // Port 9 (discard) on the loopback: nothing listens, the connection is refused at once.
  await assert.rejects(publishToBranch(store, { repo: 'http://x-access-token:s3cr3t-t0ken@127.0.0.1:9/org/repo.git', ...quiet }),
    (err) => err instanceof UserError && !err.message.includes('s3cr3t-t0ken') && err.message.includes('http://***@127.0.0.1:9/org/repo.git'));
});

test('a branch whose index.json does not list its files is fetched whole and indexed from every file', async () => {
  const bare = await bareRepo();
  const a = await tempDir('store-a');
  await writeRecord(a, makeRecord('run-1'));
  await publishToBranch(a, { repo: bare, ...quiet });
  // Someone pushed a record without regenerating index.json (an older tagbench, a hand edit).
  const hand = await tempDir('hand');
  git(['clone', '-q', '--branch', 'bench-data', bare, hand]);
  const other = await tempDir('store-other');
  await writeRecord(other, makeRecord('run-9', { version: '10.11.17' }));
  git(['-C', hand, 'config', 'user.email', 't@localhost']);
  git(['-C', hand, 'config', 'user.name', 't']);
  await rm(join(hand, 'runs'), { recursive: true });
  git(['-C', hand, 'checkout', '-q', '--', '.']);
  const { cp } = await import('node:fs/promises');
  await cp(join(other, 'runs'), join(hand, 'runs'), { recursive: true });
  git(['-C', hand, 'add', '-A']);
  git(['-C', hand, 'commit', '-q', '-m', 'a record without its index entry']);
  git(['-C', hand, 'push', '-q', 'origin', 'bench-data']);

  const b = await tempDir('store-b');
  await writeRecord(b, makeRecord('run-2', { version: '10.11.19' }));
  /** @type {string[]} */
  const lines = [];
  await publishToBranch(b, { repo: bare, progress: (l) => lines.push(l) });
  assert.ok(lines.some((l) => /index\.json does not list exactly its files: fetching the whole branch/.test(l)), lines.join(' | '));
  const { index } = await checkBranch(bare);
  assert.deepEqual(index.runs.map((/** @type {any} */ r) => r.id).sort(), ['run-1', 'run-2', 'run-9'], 'the record the old index missed is indexed');
});

test('logs of runs older than the retention leave the tip on the next publish; the history keeps them', async () => {
  const bare = await bareRepo();
  const a = await tempDir('store-a');
  const old = makeRecord('run-old');
  await writeRecord(a, old);
  await writeRawLog(a, 'run-old', 'point-query.r0.txt', 'old output\n');
  const now = new Date(Date.parse(old.startedAt) + 10 * 86_400_000);
  const first = await publishToBranch(a, { repo: bare, logs: true, now, logRetentionDays: 30, ...quiet });
  assert.deepEqual(first.prunedLogs, [], 'ten days old: kept');
  const withLog = first.commit;

  const b = await tempDir('store-b');
  await writeRecord(b, makeRecord('run-new', { version: '10.11.19' }));
  const later = new Date(Date.parse(old.startedAt) + 40 * 86_400_000);
  const second = await publishToBranch(b, { repo: bare, logs: true, now: later, logRetentionDays: 30, ...quiet });
  assert.deepEqual(second.prunedLogs, ['run-old']);
  assert.equal(git(['ls-tree', '-r', '--name-only', 'bench-data', '--', 'logs/'], bare).trim(), '', 'no log on the tip');
  assert.equal(git(['show', `${withLog}:logs/run-old/point-query.r0.txt`], bare), 'old output\n', 'the history keeps it');
  assert.match(git(['log', '-1', '--format=%s', 'bench-data'], bare), /logs of 1 old run pruned/);
  const { index } = await checkBranch(bare);
  assert.deepEqual(index.runs.map((/** @type {any} */ r) => r.id).sort(), ['run-new', 'run-old'], 'the record itself stays');

  const c = await tempDir('store-c');
  await writeRecord(c, makeRecord('run-c', { version: '10.11.20' }));
  const third = await publishToBranch(c, { repo: bare, logs: true, now: later, logRetentionDays: 0, ...quiet });
  assert.deepEqual(third.prunedLogs, [], '0 keeps every log');
});
