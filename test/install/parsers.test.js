// Pure parsers of the install stage, on real captured output (test/fixtures/install/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseDeb822Sources, parseOneLineSources, pickDebianMirrors, renderSourcesList, releaseOfSuite, DEFAULT_KEYRING } from '../../scripts/install/apt/apt-sources.js';
import { parseMadison, parseSimulation } from '../../scripts/install/apt/apt-env.js';
import { parseDebListing, sharedObjectsOf, upstreamOf, compareUpstream, pickDebianVersion, packageNameCandidates, debFilePrefix } from '../../scripts/install/apt/deb-packages.js';
import { parseLdconfig } from '../../scripts/install/apt/lib-closure.js';
import { flavorOfVersionLine, versionOfVersionLine } from '../../scripts/install/provenance.js';

/** @param {string} rel */
const fixture = (rel) => readFile(new URL(`../fixtures/install/${rel}`, import.meta.url), 'utf8');

test('deb822 sources: the archive and security mirrors and their keyring', async () => {
  const entries = parseDeb822Sources(await fixture('apt/debian-12-debian.sources'));
  assert.equal(entries.length, 2);
  assert.deepEqual(entries[0].suites, ['bookworm', 'bookworm-updates']);
  const mirrors = pickDebianMirrors(entries);
  assert.ok(mirrors);
  assert.match(mirrors.archive, /\/debian$/);
  assert.match(mirrors.security ?? '', /\/debian-security$/);
  assert.equal(mirrors.keyring, '/usr/share/keyrings/debian-archive-keyring.gpg');
});

test('one-line sources: deb-src and third-party repositories are ignored', async () => {
  const entries = parseOneLineSources(await fixture('apt/debian-12-oneline.list'));
  assert.equal(entries.length, 4);
  const mirrors = pickDebianMirrors(entries);
  assert.ok(mirrors);
  assert.equal(mirrors.archive, entries[0].uris[0]);
  assert.equal(mirrors.security, entries[2].uris[0]);
  assert.equal(mirrors.keyring, DEFAULT_KEYRING);
  assert.equal(pickDebianMirrors(entries.slice(3)), null, 'a non-Debian repository alone is no Debian mirror');
});

test('private sources list: stable releases get -updates and -security, sid only itself', () => {
  const mirrors = { archive: 'http://mirror.example/debian', security: 'http://mirror.example/debian-security', keyring: '/k.gpg' };
  const trixie = renderSourcesList('trixie', mirrors).trim().split('\n');
  assert.deepEqual(trixie.map((l) => l.split(' ').slice(2, 4).join(' ')), [
    'http://mirror.example/debian trixie', 'http://mirror.example/debian trixie-updates', 'http://mirror.example/debian-security trixie-security',
  ]);
  assert.ok(trixie.every((l) => l.includes('[signed-by=/k.gpg]')));
  assert.equal(renderSourcesList('sid', mirrors).trim().split('\n').length, 1);
  assert.equal(renderSourcesList('bullseye', { ...mirrors, security: null }).trim().split('\n').length, 2);
  assert.equal(releaseOfSuite('bookworm-security'), 'bookworm');
  assert.equal(releaseOfSuite('sid'), 'sid');
});

test('madison: every version with its suite; picking the configured suite', async () => {
  const rows = parseMadison(await fixture('apt/apt-2.6-madison-bullseye.txt'));
  assert.equal(rows.length, 4);
  assert.deepEqual(rows[1], { name: 'mariadb-server-core-10.5', version: '1:10.5.23-0+deb11u1', suite: 'bullseye' });
  const core = rows.filter((r) => packageNameCandidates('mariadb-server-core', '10.5.23').includes(r.name));
  assert.deepEqual(pickDebianVersion(core, '10.5.23', 'bullseye'), { version: '1:10.5.23-0+deb11u1', suite: 'bullseye' });
  assert.deepEqual(pickDebianVersion(core, '10.5.29', null), { version: '1:10.5.29-0+deb11u1', suite: 'bullseye-security' });
  assert.equal(pickDebianVersion(core, '10.5.99', null), null);
});

test('simulation: the Inst lines are the closure', async () => {
  const text = await fixture('apt/apt-2.6-simulate-sid-mysql-client-core.txt');
  const closure = parseSimulation(text);
  assert.equal(closure.length, (text.match(/^Inst /gm) ?? []).length);
  assert.deepEqual(closure.find((p) => p.name === 'mysql-client-core'), { name: 'mysql-client-core', version: '9.7.4-2' });
  assert.ok(closure.some((p) => p.name === 'libc6'));
});

test('package listing: sonames only from the loader\'s folders (no gconv modules)', async () => {
  const aio = parseDebListing(await fixture('dpkg-deb/1.21-trixie-libaio1t64.txt'));
  assert.deepEqual(sharedObjectsOf(aio), {
    'libaio.so.1t64.0.2': 'usr/lib/x86_64-linux-gnu/libaio.so.1t64.0.2',
    'libaio.so.1t64': 'usr/lib/x86_64-linux-gnu/libaio.so.1t64',
  });
  const libc = sharedObjectsOf(parseDebListing(await fixture('dpkg-deb/1.21-trixie-libc6-excerpt.txt')));
  assert.equal(libc['ld-linux-x86-64.so.2'], 'usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2');
  assert.equal(libc['libc.so.6'], 'usr/lib/x86_64-linux-gnu/libc.so.6');
  assert.equal(libc['libGB.so'], undefined);
  const link = parseDebListing(await fixture('dpkg-deb/1.21-trixie-libc6-excerpt.txt')).find((f) => f.path === 'usr/lib64/ld-linux-x86-64.so.2');
  assert.deepEqual(link, { path: 'usr/lib64/ld-linux-x86-64.so.2', type: 'link', target: '../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' });
});

test('ldconfig -p: sonames of this architecture only', async () => {
  const sonames = parseLdconfig(await fixture('ldconfig/glibc-2.36-excerpt.txt'));
  assert.ok(sonames.has('libc.so.6'));
  assert.ok(sonames.has('libssl.so.3'));
  assert.equal(parseLdconfig('\tlibx.so.1 (libc6) => /lib/i386-linux-gnu/libx.so.1\n').size, 0);
});

test('Debian and upstream versions', () => {
  assert.equal(upstreamOf('1:10.11.18-0+deb12u1'), '10.11.18');
  assert.equal(upstreamOf('1:11.8.9+ds-4'), '11.8.9');
  assert.equal(upstreamOf('9.7.4-2'), '9.7.4');
  assert.deepEqual(['11.8.6', '10.11.19', '10.5.23', '10.11.18'].sort(compareUpstream), ['10.5.23', '10.11.18', '10.11.19', '11.8.6']);
  assert.equal(debFilePrefix('libc6', '1:2.3-1'), 'libc6_1%3a2.3-1_');
});

for (const [file, flavor, version] of /** @type {const} */ ([
  ['mariadbd/10.5.23-version.txt', 'mariadb', '10.5.23'],
  ['mariadbd/10.11.18-version.txt', 'mariadb', '10.11.18'],
  ['mariadbd/10.11.19-version.txt', 'mariadb', '10.11.19'],
  ['mariadbd/11.8.6-version.txt', 'mariadb', '11.8.6'],
  ['mysqld/9.7.4-version.txt', 'mysql', '9.7.4'],
])) {
  test(`--version line ${file}: ${flavor} ${version}`, async () => {
    const line = (await fixture(file)).trim();
    assert.equal(flavorOfVersionLine(line), flavor);
    assert.equal(versionOfVersionLine(line), version);
  });
}
