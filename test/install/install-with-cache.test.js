// The skeleton the caching providers share, on real folders with a stand-in server binary (the
// cache only checksums it): the order of its steps, what a failed build records, that a bug is
// thrown rather than recorded, and that the work folder is gone afterwards, also after a Ctrl-C
// that ends the process. The providers' own tests run it with real builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installWithCache } from '../../scripts/install/install-with-cache.js';
import { makeCacheKey } from '../../scripts/install/install-cache.js';
import { UserError } from '../../scripts/errors.js';

const KEY = makeCacheKey({ product: 'mariadb', version: '10.11.18', provider: 'tarball' });
/** @type {import('../../scripts/install/types.js').InstallSpec} */
const SPEC = { product: 'mariadb', version: '10.11.18', provider: 'tarball' };
const SKELETON = fileURLToPath(new URL('../../scripts/install/install-with-cache.js', import.meta.url));
const INSTALL_CACHE = fileURLToPath(new URL('../../scripts/install/install-cache.js', import.meta.url));

/** @param {import('node:test').TestContext} t */
async function tempCache(t) {
  const cache = await mkdtemp(join(tmpdir(), 'tb-install-with-cache-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  return cache;
}

/**
 * A build step that makes a prefix whose server binary is a small file, and its result.
 * @param {import('../../scripts/install/install-with-cache.js').WorkFolder<unknown>} work
 */
async function fakeBuild(work) {
  const dir = join(work.workDir, 'prefix');
  await mkdir(join(dir, 'usr', 'sbin'), { recursive: true });
  await writeFile(join(dir, 'usr', 'sbin', 'mariadbd'), 'server');
  /** @type {import('../../scripts/types.js').InstallResult} */
  const result = {
    status: 'installed', product: KEY.product, flavor: 'mariadb', version: KEY.version, provider: KEY.provider, prefix: work.finalPrefix,
    bin: { server: join(work.finalPrefix, 'usr', 'sbin', 'mariadbd'), installDb: null, client: '', admin: '' },
    pluginDir: '', shareDir: '', env: {},
    provenance: {
      product: KEY.product, version: KEY.version, provider: KEY.provider, debianSuite: null, packages: [],
      serverSha256: createHash('sha256').update('server').digest('hex'), serverVersionString: '', tag: null, commit: null,
      buildProfile: null, buildFlags: null, patchedElf: [],
    },
  };
  return { builtDir: dir, result };
}

/** @param {string} cache @returns {Promise<string[]>} work folders left in the cache */
const workFolders = async (cache) => (await readdir(cache)).filter((n) => n.startsWith('.work-'));

test('a build is prepared, committed and logged; the next install of the key is a cache hit that neither prepares nor builds', async (t) => {
  const cache = await tempCache(t);
  /** @type {string[]} */
  const calls = [];
  /** @type {string[]} */
  const lines = [];
  const steps = {
    provider: 'tarball', product: { flavor: /** @type {const} */ ('mariadb') }, key: KEY,
    checkCached: () => { calls.push('checkCached'); return ' (same tarball)'; },
    prepare: async () => { calls.push('prepare'); return 42; },
    build: async (/** @type {import('../../scripts/install/install-with-cache.js').WorkFolder<number>} */ work) => {
      calls.push(`build ${work.prepared}`);
      return fakeBuild(work);
    },
    describeFailure: async () => ({ summary: '' }),
  };
  const ctx = { config: /** @type {any} */ ({}), cacheDir: cache, log: (/** @type {string} */ m) => lines.push(m) };

  const first = await installWithCache(SPEC, ctx, steps);
  assert.equal(first.status, 'installed');
  assert.deepEqual(calls, ['prepare', 'build 42']);
  assert.match(lines.at(-1) ?? '', /^mariadb 10\.11\.18: installed in .*mariadb-10\.11\.18@tarball \(\d+\.\d s\)$/);
  assert.deepEqual(await workFolders(cache), []);

  const second = await installWithCache(SPEC, ctx, steps);
  assert.equal(second.status, 'skipped');
  assert.equal(second.bin.server, first.bin.server);
  assert.deepEqual(calls, ['prepare', 'build 42', 'checkCached']);
  assert.match(lines.at(-1) ?? '', /^mariadb 10\.11\.18: already installed in .*@tarball \(same tarball\)$/);
});

test('a UserError from the build is a failed result with what the provider learned; an error of prepare is thrown', async (t) => {
  const cache = await tempCache(t);
  /** @type {string[]} */
  const lines = [];
  const ctx = { config: /** @type {any} */ ({}), cacheDir: cache, log: (/** @type {string} */ m) => lines.push(m) };
  const failed = await installWithCache(SPEC, ctx, {
    provider: 'tarball', product: { flavor: 'mariadb' }, key: KEY,
    prepare: async () => 'prepared',
    build: async () => { throw new UserError('the tarball does not unpack\nsecond line'); },
    describeFailure: async (err, work) => ({
      summary: `: ${err.message.split('\n')[0]} (${work.prepared})`,
      debianSuite: 'bookworm',
      provenance: { packages: [{ name: 'x.tar.gz', version: '10.11.18', sha256: 'ab' }] },
    }),
  });
  assert.equal(failed.status, 'failed');
  assert.equal(failed.reason, 'the tarball does not unpack\nsecond line');
  assert.equal(failed.provider, 'tarball');
  assert.equal(failed.provenance.debianSuite, 'bookworm');
  assert.deepEqual(failed.provenance.packages, [{ name: 'x.tar.gz', version: '10.11.18', sha256: 'ab' }]);
  assert.equal(lines.at(-1), 'mariadb 10.11.18: FAILED: the tarball does not unpack (prepared)');
  assert.deepEqual(await workFolders(cache), []);
  assert.deepEqual((await readdir(cache)).filter((n) => !n.startsWith('.')), [], 'nothing is committed');

  await assert.rejects(installWithCache(SPEC, ctx, {
    provider: 'tarball', product: { flavor: 'mariadb' }, key: KEY,
    prepare: async () => { throw new UserError('cmake is not installed'); },
    build: fakeBuild,
    describeFailure: async () => ({ summary: '' }),
  }), /cmake is not installed/);
});

test('an error that is not a UserError is a bug: thrown, not recorded, and the work folder is removed', async (t) => {
  const cache = await tempCache(t);
  await assert.rejects(installWithCache(SPEC, { config: /** @type {any} */ ({}), cacheDir: cache }, {
    provider: 'tarball', product: { flavor: 'mariadb' }, key: KEY,
    prepare: async () => {},
    build: async () => { throw new TypeError('a bug'); },
    describeFailure: async () => assert.fail('a bug is not described as a failed install'),
  }), TypeError);
  assert.deepEqual(await workFolders(cache), []);
});

/**
 * Run a build that waits in a child process, send it SIGINT once its work folder exists.
 * @param {string} cache
 * @param {boolean} ownHandler whether the child handles SIGINT itself (as run, bisect, calibrate do)
 * @returns {Promise<{code: number|null, signal: string|null, stderr: string}>}
 */
function interruptBuild(cache, ownHandler) {
  const script = `
    import { installWithCache } from ${JSON.stringify(SKELETON)};
    import { makeCacheKey } from ${JSON.stringify(INSTALL_CACHE)};
    ${ownHandler ? "process.on('SIGINT', () => console.error('own handler'));" : ''}
    const key = makeCacheKey({ product: 'mariadb', version: '10.11.18', provider: 'tarball' });
    await installWithCache({ product: 'mariadb', version: '10.11.18', provider: 'tarball' }, { config: {}, cacheDir: ${JSON.stringify(cache)} }, {
      provider: 'tarball', product: { flavor: 'mariadb' }, key, prepare: async () => {},
      build: async () => { console.error('building'); await new Promise((r) => setTimeout(r, 1500)); throw new Error('build ended'); },
      describeFailure: async () => ({ summary: '' }),
    }).catch((err) => console.error(err.message));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes('building') && !child.killed) child.kill('SIGINT');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

test('Ctrl-C during a build removes the work folder and ends the process as the signal would', async (t) => {
  const cache = await tempCache(t);
  const res = await interruptBuild(cache, false);
  assert.equal(res.signal, 'SIGINT', `the process ends by SIGINT (stderr: ${res.stderr})`);
  assert.doesNotMatch(res.stderr, /build ended/, 'the build does not go on');
  assert.deepEqual(await workFolders(cache), []);
});

test('a process that handles Ctrl-C itself keeps its build: the folder goes when the build ends', async (t) => {
  const cache = await tempCache(t);
  const res = await interruptBuild(cache, true);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stderr, /own handler[\s\S]*build ended/);
  assert.deepEqual(await workFolders(cache), []);
});
