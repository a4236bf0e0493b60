// `tagbench install` through the real CLI entry: JSON on stdout, progress on stderr, exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runTool } from '../../scripts/install/run-tool.js';
import { installRelease } from '../../scripts/install/index.js';
import { ROOT, testCacheDir, testContext } from './helpers.js';

const cli = join(ROOT, 'scripts', 'cli.js');
const cacheDir = testCacheDir();

test('install --json prints the InstallResult; a cached release is skipped', async () => {
  await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, await testContext());
  const res = await runTool(process.execPath, [cli, 'install', 'mariadb', '10.11.18', '--json', '--cache-dir', cacheDir]);
  assert.equal(res.code, 0, res.stderr);
  const r = JSON.parse(res.stdout);
  assert.equal(r.status, 'skipped');
  // Its own keyed folder, or the one an older tagbench made, read in place (install-cache.js).
  assert.ok([join(cacheDir, 'mariadb-10.11.18@deb'), join(cacheDir, 'mariadb-10.11.18')].includes(r.prefix), r.prefix);
  assert.deepEqual(Object.keys(r).sort(), ['bin', 'env', 'flavor', 'pluginDir', 'prefix', 'product', 'provenance', 'provider', 'shareDir', 'status', 'version']);
  assert.match(res.stderr, /already installed/);
});

test('install --list shows configured versions and which are cached', async () => {
  const res = await runTool(process.execPath, [cli, 'install', '--list', 'mariadb', '--json', '--cache-dir', cacheDir]);
  assert.equal(res.code, 0, res.stderr);
  const rows = JSON.parse(res.stdout);
  const row = rows.find((/** @type {{version: string}} */ x) => x.version === '10.11.18');
  assert.equal(row.suite, 'bookworm');
  assert.equal(row.cached, true);
  const text = await runTool(process.execPath, [cli, 'install', '--list', 'mysql', '--cache-dir', cacheDir]);
  assert.match(text.stdout, /9\.7\.4\s+sid/);
});

test('an unknown version exits 1 with the available versions on stderr', async () => {
  const res = await runTool(process.execPath, [cli, 'install', 'mysql', '1.2.3', '--cache-dir', cacheDir]);
  assert.equal(res.code, 1);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /unknown version '1\.2\.3' of mysql.*available: 9\.7\.4 \(sid\)/);
});

test('install --list --suite asks Debian what the suite offers', async () => {
  await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, await testContext());
  const res = await runTool(process.execPath, [cli, 'install', '--list', 'mariadb', '--suite', 'bookworm', '--json', '--cache-dir', cacheDir]);
  assert.equal(res.code, 0, res.stderr);
  /** @type {{version: string, suite: string, packageVersion: string, cached: boolean}[]} */
  const rows = JSON.parse(res.stdout);
  const cfg = (await testContext()).config.products.mariadb.deb ?? {};
  for (const v of ['10.11.18', '10.11.19']) {
    const row = rows.find((r) => r.version === v);
    assert.ok(row, `${v} is offered by bookworm`);
    assert.equal(row.packageVersion, cfg[v].packageVersion);
    assert.equal(row.suite, cfg[v].suite);
  }
});
