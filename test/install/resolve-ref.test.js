// A ref run's candidate and base, resolved with real git against real repositories made in a
// temp folder (test/support/ref-repos.js): a branch, a tag, a full commit id, a pull request's
// head published as refs/pull/7/head, a fork without tags, and the three kinds of base.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { resolveRefRun, resolveRefCommit, redactRepository, parseGitRef, REF_CACHE_DIR } from '../../scripts/install/index.js';
import { makeRefRepos } from '../support/ref-repos.js';
import { ROOT } from './helpers.js';

let dir = '';
/** @type {import('../support/ref-repos.js').RefRepos} */
let repos;
/** @type {import('../../scripts/install/types.js').InstallProductConfig} */
let product;
const short = (/** @type {string} */ c) => c.slice(0, 12);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tb-refs-'));
  repos = await makeRefRepos(join(dir, 'repos'));
  const config = await loadConfig(ROOT);
  product = { .../** @type {any} */ (config.products.mariadb), gitUrl: repos.upstream };
});
after(() => rm(dir, { recursive: true, force: true }));

/** @param {Partial<import('../../scripts/install/source/resolve-ref.js').ResolveRefOptions>} o */
const resolveIt = (o) => resolveRefRun({ product, ref: 'feature', cacheDir: join(dir, 'cache'), ...o });

test('a branch: its tip, based on the newest release tag among its ancestors', async () => {
  const r = await resolveIt({ ref: 'feature' });
  assert.equal(r.candidate.commit, repos.commits.f2);
  assert.equal(r.candidate.version, `10.11.18+${short(repos.commits.f2)}`);
  assert.equal(r.candidate.tag, null);
  assert.deepEqual(r.base, { version: '10.11.18', commit: repos.commits.c3, tag: 'mariadb-10.11.18', name: 'mariadb-10.11.18' });
  assert.equal(r.baseHow, 'branched-from');
  assert.equal(r.pullRequest, null);
  assert.equal(r.repository, repos.upstream);
  assert.ok(await stat(join(dir, 'cache', REF_CACHE_DIR, 'mariadb.git', 'HEAD')), 'commits are fetched into a bare repository of the install cache');
});

test('a release tag is that release, based on the release before it; a full commit id is itself', async () => {
  const tag = await resolveIt({ ref: 'mariadb-10.11.19' });
  assert.equal(tag.candidate.commit, repos.commits.c5);
  assert.equal(tag.candidate.version, '10.11.19');
  assert.equal(tag.candidate.tag, 'mariadb-10.11.19');
  assert.equal(tag.base.version, '10.11.18', 'not the tag on the commit itself');

  const sha = await resolveIt({ ref: repos.commits.f1 });
  assert.equal(sha.candidate.commit, repos.commits.f1);
  assert.equal(sha.candidate.version, `10.11.18+${short(repos.commits.f1)}`);
  assert.equal(sha.base.commit, repos.commits.c3);
});

test('a pull request\'s head against the merge base with its base branch', async () => {
  const r = await resolveIt({ ref: 'pull/7/head', baseRef: 'main' });
  assert.equal(r.pullRequest, 7);
  assert.equal(r.candidate.commit, repos.commits.f2);
  assert.equal(r.baseHow, 'pull-request-base');
  // main moved on to c6 since the branch left it at c4: the pull request changes f1 and f2 only.
  assert.equal(r.base.commit, repos.commits.c4);
  assert.equal(r.base.version, `10.11.18+${short(repos.commits.c4)}`);
  assert.equal(r.base.name, 'main');
  assert.equal(r.baseRef, 'main');
});

