// The Debian-source origin of the source provider (`--provider source --suite <suite>`).
// Pure parts (which package, the .dsc, the key, the plan) on their own; then the whole path,
// download -> verify -> unpack -> configure -> build -> install, on a small project.
//
// STAND-IN: the Debian archive is a local one made here (file: URI), because this network's
// mirror serves only the few source packages the project needs, and a real one is 115 MB
// (the real MariaDB build is documented in bench/source-build-local.md). It keeps the rules of
// the real archive that the provider relies on: its InRelease is signed by an archive key the
// sources entry names with signed-by (apt refuses it otherwise), the Sources index carries the
// .dsc's hashes and the .dsc every file's sha256 (apt refuses a file that differs), the orig
// tarball is an upstream tree with upstream's detached signature beside it, and the Debian
// tarball ships upstream's key as debian/upstream/signing-key.asc.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { access, cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../../scripts/errors.js';
import { installRelease } from '../../scripts/install/index.js';
import { getProvider } from '../../scripts/install/registry.js';
import { runToolChecked } from '../../scripts/install/run-tool.js';
import { chooseDebianSource, dearmorKeys, debianSourceSteps, fetchDebianSource, parseDscChecksums } from '../../scripts/install/source/debian-source.js';
import { findCompilerLauncher } from '../../scripts/install/source/cmake-build.js';
import { planSourceBuild, renderSourcePlan } from '../../scripts/install/source/plan.js';
import { renderSourcePackagesList } from '../../scripts/install/apt/apt-sources.js';
import { testContext } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/install/source-fake-server/', import.meta.url));
const base = await testContext();
/** @type {(msg: string) => void} */
const quiet = process.env.TAGBENCH_TEST_VERBOSE && base.log ? base.log : () => {};
/** @type {import('../../scripts/install/types.js').InstallProductConfig} */
const mariadb = /** @type {any} */ (base.config.products.mariadb);
let dir = '';
let gnupg = '';
/** @type {{upstream: string, archive: string}} fingerprints */
const keys = { upstream: '', archive: '' };

/** @param {string[]} args */
const gpg = (...args) => runToolChecked('gpg', ['--homedir', gnupg, '--batch', '--quiet', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], { what: `gpg ${args[0]}` });
/** @param {string} file */
const sha256 = async (file) => createHash('sha256').update(await readFile(file)).digest('hex');
/** @param {string} file */
const md5 = async (file) => createHash('md5').update(await readFile(file)).digest('hex');
/** @param {string} p */
const exists = (p) => access(p).then(() => true, () => false);

/**
 * A signed local Debian archive (suite sid) holding one source package built from the fake
 * server tree, and an /etc/apt-like folder whose sources name it.
 * @param {string} name folder under the test's temp folder
 * @param {{version: string, tamper?: boolean, signWith?: 'upstream'|'archive', noAsc?: boolean}} o
 *   tamper: change the orig tarball after the .dsc was made; signWith: key of the upstream
 *   signature (the archive key stands for a wrong signer); noAsc: no upstream signature at all
 * @returns {Promise<{etcApt: string, origName: string, origSha256: string}>}
 */
