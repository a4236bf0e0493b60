// The cache's rules, on real folders: a prefix is reused only for its own key (provider,
// version, build profile, ref) and only while its server binary has the sha256 recorded at
// install time; a prefix without its marker is never reused; the rename is the commit, and the
// first finished install wins a race; folders of older tagbench versions are read in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, writeFile, readFile, readdir, rm, access, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  auditInstallCache, commitPrefix, readCachedResult, prefixPathFor, legacyPrefixPathFor, makeCacheKey, makeWorkDir, lookupInstall, findCachedInstall, MARKER,
} from '../../scripts/install/install-cache.js';
import { UserError } from '../../scripts/errors.js';

const DEB = makeCacheKey({ product: 'mariadb', version: '10.11.18', provider: 'deb' });
const SOURCE = makeCacheKey({ product: 'mariadb', version: '10.11.18', provider: 'source', profile: 'release' });

/** @param {string} text */
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/**
 * A built prefix whose server binary is a small file holding `content` (nothing runs it: the
 * cache only checksums it), and the result describing it.
 * @param {string} workDir
 * @param {string} finalPrefix
 * @param {string} content
 * @param {import('../../scripts/install/types.js').CacheKey} [key]
 */
async function builtPrefix(workDir, finalPrefix, content, key = DEB) {
  const dir = join(workDir, 'prefix');
  await mkdir(join(dir, 'usr', 'sbin'), { recursive: true });
  await writeFile(join(dir, 'usr', 'sbin', 'mariadbd'), content);
  /** @type {import('../../scripts/types.js').InstallResult} */
  const result = {
    status: 'installed', product: key.product, flavor: 'mariadb', version: key.version, provider: key.provider, prefix: finalPrefix,
    bin: { server: join(finalPrefix, 'usr', 'sbin', 'mariadbd'), installDb: null, client: '', admin: '' },
    pluginDir: '', shareDir: '', env: {},
    provenance: {
      product: key.product, version: key.version, provider: key.provider, debianSuite: key.provider === 'deb' ? 'bookworm' : null, packages: [],
      serverSha256: sha256(content), serverVersionString: '', tag: key.provider === 'source' ? `mariadb-${key.version}` : null, commit: null,
      buildProfile: key.profile, buildFlags: null, patchedElf: [],
    },
  };
  return { dir, result };
}

/**
 * Install `key` into a fresh cache folder the way a provider does.
 * @param {string} cache
 * @param {import('../../scripts/install/types.js').CacheKey} key
 * @param {string} content
 */
async function install(cache, key, content) {
  const final = prefixPathFor(cache, key);
  const built = await builtPrefix(await makeWorkDir(cache, `${key.product}-${key.version}`), final, content, key);
  return { final, ...(await commitPrefix(built.dir, final, built.result, key)) };
}

