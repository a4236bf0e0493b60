// `tagbench install <product> <version> --provider source --dry-run` for every release line the
// bare-metal runners build: through the real CLI and the project's real product files, the
// printed steps name the source, the exact cmake command, the build and install commands, the
// cache folder and the provenance, and each line's cmake command has the flags that line needs
// and none it must not have. Nothing is fetched or built (test/install/source-provider.test.js
// checks on a small project that the printed commands are the ones a build runs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from '../../scripts/install/run-tool.js';
import { mergeCmakeFlags, resolveBuildSettings } from '../../scripts/install/source/build-settings.js';
import { ROOT, testContext } from './helpers.js';

const cli = join(ROOT, 'scripts', 'cli.js');
const { config } = await testContext();

/**
 * @param {string[]} args after `install`
 * @returns {Promise<{code: number, stdout: string, stderr: string, cacheDir: string}>}
 */
async function dryRun(args) {
  const cacheDir = await mkdtemp(join(tmpdir(), 'tb-dry-run-'));
  try {
    const res = await runTool(process.execPath, [cli, 'install', ...args, '--provider', 'source', '--dry-run', '--cache-dir', cacheDir, '--jobs', '2']);
    assert.deepEqual(await readdir(cacheDir), [], 'a dry run writes nothing into the cache');
    return { ...res, cacheDir };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

const MYSQL_COMMON = ['-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DWITH_UNIT_TESTS=OFF', '-DWITH_ROUTER=OFF', '-DWITH_SSL=system',
  '-DWITH_ZLIB=bundled', '-DWITH_ZSTD=bundled', '-DWITH_LZ4=bundled', '-DWITH_PROTOBUF=bundled'];
const BOOST_DOWNLOAD = ['-DDOWNLOAD_BOOST=ON', '-DDOWNLOAD_BOOST_TIMEOUT=1800'];
const MARIADB_COMMON = ['-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DWITH_UNIT_TESTS=OFF', '-DWITH_SSL=system', '-DWITH_PCRE=system'];
const REDUCED_OFF = ['-DPLUGIN_ROCKSDB=NO', '-DPLUGIN_MROONGA=NO', '-DPLUGIN_SPIDER=NO', '-DPLUGIN_CONNECT=NO', '-DPLUGIN_COLUMNSTORE=NO', '-DPLUGIN_OQGRAPH=NO', '-DINSTALL_MYSQLTESTDIR='];

/**
 * @type {{product: string, version: string, line: string, profile?: string, tag: string, must: string[], mustNot: RegExp[]}[]}
 *   must: flags the configure command has (boost's folder is checked separately); mustNot: no flag may match
 */
const CASES = [
  { product: 'mysql', version: '8.0.40', line: '8.0', tag: 'mysql-8.0.40', must: [...MYSQL_COMMON, ...BOOST_DOWNLOAD], mustNot: [/^-DPLUGIN_/, /^-DWITH_PCRE/] },
  { product: 'mysql', version: '8.4.3', line: '8.4', tag: 'mysql-8.4.3', must: MYSQL_COMMON, mustNot: [/BOOST/, /^-DPLUGIN_/] },
  { product: 'mysql', version: '9.1.0', line: '9', tag: 'mysql-9.1.0', must: MYSQL_COMMON, mustNot: [/BOOST/, /^-DPLUGIN_/] },
  { product: 'mariadb', version: '10.11.18', line: '10.11', tag: 'mariadb-10.11.18', must: [...MARIADB_COMMON, '-DPLUGIN_ROCKSDB=YES', '-DWITH_LIBFMT=system'], mustNot: [/ROUTER/, /BOOST/, /=NO$/] },
  { product: 'mariadb', version: '11.4.5', line: '11.4', tag: 'mariadb-11.4.5', must: [...MARIADB_COMMON, '-DPLUGIN_ROCKSDB=YES', '-DWITH_LIBFMT=system'], mustNot: [/ROUTER/, /BOOST/, /=NO$/] },
  { product: 'mariadb', version: '11.8.6', line: '11.8', tag: 'mariadb-11.8.6', must: [...MARIADB_COMMON, '-DPLUGIN_ROCKSDB=YES', '-DWITH_LIBFMT=system'], mustNot: [/ROUTER/, /BOOST/, /=NO$/] },
  { product: 'mariadb', version: '10.11.18', line: '10.11', profile: 'reduced', tag: 'mariadb-10.11.18', must: [...MARIADB_COMMON, ...REDUCED_OFF, '-DWITH_LIBFMT=system'], mustNot: [/ROUTER/, /BOOST/, /ROCKSDB=YES/] },
  { product: 'mariadb', version: '11.8.6', line: '11.8', profile: 'reduced', tag: 'mariadb-11.8.6', must: [...MARIADB_COMMON, ...REDUCED_OFF, '-DWITH_LIBFMT=system'], mustNot: [/ROUTER/, /BOOST/, /ROCKSDB=YES/] },
  // libfmt came with 10.7: older lines must not ask for it.
  { product: 'mariadb', version: '10.6.20', line: '10.6', tag: 'mariadb-10.6.20', must: [...MARIADB_COMMON, '-DPLUGIN_ROCKSDB=YES'], mustNot: [/LIBFMT/, /BOOST/] },
  { product: 'percona-server', version: '8.0.39-30', line: '8.0', tag: 'Percona-Server-8.0.39-30', must: ['-DWITH_ROUTER=OFF', ...BOOST_DOWNLOAD], mustNot: [/^-DPLUGIN_/] },
];

for (const c of CASES) {
  test(`dry run ${c.product} ${c.version}${c.profile ? ` (${c.profile})` : ''}: line ${c.line}'s complete steps, the flags it needs and none it must not have`, async () => {
    const res = await dryRun([c.product, c.version, '--json', ...(c.profile ? ['--profile', c.profile] : [])]);
    assert.equal(res.code, 0, res.stderr);
    const plan = JSON.parse(res.stdout);
    const product = config.products[c.product];
    assert.equal(plan.line, c.line);
    assert.equal(plan.tag, c.tag);
    assert.equal(plan.gitUrl, product.gitUrl);
    const prefix = join(res.cacheDir, `${c.product}-${c.version}@source-${c.profile ?? 'release'}`);
    assert.equal(plan.prefix, prefix);

    assert.deepEqual(plan.steps.map((/** @type {{step: string}} */ s) => s.step), ['fetch', 'fetch', 'fetch', 'fetch', 'fetch', 'configure', 'build', 'install', 'move', 'commit']);
    const argv = (/** @type {string} */ step) => plan.steps.find((/** @type {{step: string}} */ s) => s.step === step).argv;
    assert.deepEqual(plan.steps[2].argv.slice(-5), ['--depth', '1', '--no-tags', 'origin', c.tag], 'fetches exactly the release tag');
    assert.deepEqual(plan.steps[1].argv.slice(-1), [product.gitUrl]);

    const configure = argv('configure');
    assert.equal(configure[0], 'cmake');
    assert.deepEqual(configure.slice(1, 2), ['-S']);
    assert.equal(configure.at(-1), `-DCMAKE_INSTALL_PREFIX=${join(prefix, 'usr')}`);
    const flags = configure.slice(5, -1);
    for (const flag of c.must) assert.ok(flags.includes(flag), `${flag} in ${flags.join(' ')}`);
    for (const re of c.mustNot) assert.deepEqual(flags.filter((/** @type {string} */ f) => re.test(f)), [], `no flag matching ${re}`);
    const names = flags.map((/** @type {string} */ f) => f.split('=')[0]);
    assert.equal(new Set(names).size, names.length, `one flag per cmake variable: ${names.join(' ')}`);
    assert.ok(flags.every((/** @type {string} */ f) => !f.includes('{')), 'placeholders are filled in the command');
    if (c.must.includes('-DDOWNLOAD_BOOST=ON')) {
      assert.ok(flags.includes(`-DWITH_BOOST=${join(res.cacheDir, '.downloads', 'boost')}`), 'boost goes to the cache\'s kept downloads folder');
      assert.ok(plan.recordedFlags.includes('-DWITH_BOOST={downloadDir}/boost'), 'the recorded flag keeps the placeholder');
    }
    assert.deepEqual(argv('build'), ['cmake', '--build', configure[4], '--parallel', '2']);
    assert.deepEqual(argv('install'), ['cmake', '--install', configure[4]]);
    assert.deepEqual(argv('commit').slice(-1), [prefix]);

    // What the install records matches what resolveBuildSettings decides for the real build.
    const settings = resolveBuildSettings(/** @type {any} */ (product), { product: c.product, version: c.version, provider: 'source', profile: c.profile });
    assert.deepEqual(plan.recordedFlags, settings.cmakeFlags);
    assert.deepEqual(plan.recordedFlags, mergeCmakeFlags(plan.profileFlags, plan.lineFlags));
  });
}

test('dry run as text: source, line flags, the exact commands in order, where it lands and what is recorded', async () => {
  const res = await dryRun(['mysql', '8.0.40']);
  assert.equal(res.code, 0, res.stderr);
  const out = res.stdout;
  assert.match(out, /^mysql 8\.0\.40: dry run of a source build \(nothing is fetched, built or written\)$/m);
  assert.match(out, /^ {2}line {7}8\.0$/m);
  assert.match(out, /^ {2}line flags -DDOWNLOAD_BOOST=ON -DWITH_BOOST=\{downloadDir\}\/boost -DDOWNLOAD_BOOST_TIMEOUT=1800$/m);
  assert.match(out, /^ {2}source {5}https:\/\/github\.com\/mysql\/mysql-server\.git tag mysql-8\.0\.40 /m);
  assert.match(out, /^ {3}3\. \[fetch\] git -C \S+\/src fetch --depth 1 --no-tags origin mysql-8\.0\.40$/m);
  assert.match(out, /^ {3}6\. \[configure\] (CCACHE_[A-Z]+=\S+ )*cmake -S \S+ -B \S+ -DCMAKE_BUILD_TYPE=RelWithDebInfo .*-DWITH_ROUTER=OFF .*-DDOWNLOAD_BOOST=ON -DWITH_BOOST=\S+\/\.downloads\/boost .*-DCMAKE_INSTALL_PREFIX=\S+\/mysql-8\.0\.40@source-release\/usr$/m);
  assert.match(out, /^ {3}7\. \[build\] (CCACHE_[A-Z]+=\S+ )*cmake --build \S+ --parallel 2$/m);
  assert.match(out, /^ {3}8\. \[install\] DESTDIR=\S+\/destdir cmake --install \S+$/m);
  assert.match(out, /^ {2}buildFlags .*-DWITH_BOOST=\{downloadDir\}\/boost/m);
  assert.match(out, /on failure the log goes to \S+\/\.build-logs\/ and the install is a failed result/);
});

test('dry run refuses what it cannot plan: another provider, an unknown profile, an unknown version line', async () => {
  const deb = await runTool(process.execPath, [cli, 'install', 'mariadb', '10.11.18', '--dry-run']);
  assert.equal(deb.code, 1, deb.stderr);
  assert.match(deb.stderr, /--dry-run prints the steps of a source build; use it with --provider source \(got --provider deb\)/);
  const profile = await dryRun(['mariadb', '10.11.18', '--profile', 'nope']);
  assert.equal(profile.code, 1);
  assert.match(profile.stderr, /build profile 'nope' is not defined; known profiles: jemalloc, reduced, release/);
  const line = await dryRun(['mysql', '7.0.1']);
  assert.equal(line.code, 1);
  assert.match(line.stderr, /makes tag 'mysql-7\.0\.1' for version 7\.0\.1, but no line's tagPattern matches it/);
});

test('build.lines: a key that is not a product line, an unknown placeholder, a reserved flag are errors naming the file and key', () => {
  const mysql = /** @type {any} */ (config.products.mysql);
  const spec = { product: 'mysql', version: '8.0.40', provider: 'source' };
  const withLines = (/** @type {any} */ lines) => ({ ...mysql, build: { ...mysql.build, lines } });
  assert.throws(() => resolveBuildSettings(withLines({ '5.7': { cmakeFlags: ['-DX=1'] } }), spec), /configs\/products\/mysql\.yml: build\.lines has '5\.7', which is not one of the product's lines \(8\.0, 8\.4, 9\)/);
  assert.throws(() => resolveBuildSettings(withLines({ '8.0': { cmakeFlags: ['-DWITH_BOOST={home}/boost'] } }), spec), /build\.lines\.8\.0\.cmakeFlags has '-DWITH_BOOST=\{home\}\/boost' with the unknown placeholder \{home\}; known: \{downloadDir\}/);
  assert.throws(() => resolveBuildSettings(withLines({ '8.0': { cmakeFlags: ['-DCMAKE_INSTALL_PREFIX=/usr'] } }), spec), /build\.lines\.8\.0\.cmakeFlags has '-DCMAKE_INSTALL_PREFIX=\/usr', which the source provider sets itself/);
  // A line flag of a variable the profile sets replaces it in place; a branch still builds as its version's line.
  const branch = resolveBuildSettings(withLines({ '8.0': { cmakeFlags: ['-DWITH_SSL=bundled', '-GNinja'] } }), { ...spec, ref: '8.0' });
  assert.equal(branch.line, '8.0');
  assert.equal(branch.tag, null);
  assert.deepEqual(branch.cmakeFlags.filter((f) => f.startsWith('-DWITH_SSL')), ['-DWITH_SSL=bundled']);
  assert.equal(branch.cmakeFlags.indexOf('-DWITH_SSL=bundled'), mysql.build.profiles.release.cmakeFlags.indexOf('-DWITH_SSL=system'));
  assert.equal(branch.cmakeFlags.at(-1), '-GNinja');
  assert.deepEqual(mergeCmakeFlags(['-DA:BOOL=ON', '-GNinja'], ['-DA=OFF', '-GNinja']), ['-DA=OFF', '-GNinja']);
});

test('dry run of the Debian-source origin through the CLI: apt download, checks and unpack, then the same cmake build as git', async () => {
  const res = await dryRun(['mariadb', '10.11.18', '--suite', 'bookworm', '--profile', 'reduced']);
  assert.equal(res.code, 0, res.stderr);
  const out = res.stdout;
  assert.match(out, /^ {2}source {5}the orig tarball \(upstream's release tarball\) of Debian bookworm's source package of mariadb-server-core, version 1:10\.11\.18-0\+deb12u1; release tag mariadb-10\.11\.18$/m);
  assert.match(out, /^ {3}1\. \[fetch\] flock -x \S+\/\.apt-src\/bookworm\/lists\.lock apt-get .* update {4}# only when the private source lists are missing or older than a day$/m);
  assert.match(out, /^ {3}2\. \[fetch\] \(cd \S+\/debian-source\) flock -s \S+ apt-get .* source --download-only mariadb-server-core=1:10\.11\.18-0\+deb12u1/m);
  assert.match(out, /^ {3}5\. \[verify\] .*gpgv --keyring \S+upstream-signing-key\.gpg /m);
  assert.match(out, /^ {3}6\. \[unpack\] .*tar -xf .* --strip-components=1 --no-same-owner$/m);
  assert.match(out, /^ {3}7\. \[configure\] (CCACHE_[A-Z]+=\S+ )*cmake -S \S+ -B \S+ -DCMAKE_BUILD_TYPE=RelWithDebInfo .*-DPLUGIN_ROCKSDB=NO .*-DWITH_LIBFMT=system .*-DCMAKE_INSTALL_PREFIX=\S+\/mariadb-10\.11\.18@source-reduced\/usr$/m);
  assert.doesNotMatch(out, /git (init|fetch)/, 'nothing from git');
});
