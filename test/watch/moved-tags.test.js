// Tags by commit, against a real upstream-like git repository: releases benchmarked at the
// commits their tags named, then upstream moves one tag (git tag -f, force-pushed) and deletes
// another. watch must propose the moved one again with movedFrom, leave the unmoved one alone,
// and list the deleted one; the results index carries each run's commit for this.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';
import { writeRecord, readIndex, buildIndex } from '../../scripts/store/index.js';
import { discoverTags, planMatrix, DEFAULT_BACK_OFF } from '../../scripts/watch/discover-tags.js';
import { watchCommand } from '../../scripts/watch/commands.js';
import { git, record, tempDir, cleanupTempDirs } from './watch-testkit.js';

const root = fileURLToPath(new URL('../fixtures/watch', import.meta.url));
const quiet = () => {};
after(cleanupTempDirs);

/**
 * An upstream with three release tags, each on its own commit, served from a bare repository.
 * @returns {Promise<{work: string, bare: string, commitOf: (tag: string) => string}>}
 */
async function upstream() {
  const work = await tempDir('moved-work');
  const bare = await tempDir('moved-bare');
  git(['init', '-q', work]);
  for (const v of ['10.11.18', '10.11.19', '10.11.20']) {
    git(['commit', '-q', '--allow-empty', '-m', `release ${v}`], work);
    git(['tag', '-a', `mariadb-${v}`, '-m', `Release ${v}`], work);
  }
  git(['clone', '-q', '--bare', work, bare]);
  git(['remote', 'add', 'origin', bare], work);
  return { work, bare, commitOf: (tag) => git(['rev-parse', `${tag}^{commit}`], bare).trim() };
}

/**
 * A store with one ok run of each release at the commit its tag names now.
 * @param {(tag: string) => string} commitOf
 */
async function storeAtCurrentCommits(commitOf) {
  const store = await tempDir('moved-store');
  for (const v of ['10.11.18', '10.11.19', '10.11.20']) {
    await writeRecord(store, await record(`run-${v}`, { product: 'mariadb', version: v, hostClass: 'bench-a', suite: 'smoke', status: 'ok', commit: commitOf(`mariadb-${v}`) }));
  }
  return store;
}

