// The deb provider really installs the five reference releases (bookworm, bookworm-security,
// bullseye, trixie, sid) and they run from their prefixes. Downloads go to the shared cache
// ($TAGBENCH_CACHE), so only the first run on a machine pays for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installRelease } from '../../scripts/install/index.js';
import { sha256File } from '../../scripts/install/provenance.js';
import { runTool } from '../../scripts/install/run-tool.js';
import { testContext } from './helpers.js';

const ctx = await testContext();

/** @type {{product: string, version: string, ownGlibc: boolean, needsLdPath: boolean}[]} */
const RELEASES = [
  { product: 'mariadb', version: '10.11.18', ownGlibc: false, needsLdPath: false },
  { product: 'mariadb', version: '10.11.19', ownGlibc: false, needsLdPath: false },
  { product: 'mariadb', version: '10.5.23', ownGlibc: false, needsLdPath: true },
  { product: 'mariadb', version: '11.8.9', ownGlibc: true, needsLdPath: false },
  { product: 'mysql', version: '9.7.4', ownGlibc: true, needsLdPath: false },
];

/** @param {string} p */
const isExecutable = (p) => access(p, constants.X_OK).then(() => true, () => false);

/**
 * Run a binary of the release with the release's environment.
 * @param {import('../../scripts/types.js').InstallResult} r
 * @param {string} bin
 * @param {string[]} args
 */
const runBin = (r, bin, args) => runTool(bin, args, { env: { ...process.env, ...r.env }, timeoutMs: 120_000 });

for (const rel of RELEASES) {
  test(`deb: ${rel.product} ${rel.version} installs, runs, and is cached`, async (t) => {
    const cfg = ctx.config.products[rel.product].deb?.[rel.version];
    assert.ok(cfg, `configs/products/${rel.product}.yml lists ${rel.version}`);
    const r = await installRelease({ product: rel.product, version: rel.version, provider: 'deb' }, ctx);
    assert.notEqual(r.status, 'failed', r.reason ?? '');
    // Its own keyed folder, or the one an older tagbench made, read in place (install-cache.js).
    const legacy = join(ctx.cacheDir, `${rel.product}-${rel.version}`);
    assert.ok([`${legacy}@deb`, legacy].includes(r.prefix), r.prefix);
    assert.equal(r.flavor, ctx.config.products[rel.product].flavor);

    await t.test('binaries and folders are where the result says', async () => {
      for (const b of [r.bin.server, r.bin.client, r.bin.admin]) assert.ok(await isExecutable(b), b);
      if (r.flavor === 'mariadb') {
        assert.ok(r.bin.installDb && (await isExecutable(r.bin.installDb)));
        assert.ok((await readdir(r.pluginDir)).includes('ha_rocksdb.so'), `ha_rocksdb.so in ${r.pluginDir}`);
      } else {
        assert.equal(r.bin.installDb, null);
      }
      assert.ok((await stat(join(r.shareDir, 'charsets'))).isDirectory());
      assert.ok((await stat(join(r.shareDir, 'english', 'errmsg.sys'))).isFile());
    });

    await t.test('--version runs from the final path and matches the provenance', async () => {
      const v = await runBin(r, r.bin.server, ['--version']);
      assert.equal(v.code, 0, v.stderr);
      assert.equal(v.stdout.trim().split('\n')[0], r.provenance.serverVersionString);
      assert.match(r.provenance.serverVersionString, new RegExp(`Ver ${rel.version.replace(/\./g, '\\.')}\\b`));
      for (const b of [r.bin.client, r.bin.admin]) {
        const c = await runBin(r, b, ['--version']);
        assert.equal(c.code, 0, `${b}: ${c.stderr}`);
      }
    });

    await t.test('provenance is complete', async () => {
      const p = r.provenance;
      assert.equal(p.debianSuite, cfg.suite);
      assert.equal(p.provider, 'deb');
      assert.equal(p.serverSha256, await sha256File(r.bin.server));
      const core = p.packages.find((x) => /-server-core(-\d+\.\d+)?$/.test(x.name));
      assert.ok(core, 'the server-core package is recorded');
      assert.equal(core.version, cfg.packageVersion);
      for (const x of p.packages) assert.match(x.sha256 ?? '', /^[0-9a-f]{64}$/, `${x.name} has a sha256`);
    });

    await t.test(rel.ownGlibc ? 'runs on its own glibc: patched ELF files, no LD_LIBRARY_PATH' : 'runs on the host glibc, unpatched', async () => {
      assert.equal('LD_LIBRARY_PATH' in r.env, rel.needsLdPath);
      if (rel.needsLdPath) for (const d of r.env.LD_LIBRARY_PATH.split(':')) assert.ok(d.startsWith(r.prefix), d);
      const serverRel = r.bin.server.slice(r.prefix.length + 1);
      if (rel.ownGlibc) {
        assert.ok(r.provenance.patchedElf.includes(serverRel), `${serverRel} is listed as patched`);
        assert.ok(r.provenance.packages.some((x) => x.name === 'libc6'), 'the suite\'s glibc is in the prefix');
        const interp = await runTool('patchelf', ['--print-interpreter', r.bin.server]);
        assert.ok(interp.stdout.trim().startsWith(r.prefix), interp.stdout);
      } else {
        assert.deepEqual(r.provenance.patchedElf, []);
        assert.ok(!r.provenance.packages.some((x) => x.name === 'libc6'));
      }
    });

    await t.test('initialises a datadir', async (tt) => {
      const dir = await mkdtemp(join(tmpdir(), `tb-install-${rel.version}-`));
      tt.after(() => rm(dir, { recursive: true, force: true }));
      const tmp = join(dir, 'tmp');
      await runTool('mkdir', [tmp]);
      const res = r.bin.installDb
        ? await runBin(r, r.bin.installDb, ['--no-defaults', `--basedir=${r.prefix}/usr`, `--datadir=${dir}/data`, '--user=root',
          '--auth-root-authentication-method=normal', '--skip-test-db', `--tmpdir=${tmp}`])
        : await runBin(r, r.bin.server, ['--no-defaults', '--initialize-insecure', '--user=root', `--basedir=${r.prefix}/usr`,
          `--datadir=${dir}/data`, `--lc-messages-dir=${r.shareDir}`, `--tmpdir=${tmp}`, `--secure-file-priv=${tmp}`, '--mysqlx=OFF']);
      assert.equal(res.code, 0, `${res.stdout}\n${res.stderr}`);
      assert.ok((await readdir(join(dir, 'data', 'mysql'))).length > 0, 'system tables were created');
    });

    await t.test('a second install is a cache hit', async () => {
      const again = await installRelease({ product: rel.product, version: rel.version, provider: 'deb' }, ctx);
      assert.equal(again.status, 'skipped');
      assert.equal(again.prefix, r.prefix);
      assert.equal(again.provenance.serverSha256, r.provenance.serverSha256);
      assert.deepEqual(again.bin, r.bin);
    });
  });
}
