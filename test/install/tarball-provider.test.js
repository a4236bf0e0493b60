// The tarball provider, for real: the test packs the deb provider's MariaDB 10.11.18 into a
// tarball laid out like MariaDB's official binary tarballs (one top folder holding bin/,
// scripts/mariadb-install-db, lib/plugin/, share/), installs it with the tarball provider from a
// local file and from a URL (a local HTTP server stands in for the download site), starts a real
// server on the result and asks it for its version. A wrong sha256 is refused with a message
// naming the file and both hashes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installRelease } from '../../scripts/install/index.js';
import { sha256File } from '../../scripts/install/provenance.js';
import { runToolChecked } from '../../scripts/install/run-tool.js';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { testContext } from './helpers.js';

const VERSION = '10.11.18';
const TOP = `mariadb-${VERSION}-linux-systemd-x86_64`;
const base = await testContext();
const quiet = process.env.TAGBENCH_TEST_VERBOSE ? base.log : () => {};
let dir = '';
let tarFile = '';
let tarSha = '';
/** @type {import('../../scripts/types.js').InstallResult} */
let deb;

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

before(async () => {
  // The deb prefix lives in the shared cache; the tarball installs go to private caches below.
  deb = await installRelease({ product: 'mariadb', version: VERSION, provider: 'deb' }, base);
  assert.notEqual(deb.status, 'failed', deb.reason ?? '');
  dir = await mkdtemp(join(tmpdir(), 'tb-tarball-'));
  const stage = join(dir, 'stage', TOP);
  for (const sub of ['bin', 'scripts', 'lib']) await mkdir(join(stage, sub), { recursive: true });
  const usrBin = join(deb.prefix, 'usr', 'bin');
  // What mariadb-install-db and the server stage use, plus the client names tarballs also ship.
  await symlink(deb.bin.server, join(stage, 'bin', 'mariadbd'));
  for (const tool of ['mariadb', 'mariadb-admin', 'my_print_defaults', 'resolveip']) await symlink(join(usrBin, tool), join(stage, 'bin', tool));
  await symlink('mariadb', join(stage, 'bin', 'mysql'));
  await symlink('mariadb-admin', join(stage, 'bin', 'mysqladmin'));
  // Debian's mariadb-install-db is configured for the Debian layout; the one in an upstream
  // tarball is configured for the tarball's (bin/mariadbd, share/, lib/plugin/). Rewrite the paths
  // as that build configuration would.
  const installDb = (await readFile(join(usrBin, 'mariadb-install-db'), 'utf8'))
    .replaceAll('$basedir/sbin/mariadbd', '$basedir/bin/mariadbd')
    .replaceAll('$basedir/share/mysql', '$basedir/share')
    .replaceAll('$basedir/lib/mysql/plugin', '$basedir/lib/plugin');
  await writeFile(join(stage, 'scripts', 'mariadb-install-db'), installDb, { mode: 0o755 });
  await symlink(deb.pluginDir, join(stage, 'lib', 'plugin'));
  await symlink(deb.shareDir, join(stage, 'share'));
  tarFile = join(dir, `${TOP}.tar.gz`);
  // --dereference stores the files the links point to; gzip -1 keeps the test quick.
  await runToolChecked('tar', ['--dereference', '--use-compress-program=gzip -1', '-cf', tarFile, '-C', join(dir, 'stage'), TOP], { timeoutMs: 300_000 });
  tarSha = await sha256File(tarFile);
});
after(async () => {
  await stopAllServers();
  await rm(dir, { recursive: true, force: true });
});

test('tarball: a MariaDB-layout tarball installs, a real server starts on it, and it is cached', async () => {
  const ctx = ctxWith('cache');
  const r = await install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: tarFile, sha256: tarSha }, ctx);
  assert.equal(r.status, 'installed', r.reason ?? '');
  const root = join(ctx.cacheDir, `mariadb-${VERSION}@tarball`, 'usr');
  assert.equal(r.bin.server, join(root, 'bin', 'mariadbd'));
  assert.equal(r.bin.installDb, join(root, 'scripts', 'mariadb-install-db'));
  assert.equal(r.bin.client, join(root, 'bin', 'mariadb'));
  assert.equal(r.bin.admin, join(root, 'bin', 'mariadb-admin'));
  assert.equal(r.pluginDir, join(root, 'lib', 'plugin'));
  assert.equal(r.shareDir, join(root, 'share'));
  assert.equal(r.provider, 'tarball');
  assert.deepEqual(r.provenance.packages, [{ name: `${TOP}.tar.gz`, version: VERSION, sha256: tarSha }]);
  assert.equal(r.provenance.serverSha256, deb.provenance.serverSha256, 'the same server binary as the deb it was packed from');
  assert.match(r.provenance.serverVersionString, /Ver 10\.11\.18-MariaDB/);

  const work = await mkdtemp(join(tmpdir(), 'tb-tar-srv-'));
  try {
    const h = await startServer(r, {
      workDir: work, port: await freePort(), engine: 'innodb',
      mycnfTemplate: base.config.mycnf.innodb, mycnfName: 'innodb', mycnfOverrides: { ...base.config.hosts.local.mycnf },
      serverCpus: null, log: quiet,
    });
    const [row] = await h.query('SELECT VERSION() AS v');
    assert.match(String(row.v), /^10\.11\.18-MariaDB/);
    assert.equal((await h.stop()).expected, true);
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const again = await install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: tarFile }, ctx);
  assert.equal(again.status, 'skipped');
  await assert.rejects(install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: tarFile, sha256: 'f'.repeat(64) }, ctx),
    /already installed .* with sha256 [0-9a-f]{64}, but the sha256 given says f{64}/);
});