async function makeArchive(name, o) {
  const root = join(dir, name);
  const pool = join(root, 'repo', 'pool', 'main', 'm', 'mariadb');
  const srcRoot = join(root, 'upstream');
  const tree = join(srcRoot, `mariadb-${o.version}`);
  await mkdir(pool, { recursive: true });
  await cp(FIXTURE, tree, { recursive: true });
  await writeFile(join(tree, 'VERSION'), `${o.version}\n`);
  const origName = `mariadb_${o.version}.orig.tar.gz`;
  const orig = join(pool, origName);
  await runToolChecked('tar', ['-czf', orig, '-C', srcRoot, `mariadb-${o.version}`]);
  const files = [origName];
  if (!o.noAsc) {
    await gpg('-u', keys[o.signWith ?? 'upstream'], '--armor', '--detach-sign', '--output', `${orig}.asc`, orig);
    files.push(`${origName}.asc`);
  }
  // The Debian tarball: upstream's key where uscan keeps it, and a patch the build must NOT apply.
  const deb = join(root, 'debian-tree');
  await mkdir(join(deb, 'debian', 'upstream'), { recursive: true });
  await mkdir(join(deb, 'debian', 'patches'), { recursive: true });
  await writeFile(join(deb, 'debian', 'upstream', 'signing-key.asc'), (await gpg('--armor', '--export', keys.upstream)).stdout);
  await writeFile(join(deb, 'debian', 'patches', 'series'), 'break-the-build.patch\n');
  const debName = `mariadb_${o.version}-1.debian.tar.xz`;
  await runToolChecked('tar', ['-cJf', join(pool, debName), '-C', deb, 'debian']);
  files.push(debName);

  const entries = await Promise.all(files.map(async (f) => ({ name: f, sha256: await sha256(join(pool, f)), md5: await md5(join(pool, f)), size: (await stat(join(pool, f))).size })));
  const list = (/** @type {typeof entries} */ es, /** @type {'sha256'|'md5'} */ h) => es.map((e) => ` ${e[h]} ${e.size} ${e.name}`).join('\n');
  const dscName = `mariadb_${o.version}-1.dsc`;
  await writeFile(join(pool, dscName), [
    'Format: 3.0 (quilt)', 'Source: mariadb', 'Binary: mariadb-server-core, mariadb-server', 'Architecture: any', `Version: ${o.version}-1`,
    'Checksums-Sha256:', list(entries, 'sha256'), 'Files:', list(entries, 'md5'), '',
  ].join('\n'));
  const dsc = { name: dscName, sha256: await sha256(join(pool, dscName)), md5: await md5(join(pool, dscName)), size: (await stat(join(pool, dscName))).size };
  if (o.tamper) await runToolChecked('tar', ['-czf', orig, '-C', FIXTURE, '.']);

  const dists = join(root, 'repo', 'dists', 'sid');
  await mkdir(join(dists, 'main', 'source'), { recursive: true });
  const sources = [
    'Package: mariadb', 'Binary: mariadb-server-core, mariadb-server', `Version: ${o.version}-1`, 'Architecture: any', 'Format: 3.0 (quilt)',
    'Directory: pool/main/m/mariadb', 'Files:', list([dsc, ...entries], 'md5'), 'Checksums-Sha256:', list([dsc, ...entries], 'sha256'), '', '',
  ].join('\n');
  const sourcesFile = join(dists, 'main', 'source', 'Sources');
  await writeFile(sourcesFile, sources);
  await writeFile(join(dists, 'Release'), [
    'Origin: tagbench-test', 'Suite: sid', 'Codename: sid', `Date: ${new Date(Date.now() - 60_000).toUTCString()}`, 'Architectures: amd64', 'Components: main',
    'SHA256:', ` ${await sha256(sourcesFile)} ${Buffer.byteLength(sources)} main/source/Sources`, '',
  ].join('\n'));
  await gpg('-u', keys.archive, '--clearsign', '--output', join(dists, 'InRelease'), join(dists, 'Release'));

  const etcApt = join(root, 'etc-apt');
  await mkdir(join(etcApt, 'sources.list.d'), { recursive: true });
  const keyring = join(root, 'archive-keyring.gpg');
  await writeFile(keyring, await exportBinary(keys.archive));
  await writeFile(join(etcApt, 'sources.list'), `deb [signed-by=${keyring}] file:${join(root, 'repo')} sid main\n`);
  return { etcApt, origName, origSha256: entries[0].sha256 };
}

/**
 * @param {string} fingerprint
 * @returns {Promise<Buffer>} the public key as a binary keyring (what apt's signed-by reads)
 */
async function exportBinary(fingerprint) {
  const armored = (await gpg('--armor', '--export', fingerprint)).stdout;
  return dearmorKeys(armored);
}

/**
 * @param {string} uid
 * @returns {Promise<string>} fingerprint of a new signing key
 */
