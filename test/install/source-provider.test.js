// The source provider's mechanics, for real, on a SMALL local project, not a MySQL build (that
// takes about an hour on 2 cores and needs GitHub): the test makes a git repository from
// test/fixtures/install/source-fake-server (a tiny C "server" whose cmake install lays out
// usr/sbin/mariadbd, its tools, a plugin and usr/share/mysql), tags releases in it, and builds
// them with real git, cmake and gcc into a private cache. It checks that the profile's cmake
// flags reach the compiler, the provenance (tag, commit, profile, flags, compiler), the cache
// (second call skipped), and that a tag that does not compile is `failed` with the compiler error
// and leaves no prefix behind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { access, cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRelease } from '../../scripts/install/index.js';
import { getProvider } from '../../scripts/install/registry.js';
import { sha256File } from '../../scripts/install/provenance.js';
import { runTool, runToolChecked } from '../../scripts/install/run-tool.js';
import { testContext } from './helpers.js';
import { resolveBuildSettings } from '../../scripts/install/source/build-settings.js';
import { planSourceBuild } from '../../scripts/install/source/plan.js';
import { readFile } from 'node:fs/promises';

const FIXTURE = fileURLToPath(new URL('../fixtures/install/source-fake-server/', import.meta.url));
const base = await testContext();
const quiet = process.env.TAGBENCH_TEST_VERBOSE ? base.log : () => {};
/** Repository with the tags below; cache folders; all under one temp folder. */
let dir = '';
let repo = '';
/** @type {Record<string, string>} tag -> commit */
const commits = {};

/**
 * installRelease with the provider-specific spec fields (its JSDoc names only the shared ReleaseSpec).
 * @param {import('../../scripts/install/types.js').InstallSpec} spec
 * @param {import('../../scripts/install/types.js').InstallContext} ctx
 */
const install = (spec, ctx) => installRelease(spec, ctx);
/** @param {string} cacheName */
const ctxWith = (cacheName, config = base.config) => ({ config, cacheDir: join(dir, cacheName), log: quiet });
/** @param {string} p */
const exists = (p) => access(p).then(() => true, () => false);

/**
 * Commit the fixture tree with a VERSION file (and optionally broken code) and tag it.
 * @param {string} tag
 * @param {string} version what the fake server will report
 * @param {boolean} [broken] replace the server's code by code that does not compile
 */
async function commitRelease(tag, version, broken = false) {
  await cp(FIXTURE, repo, { recursive: true });
  await writeFile(join(repo, 'VERSION'), `${version}\n`);
  if (broken) await writeFile(join(repo, 'fake-server.c'), 'int main(void) { return tagbench_undeclared_identifier; }\n');
  const git = (/** @type {string[]} */ ...args) => runToolChecked('git', ['-C', repo, '-c', 'user.name=tagbench test', '-c', 'user.email=test@tagbench.invalid', ...args]);
  await git('add', '-A');
  await git('commit', '-q', '-m', `release ${tag}`);
  await git('tag', '-a', tag, '-m', tag);
  commits[tag] = (await git('rev-parse', 'HEAD')).stdout.trim();
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tb-source-'));
  repo = join(dir, 'repo');
  await runToolChecked('git', ['init', '-q', '-b', 'main', repo]);
  await commitRelease('mariadb-10.11.99', '10.11.99');
  await commitRelease('mariadb-10.11.98', '10.11.98', true);
  await commitRelease('mariadb-10.11.97', '10.11.99');
});
after(() => rm(dir, { recursive: true, force: true }));

