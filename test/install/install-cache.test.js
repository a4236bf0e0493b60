// The cache's commit rules, on real folders: a prefix without its marker is never reused,
// the rename is the commit, and the first finished install wins a race.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, readdir, rm, access, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitPrefix, readCachedResult, prefixPathFor, makeWorkDir, MARKER } from '../../scripts/install/install-cache.js';
import { UserError } from '../../scripts/errors.js';

/**
 * A built prefix with a tiny stand-in server file, and the result describing it.
 * @param {string} workDir
 * @param {string} finalPrefix
 * @param {string} content
 */
async function builtPrefix(workDir, finalPrefix, content) {
  const dir = join(workDir, 'prefix');
  await mkdir(join(dir, 'usr', 'sbin'), { recursive: true });
  await writeFile(join(dir, 'usr', 'sbin', 'mariadbd'), content);
  /** @type {import('../../scripts/types.js').InstallResult} */
  const result = {
    status: 'installed', product: 'mariadb', flavor: 'mariadb', version: '10.11.18', provider: 'deb', prefix: finalPrefix,
    bin: { server: join(finalPrefix, 'usr', 'sbin', 'mariadbd'), installDb: null, client: '', admin: '' },
    pluginDir: '', shareDir: '', env: {},
    provenance: { product: 'mariadb', version: '10.11.18', provider: 'deb', debianSuite: 'bookworm', packages: [], serverSha256: content, serverVersionString: '', tag: null, commit: null, buildProfile: null, buildFlags: null, patchedElf: [] },
  };
  return { dir, result };
}

test('a half-done prefix (no marker) is not reused and gets replaced', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'tb-install-cache-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  const final = prefixPathFor(cache, 'mariadb', '10.11.18');
  await mkdir(join(final, 'usr', 'sbin'), { recursive: true });
  await writeFile(join(final, 'usr', 'sbin', 'mariadbd'), 'half');
  assert.equal(await readCachedResult(final), null);

  const work = await makeWorkDir(cache, 'mariadb-10.11.18');
  const built = await builtPrefix(work, final, 'complete');
  const res = await commitPrefix(built.dir, final, built.result);
  assert.equal(res.won, true);
  const cached = await readCachedResult(final);
  assert.equal(cached?.provenance.serverSha256, 'complete');
  assert.deepEqual((await readdir(cache)).filter((n) => n.includes('.trash-')), [], 'the old folder is gone');
});

test('a race: the first committed prefix wins, the second is dropped', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'tb-install-cache-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  const final = prefixPathFor(cache, 'mariadb', '10.11.18');
  const a = await builtPrefix(await makeWorkDir(cache, 'x'), final, 'first');
  const b = await builtPrefix(await makeWorkDir(cache, 'x'), final, 'second');
  assert.equal((await commitPrefix(a.dir, final, a.result)).won, true);
  const second = await commitPrefix(b.dir, final, b.result);
  assert.equal(second.won, false);
  assert.equal(second.result.provenance.serverSha256, 'first');
  await assert.rejects(access(b.dir), /ENOENT/);
});

test('a marker whose server binary changed size is not trusted', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'tb-install-cache-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  const final = prefixPathFor(cache, 'mariadb', '10.11.18');
  const a = await builtPrefix(await makeWorkDir(cache, 'x'), final, 'first');
  await commitPrefix(a.dir, final, a.result);
  await access(join(final, MARKER));
  await writeFile(a.result.bin.server, 'truncated!!!');
  assert.equal(await readCachedResult(final), null);
});

test('names that would escape the cache folder are refused', () => {
  assert.throws(() => prefixPathFor('/c', 'mariadb', '../../etc'), UserError);
  assert.throws(() => prefixPathFor('/c', 'a/b', '1.0'), UserError);
});

test('work folders of killed installs are removed once they are old', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'tb-install-cache-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  const old = await makeWorkDir(cache, 'mariadb-10.11.18');
  const past = new Date(Date.now() - 7 * 3600 * 1000);
  await utimes(old, past, past);
  const fresh = await makeWorkDir(cache, 'mariadb-10.11.18');
  const now = await makeWorkDir(cache, 'mysql-9.7.4');
  const names = await readdir(cache);
  assert.ok(!names.includes(old.slice(cache.length + 1)), 'the old work folder is gone');
  assert.ok(names.includes(fresh.slice(cache.length + 1)) && names.includes(now.slice(cache.length + 1)), 'recent ones stay');
});
