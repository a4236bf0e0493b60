/**
 * Look a release up in the install cache, whatever provider put it there. Lets `tagbench run`
 * benchmark a release that an earlier `tagbench install --provider source|tarball|path` step
 * prepared (the benchmark workflow installs in one job and runs in the next).
 */
import { prefixPathFor, readCachedResult } from './install-cache.js';

/**
 * @param {string} cacheDir install cache
 * @param {string} product
 * @param {string} version
 * @returns {Promise<import('../types.js').InstallResult|null>} the cached install (status
 *   'skipped'), or null when it is not in the cache or the cache entry is incomplete
 */
export async function findCachedInstall(cacheDir, product, version) {
  const result = await readCachedResult(prefixPathFor(cacheDir, product, version));
  return result ? { ...result, status: 'skipped' } : null;
}
