// `tagbench run --ref` up to the servers, for real: the ref and its base resolved with git in
// repositories made in a temp folder (test/support/ref-repos.js), both built through the source
// provider (the tiny cmake project of test/fixtures/install/source-fake-server: real git, cmake
// and gcc), the second resolution served from the install cache by commit, and the records the
// run would write carrying release.ref and landing under refs/runs/. No server is started here:
// the fake project's "server" only answers --version (the run itself is the lead's fixture's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { planRefRun, refRunReleases } from '../../scripts/run/ref-run.js';
import { resolveWithCache, installRunReleases } from '../../scripts/run/run-releases.js';
import { createRecord } from '../../scripts/run/record-builder.js';
import { checkRefOptions } from '../../scripts/run/commands.js';
import { validateRecord } from '../../scripts/store/index.js';
import { recordRelPath } from '../../scripts/store/store-paths.js';
import { makeRefRepos } from '../support/ref-repos.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const FIXTURE_RECORD = new URL('../fixtures/github/captured-store/runs/local/mariadb/10.11.19/smoke/20261121T135507Z-local-mariadb-10.11.19-smoke-495fd6.json', import.meta.url);
let dir = '';
/** @type {import('../support/ref-repos.js').RefRepos} */
let repos;
/** @type {import('../../scripts/types.js').Config} */
let config;
const quiet = process.env.TAGBENCH_TEST_VERBOSE ? (/** @type {string} */ t) => process.stderr.write(t) : () => {};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tb-refrun-'));
  repos = await makeRefRepos(join(dir, 'repos'));
  const loaded = await loadConfig(ROOT);
  config = { ...loaded, products: { ...loaded.products, mariadb: { ...loaded.products.mariadb, gitUrl: repos.upstream } } };
});
after(() => rm(dir, { recursive: true, force: true }));

/**
 * What runReleases does before it starts servers: the plan against the install cache, then
 * every install.
 * @param {import('../../scripts/run/run-releases.js').RunOptions['releases']} releases
 */
async function installBoth(releases) {
  const options = { releases, suite: 'smoke', hostClass: 'local', storeDir: join(dir, 'store'), workDir: join(dir, 'work'), cacheDir: join(dir, 'cache') };
  const { plan, preinstalled } = await resolveWithCache(config, options);
  return installRunReleases(config, options, plan, preinstalled, quiet);
}

test('run --ref: a pull request and its base are built from source at their commits; their records are ref runs, stored apart', async () => {
  const cacheDir = join(dir, 'cache');
  const { resolved, releases } = await planRefRun(config, { product: 'mariadb', ref: 'pull/7/head', baseRef: 'main', cacheDir });
  assert.deepEqual(releases.map((r) => r.version), [resolved.base.version, resolved.candidate.version]);
  const [base, candidate] = await installBoth(releases);
  assert.equal(candidate.install.status, 'installed', candidate.install.reason ?? '');
  assert.equal(candidate.install.provenance.commit, repos.commits.f2, 'the candidate is built at the pull request\'s head');
  assert.equal(base.install.provenance.commit, repos.commits.c4, 'the base at the merge base with main');
  assert.equal(candidate.install.provenance.buildProfile, 'release', 'both with the product\'s default profile');
  assert.equal(base.install.provenance.buildProfile, 'release');
  assert.ok(candidate.install.prefix.includes(`+commit-${repos.commits.f2.slice(0, 12)}`), `cached by commit: ${candidate.install.prefix}`);

  // The record the run writes: release.ref on both sides, the path under refs/runs/.
  const fixture = JSON.parse(await readFile(FIXTURE_RECORD, 'utf8'));
  for (const side of [base, candidate]) {
    const made = createRecord({ id: `20261128T100000Z-local-mariadb-${side.version.replace('+', '_')}-smoke-abcdef`, startedAt: '2026-11-28T10:00:00.000Z', release: side, host: fixture.host, config: fixture.config, steps: [] });
    const record = { ...fixture, id: made.id, release: made.release };
    assert.deepEqual(validateRecord(record), [], 'a valid run record');
    assert.equal(record.release.commit, side.install.provenance.commit);
    assert.match(recordRelPath(record), new RegExp(`^refs/runs/local/mariadb/${side.version.replace(/[.+]/g, '\\$&')}/smoke/`));
  }
  const candidateRef = createRecord({ id: 'x', startedAt: '2026-11-28T10:00:00.000Z', release: candidate, host: fixture.host, config: fixture.config, steps: [] }).release.ref;
  assert.deepEqual(candidateRef, {
    role: 'candidate', name: 'pull/7/head', repository: repos.upstream, pullRequest: 7, commit: repos.commits.f2,
    base: { how: 'pull-request-base', version: resolved.base.version, ref: 'main', commit: repos.commits.c4 },
  });

  // Again, and the same commit named by its id: served from the cache, not built again.
  const again = await planRefRun(config, { product: 'mariadb', ref: repos.commits.f2, baseRef: 'main', cacheDir });
  const [, cached] = await installBoth(again.releases);
  assert.equal(cached.install.status, 'skipped');
  assert.equal(cached.install.prefix, candidate.install.prefix);
});

