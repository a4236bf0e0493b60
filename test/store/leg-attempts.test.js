/**
 * Issue 21, "failure memory": a leg whose bench job failed, timed out or was cancelled is kept
 * as a file of its own (append-only), reaches the results branch through publish, and is
 * summarised in index.json, where watch reads it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir, rename } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { publishToBranch, writeLegAttempt, readLegAttempts, summarizeLegAttempts, readIndex, legKey, openFailedLegs } from '../../scripts/store/index.js';
import { buildIndex } from '../../scripts/store/build-index.js';
import { attemptCommand, readStoreSettings } from '../../scripts/store/commands.js';
import { UserError } from '../../scripts/errors.js';
import { tempDir, git, bareRepo, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const quiet = { progress: () => {} };
/** @param {Partial<import('../../scripts/store/leg-attempts.js').LegAttempt>} over */
const attempt = (over = {}) => /** @type {import('../../scripts/store/leg-attempts.js').LegAttempt} */ ({
  schemaVersion: 1, at: '2026-11-27T04:00:00.000Z', hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small',
  outcome: 'failure', reason: 'the bench job ended failure', runUrl: 'https://github.example/acme/bench/actions/runs/7', ...over,
});

test('failed attempts are stored one file each, read back oldest first, and summarised per leg', async () => {
  const store = await tempDir('store');
  await writeLegAttempt(store, attempt({ at: '2026-11-27T10:00:00.000Z', outcome: 'cancelled', reason: 'job timed out' }));
  const { path } = await writeLegAttempt(store, attempt());
  await writeLegAttempt(store, attempt({ version: '10.11.20' }));
  assert.match(path, /attempts\/small-server\/mariadb\/10\.11\.19\/small\/attempt-20261127T040000Z-[0-9a-f]{8}\.json$/);
  const all = await readLegAttempts(store);
  assert.deepEqual(all.map((a) => [a.version, a.at]), [['10.11.19', '2026-11-27T04:00:00.000Z'], ['10.11.20', '2026-11-27T04:00:00.000Z'], ['10.11.19', '2026-11-27T10:00:00.000Z']]);
  const legs = summarizeLegAttempts(all);
  assert.equal(legs.length, 2);
  assert.deepEqual(legs[0], {
    hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small', count: 2,
    firstAt: '2026-11-27T04:00:00.000Z', lastAt: '2026-11-27T10:00:00.000Z', lastOutcome: 'cancelled', lastReason: 'job timed out',
    lastRunUrl: 'https://github.example/acme/bench/actions/runs/7',
    runUrls: ['https://github.example/acme/bench/actions/runs/7'], // both attempts name one run: listed once
  });
  // The index lists them, whether computed or read from a stale index.json.
  const index = await buildIndex(store);
  assert.deepEqual(index.attempts, legs);
  await writeLegAttempt(store, attempt({ version: '10.11.21' }));
  assert.equal((await readIndex(store)).attempts?.length, 3, 'an attempt written after index.json is read anyway');
  // A store without attempts keeps its index as before (no empty key).
  assert.equal('attempts' in (await buildIndex(await tempDir('empty'))), false);
});