/** @param {import('node:test').TestContext} t */
async function tempCache(t) {
  const cache = await mkdtemp(join(tmpdir(), 'tb-install-cache-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  return cache;
}

test('the key names the folder: provider, profile and a non-tag ref each get their own prefix', () => {
  assert.equal(prefixPathFor('/c', DEB), '/c/mariadb-10.11.18@deb');
  assert.equal(prefixPathFor('/c', SOURCE), '/c/mariadb-10.11.18@source-release');
  assert.equal(prefixPathFor('/c', { ...SOURCE, profile: 'debug' }), '/c/mariadb-10.11.18@source-debug');
  assert.equal(prefixPathFor('/c', { ...SOURCE, ref: 'bb-10.11/fix' }), '/c/mariadb-10.11.18@source-release+ref-bb-10.11_fix');
  assert.equal(prefixPathFor('/c', makeCacheKey({ product: 'mysql', version: '9.1.0', provider: 'tarball' })), '/c/mysql-9.1.0@tarball');
});

test('names that would escape the cache folder are refused', () => {
  assert.throws(() => makeCacheKey({ product: 'mariadb', version: '../../etc', provider: 'deb' }), UserError);
  assert.throws(() => prefixPathFor('/c', { ...DEB, product: 'a/b' }), UserError);
  assert.throws(() => makeCacheKey({ product: 'mariadb', version: '1.0', provider: 'source', profile: '../x' }), /build profile '\.\.\/x'/);
});

test('a half-done prefix (no marker) is not reused and gets replaced', async (t) => {
  const cache = await tempCache(t);
  const final = prefixPathFor(cache, DEB);
  await mkdir(join(final, 'usr', 'sbin'), { recursive: true });
  await writeFile(join(final, 'usr', 'sbin', 'mariadbd'), 'half');
  assert.equal(await readCachedResult(final, DEB), null);
  assert.equal(await lookupInstall(cache, DEB), null);

  const res = await install(cache, DEB, 'complete');
  assert.equal(res.won, true);
  const cached = await readCachedResult(final, DEB);
  assert.equal(cached?.provenance.serverSha256, sha256('complete'));
  const marker = JSON.parse(await readFile(join(final, MARKER), 'utf8'));
  assert.deepEqual({ schemaVersion: marker.schemaVersion, key: marker.key, serverSha256: marker.serverSha256 }, { schemaVersion: 2, key: DEB, serverSha256: sha256('complete') });
  assert.deepEqual((await readdir(cache)).filter((n) => n.includes('.trash-')), [], 'the old folder is gone');
});

test('a race: the first committed prefix wins, the second is dropped', async (t) => {
  const cache = await tempCache(t);
  const final = prefixPathFor(cache, DEB);
  const a = await builtPrefix(await makeWorkDir(cache, 'x'), final, 'first');
  const b = await builtPrefix(await makeWorkDir(cache, 'x'), final, 'second');
  assert.equal((await commitPrefix(a.dir, final, a.result, DEB)).won, true);
  const second = await commitPrefix(b.dir, final, b.result, DEB);
  assert.equal(second.won, false);
  assert.equal(second.result.provenance.serverSha256, sha256('first'));
  await assert.rejects(access(b.dir), /ENOENT/);
});

test('a server binary changed after install (same size) is an error naming both checksums, not a reuse', async (t) => {
  const cache = await tempCache(t);
  const { final, result } = await install(cache, DEB, 'first');
  await writeFile(result.bin.server, 'FIRST');
  await assert.rejects(readCachedResult(final, DEB), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, new RegExp(`has sha256 ${sha256('FIRST')}, but it was installed with sha256 ${sha256('first')}`));
    assert.match(err.message, /delete .*mariadb-10\.11\.18@deb \(rm -rf\) and install mariadb 10\.11\.18 \(deb\) again/);
    return true;
  });
  await rm(result.bin.server);
  await assert.rejects(lookupInstall(cache, DEB), /mariadbd is missing, although .*\.tagbench-install\.json records it/);
});

test('a commit whose binary changed after the provider checked it is refused', async (t) => {
  const cache = await tempCache(t);
  const final = prefixPathFor(cache, DEB);
  const built = await builtPrefix(await makeWorkDir(cache, 'x'), final, 'checked');
  await writeFile(join(built.dir, 'usr', 'sbin', 'mariadbd'), 'swapped');
  await assert.rejects(commitPrefix(built.dir, final, built.result, DEB), /changed after it was checked/);
  await assert.rejects(access(final), /ENOENT/);
});

test('one provider never reuses another provider\'s install of the same version', async (t) => {
  const cache = await tempCache(t);
  await install(cache, DEB, 'from-deb');
  assert.equal(await lookupInstall(cache, SOURCE), null, 'a source build is not satisfied by the deb package');
  await install(cache, SOURCE, 'from-source');
  assert.equal((await lookupInstall(cache, SOURCE))?.result.provenance.serverSha256, sha256('from-source'));
  assert.equal((await lookupInstall(cache, DEB))?.result.provenance.serverSha256, sha256('from-deb'));
  assert.equal(await lookupInstall(cache, { ...SOURCE, profile: 'debug' }), null, 'another build profile is another install');
});

test('a marker holding another key than its folder name says is an error, not a reuse', async (t) => {
  const cache = await tempCache(t);
  const { final } = await install(cache, SOURCE, 'x');
  const marker = JSON.parse(await readFile(join(final, MARKER), 'utf8'));
  await writeFile(join(final, MARKER), JSON.stringify({ ...marker, key: { ...SOURCE, ref: 'main' } }));
  await assert.rejects(lookupInstall(cache, SOURCE), /holds mariadb 10\.11\.18 \(source, profile release, ref main\), not mariadb 10\.11\.18 \(source, profile release\)/);
});