test('source: builds the tag with the product\'s default profile, records its provenance, then reuses it', async () => {
  const ctx = ctxWith('cache');
  const spec = { product: 'mariadb', version: '10.11.99', provider: 'source', gitUrl: repo };
  const r = await install(spec, ctx);
  assert.equal(r.status, 'installed', r.reason ?? '');
  assert.equal(r.prefix, join(ctx.cacheDir, 'mariadb-10.11.99@source-release'));
  assert.equal(r.bin.server, join(r.prefix, 'usr', 'sbin', 'mariadbd'));
  assert.equal(r.bin.installDb, join(r.prefix, 'usr', 'bin', 'mariadb-install-db'));
  assert.equal(r.pluginDir, join(r.prefix, 'usr', 'lib', 'mysql', 'plugin'));
  assert.equal(r.shareDir, join(r.prefix, 'usr', 'share', 'mysql'));

  const release = /** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (ctx.config.products.mariadb).build?.profiles?.release;
  assert.ok(release, 'configs/products/mariadb.yml defines build.profiles.release');
  const v = await runTool(r.bin.server, ['--version']);
  assert.equal(v.code, 0, v.stderr);
  const buildType = release.cmakeFlags.find((f) => f.startsWith('-DCMAKE_BUILD_TYPE='))?.split('=')[1];
  assert.ok(v.stdout.includes(`(build ${buildType}, mark none)`), v.stdout);
  assert.equal(v.stdout.trim(), r.provenance.serverVersionString);

  const p = /** @type {import('../../scripts/install/types.js').InstallProvenance} */ (r.provenance);
  assert.equal(p.provider, 'source');
  assert.equal(p.tag, 'mariadb-10.11.99');
  assert.equal(p.commit, commits['mariadb-10.11.99']);
  assert.equal(p.buildProfile, 'release');
  // The recorded flags are the profile's merged with the line's (build.lines.10.11), as resolved.
  const settings = resolveBuildSettings(/** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (ctx.config.products.mariadb), spec);
  assert.deepEqual(p.buildFlags, settings.cmakeFlags);
  for (const flag of release.cmakeFlags) assert.ok(p.buildFlags?.includes(flag), `profile flag ${flag} recorded`);
  assert.equal(p.serverSha256, await sha256File(r.bin.server));
  assert.equal(p.build?.ref, 'mariadb-10.11.99');
  assert.equal(p.build?.gitUrl, repo);
  assert.match(p.build?.compiler ?? '', /gcc|cc|clang/i);
  assert.match(p.build?.cmakeVersion ?? '', /^cmake version \d/);

  assert.ok(await exists(join(r.prefix, '.tagbench-build.log')), 'the build log is kept in the prefix');
  assert.equal(await exists('/lib/systemd/system/tagbench-fake-server.service'), false, 'an absolute install destination stays out of the host');
  assert.deepEqual((await readdir(ctx.cacheDir)).filter((n) => n.startsWith('.work-')), [], 'no work folder left');

  const again = await install(spec, ctx);
  assert.equal(again.status, 'skipped');
  assert.equal(again.provenance.serverSha256, p.serverSha256);
  assert.equal(again.provenance.commit, p.commit);

  // Another profile is another cache key (its own folder, install-cache.test.js); the same
  // profile whose flags changed in the config since the build is refused, not reused.
  const mariadb = /** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (base.config.products.mariadb);
  const changed = { ...base.config, products: { ...base.config.products, mariadb: { ...mariadb, build: { ...mariadb.build, profiles: { release: { cmakeFlags: ['-DCMAKE_BUILD_TYPE=Debug'] } } } } } };
  await assert.rejects(install(spec, { ...ctx, config: changed }), /built with profile release \(-DCMAKE_BUILD_TYPE=RelWithDebInfo .*\), not profile release \(-DCMAKE_BUILD_TYPE=Debug -DWITH_LIBFMT=system\)/);
});

test('source: another profile\'s flags reach the compiler; a commit can be built by its sha', async () => {
  const mariadb = base.config.products.mariadb;
  const config = {
    ...base.config,
    products: {
      ...base.config.products,
      mariadb: { ...mariadb, build: { tagTemplate: 'mariadb-{version}', profiles: { marked: { cmakeFlags: ['-DCMAKE_BUILD_TYPE=Release', '-DTB_MARK=from-profile'] } } } },
    },
  };
  const sha = commits['mariadb-10.11.99'];
  const r = await install({ product: 'mariadb', version: '10.11.99', provider: 'source', gitUrl: repo, ref: sha, profile: 'marked', jobs: 1 }, ctxWith('cache-marked', config));
  assert.equal(r.status, 'installed', r.reason ?? '');
  assert.match(r.provenance.serverVersionString, /\(build Release, mark from-profile\)/);
  assert.deepEqual(r.provenance.buildFlags, ['-DCMAKE_BUILD_TYPE=Release', '-DTB_MARK=from-profile']);
  assert.equal(r.provenance.buildProfile, 'marked');
  assert.equal(r.provenance.commit, sha);
  assert.equal(r.provenance.tag, null, 'a bare commit is no release tag');

  await assert.rejects(
    install({ product: 'mariadb', version: '10.11.99', provider: 'source', gitUrl: repo, profile: 'nope' }, ctxWith('cache-x', config)),
    /build profile 'nope' is not defined; known profiles: marked, release/,
  );
});

test('source: a moved tag built by its commit: each commit its own build and folder, the old one never served for the new', async () => {
  const ctx = ctxWith('cache-moved');
  await commitRelease('mariadb-10.11.95', '10.11.95');
  const before = commits['mariadb-10.11.95'];
  // Upstream moves the tag to a new commit (git tag -f), as a re-tagged release does.
  await cp(FIXTURE, repo, { recursive: true });
  await writeFile(join(repo, 'VERSION'), '10.11.95\n');
  await writeFile(join(repo, 'RETAGGED'), 'a fix added before the release was re-tagged\n');
  const git = (/** @type {string[]} */ ...args) => runToolChecked('git', ['-C', repo, '-c', 'user.name=tagbench test', '-c', 'user.email=test@tagbench.invalid', ...args]);
  await git('add', '-A');
  await git('commit', '-q', '-m', 're-tag 10.11.95');
  await git('tag', '-f', '-a', 'mariadb-10.11.95', '-m', 'mariadb-10.11.95 again');
  const after = (await git('rev-parse', 'mariadb-10.11.95^{commit}')).stdout.trim();
  assert.notEqual(after, before);

  const spec = { product: 'mariadb', version: '10.11.95', provider: 'source', gitUrl: repo, jobs: 1 };
  // The commit watch saw before the move: built exactly, although the tag points elsewhere now.
  const old = await install({ ...spec, commit: before }, ctx);
  assert.equal(old.status, 'installed', old.reason ?? '');
  assert.equal(old.provenance.commit, before);
  assert.equal(old.provenance.tag, 'mariadb-10.11.95');
  assert.equal(old.prefix, join(ctx.cacheDir, `mariadb-10.11.95@source-release+commit-${before.slice(0, 12)}`));

  const moved = await install({ ...spec, commit: after }, ctx);
  assert.equal(moved.status, 'installed', `built again, not served from the cache: ${moved.reason ?? ''}`);
  assert.equal(moved.provenance.commit, after);
  assert.notEqual(moved.prefix, old.prefix);
  assert.equal((await install({ ...spec, commit: after }, ctx)).status, 'skipped', 'the same commit again is the cached build');
  // The dry run names the same folder and fetches the commit, not the tag.
  const plan = planSourceBuild(ctx.config, { ...spec, commit: after }, { cacheDir: ctx.cacheDir, jobs: 1 });
  assert.equal(plan.prefix, moved.prefix);
  assert.deepEqual(plan.steps.find((st) => st.argv.includes('fetch'))?.argv.slice(-2), ['origin', after]);

  await assert.rejects(install({ ...spec, commit: before.slice(0, 10) }, ctx), /commit '[0-9a-f]{10}' is not a full git commit id/);
  await assert.rejects(install({ ...spec, provider: 'deb', commit: after, gitUrl: undefined, jobs: undefined }, ctx), /--commit is for the source provider/);
});