test('a named release as the base; a fork without tags gets them from the upstream', async () => {
  const named = await resolveIt({ ref: 'feature', baseVersion: '10.11.17' });
  assert.equal(named.baseHow, 'named');
  assert.deepEqual(named.base, { version: '10.11.17', commit: repos.commits.c1, tag: 'mariadb-10.11.17', name: 'mariadb-10.11.17' });
  assert.equal(named.candidate.version, `10.11.18+${short(repos.commits.f2)}`, 'the version still says which release it branched from');

  const fork = await resolveRefRun({ product, ref: 'fix', repo: repos.fork, cacheDir: join(dir, 'cache-fork') });
  assert.equal(fork.candidate.commit, repos.commits.f2);
  assert.equal(fork.repository, repos.fork);
  assert.equal(fork.base.version, '10.11.18');
});

test('a branch that moved is resolved again, not served from the cache', async () => {
  await repos.git(['checkout', '-q', 'feature']);
  await repos.git(['commit', '-q', '--allow-empty', '-m', 'f3']);
  const f3 = await repos.git(['rev-parse', 'HEAD']);
  await repos.git(['push', '-q', repos.upstream, 'feature:refs/heads/moving']);
  await repos.git(['checkout', '-q', 'main']);
  const r = await resolveIt({ ref: 'moving' });
  assert.equal(r.candidate.commit, f3);
  assert.equal(await resolveRefCommit({ product, ref: 'moving', repo: repos.upstream, cacheDir: join(dir, 'cache') }), f3);
});

test('what git does not know, and bases that compare nothing, are refused with what to give', async () => {
  await assert.rejects(resolveIt({ ref: 'no-such-branch' }), /has no branch or tag named 'no-such-branch' \(git ls-remote\)/);
  await assert.rejects(resolveIt({ ref: 'pull/99/head' }), /has no pull request head refs\/pull\/99\/head/);
  await assert.rejects(resolveIt({ ref: short(repos.commits.f2) }), /abbreviated commit id: give the full id/);
  await assert.rejects(resolveIt({ ref: '--upload-pack=x' }), /is not a git ref/);
  await assert.rejects(resolveIt({ ref: 'mariadb-10.11.18', baseVersion: '10.11.18' }), /the candidate's own: there is nothing to compare/);
  await assert.rejects(resolveIt({ ref: 'feature', baseVersion: '10.11.17', baseRef: 'main' }), /give one base/);
  await assert.rejects(resolveIt({ ref: 'feature', baseVersion: '10.11.5' }), /its tag mariadb-10\.11\.5 .* is not in/);
  await assert.rejects(resolveIt({ ref: 'feature', repo: join(dir, 'nowhere') }), /cannot list the refs of/);
  await assert.rejects(resolveIt({ ref: 'mariadb-10.11.17' }), /no release tag of mariadb .* is an ancestor of/);
});

test('records keep a repository without its credentials; refs are classified before git runs', () => {
  assert.equal(redactRepository('https://x-access-token:ghs_secret@github.com/acme/server.git'), 'https://github.com/acme/server.git');
  assert.equal(redactRepository('https://github.com/MariaDB/server.git'), 'https://github.com/MariaDB/server.git');
  assert.equal(redactRepository('git@github.com:acme/server.git'), 'git@github.com:acme/server.git');
  assert.deepEqual(parseGitRef('refs/pull/12/head'), { name: 'refs/pull/12/head', kind: 'pull', commit: null, pullRequest: 12, candidates: ['refs/pull/12/head'] });
  assert.deepEqual(parseGitRef('bb-10.11-fix').candidates, ['refs/heads/bb-10.11-fix', 'refs/tags/bb-10.11-fix']);
  assert.equal(parseGitRef('a'.repeat(40)).kind, 'commit');
});

test('a pinned commit is built whatever the ref names by then; the records still name the ref', async () => {
  const r = await resolveIt({ ref: 'pull/7/head', baseRef: 'main', commit: repos.commits.f1 });
  assert.equal(r.candidate.commit, repos.commits.f1);
  assert.equal(r.candidate.name, 'pull/7/head');
  assert.equal(r.pullRequest, 7);
  assert.equal(r.base.commit, repos.commits.c4);
  await assert.rejects(resolveIt({ ref: 'feature', commit: 'f'.repeat(40) }), /cannot fetch commit f{40}/);
});
