// Bad input is refused before any download, with messages that say what is valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installRelease, listAvailable } from '../../scripts/install/index.js';
import { getProvider } from '../../scripts/install/registry.js';
import { UserError } from '../../scripts/errors.js';
import { testContext } from './helpers.js';

const ctx = await testContext();

test('unknown version: the error lists every configured version and says where to add one', async () => {
  const err = await installRelease({ product: 'mariadb', version: '10.11.999', provider: 'deb' }, ctx).catch((e) => e);
  assert.ok(err instanceof UserError);
  for (const row of listAvailable(ctx.config, 'mariadb')) assert.ok(err.message.includes(`${row.version} (${row.suite})`), `${row.version} listed`);
  assert.match(err.message, /10\.11\.999/);
  assert.match(err.message, /configs\/products\/mariadb\.yml/);
});

test('unknown provider: the known ones come from the registry', async () => {
  const err = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'rpm' }, ctx).catch((e) => e);
  assert.ok(err instanceof UserError);
  assert.equal(err.message, "unknown provider 'rpm'; known: deb, path, source, tarball");
  assert.equal(getProvider('deb').name, 'deb');
  assert.throws(() => getProvider('toString'), /unknown provider 'toString'/);
});

test('unknown product names the configured ones', async () => {
  const err = await installRelease({ product: 'percona', version: '8.0.36', provider: 'deb' }, ctx).catch((e) => e);
  assert.ok(err instanceof UserError);
  assert.match(err.message, /unknown product 'percona'; known: .*mariadb.*mysql/);
  assert.throws(() => listAvailable(ctx.config, 'percona'), UserError);
});

test('options that do not fit the provider are refused', async () => {
  await assert.rejects(installRelease({ product: 'mariadb', version: '10.11.18', provider: 'path' }, ctx), /needs --path/);
  await assert.rejects(installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb', path: '/opt/x' }, ctx), /--path is for the path provider/);
  await assert.rejects(installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb', suite: 'Bookworm; rm' }, ctx), /not a Debian suite name/);
});

test('listAvailable: configured versions, oldest first, with their suites', () => {
  const rows = listAvailable(ctx.config, 'mariadb');
  const versions = rows.map((r) => r.version);
  assert.deepEqual(versions, Object.keys(ctx.config.products.mariadb.deb ?? {}).sort((a, b) => {
    const pa = a.split('.').map(Number); const pb = b.split('.').map(Number);
    return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
  }));
  for (const r of rows) assert.equal(r.suite, ctx.config.products.mariadb.deb?.[r.version].suite);
});

test('--suite that differs from the cached install is refused, not silently ignored', async () => {
  const r = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, ctx);
  assert.notEqual(r.status, 'failed');
  await assert.rejects(installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb', suite: 'trixie' }, ctx), /already installed .* from Debian bookworm, not trixie/);
  const same = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb', suite: 'bookworm' }, ctx);
  assert.equal(same.status, 'skipped');
});
