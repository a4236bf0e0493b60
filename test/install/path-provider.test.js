// The path provider describes a prefix that is already on disk: a deb-provider prefix (Debian
// layout), a tarball-style layout (bin/, share/, lib/plugin), and refuses folders without a server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installRelease } from '../../scripts/install/index.js';
import { UserError } from '../../scripts/errors.js';
import { testContext } from './helpers.js';

const ctx = await testContext();

test('path: a prefix made by the deb provider keeps its provenance', async () => {
  const deb = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, ctx);
  assert.notEqual(deb.status, 'failed');
  const r = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'path', path: deb.prefix }, ctx);
  assert.equal(r.provider, 'path');
  assert.equal(r.flavor, 'mariadb');
  assert.deepEqual(r.bin, deb.bin);
  assert.equal(r.pluginDir, deb.pluginDir);
  assert.equal(r.shareDir, deb.shareDir);
  assert.equal(r.provenance.serverSha256, deb.provenance.serverSha256);
  assert.equal(r.provenance.serverVersionString, deb.provenance.serverVersionString);
  assert.deepEqual(r.provenance.packages, deb.provenance.packages);
});

test('path: tarball layout (bin/, share/, lib/plugin) and a version check', async (t) => {
  const deb = await installRelease({ product: 'mysql', version: '9.7.4', provider: 'deb' }, ctx);
  assert.notEqual(deb.status, 'failed');
  const dir = await mkdtemp(join(tmpdir(), 'tb-path-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'bin'));
  await mkdir(join(dir, 'lib'));
  for (const [name, target] of [['mysqld', deb.bin.server], ['mysql', deb.bin.client], ['mysqladmin', deb.bin.admin]]) await symlink(target, join(dir, 'bin', name));
  await symlink(deb.pluginDir, join(dir, 'lib', 'plugin'));
  await symlink(deb.shareDir, join(dir, 'share'));

  const r = await installRelease({ product: 'mysql', version: '9.7.4', provider: 'path', path: dir }, ctx);
  assert.equal(r.flavor, 'mysql');
  assert.equal(r.bin.server, join(dir, 'bin', 'mysqld'));
  assert.equal(r.bin.installDb, null);
  assert.equal(r.pluginDir, join(dir, 'lib', 'plugin'));
  assert.equal(r.shareDir, join(dir, 'share'));
  assert.equal(r.provenance.serverSha256, deb.provenance.serverSha256);
  assert.match(r.provenance.serverVersionString, /Ver 9\.7\.4/);

  await assert.rejects(installRelease({ product: 'mysql', version: '8.4.3', provider: 'path', path: dir }, ctx), /holds mysql 9\.7\.4.*not mysql 8\.4\.3/);
  await assert.rejects(installRelease({ product: 'mariadb', version: '9.7.4', provider: 'path', path: dir }, ctx), /flavor mariadb/);
});

test('path: a folder without a server binary, and a missing folder', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tb-path-bad-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'usr', 'sbin'), { recursive: true });
  await writeFile(join(dir, 'usr', 'sbin', 'README'), 'not a server');
  const err = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'path', path: dir }, ctx).catch((e) => e);
  assert.ok(err instanceof UserError);
  assert.match(err.message, /no server binary found/);
  assert.ok(err.message.includes(dir));
  await assert.rejects(installRelease({ product: 'mariadb', version: '10.11.18', provider: 'path', path: join(dir, 'nope') }, ctx), /no such folder/);
});