test('source: a tag that does not compile is failed with the compiler error, and leaves no prefix', async () => {
  const ctx = ctxWith('cache-broken');
  const r = await install({ product: 'mariadb', version: '10.11.98', provider: 'source', gitUrl: repo }, ctx);
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /mariadb 10\.11\.98: build failed \(exit \d+/);
  assert.match(r.reason ?? '', /error: .*tagbench_undeclared_identifier/);
  assert.equal(r.provenance.tag, 'mariadb-10.11.98');
  assert.equal(r.provenance.commit, commits['mariadb-10.11.98']);
  assert.equal(r.provenance.buildProfile, 'release');
  assert.equal(await exists(r.prefix), false, 'no prefix in the cache');
  const names = await readdir(ctx.cacheDir);
  assert.deepEqual(names.filter((n) => n.startsWith('.work-') || n.includes('.trash-')), []);
  const logs = await readdir(join(ctx.cacheDir, '.build-logs'));
  assert.equal(logs.length, 1);
  assert.ok((r.reason ?? '').includes(join(ctx.cacheDir, '.build-logs', logs[0])), 'the reason says where the full log is');
});

test('source: a server that reports another version, and a missing tag, are failed installs', async () => {
  const ctx = ctxWith('cache-other');
  const wrong = await install({ product: 'mariadb', version: '10.11.97', provider: 'source', gitUrl: repo }, ctx);
  assert.equal(wrong.status, 'failed');
  assert.match(wrong.reason ?? '', /is mariadb 10\.11\.99 .*not 10\.11\.97/);
  assert.equal(await exists(wrong.prefix), false);

  const missing = await install({ product: 'mariadb', version: '10.11.96', provider: 'source', gitUrl: repo }, ctx);
  assert.equal(missing.status, 'failed');
  assert.match(missing.reason ?? '', /fetch failed .*\n[\s\S]*mariadb-10\.11\.96/);
});

