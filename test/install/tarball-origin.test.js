// Where a tarball comes from and which checksum it must have: --path, an explicit URL, or the
// product's urlTemplate; the sha256 from the spec or tarball.sha256.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderUrlTemplate, resolveTarballOrigin } from '../../scripts/install/tarball/tarball-origin.js';
import { testContext } from './helpers.js';

const { config } = await testContext();
const SUM = 'ab'.repeat(32);
const mysql = {
  .../** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (config.products.mysql),
  tarball: { urlTemplate: 'https://example.invalid/mysql-{major}.{minor}/mysql-{version}-linux-glibc2.28-x86_64.tar.xz', sha256: { '8.4.3': SUM } },
};

test('tarball origin: the urlTemplate with the version parts, and the configured checksum', () => {
  const o = resolveTarballOrigin(mysql, { product: 'mysql', version: '8.4.3', provider: 'tarball' });
  assert.equal(o.url, 'https://example.invalid/mysql-8.4/mysql-8.4.3-linux-glibc2.28-x86_64.tar.xz');
  assert.equal(o.file, null);
  assert.equal(o.name, 'mysql-8.4.3-linux-glibc2.28-x86_64.tar.xz');
  assert.equal(o.sha256, SUM);
  assert.match(o.sha256From, /tarball\.sha256\."8\.4\.3" in configs\/products\/mysql\.yml/);
});

test('tarball origin: --path and an explicit checksum win; file URLs are local files', () => {
  const o = resolveTarballOrigin(mysql, { product: 'mysql', version: '8.4.3', provider: 'tarball', path: '/tmp/m.tar.xz', sha256: SUM.toUpperCase() });
  assert.deepEqual([o.file, o.url, o.name, o.sha256, o.sha256From], ['/tmp/m.tar.xz', null, 'm.tar.xz', SUM, 'the sha256 given']);
  const f = resolveTarballOrigin(mysql, { product: 'mysql', version: '9.1.0', provider: 'tarball', url: 'file:///srv/t/mysql-9.1.0.tar.xz' });
  assert.deepEqual([f.file, f.url, f.sha256], ['/srv/t/mysql-9.1.0.tar.xz', null, null]);
});

test('tarball origin: percona versions, unknown placeholders, no source at all', () => {
  assert.equal(renderUrlTemplate('x/{major}.{minor}/{version}/{patch}', '8.0.39-30', 'k'), 'x/8.0/8.0.39-30/39');
  assert.throws(() => renderUrlTemplate('x/{release}', '8.0.1', 'tarball.urlTemplate in f.yml'), /tarball\.urlTemplate in f\.yml: unknown placeholder \{release\}; known: \{version\}, \{major\}, \{minor\}, \{patch\}/);
  const none = /** @type {import('../../scripts/install/types.js').InstallProductConfig} */ (config.products.mariadb);
  assert.throws(() => resolveTarballOrigin(none, { product: 'mariadb', version: '10.11.18', provider: 'tarball' }), /pass the file \(--path <file\.tar\.gz>\) or set tarball\.urlTemplate/);
  assert.throws(() => resolveTarballOrigin(mysql, { product: 'mysql', version: '8.4.3', provider: 'tarball', url: 'ftp://x/y.tar.xz' }), /must start with https:\/\/, http:\/\/ or file:\/\//);
});