test('tarball: a wrong sha256 is refused, naming the file and both hashes, and nothing is installed', async () => {
  const ctx = ctxWith('cache-badsum');
  const wrong = '0123456789abcdef'.repeat(4);
  const r = await install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: tarFile, sha256: wrong }, ctx);
  assert.equal(r.status, 'failed');
  const reason = r.reason ?? '';
  assert.ok(reason.includes(tarFile), reason);
  assert.ok(reason.includes(tarSha), reason);
  assert.ok(reason.includes(wrong), reason);
  assert.equal(await exists(r.prefix), false);
  assert.deepEqual((await readdir(ctx.cacheDir)).filter((n) => n.startsWith('.work-')), []);
});

test('tarball: downloads from the product\'s urlTemplate, checked against tarball.sha256', async (t) => {
  const server = createServer((req, res) => {
    if (req.url === `/mariadb-${VERSION}/${TOP}.tar.gz`) {
      stat(tarFile).then((s) => {
        res.writeHead(200, { 'content-length': s.size });
        createReadStream(tarFile).pipe(res);
      });
    } else {
      res.writeHead(404).end('not here');
    }
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', () => res(null)));
  t.after(() => new Promise((res) => server.close(res)));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  const mariadb = base.config.products.mariadb;
  const tarballConfig = {
    urlTemplate: `http://127.0.0.1:${port}/mariadb-{version}/mariadb-{version}-linux-systemd-x86_64.tar.gz`,
    sha256: { [VERSION]: tarSha },
  };
  const config = { ...base.config, products: { ...base.config.products, mariadb: { ...mariadb, tarball: tarballConfig } } };

  const r = await install({ product: 'mariadb', version: VERSION, provider: 'tarball' }, ctxWith('cache-url', config));
  assert.equal(r.status, 'installed', r.reason ?? '');
  assert.equal(r.provenance.packages[0].sha256, tarSha);
  assert.equal(r.provenance.serverSha256, deb.provenance.serverSha256);

  const missing = await install({ product: 'mariadb', version: '10.11.17', provider: 'tarball' }, ctxWith('cache-url', config));
  assert.equal(missing.status, 'failed');
  assert.match(missing.reason ?? '', /cannot download http:\/\/127\.0\.0\.1:\d+\/mariadb-10\.11\.17\/mariadb-10\.11\.17-linux-systemd-x86_64\.tar\.gz: HTTP 404/);
});

test('tarball: no file and no urlTemplate, a missing file, and a file that is no tarball', async () => {
  const ctx = ctxWith('cache-errors');
  await assert.rejects(install({ product: 'mariadb', version: VERSION, provider: 'tarball' }, ctx), /pass the file \(--path <file\.tar\.gz>\) or set tarball\.urlTemplate in configs\/products\/mariadb\.yml/);
  await assert.rejects(install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: join(dir, 'nope.tar.gz') }, ctx), /nope\.tar\.gz: no such file/);
  await assert.rejects(install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: tarFile, sha256: 'xyz' }, ctx), /sha256 'xyz' is not 64 hex digits/);
  const junk = join(dir, 'junk.tar.gz');
  await writeFile(junk, 'this is not a tarball\n');
  const r = await install({ product: 'mariadb', version: VERSION, provider: 'tarball', path: junk }, ctx);
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /unpacking .*junk\.tar\.gz failed/);
  assert.equal(await exists(r.prefix), false);
});

/** @returns {Promise<number>} a TCP port the OS says is free now */
async function freePort() {
  const srv = createServer();
  await new Promise((res) => srv.listen(0, '127.0.0.1', () => res(null)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
  await new Promise((res) => srv.close(res));
  return port;
}
