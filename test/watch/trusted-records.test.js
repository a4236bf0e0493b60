// Watch and records the release service did not write (issue 34): failed attempts count once per
// workflow run of this repository (three planted attempts no longer stop a release for good), and
// a run that names another tag than upstream's is not that release's run. Through the command
// (`tagbench watch`), over a real store and a local upstream repository.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRecord, writeLegAttempt, buildIndex } from '../../scripts/store/index.js';
import { watchCommand, attemptRunPrefix, attemptsRepositoryFrom } from '../../scripts/watch/commands.js';
import { trustedAttempts } from '../../scripts/watch/discover-tags.js';
import { upstreamRepos, record, tempDir, cleanupTempDirs } from './watch-testkit.js';

const root = fileURLToPath(new URL('../fixtures/watch', import.meta.url));
after(cleanupTempDirs);

/** @type {Awaited<ReturnType<typeof upstreamRepos>>} */
let up;
before(async () => {
  up = await upstreamRepos();
});

const OURS = 'https://github.com/acme/tagbench/actions/runs/';

/** A store where mysql 9.7.4 and 8.4.3 are benchmarked on bench-b: 8.4.4 is the one leg left. */
async function storeWithOneLegLeft() {
  const store = await tempDir('store');
  for (const version of ['9.7.4', '8.4.3']) await writeRecord(store, await record(`done-${version}`, { product: 'mysql', version, hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  return store;
}

/** @param {string} store @param {Record<string, any>} [over] @returns {Promise<any[]>} the matrix */
async function watchMatrix(store, over = {}) {
  await buildIndex(store);
  const out = join(await tempDir('gh'), 'output');
  await watchCommand({ root, store, products: 'mysql', hostClass: ['bench-b'], max: 10, remoteOverride: [`mysql=${up.mysql.bare}`], githubOutput: out, ...over });
  return JSON.parse((await readFile(out, 'utf8')).split('\n')[0].replace(/^matrix=/, '')).include;
}

test('three planted attempts (no run, another repository\'s run, one run named twice) do not stop a release', async () => {
  const store = await storeWithOneLegLeft();
  const base = { schemaVersion: /** @type {1} */ (1), hostClass: 'bench-b', product: 'mysql', version: '8.4.4', suite: 'small', outcome: /** @type {const} */ ('failure'), reason: 'planted' };
  await writeLegAttempt(store, { ...base, at: '2026-01-01T00:00:00Z', runUrl: null });
  await writeLegAttempt(store, { ...base, at: '2026-01-01T01:00:00Z', runUrl: 'https://github.com/evil/fork/actions/runs/1' });
  await writeLegAttempt(store, { ...base, at: '2026-01-01T02:00:00Z', runUrl: `${OURS}5` });
  await writeLegAttempt(store, { ...base, at: '2026-01-01T03:00:00Z', runUrl: `${OURS}5` });
  const trusting = await watchMatrix(store);
  assert.deepEqual(trusting.map((e) => e.version), [], 'outside Actions (no repository known) every attempt counts: four, stopped');
  const matrix = await watchMatrix(store, { attemptsRepository: 'acme/tagbench' });
  assert.deepEqual(matrix.map((e) => [e.version, e.attempt]), [['8.4.4', 2]], 'one workflow run of acme/tagbench failed: this is attempt 2');
});

test('a run that names another tag than upstream\'s does not make the release benchmarked', async () => {
  const store = await storeWithOneLegLeft();
  await writeRecord(store, await record('forged-844', { product: 'mysql', version: '8.4.4', tag: 'not-upstream-8.4.4', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  assert.deepEqual((await watchMatrix(store)).map((e) => e.version), ['8.4.4']);
  await writeRecord(store, await record('real-844', { product: 'mysql', version: '8.4.4', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  assert.deepEqual(await watchMatrix(store), [], 'a run with upstream\'s tag does');
});

test('trustedAttempts counts distinct runs under the prefix (a rerun\'s /attempts/N is the same run); older indexes are taken as they are', () => {
  const leg = { hostClass: 'h', product: 'p', version: '1', suite: 's', count: 3, firstAt: 'a', lastAt: 'b', lastOutcome: /** @type {const} */ ('failure'), lastReason: 'r', lastRunUrl: null };
  const { counted, ignored } = trustedAttempts([{ ...leg, runUrls: [`${OURS}7`, `${OURS}7/attempts/2`, `${OURS}8`] }], OURS);
  assert.equal(counted[0].count, 2);
  assert.match(ignored[0].why, /only 2 distinct workflow runs of https:\/\/github\.com\/acme\/tagbench\/actions\/runs\//);
  assert.deepEqual(trustedAttempts([{ ...leg, runUrls: [`${OURS.replace('acme', 'evil')}7`] }], OURS).counted, [], 'none of ours: the leg has no failed attempt');
  assert.deepEqual(trustedAttempts([leg], OURS).counted, [leg]);
  assert.equal(attemptRunPrefix('acme/tagbench', 'https://ghe.example/'), 'https://ghe.example/acme/tagbench/actions/runs/');
  assert.equal(attemptRunPrefix(undefined, undefined), null);
  assert.throws(() => attemptRunPrefix('acme', undefined), /--attempts-repository "acme" is not owner\/name/);
});

test('the repository whose runs count: the option, else GitHub\'s; under act a local path names no runs (every attempt counts), anywhere else a malformed one fails', () => {
  assert.equal(attemptsRepositoryFrom('acme/tagbench', { GITHUB_REPOSITORY: 'other/repo' }), 'acme/tagbench');
  assert.equal(attemptsRepositoryFrom(undefined, { GITHUB_REPOSITORY: 'acme/tagbench' }), 'acme/tagbench');
  assert.equal(attemptsRepositoryFrom(undefined, { ACT: 'true', GITHUB_REPOSITORY: '/work/main' }), undefined, 'act: the checkout\'s origin path');
  assert.equal(attemptsRepositoryFrom(undefined, { ACT: 'true', GITHUB_REPOSITORY: 'acme/tagbench' }), 'acme/tagbench');
  assert.equal(attemptsRepositoryFrom(undefined, { GITHUB_REPOSITORY: '/work/main' }), '/work/main', 'outside act it is passed on, and attemptRunPrefix refuses it');
  assert.throws(() => attemptRunPrefix(attemptsRepositoryFrom(undefined, { GITHUB_REPOSITORY: '/work/main' }), undefined), /is not owner\/name/);
  assert.equal(attemptsRepositoryFrom(undefined, {}), undefined);
});
