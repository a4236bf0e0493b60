// Ad-hoc builds (a pull request's head and merge base, a branch: source builds keyed by a ref)
// leave the install cache beyond the newest few, on real cache folders made the way a provider
// makes them (makeWorkDir, commitPrefix); release builds and the current run's commits stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, writeFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { commitPrefix, prefixPathFor, makeCacheKey, makeWorkDir, lookupInstall } from '../../scripts/install/install-cache.js';
import { evictAdHocBuilds, AD_HOC_BUILDS_KEPT } from '../../scripts/install/evict-ad-hoc-builds.js';

/**
 * Install `key` into the cache as a provider does: a built prefix with a server binary, its
 * marker written and the folder renamed into place.
 * @param {string} cache
 * @param {import('../../scripts/install/types.js').CacheKey} key
 */
async function install(cache, key) {
  const final = prefixPathFor(cache, key);
  const work = await makeWorkDir(cache, `${key.product}-${key.version}`);
  const dir = join(work, 'prefix');
  await mkdir(join(dir, 'usr', 'sbin'), { recursive: true });
  const content = JSON.stringify(key);
  await writeFile(join(dir, 'usr', 'sbin', 'mariadbd'), content);
  /** @type {import('../../scripts/types.js').InstallResult} */
  const result = {
    status: 'installed', product: key.product, flavor: 'mariadb', version: key.version, provider: key.provider, prefix: final,
    bin: { server: join(final, 'usr', 'sbin', 'mariadbd'), installDb: null, client: '', admin: '' }, pluginDir: '', shareDir: '', env: {},
    provenance: {
      product: key.product, version: key.version, provider: key.provider, debianSuite: null, packages: [],
      serverSha256: createHash('sha256').update(content).digest('hex'), serverVersionString: '', tag: null, commit: key.commit,
      buildProfile: key.profile, buildFlags: null, patchedElf: [],
    },
  };
  await commitPrefix(dir, final, result, key);
  await rm(work, { recursive: true, force: true });
  // installedAt is the clock's: a few ms apart, so "newest" is the install order.
  await sleep(5);
  return final;
}

const commit = (/** @type {number} */ n) => String(n).repeat(40).slice(0, 40);
const adHoc = (/** @type {number} */ n) => makeCacheKey({ product: 'mariadb', version: `10.11.18+${commit(n).slice(0, 12)}`, provider: 'source', profile: 'release', ref: commit(n), commit: commit(n) });

test('the newest ad-hoc builds stay (the run\'s own counted among them), older ones leave; release builds never do', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'tb-evict-'));
  t.after(() => rm(cache, { recursive: true, force: true }));
  const releases = [
    await install(cache, makeCacheKey({ product: 'mariadb', version: '10.11.18', provider: 'deb' })),
    await install(cache, makeCacheKey({ product: 'mariadb', version: '10.11.18', provider: 'source', profile: 'release', commit: commit(9) })),
  ];
  /** @type {string[]} */
  const builds = [];
  for (const n of [1, 2, 3, 4, 5, 6]) builds.push(await install(cache, adHoc(n)));
  // This run needs commit 6 (installed) and 7 (not built yet): two of the four places.
  const evicted = await evictAdHocBuilds(cache, { keep: 4, keepCommits: [commit(6), commit(7)] });
  assert.deepEqual(evicted, builds.slice(0, 3), 'the three oldest, oldest first');
  const left = (await readdir(cache)).filter((n) => !n.startsWith('.')).sort();
  assert.deepEqual(left, [...releases, ...builds.slice(3)].map((p) => p.slice(cache.length + 1)).sort(), 'no trash left behind');
  assert.ok(await lookupInstall(cache, adHoc(5)), 'a kept build is still served');
  assert.equal(await lookupInstall(cache, adHoc(1)), null, 'an evicted one is built again when asked for');
  assert.deepEqual(await evictAdHocBuilds(cache, { keep: 4, keepCommits: [commit(6), commit(7)] }), [], 'nothing more to evict');
  assert.equal(AD_HOC_BUILDS_KEPT, 4);
  assert.deepEqual(await evictAdHocBuilds(join(cache, 'missing')), [], 'no cache, nothing to do');
});