test('a moved tag is proposed again with movedFrom, an unmoved one is not, a deleted one is listed', async () => {
  const config = await loadConfig(root);
  const up = await upstream();
  const store = await storeAtCurrentCommits(up.commitOf);
  const oldCommit = up.commitOf('mariadb-10.11.19');
  const deletedCommit = up.commitOf('mariadb-10.11.20');
  const options = { products: ['mariadb'], hostClasses: ['bench-a'], remoteOverrides: { mariadb: up.bare }, max: 10, progress: quiet };

  const index = await buildIndex(store);
  assert.deepEqual(index.runs.map((r) => [r.version, r.commit]), [['10.11.18', up.commitOf('mariadb-10.11.18')], ['10.11.19', oldCommit], ['10.11.20', up.commitOf('mariadb-10.11.20')]],
    'the index carries each run\'s commit');
  const before = await discoverTags(config, { ...options, index: await readIndex(store) });
  assert.deepEqual(before.matrix.include, [], 'every tag benchmarked at its commit: nothing to do');
  assert.deepEqual(before.deleted, []);

  // Upstream re-tags 10.11.19 on a new commit and deletes 10.11.20.
  git(['commit', '-q', '--allow-empty', '-m', 'fix after the release'], up.work);
  git(['tag', '-f', '-a', 'mariadb-10.11.19', '-m', 'Release 10.11.19, again'], up.work);
  git(['push', '-q', '--force', 'origin', 'refs/tags/mariadb-10.11.19'], up.work);
  git(['push', '-q', 'origin', ':refs/tags/mariadb-10.11.20'], up.work);
  const newCommit = up.commitOf('mariadb-10.11.19');
  assert.notEqual(newCommit, oldCommit);

  const after = await discoverTags(config, { ...options, index: await readIndex(store) });
  assert.deepEqual(after.matrix.include, [{
    product: 'mariadb', line: '10.11', version: '10.11.19', tag: 'mariadb-10.11.19', commit: newCommit, movedFrom: oldCommit, hostClass: 'bench-a', suite: 'smoke',
  }], 'only the moved tag, at its new commit, marked with the old one');
  assert.ok(after.skipped.some((s) => s.version === '10.11.18' && /already benchmarked: run run-10\.11\.18/.test(s.reason)), 'the unmoved tag stays benchmarked');
  assert.deepEqual(after.deleted, [{ product: 'mariadb', tag: 'mariadb-10.11.20', versions: ['10.11.20'], runs: [{ id: 'run-10.11.20', hostClass: 'bench-a', suite: 'smoke', commit: deletedCommit }] }],
    'the deleted tag, with its run and the commit it was built from');

  // Once the new commit is benchmarked, the leg is done again (the old run stays in the store).
  await writeRecord(store, await record('run-10.11.19-again', { product: 'mariadb', version: '10.11.19', hostClass: 'bench-a', suite: 'smoke', status: 'ok', commit: newCommit }));
  const done = await discoverTags(config, { ...options, index: await readIndex(store) });
  assert.deepEqual(done.matrix.include, []);
  assert.ok(done.skipped.some((s) => s.version === '10.11.19' && /run run-10\.11\.19-again/.test(s.reason)));

  // The CLI prints both, and writes them to the job summary.
  const summary = join(await tempDir('moved-summary'), 'summary.md');
  const before18 = up.commitOf('mariadb-10.11.18');
  /** @type {string[]} */
  const printed = [];
  const write = process.stdout.write;
  process.stdout.write = /** @type {any} */ ((/** @type {string} */ chunk) => { printed.push(String(chunk)); return true; });
  try {
    git(['commit', '-q', '--allow-empty', '-m', 'another fix'], up.work);
    git(['tag', '-f', '-a', 'mariadb-10.11.18', '-m', 'Release 10.11.18, again'], up.work);
    git(['push', '-q', '--force', 'origin', 'refs/tags/mariadb-10.11.18'], up.work);
    await watchCommand({ root, store, products: 'mariadb', hostClass: ['bench-a'], remoteOverride: [`mariadb=${up.bare}`], max: 10, stepSummary: summary, githubOutput: join(await tempDir('moved-out'), 'out'), deletedTagsOut: join(dirname(summary), 'for-the-site', 'deleted-tags.json') });
  } finally {
    process.stdout.write = write;
  }
  const text = printed.join('');
  assert.ok(text.includes(`10.11.18\tmariadb-10.11.18\tsmoke\tmoved from ${before18} to ${up.commitOf('mariadb-10.11.18')}\n`), text);
  assert.match(text, /tag deleted upstream: mariadb mariadb-10\.11\.20 \(1 run in the index: run-10\.11\.20\)/);
  const md = await readFile(summary, 'utf8');
  assert.match(md, /### Moved tags benchmarked again \(1\)/);
  assert.match(md, /### Tags deleted upstream \(1\)\n[\s\S]*\| mariadb \| mariadb-10\.11\.20 \| run-10\.11\.20 \|/);
  // For the site (tagbench site --deleted-tags reads it: test/site-build/tag-status.test.js).
  const forSite = JSON.parse(await readFile(join(dirname(summary), 'for-the-site', 'deleted-tags.json'), 'utf8'));
  assert.equal(forSite.schemaVersion, 1);
  assert.deepEqual(forSite.deleted.map((/** @type {any} */ d) => [d.product, d.tag]), [['mariadb', 'mariadb-10.11.20']]);
  assert.ok(!Number.isNaN(Date.parse(forSite.checkedAt)));
});

test('an index written before commits were indexed is read, and a move is not claimed without a commit', async () => {
  const config = await loadConfig(root);
  const up = await upstream();
  const store = await storeAtCurrentCommits(up.commitOf);
  const index = await buildIndex(store);
  // index.json as an older tagbench wrote it: no commit in its run entries.
  const old = { ...index, runs: index.runs.map(({ commit, ...rest }) => rest) };
  await writeFile(join(store, 'index.json'), JSON.stringify(old));
  const read = await readIndex(store);
  assert.equal(read.runs.length, 3);
  assert.ok(read.runs.every((r) => r.commit === undefined), 'read as written: the index lists exactly the files present');

  git(['commit', '-q', '--allow-empty', '-m', 'fix after the release'], up.work);
  git(['tag', '-f', '-a', 'mariadb-10.11.19', '-m', 'Release 10.11.19, again'], up.work);
  git(['push', '-q', '--force', 'origin', 'refs/tags/mariadb-10.11.19'], up.work);
  const result = await discoverTags(config, { products: ['mariadb'], hostClasses: ['bench-a'], remoteOverrides: { mariadb: up.bare }, max: 10, progress: quiet, index: read });
  assert.deepEqual(result.matrix.include, [], 'runs without a commit stay benchmarked: a move cannot be told');
});

test('a moved tag\'s leg backs off only from failures after its last run, and is never a resume of the old commit\'s runs', () => {
  const OLD = 'a'.repeat(40);
  const NEW = 'b'.repeat(40);
  const candidates = [{ product: 'mariadb', line: '10.11', version: '10.11.19', tag: 'mariadb-10.11.19', commit: NEW }];
  const hostClasses = [{ name: 'bench-a', suite: 'smoke' }];
  // The old commit's leg: base and candidate in one run (run ids of one group), compared.
  const runs = [
    { id: '20261120T100000Z-bench-a-mariadb-10.11.18-smoke-abc123', hostClass: 'bench-a', product: 'mariadb', version: '10.11.18', suite: 'smoke', status: 'ok', startedAt: '2026-11-20T10:00:00Z', commit: 'c'.repeat(40) },
    { id: '20261120T100000Z-bench-a-mariadb-10.11.19-smoke-abc123', hostClass: 'bench-a', product: 'mariadb', version: '10.11.19', suite: 'smoke', status: 'ok', startedAt: '2026-11-20T10:00:00Z', commit: OLD },
  ];
  const comparisons = [{ hostClass: 'bench-a', product: 'mariadb', suite: 'smoke', candidateVersion: '10.11.19' }];
  const attempts = (/** @type {string} */ lastAt) => [{ hostClass: 'bench-a', product: 'mariadb', version: '10.11.19', suite: 'smoke', count: 3, firstAt: '2026-11-01T00:00:00Z', lastAt, lastOutcome: /** @type {const} */ ('failure'), lastReason: 'x', lastRunUrl: null }];
  const now = Date.parse('2026-11-27T12:00:00Z');
  // Three failures before the old commit's run (they were that run's own history): not this leg's.
  const fresh = planMatrix({ candidates, hostClasses, runs, comparisons, max: 10, attempts: attempts('2026-11-19T00:00:00Z'), backOff: DEFAULT_BACK_OFF, now });
  assert.deepEqual(fresh.matrix.include.map((e) => [e.movedFrom, e.attempt, e.resume]), [[OLD, undefined, undefined]]);
  // Three failures of the new commit since: stopped, as any leg.
  const stopped = planMatrix({ candidates, hostClasses, runs, comparisons, max: 10, attempts: attempts('2026-11-26T00:00:00Z'), backOff: DEFAULT_BACK_OFF, now });
  assert.deepEqual(stopped.matrix.include, []);
  assert.match(stopped.skipped[0].reason, /stopped after 3 failed attempts/);
});