test('markers from a newer tagbench, or not JSON, are refused with what to do', async (t) => {
  const cache = await tempCache(t);
  const { final } = await install(cache, DEB, 'x');
  await writeFile(join(final, MARKER), JSON.stringify({ schemaVersion: 3, result: { bin: { server: '/x' }, provider: 'deb' } }));
  await assert.rejects(lookupInstall(cache, DEB), /schemaVersion 3; this tagbench reads 1 and 2\. Use the tagbench that made it, or delete/);
  await writeFile(join(final, MARKER), '{"schemaVersion": 2,');
  await assert.rejects(lookupInstall(cache, DEB), /is not JSON/);
});

/**
 * A `<product>-<version>/` folder as tagbench made it before cache keys (marker schema 1).
 * @param {string} cache
 * @param {string} provider
 * @param {string} content server binary
 * @param {boolean} [withSha] whether the old marker recorded the server's sha256
 */
async function legacyFolder(cache, provider, content, withSha = true) {
  const prefix = legacyPrefixPathFor(cache, 'mariadb', '10.11.18');
  const key = makeCacheKey({ product: 'mariadb', version: '10.11.18', provider, profile: provider === 'source' ? 'release' : null });
  const { dir, result } = await builtPrefix(await mkdtemp(join(tmpdir(), 'tb-legacy-')), prefix, content, key);
  if (!withSha) result.provenance.serverSha256 = '';
  await rm(dir, { recursive: true });
  await mkdir(join(prefix, 'usr', 'sbin'), { recursive: true });
  await writeFile(result.bin.server, content);
  const text = `${JSON.stringify({ schemaVersion: 1, serverBytes: content.length, result }, null, 2)}\n`;
  await writeFile(join(prefix, MARKER), text);
  return { prefix, text, result };
}

test('an older cache folder is reused in place for its own provider, checked against its recorded sha256, and never rewritten', async (t) => {
  const cache = await tempCache(t);
  const old = await legacyFolder(cache, 'deb', 'old-deb');
  const hit = await lookupInstall(cache, DEB);
  assert.equal(hit?.prefix, old.prefix);
  assert.equal(hit?.result.bin.server, join(old.prefix, 'usr', 'sbin', 'mariadbd'));
  assert.equal(await readFile(join(old.prefix, MARKER), 'utf8'), old.text, 'the old marker is read, not migrated by rewriting');

  /** @type {string[]} */
  const logged = [];
  assert.equal(await lookupInstall(cache, SOURCE, (m) => logged.push(m)), null, 'the old deb folder does not serve a source build');
  assert.match(logged.join('\n'), /mariadb-10\.11\.18 \(made by an older tagbench\) holds mariadb 10\.11\.18 \(deb\), not mariadb 10\.11\.18 \(source, profile release\): left alone/);

  await writeFile(old.result.bin.server, 'tampered');
  await assert.rejects(lookupInstall(cache, DEB), /has sha256 .* but it was installed with sha256/);
});

test('an older cache folder without a recorded sha256 is refused with what to do', async (t) => {
  const cache = await tempCache(t);
  const old = await legacyFolder(cache, 'deb', 'old', false);
  await assert.rejects(lookupInstall(cache, DEB), (err) => {
    assert.match(/** @type {Error} */ (err).message, new RegExp(`${old.prefix} was installed by an older tagbench that recorded no sha256 .*; delete ${old.prefix} \\(rm -rf\\) and install the release again`));
    return true;
  });
});

test('findCachedInstall (tagbench run without --provider): the one install, or an error when several could be meant', async (t) => {
  const cache = await tempCache(t);
  assert.equal(await findCachedInstall(cache, 'mariadb', '10.11.18'), null);
  await install(cache, SOURCE, 'built');
  const only = await findCachedInstall(cache, 'mariadb', '10.11.18');
  assert.deepEqual([only?.status, only?.provider], ['skipped', 'source']);
  assert.equal(await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'deb' }), null, 'asked for deb: the source build does not count');

  await legacyFolder(cache, 'deb', 'old-deb');
  await assert.rejects(findCachedInstall(cache, 'mariadb', '10.11.18'), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /mariadb 10\.11\.18 is in the install cache 2 times: mariadb 10\.11\.18 \(deb\) in .*; mariadb 10\.11\.18 \(source, profile release\) in .*Say which to use with --provider/);
    return true;
  });
  assert.equal((await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'deb' }))?.provider, 'deb');
  assert.equal((await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'source', profile: 'release' }))?.provider, 'source');
  assert.equal(await findCachedInstall(cache, 'mariadb', '10.11.1'), null, 'a version that is a prefix of another is another release');
});

