// Which repository, ref, tag, profile and flags a source build uses, from the project's real
// product files and small variations of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_RELEASE_PROFILE, resolveBuildSettings } from '../../scripts/install/source/build-settings.js';
import { testContext } from './helpers.js';

const { config } = await testContext();
/** @param {string} name */
const product = (name) => /** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (config.products[name]);

test('source settings: each configured product turns a version into its release tag and default profile', () => {
  for (const [name, version, tag] of [['mariadb', '10.11.19', 'mariadb-10.11.19'], ['mysql', '8.4.3', 'mysql-8.4.3'], ['percona-server', '8.0.39-30', 'Percona-Server-8.0.39-30']]) {
    const p = product(name);
    const s = resolveBuildSettings(p, { product: name, version, provider: 'source' });
    assert.equal(s.ref, tag, name);
    assert.equal(s.tag, tag, name);
    assert.equal(s.gitUrl, p.gitUrl, name);
    assert.equal(s.profileName, p.build?.defaultProfile ?? 'release', name);
    assert.deepEqual(s.profileFlags, p.build?.profiles?.[s.profileName].cmakeFlags, name);
    assert.deepEqual(s.cmakeFlags, [...s.profileFlags, ...s.lineFlags], `${name}: the line adds flags the profile does not set`);
    assert.ok(s.cmakeFlags.includes('-DCMAKE_BUILD_TYPE=RelWithDebInfo'), `${name}: the default profile states its build type`);
  }
});

test('source settings: an explicit ref, repository and profile win; a ref that is no release tag has no tag', () => {
  const s = resolveBuildSettings(product('mariadb'), { product: 'mariadb', version: '10.11.19', provider: 'source', ref: '10.11', gitUrl: '/srv/mirror.git', profile: 'jemalloc' });
  assert.deepEqual([s.ref, s.tag, s.gitUrl, s.profileName], ['10.11', null, '/srv/mirror.git', 'jemalloc']);
  assert.ok(s.cmakeFlags.includes('-DWITH_JEMALLOC=yes'));
  const viaPath = resolveBuildSettings(product('mariadb'), { product: 'mariadb', version: '10.11.19', provider: 'source', path: '/srv/other.git', ref: 'mariadb-10.11.18' });
  assert.equal(viaPath.gitUrl, '/srv/other.git');
  assert.equal(viaPath.tag, 'mariadb-10.11.18');
});

test('source settings: without profiles the built-in release profile applies; reserved flags are refused', () => {
  const bare = { ...product('mysql'), build: { tagTemplate: 'mysql-{version}' } };
  const s = resolveBuildSettings(bare, { product: 'mysql', version: '8.4.3', provider: 'source' });
  assert.equal(s.profileName, 'release');
  assert.deepEqual(s.cmakeFlags, BUILTIN_RELEASE_PROFILE.cmakeFlags);
  const reserved = { ...product('mysql'), build: { tagTemplate: 'mysql-{version}', profiles: { release: { cmakeFlags: ['-DCMAKE_INSTALL_PREFIX=/usr'] } } } };
  assert.throws(() => resolveBuildSettings(reserved, { product: 'mysql', version: '8.4.3', provider: 'source' }),
    /build\.profiles\.release\.cmakeFlags has '-DCMAKE_INSTALL_PREFIX=\/usr', which the source provider sets itself/);
  const noUrl = { ...product('mysql'), gitUrl: undefined };
  assert.throws(() => resolveBuildSettings(noUrl, { product: 'mysql', version: '8.4.3', provider: 'source' }), /configs\/products\/mysql\.yml has no gitUrl/);
  const badDefault = { ...product('mysql'), build: { tagTemplate: 'mysql-{version}', defaultProfile: 'fast' } };
  assert.throws(() => resolveBuildSettings(badDefault, { product: 'mysql', version: '8.4.3', provider: 'source' }), /build\.defaultProfile 'fast' is not defined; known profiles: release/);
});

test('source settings: a ref run\'s commit after a release (`<release>+<commit>`) builds as that release\'s line', () => {
  const sha = '1a2b3c4d5e6f'.padEnd(40, '0');
  const s = resolveBuildSettings(product('mysql'), { product: 'mysql', version: '8.0.40+1a2b3c4d5e6f', provider: 'source', ref: sha, commit: sha });
  assert.deepEqual([s.ref, s.tag, s.commit, s.line], [sha, null, sha, '8.0']);
  assert.ok(s.cmakeFlags.includes('-DDOWNLOAD_BOOST=ON'), 'the 8.0 line\'s boost flags');
  // Without a ref the version names no tag: the build of such a version needs the commit's ref.
  assert.throws(() => resolveBuildSettings(product('mysql'), { product: 'mysql', version: '8.0.40+1a2b3c4d5e6f', provider: 'source' }), /makes tag 'mysql-8\.0\.40\+1a2b3c4d5e6f'.*but no line's tagPattern/);
});
