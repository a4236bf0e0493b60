// `tagbench compare --ref` on a ref run made of real records (test/support/ref-store.js: the
// captured 10.11.18/10.11.19 runs relabelled as a pull request's commit and its base, beside the
// same records as the release series), the ref resolved with real git in repositories made in a
// temp folder. And every reader of the release series leaves the ref run out: the index's runs
// (what watch reads), watch's plan, a baseline promotion, compare of the line (columns and
// change points).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareReleases } from '../../scripts/verify/compare-releases.js';
import { selectRefRecords } from '../../scripts/verify/compare-ref.js';
import { readComparisons, readRecords, buildIndex, promoteBaseline, refRunPagePath } from '../../scripts/store/index.js';
import { planMatrix } from '../../scripts/watch/discover-tags.js';
import { loadConfig } from '../../scripts/config/index.js';
import { writeRefRunStore } from '../support/ref-store.js';
import { makeRefRepos } from '../support/ref-repos.js';

const root = new URL('../..', import.meta.url).pathname;
let dir = '';
let store = '';
/** @type {import('../support/ref-repos.js').RefRepos} */
let repos;
/** @type {Awaited<ReturnType<typeof writeRefRunStore>>} */
let written;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tb-compare-ref-'));
  repos = await makeRefRepos(join(dir, 'repos'));
  store = join(dir, 'results');
  // The pull request's head is f2, its base the merge base with main, c4.
  written = await writeRefRunStore(store, { candidateCommit: repos.commits.f2, baseCommit: repos.commits.c4, name: 'pull/7/head', repository: repos.upstream, baseRef: 'main', withReleases: true });
});
after(() => rm(dir, { recursive: true, force: true }));