test('run --ref: a branch against the release it branched from, built from the release\'s tag', async () => {
  const { releases } = await planRefRun(config, { product: 'mariadb', ref: 'feature', cacheDir: join(dir, 'cache') });
  const [base, candidate] = await installBoth(releases);
  assert.equal(base.version, '10.11.18');
  assert.equal(base.install.provenance.tag, 'mariadb-10.11.18', 'a release side is its tag\'s build');
  assert.equal(base.install.provenance.commit, repos.commits.c3);
  assert.equal(candidate.install.provenance.tag, null);
  assert.equal(candidate.install.provenance.commit, repos.commits.f2);
  assert.equal(base.refRun?.role, 'base');
  assert.equal(base.refRun?.name, 'feature', 'both sides name the ref run by its candidate');
  assert.equal(base.refRun?.commit, repos.commits.f2);
  assert.equal(base.refRun?.base.ref, 'mariadb-10.11.18');
});

test('run --ref: the releases of a resolved ref run; options that do not go together are refused', () => {
  const sha = (/** @type {string} */ c) => c.repeat(40);
  const releases = refRunReleases({
    product: 'mariadb', repository: 'https://github.com/acme/server.git', fetchFrom: 'https://x-access-token:secret@github.com/acme/server.git', pullRequest: null,
    candidate: { version: '10.11.18+aaaaaaaaaaaa', commit: sha('a'), tag: null, name: 'fix' },
    base: { version: '10.11.18', commit: sha('b'), tag: 'mariadb-10.11.18', name: 'mariadb-10.11.18' },
    baseHow: 'branched-from', baseRef: 'mariadb-10.11.18',
  });
  assert.deepEqual(releases[0].source, { gitUrl: 'https://x-access-token:secret@github.com/acme/server.git' }, 'a release side builds from its tag');
  assert.deepEqual(releases[1].source, { gitUrl: 'https://x-access-token:secret@github.com/acme/server.git', ref: sha('a') }, 'another commit by itself');
  assert.ok(!JSON.stringify(releases.map((r) => r.refRun)).includes('secret'), 'no credential in what the records keep');
  assert.throws(() => checkRefOptions({ ref: 'fix' }), /--ref needs --product/);
  assert.throws(() => checkRefOptions({ ref: 'fix', product: 'mariadb', releases: 'mariadb@10.11.18' }), /--releases does not go with --ref/);
  assert.throws(() => checkRefOptions({ releases: 'mariadb@10.11.18', baseRef: 'main' }), /--base-ref goes with --ref/);
  assert.doesNotThrow(() => checkRefOptions({ ref: 'fix', product: 'mariadb', baseRef: 'main' }));
  // --profile: both sides built with it (a small host's reduced build), and only with --ref.
  const reduced = refRunReleases({ product: 'mariadb', repository: 'r', fetchFrom: 'r', pullRequest: null,
    candidate: { version: '10.11.18+aaaaaaaaaaaa', commit: sha('a'), tag: null, name: 'fix' }, base: { version: '10.11.18', commit: sha('b'), tag: 'mariadb-10.11.18', name: 'mariadb-10.11.18' },
    baseHow: 'branched-from', baseRef: 'mariadb-10.11.18' }, 'reduced');
  assert.deepEqual(reduced.map((r) => r.source?.profile), ['reduced', 'reduced']);
  assert.throws(() => checkRefOptions({ releases: 'mariadb@10.11.18', profile: 'reduced' }), /--profile goes with --ref/);
});

test('run --ref evicts the cache\'s older ad-hoc builds before adding its own two (release builds stay)', async () => {
  const cacheDir = join(dir, 'evict-cache');
  const { mkdir, writeFile, readdir } = await import('node:fs/promises');
  const { MARKER } = await import('../../scripts/install/install-cache.js');
  const { AD_HOC_BUILDS_KEPT } = await import('../../scripts/install/index.js');
  // Earlier pull requests' builds, as their markers record them (the eviction reads key and time).
  const names = ['a', 'b', 'c', 'd'].map((c, i) => ({ name: `mariadb-10.11.18+${c.repeat(12)}@source-release+ref-${c.repeat(40)}`, at: `2026-11-0${i + 1}T00:00:00.000Z`, ref: c.repeat(40) }));
  for (const n of [...names, { name: 'mariadb-10.11.18@deb', at: '2026-10-01T00:00:00.000Z', ref: null }]) {
    await mkdir(join(cacheDir, n.name), { recursive: true });
    await writeFile(join(cacheDir, n.name, MARKER), JSON.stringify({ schemaVersion: 2, key: { product: 'mariadb', version: '10.11.18', provider: 'source', profile: 'release', ref: n.ref, commit: n.ref }, installedAt: n.at }));
  }
  /** @type {string[]} */
  const lines = [];
  await planRefRun(config, { product: 'mariadb', ref: 'pull/7/head', baseRef: 'main', cacheDir, log: (l) => lines.push(l) });
  const left = (await readdir(cacheDir)).filter((n) => n.includes('@')).sort();
  assert.deepEqual(left, ['mariadb-10.11.18+cccccccccccc@source-release+ref-' + 'c'.repeat(40), 'mariadb-10.11.18+dddddddddddd@source-release+ref-' + 'd'.repeat(40), 'mariadb-10.11.18@deb'],
    `${AD_HOC_BUILDS_KEPT} kept in all: this run's two to come and the two newest others`);
  assert.equal(lines.filter((l) => /^evicted the ad-hoc build /.test(l)).length, 2, lines.join('\n'));
});