test('source: bad options and config are user errors naming what to fix', async () => {
  const ctx = ctxWith('cache-errors');
  const { build: _drop, ...noBuild } = /** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (base.config.products.mariadb);
  const config = { ...base.config, products: { ...base.config.products, mariadb: noBuild } };
  await assert.rejects(install({ product: 'mariadb', version: '10.11.99', provider: 'source', gitUrl: repo }, ctxWith('c', config)),
    /configs\/products\/mariadb\.yml has no build\.tagTemplate/);
  await assert.rejects(install({ product: 'mariadb', version: '10.12.1', provider: 'source', gitUrl: repo }, ctx),
    /build\.tagTemplate 'mariadb-\{version\}' makes tag 'mariadb-10\.12\.1' .*no line's tagPattern/);
  await assert.rejects(install({ product: 'mariadb', version: '10.11.99', provider: 'source', ref: '--upload-pack=x' }, ctx), /ref '--upload-pack=x' is not a git tag/);
  await assert.rejects(install({ product: 'mariadb', version: '10.11.99', provider: 'source', suite: 'bookworm', gitUrl: repo }, ctx), /--suite builds the upstream tarball of a Debian source package; .*give one origin/);
  assert.throws(() => getProvider('nope'), /unknown provider 'nope'; known: deb, path, source, tarball/);
});

test('source: a line\'s flags (with {downloadDir}) reach the compiler, and the dry run printed exactly the commands the build ran', async () => {
  const mariadb = base.config.products.mariadb;
  const config = {
    ...base.config,
    products: {
      ...base.config.products,
      mariadb: {
        ...mariadb,
        build: {
          tagTemplate: 'mariadb-{version}',
          profiles: { release: { cmakeFlags: ['-DCMAKE_BUILD_TYPE=Release', '-DTB_MARK=from-profile'] } },
          lines: { '10.11': { cmakeFlags: ['-DTB_MARK={downloadDir}/boost'] } },
        },
      },
    },
  };
  const ctx = ctxWith('cache-line', config);
  /** @type {import('../../scripts/install/types.js').InstallSpec} */
  const spec = { product: 'mariadb', version: '10.11.99', provider: 'source', gitUrl: repo, jobs: 1 };
  const plan = planSourceBuild(config, spec, { cacheDir: ctx.cacheDir, jobs: 1 });
  const r = await install(spec, ctx);
  assert.equal(r.status, 'installed', r.reason ?? '');
  assert.equal(r.prefix, plan.prefix, 'the dry run named the cache folder the build landed in');
  // The line's -DTB_MARK replaced the profile's (one flag per variable), its placeholder filled in.
  assert.match(r.provenance.serverVersionString, new RegExp(`mark ${join(ctx.cacheDir, '.downloads')}/boost\\)`));
  assert.deepEqual(r.provenance.buildFlags, ['-DCMAKE_BUILD_TYPE=Release', '-DTB_MARK={downloadDir}/boost'], 'recorded with the placeholder: the same on every host');

  const log = await readFile(join(r.prefix, '.tagbench-build.log'), 'utf8');
  const workDir = /\$ git init -q (\S+)\/src\n/.exec(log)?.[1];
  assert.ok(workDir, 'the build log starts with git init');
  const ran = [...log.matchAll(/^\$ (.*)$/gm)].map((m) => m[1].replaceAll(workDir, plan.workDir));
  const printed = plan.steps.filter((s) => s.argv[0] === 'git' || s.argv[0] === 'cmake').filter((s) => !s.when).map((s) => s.argv.join(' '));
  assert.deepEqual(ran, printed, 'every git and cmake command the build ran, in order, is the one the dry run printed');
});