test('a bad attempt is refused naming the field; a file at the wrong path is refused naming where it belongs', async () => {
  const store = await tempDir('store');
  await assert.rejects(writeLegAttempt(store, attempt({ outcome: /** @type {any} */ ('success') })), (err) => err instanceof UserError && /outcome/.test(err.message));
  await assert.rejects(writeLegAttempt(store, attempt({ version: '10.11.19; rm -rf /' })), (err) => err instanceof UserError && /version/.test(err.message));
  const { path } = await writeLegAttempt(store, attempt());
  const moved = path.replace('/10.11.19/', '/10.11.18/');
  await mkdir(dirname(moved), { recursive: true });
  await rename(path, moved);
  await assert.rejects(readLegAttempts(store), (err) => err instanceof UserError && /belongs at attempts\/small-server\/mariadb\/10\.11\.19\/small\//.test(err.message));
});

test('publish takes attempts to the results branch (append-only), and its index.json lists the leg', async () => {
  const store = await tempDir('store');
  const bare = await bareRepo();
  const { path } = await writeLegAttempt(store, attempt());
  const first = await publishToBranch(store, { repo: bare, ...quiet });
  assert.equal(first.status, 'published');
  assert.equal(first.added.length, 1);
  assert.match(git(['log', '-1', '--format=%s', 'bench-data'], bare), /0 runs, 0 comparisons, 1 failed leg attempt$/m);
  const clone = await tempDir('clone');
  git(['clone', '-q', '--branch', 'bench-data', bare, clone]);
  const index = JSON.parse(await readFile(join(clone, 'index.json'), 'utf8'));
  assert.equal(index.attempts[0].count, 1);
  assert.equal(index.attempts[0].version, '10.11.19');
  assert.equal((await publishToBranch(store, { repo: bare, ...quiet })).status, 'unchanged');
  // Another store with an edited copy at the same path: refused, the branch stays.
  const other = await tempDir('store');
  const rel = path.slice(store.length + 1);
  await mkdir(dirname(join(other, rel)), { recursive: true });
  await writeFile(join(other, rel), `${JSON.stringify({ ...attempt(), reason: 'edited' }, null, 2)}\n`);
  await assert.rejects(publishToBranch(other, { repo: bare, ...quiet }), (err) => err instanceof UserError && /append-only/.test(err.message));
  assert.equal(git(['rev-parse', 'bench-data'], bare).trim(), first.commit);
});

test('tagbench store attempt writes the file the workflow publishes, with the run URL from the Actions environment', async () => {
  const store = await tempDir('store');
  const out = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await attemptCommand({
      store, hostClass: 'small-server', product: 'mariadb', version: '10.11.19', suite: 'small', outcome: 'cancelled', reason: 'the bench job ended cancelled',
    }, readStoreSettings({ GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'acme/bench', GITHUB_RUN_ID: '42' }));
    await assert.rejects(attemptCommand({ store, hostClass: 'small-server', product: 'mariadb', suite: 'small', reason: 'x' }, readStoreSettings({})), (err) => err instanceof UserError && /needs --version/.test(err.message));
  } finally {
    process.stdout.write = out;
  }
  const [a] = await readLegAttempts(store);
  assert.equal(a.outcome, 'cancelled');
  assert.equal(a.runUrl, 'https://github.example/acme/bench/actions/runs/42');
});

test('a failed leg stays open until its release is compared or a run finishes after its last failure', () => {
  const legs = summarizeLegAttempts([
    attempt({ version: '10.11.19', at: '2026-11-27T04:00:00.000Z' }),
    attempt({ version: '10.11.20', at: '2026-11-27T04:00:00.000Z' }),
    attempt({ version: '10.11.21', at: '2026-11-27T04:00:00.000Z' }),
    attempt({ version: '10.11.22', at: '2026-11-27T04:00:00.000Z' }),
  ]);
  const key = (/** @type {string} */ version) => legKey({ hostClass: 'small-server', product: 'mariadb', version, suite: 'small' });
  assert.equal(key('10.11.19'), 'small-server/mariadb/10.11.19/small');
  const open = openFailedLegs(legs, {
    compared: new Set([key('10.11.20')]),
    lastFinishedAt: new Map([
      [key('10.11.21'), '2026-11-27T05:00:00.000Z'], // finished after the failure: done
      [key('10.11.22'), '2026-11-27T03:00:00.000Z'], // finished before it: still open
    ]),
  });
  assert.deepEqual(open.map((l) => l.version), ['10.11.19', '10.11.22']);
  assert.deepEqual(openFailedLegs(legs, { compared: new Set(), lastFinishedAt: new Map() }), legs);
});

test('the store\'s settings: a run URL only when Actions names the run and its repository, github.com when no server is named', () => {
  assert.equal(readStoreSettings({ GITHUB_REPOSITORY: 'acme/bench', GITHUB_RUN_ID: '7' }).runUrl, 'https://github.com/acme/bench/actions/runs/7');
  assert.equal(readStoreSettings({ GITHUB_REPOSITORY: 'acme/bench' }).runUrl, null);
  assert.equal(readStoreSettings({ GITHUB_RUN_ID: '7' }).runUrl, null);
});