async function newKey(uid) {
  await gpg('--quick-gen-key', uid, 'ed25519', 'sign', 'never');
  const listed = (await gpg('--with-colons', '--list-keys', uid)).stdout;
  const fpr = /^fpr:+([0-9A-F]{40}):/m.exec(listed);
  assert.ok(fpr, `gpg listed no fingerprint for ${uid}`);
  return fpr[1];
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tb-debsrc-'));
  gnupg = join(dir, 'gnupg');
  await mkdir(gnupg, { mode: 0o700 });
  keys.upstream = await newKey('tagbench test upstream <upstream@tagbench.invalid>');
  keys.archive = await newKey('tagbench test archive <archive@tagbench.invalid>');
});
after(async () => {
  await runToolChecked('gpgconf', ['--homedir', gnupg, '--kill', 'all']).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

test('debian-source: the package and version come from deb.<version> when it is in the asked release, else from apt', () => {
  const pinned = chooseDebianSource(mariadb, '10.11.18', 'bookworm');
  assert.deepEqual(pinned, { suite: 'bookworm', release: 'bookworm', packageName: 'mariadb-server-core', otherNames: ['mariadb-server-core-10.11'], packageVersion: '1:10.11.18-0+deb12u1' });
  // bookworm-security is the same release: the pin of 10.11.19 applies.
  assert.equal(chooseDebianSource(mariadb, '10.11.19', 'bookworm').packageVersion, '1:10.11.19-0+deb12u1');
  assert.equal(chooseDebianSource(mariadb, '10.11.18', 'trixie').packageVersion, null, 'a pin of another release does not apply');
  assert.equal(chooseDebianSource(mariadb, '10.5.23', 'bullseye').otherNames[0], 'mariadb-server-core-10.5');
  const binNmu = { ...mariadb, deb: { '10.11.18': { suite: 'bookworm', packageVersion: '1:10.11.18-0+deb12u1+b1' } } };
  assert.equal(chooseDebianSource(binNmu, '10.11.18', 'bookworm').packageVersion, '1:10.11.18-0+deb12u1', 'a binNMU suffix is not part of the source version');
  assert.throws(() => chooseDebianSource(mariadb, '10.11.18', 'Bookworm; rm'), (e) => e instanceof UserError && /not a Debian suite name/.test(e.message));
});

test('debian-source: .dsc checksums and an armored key are read as apt and gpg would', () => {
  const dsc = ['-----BEGIN PGP SIGNED MESSAGE-----', 'Hash: SHA512', '', 'Format: 3.0 (quilt)', 'Source: mariadb', 'Checksums-Sha1:',
    ` ${'1'.repeat(40)} 10 mariadb_1.orig.tar.gz`, 'Checksums-Sha256:', ` ${'a'.repeat(64)} 114604451 mariadb_1.orig.tar.gz`,
    ` ${'b'.repeat(64)} 833 mariadb_1.orig.tar.gz.asc`, 'Files:', ` ${'c'.repeat(32)} 114604451 mariadb_1.orig.tar.gz`, ''].join('\n');
  assert.deepEqual(parseDscChecksums(dsc), [
    { name: 'mariadb_1.orig.tar.gz', sha256: 'a'.repeat(64), size: 114604451 },
    { name: 'mariadb_1.orig.tar.gz.asc', sha256: 'b'.repeat(64), size: 833 },
  ]);
  const packets = Buffer.from('tagbench key packets');
  const armored = `-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: test\n\n${packets.toString('base64')}\n=abcd\n-----END PGP PUBLIC KEY BLOCK-----\n`;
  assert.deepEqual(dearmorKeys(armored + armored), Buffer.concat([packets, packets]), 'headers and CRC dropped, every block kept');
  assert.throws(() => dearmorKeys('no key here'), UserError);
});

test('debian-source: private deb-src lists use the machine\'s mirrors, and the dry run prints the Debian steps before the same cmake command as git', () => {
  const mirrors = { archive: 'http://mirror.invalid/debian', security: 'http://mirror.invalid/debian-security', keyring: '/k.gpg' };
  assert.equal(renderSourcePackagesList('bookworm', mirrors), [
    'deb-src [signed-by=/k.gpg] http://mirror.invalid/debian bookworm main',
    'deb-src [signed-by=/k.gpg] http://mirror.invalid/debian bookworm-updates main',
    'deb-src [signed-by=/k.gpg] http://mirror.invalid/debian-security bookworm-security main', ''].join('\n'));
  const spec = { product: 'mariadb', version: '10.11.18', provider: 'source', profile: 'reduced' };
  const where = { cacheDir: '/cache', jobs: 2, launcher: '/usr/bin/ccache' };
  const debian = planSourceBuild(base.config, { ...spec, suite: 'bookworm' }, where);
  const git = planSourceBuild(base.config, spec, where);
  assert.equal(debian.origin, 'debian-source');
  assert.deepEqual(debian.steps.map((s) => s.step), ['fetch', 'fetch', 'verify', 'verify', 'verify', 'unpack', 'configure', 'build', 'install', 'move', 'commit']);
  const download = debian.steps[1].argv;
  assert.deepEqual(download.slice(-3), ['source', '--download-only', 'mariadb-server-core=1:10.11.18-0+deb12u1']);
  assert.ok(download.includes('Dir::Etc::SourceList=/cache/.apt-src/bookworm/sources.list'), 'the private source lists, never the machine\'s');
  assert.deepEqual(debian.steps[5].argv.slice(0, 2), ['tar', '-xf']);
  assert.ok(debian.steps[5].argv.includes('--strip-components=1'));
  const configure = (/** @type {typeof git} */ p) => p.steps.find((s) => s.step === 'configure');
  assert.deepEqual(configure(debian)?.argv, configure(git)?.argv, 'same profile, line flags and launcher as a git build');
  assert.ok(configure(debian)?.argv.includes('-DCMAKE_CXX_COMPILER_LAUNCHER=/usr/bin/ccache'));
  assert.ok(configure(debian)?.argv.includes('-DWITH_LIBFMT=system'), 'the 10.11 line flag');
  // Paths under the random work folder hashed relative, so that a rebuild hits the cache.
  assert.deepEqual(configure(debian)?.env, { CCACHE_DIR: process.env.CCACHE_DIR || '/cache/.ccache', CCACHE_BASEDIR: process.env.CCACHE_BASEDIR || debian.workDir, CCACHE_NOHASHDIR: process.env.CCACHE_NOHASHDIR || 'true' });
  const without = planSourceBuild(base.config, { ...spec, suite: 'bookworm' }, { ...where, launcher: null });
  assert.ok(!configure(without)?.argv.some((a) => a.includes('LAUNCHER')), 'no launcher without ccache');
  const text = renderSourcePlan(debian);
  assert.match(text, /source {5}the orig tarball \(upstream's release tarball\) of Debian bookworm's source package of mariadb-server-core, version 1:10\.11\.18-0\+deb12u1; release tag mariadb-10\.11\.18/);
  assert.match(text, /\[verify\] .*gpgv --keyring /);
  assert.match(text, /origin debian-source: .*orig tarball name and sha256, upstream signature check/);
  assert.equal(debianSourceSteps({ cacheDir: '/c', workDir: '/w', choice: chooseDebianSource(mariadb, '10.11.18', 'trixie') }).packageArg,
    'mariadb-server-core=<the highest Debian version of this upstream version in the release>');
});

test('debian-source: --suite is one origin; it does not mix with --ref, --path or gitUrl', () => {
  const source = getProvider('source');
  const spec = { product: 'mariadb', version: '10.11.18', provider: 'source', suite: 'bookworm' };
  assert.deepEqual(source.validateOptions(spec), []);
  assert.match(source.validateOptions({ ...spec, ref: 'mariadb-10.11.18' }).join(), /give one origin/);
  assert.match(source.validateOptions({ ...spec, path: '/srv/git/server.git' }).join(), /give one origin/);
  assert.match(source.validateOptions({ ...spec, suite: '../sid' }).join(), /not a Debian suite name/);
});

test('debian-source: from a signed archive, the orig tarball is verified, its upstream signature checked, and upstream\'s tree built with the profile', async () => {
  const archive = await makeArchive('good', { version: '10.11.99' });
  const cacheDir = join(dir, 'cache-good');
  const ctx = { config: base.config, cacheDir, log: quiet, etcApt: archive.etcApt };
  const r = await installRelease(/** @type {import('../../scripts/install/types.js').InstallSpec} */ ({ product: 'mariadb', version: '10.11.99', provider: 'source', suite: 'sid', jobs: 2 }), ctx);
  assert.equal(r.status, 'installed', r.reason ?? '');
  assert.equal(r.prefix, join(cacheDir, 'mariadb-10.11.99@source-release'));
  assert.match(r.provenance.serverVersionString, /10\.11\.99/);
  const p = /** @type {any} */ (r.provenance);
  assert.equal(p.tag, 'mariadb-10.11.99');
  assert.equal(p.commit, null);
  assert.deepEqual(p.buildFlags, [...mariadb.build?.profiles?.release.cmakeFlags ?? [], '-DWITH_LIBFMT=system']);
  assert.equal(p.build.origin, 'debian-source');
  assert.equal(p.build.gitUrl, null);
  assert.deepEqual({ ...p.build.debianSource, dscSha256: 'x', signature: 'x' }, {
    suite: 'sid', sourcePackage: 'mariadb', packageVersion: '10.11.99-1', dscSha256: 'x', origTarball: archive.origName, origSha256: archive.origSha256, signature: 'x',
  });
  assert.equal(p.build.debianSource.signature.checked, true);
  assert.match(p.build.debianSource.signature.detail, new RegExp(`Good signature from "tagbench test upstream.*key ${keys.upstream}|${keys.upstream}.*Good signature`, 's'));
  const launcher = findCompilerLauncher();
  assert.ok(launcher, 'this test needs ccache (setup/source-build.sh)');
  assert.ok(p.build.configure.includes(`-DCMAKE_C_COMPILER_LAUNCHER=${launcher}`), 'ccache is the compiler launcher when installed');
  assert.match(p.build.ccache, /^ccache version /);
  assert.ok(p.build.buildDurationS >= 0 && typeof p.build.compiler === 'string');
  // Only the orig tree was built: the Debian tarball (with its patch series) was not unpacked into it.
  const log = await readFile(join(r.prefix, '.tagbench-build.log'), 'utf8');
  assert.match(log, /apt-get .* source --download-only mariadb-server-core=10\.11\.99-1/);
  assert.doesNotMatch(log, /break-the-build/);
  assert.deepEqual((await readdir(cacheDir)).filter((f) => f.startsWith('.work-')), [], 'the work folder is removed');
  assert.ok(await exists(join(cacheDir, '.apt-src', 'sid', 'sources.list')));
  assert.equal(await exists(join(cacheDir, '.apt', 'sid')), false, 'the binary lists are not touched');

  // A rebuild (the install deleted) compiles in another random work folder: every compile is a ccache hit.
  const stats = async () => Object.fromEntries((await runToolChecked(launcher, ['--print-stats'], { env: { ...process.env, CCACHE_DIR: p.build.ccacheDir } })).stdout
    .trim().split('\n').map((l) => l.split('\t')).map(([k, v]) => [k, Number(v)]));
  const before = await stats();
  await rm(r.prefix, { recursive: true });
  const again = await installRelease(/** @type {import('../../scripts/install/types.js').InstallSpec} */ ({ product: 'mariadb', version: '10.11.99', provider: 'source', suite: 'sid', jobs: 2 }), ctx);
  assert.equal(again.status, 'installed', again.reason ?? '');
  const after = await stats();
  const hits = after.direct_cache_hit + after.preprocessed_cache_hit - before.direct_cache_hit - before.preprocessed_cache_hit;
  assert.ok(hits >= 5, `the fake tree's 5 compiles hit the cache (hits ${hits})`);
  assert.equal(after.cache_miss - before.cache_miss, 0, 'no compile missed the cache');
});

test('debian-source: a wrong upstream signature stops the build; a missing one is recorded as not checked', async () => {
  const wrong = await makeArchive('wrong-signer', { version: '10.11.99', signWith: 'archive' });
  const workDir = join(dir, 'work-wrong');
  await mkdir(workDir);
  const choice = chooseDebianSource(mariadb, '10.11.99', 'sid');
  const fetch = (/** @type {string} */ etcApt, /** @type {string} */ w, /** @type {string} */ cache) => fetchDebianSource({ cacheDir: join(dir, cache), workDir: w, choice, version: '10.11.99', logFile: join(w, 'log'), label: 'mariadb 10.11.99', log: quiet, etcApt });
  await assert.rejects(fetch(wrong.etcApt, workDir, 'cache-wrong'), (e) => e instanceof UserError && /does NOT verify/.test(e.message));
  assert.equal(await exists(join(workDir, 'src', 'CMakeLists.txt')), false, 'nothing unpacked');

  const unsigned = await makeArchive('unsigned', { version: '10.11.99', noAsc: true });
  const workDir2 = join(dir, 'work-unsigned');
  await mkdir(workDir2);
  const got = await fetch(unsigned.etcApt, workDir2, 'cache-unsigned');
  assert.deepEqual(got.facts.signature, { checked: false, detail: `the source package has no ${unsigned.origName}.asc (upstream signature) beside the orig tarball` });
  assert.ok(await exists(join(got.srcDir, 'CMakeLists.txt')));
});

test('debian-source: apt refuses an orig tarball that differs from the .dsc, and a version the archive lacks is named', async () => {
  const tampered = await makeArchive('tampered', { version: '10.11.99', tamper: true });
  const workDir = join(dir, 'work-tampered');
  await mkdir(workDir);
  const choice = chooseDebianSource(mariadb, '10.11.99', 'sid');
  const args = { cacheDir: join(dir, 'cache-tampered'), workDir, choice, version: '10.11.99', logFile: join(workDir, 'log'), label: 'mariadb 10.11.99', log: quiet, etcApt: tampered.etcApt };
  await assert.rejects(fetchDebianSource(args), (e) => e instanceof UserError && /apt-get source mariadb-server-core=10\.11\.99-1 failed/.test(e.message) && /Hash Sum mismatch|hash|Size mismatch/i.test(e.message));
  await assert.rejects(fetchDebianSource({ ...args, version: '10.11.98' }),
    (e) => e instanceof UserError && /Debian sid has no source package of mariadb-server-core \/ mariadb-server-core-10\.11 with a version of upstream 10\.11\.98; it has: mariadb 10\.11\.99-1/.test(e.message));
});