test('a source build is keyed by its commit: a moved tag\'s new commit gets its own folder, never the old build', async (t) => {
  const cache = await tempCache(t);
  const oldCommit = 'a1'.repeat(20);
  const newCommit = 'b2'.repeat(20);
  const atOld = makeCacheKey({ ...SOURCE, commit: oldCommit });
  const atNew = makeCacheKey({ ...SOURCE, commit: newCommit });
  assert.equal(prefixPathFor('/c', atOld), '/c/mariadb-10.11.18@source-release+commit-a1a1a1a1a1a1');
  assert.notEqual(prefixPathFor('/c', atNew), prefixPathFor('/c', atOld));
  assert.throws(() => makeCacheKey({ ...SOURCE, commit: 'a1a1a1a' }), /commit 'a1a1a1a' is not a full git commit id/);

  await install(cache, atOld, 'built at the old commit');
  assert.equal(await lookupInstall(cache, atNew), null, 'the new commit is not served the old commit\'s build');
  assert.equal(await lookupInstall(cache, SOURCE), null, 'nor is a lookup that names no commit');
  await install(cache, atNew, 'built at the new commit');
  const hit = await lookupInstall(cache, atNew);
  assert.equal(hit?.prefix, prefixPathFor(cache, atNew));

  // tagbench run names the commit when the cache holds a build of each (product@version:source@<commit>).
  await assert.rejects(findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'source' }), /in the install cache 2 times: .*commit a1a1a1a1a1a1.*commit b2b2b2b2b2b2.*source@<commit>/);
  assert.equal((await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'source', commit: newCommit }))?.prefix, prefixPathFor(cache, atNew));
  assert.equal((await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'source', commit: oldCommit }))?.prefix, prefixPathFor(cache, atOld));
  assert.equal(await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'source', commit: 'c3'.repeat(20) }), null);

  // A marker written before the commit was part of the key has none: it names its own folder
  // (no error) and is never taken for a named commit.
  const before = await install(cache, SOURCE, 'built before commits were keyed');
  const markerPath = join(before.final, MARKER);
  const marker = JSON.parse(await readFile(markerPath, 'utf8'));
  delete marker.key.commit;
  await writeFile(markerPath, JSON.stringify(marker));
  assert.equal((await lookupInstall(cache, SOURCE))?.prefix, before.final);
  assert.equal((await findCachedInstall(cache, 'mariadb', '10.11.18', { provider: 'source', commit: newCommit }))?.prefix, prefixPathFor(cache, atNew));
});

test('work folders of killed installs are removed once they are old', async (t) => {
  const cache = await tempCache(t);
  const old = await makeWorkDir(cache, 'mariadb-10.11.18');
  const past = new Date(Date.now() - 7 * 3600 * 1000);
  await utimes(old, past, past);
  const fresh = await makeWorkDir(cache, 'mariadb-10.11.18');
  const now = await makeWorkDir(cache, 'mysql-9.7.4');
  const names = await readdir(cache);
  assert.ok(!names.includes(old.slice(cache.length + 1)), 'the old work folder is gone');
  assert.ok(names.includes(fresh.slice(cache.length + 1)) && names.includes(now.slice(cache.length + 1)), 'recent ones stay');
});

test('auditInstallCache reports each install: fine, made by an older tagbench, changed, or never finished', async (t) => {
  const cache = await tempCache(t);
  await install(cache, SOURCE, 'built');
  const changed = await install(cache, DEB, 'deb');
  await writeFile(changed.result.bin.server, 'DEB');
  await legacyFolder(cache, 'deb', 'old-deb');
  await mkdir(join(cache, 'mysql-9.7.4@deb'));
  const entries = await auditInstallCache(cache);
  assert.deepEqual(entries.map((e) => [e.prefix.slice(cache.length + 1), e.legacy, e.problem?.match(/has sha256|never finished/)?.[0] ?? e.problem]), [
    ['mariadb-10.11.18', true, null],
    ['mariadb-10.11.18@deb', false, 'has sha256'],
    ['mariadb-10.11.18@source-release', false, null],
    ['mysql-9.7.4@deb', false, 'never finished'],
  ]);
  assert.deepEqual(entries[0].key, DEB);
  assert.deepEqual(await auditInstallCache(join(cache, 'nope')), []);
});