test('compare --ref: the pull request\'s commit against the base that ran beside it, stored apart with the ref', async () => {
  /** @type {string[]} */
  const printed = [];
  const code = await compareReleases({
    store, hostClass: 'local', suite: 'smoke', product: 'mariadb', ref: 'pull/7/head', repo: repos.upstream, cacheDir: join(dir, 'cache'),
    markdown: join(dir, 'ref.md'), json: join(dir, 'ref.json'), color: false, root, out: (/** @type {string} */ t) => printed.push(t),
  });
  // 10.11.19's server was held to a tenth of a CPU: the candidate regressed.
  assert.equal(code, 2, printed.join(''));
  const text = printed.join('');
  assert.match(text, new RegExp(`^pull/7/head \\(pull request #7\\) of ${repos.upstream} at ${repos.commits.f2.slice(0, 12)} \\(${written.candidateVersion.replace(/[.+]/g, '\\$&')}\\) against ${written.baseVersion.replace(/[.+]/g, '\\$&')} at ${repos.commits.c4.slice(0, 12)} \\(the merge base with main\\)`));
  assert.match(text, /regression/);

  const refs = await readComparisons(store, { refs: true });
  assert.equal(refs.length, 1, 'one ref comparison, under refs/verdicts/');
  const c = refs[0];
  assert.deepEqual(c.ref, { name: 'pull/7/head', repository: repos.upstream, pullRequest: 7, commit: repos.commits.f2, base: { how: 'pull-request-base', version: written.baseVersion, ref: 'main', commit: repos.commits.c4 } });
  assert.equal(c.candidate.version, written.candidateVersion);
  assert.deepEqual(c.candidate.runIds.sort(), written.records.filter((r) => r.release.ref?.role === 'candidate').map((r) => r.id).sort());
  assert.ok(c.summary.regression > 0);
  // The release series' comparisons are the captured two, untouched.
  assert.deepEqual((await readComparisons(store)).map((x) => x.candidate.version), ['10.11.19', '10.11.19']);
  const json = JSON.parse(await readFile(join(dir, 'ref.json'), 'utf8'));
  assert.equal(json.page, `ref.html?host=local&product=mariadb&suite=smoke&commit=${repos.commits.f2}`);
  assert.equal(json.page, refRunPagePath(c));
  assert.match(await readFile(join(dir, 'ref.md'), 'utf8'), /^# MariaDB pull\/7\/head \(pull request #7\)/);
});

test('compare --ref: a commit without a ref run, or without a run against that base, is refused with what to do', async () => {
  const base = { store, hostClass: 'local', suite: 'smoke', product: 'mariadb', repo: repos.upstream, cacheDir: join(dir, 'cache'), storeVerdicts: false, color: false, root, out: () => {} };
  // `feature` is f2 too; main is c6, which has no ref run.
  await assert.rejects(compareReleases({ ...base, ref: 'main' }), new RegExp(`no ref run of mariadb at ${repos.commits.c6} \\(main\\) in the store: run it first`));
  await assert.rejects(compareReleases({ ...base, ref: 'pull/7/head', commit: repos.commits.c6 }), new RegExp(`the ref's runs are of ${repos.commits.f2}: give --commit`));
  await assert.rejects(compareReleases({ ...base, ref: 'pull/7/head', base: '10.11.17' }), /have the base 10\.11\.18\+\w+ \(pull-request-base main\), not 10\.11\.17: run it against that base \(tagbench run --ref pull\/7\/head --base 10\.11\.17\)/);
  await assert.rejects(compareReleases({ ...base, ref: 'pull/7/head', commit: 'abc' }), /--commit 'abc' is not a full commit id/);
  await assert.rejects(compareReleases({ ...base, ref: 'pull/7/head', adaptive: true }), /--adaptive does not go with --ref/);
  await assert.rejects(compareReleases({ ...base, repo: undefined, commit: repos.commits.f2 }), /--commit goes with --ref/);
  // Records of one commit against two bases need the base named.
  const records = await readRecords(store, { refs: true });
  const other = records.map((r) => ({ ...r, id: `${r.id.slice(0, -6)}000000`, release: { ...r.release, ref: { .../** @type {any} */ (r.release.ref), base: { .../** @type {any} */ (r.release.ref).base, version: '10.11.17', how: 'named', ref: 'mariadb-10.11.17' } } } }));
  assert.throws(() => selectRefRecords([...records, ...other], { commit: repos.commits.f2, product: 'mariadb', ref: 'pull/7/head' }), /have different bases: .*; say which with --base/);
  const picked = selectRefRecords([...records, ...other], { commit: repos.commits.f2, product: 'mariadb', ref: 'pull/7/head', base: '10.11.17' });
  assert.ok(picked.base.every((r) => r.id.endsWith('000000')), 'the base records of the runs against that base');
});

test('readers of the release series leave the ref run out: index runs, watch, baselines, compare of the line', async () => {
  const index = await buildIndex(store, { write: false });
  assert.deepEqual([...new Set(index.runs.map((r) => r.version))].sort(), ['10.11.18', '10.11.19']);
  assert.deepEqual([...new Set((index.refRuns ?? []).map((r) => r.version))].sort(), [written.baseVersion, written.candidateVersion].sort());
  assert.ok(index.refRuns?.every((r) => r.path.startsWith('refs/runs/')));
  assert.ok((await readRecords(store)).every((r) => !r.release.ref), 'readRecords gives releases only unless asked for refs');

  // Watch: a ref run of the commit a new tag names does not make that release benchmarked.
  const indexed = [...index.runs, ...(index.refRuns ?? [])];
  const candidate = { product: 'mariadb', line: '10.11', version: '10.11.20', tag: 'mariadb-10.11.20', commit: repos.commits.f2 };
  const refAsRelease = indexed.map((r) => (r.version === written.candidateVersion ? { ...r, version: '10.11.20', commit: repos.commits.f2 } : r));
  const proposed = planMatrix({ candidates: [candidate], hostClasses: [{ name: 'local', suite: 'smoke' }], runs: index.runs, max: 10 });
  assert.deepEqual(proposed.matrix.include.map((e) => e.version), ['10.11.20'], 'watch reads the index\'s runs, where no ref run is');
  assert.deepEqual(planMatrix({ candidates: [candidate], hostClasses: [{ name: 'local', suite: 'smoke' }], runs: refAsRelease, max: 10 }).matrix.include, [], 'the same records as releases would have hidden it');

  // A baseline names releases' runs only.
  const config = await loadConfig(root);
  await assert.rejects(promoteBaseline({ product: config.products.mariadb, line: '10.11', version: written.candidateVersion, hostClass: 'local', suite: 'smoke', storeDir: store, baselinesDir: join(dir, 'baselines'), promotedAt: '2026-11-28T00:00:00Z' }),
    /no complete \(status ok\) run record of mariadb 10\.11\.18\+\w+/);

  // Compare of the line: columns and the series for change points are the releases alone.
  /** @type {string[][]} */
  const columns = [];
  await compareReleases({ store, hostClass: 'local', suite: 'smoke', product: 'mariadb', base: '10.11.18', json: join(dir, 'line.json'), storeVerdicts: false, changePoints: false, color: false, root, out: () => {}, onTable: (/** @type {any} */ t) => columns.push(t.versions) });
  assert.deepEqual(columns, [['10.11.18', '10.11.19']]);
});
