/**
 * Install stage: put a release on this machine and describe it (InstallResult) for the server
 * lifecycle. Other stages import only this file.
 */
import { UserError } from '../errors.js';
import { getProvider } from './registry.js';

export { listAvailable } from './products.js';
export { auditInstallCache, findCachedInstall, COMMIT_RE } from './install-cache.js';
export { evictAdHocBuilds, AD_HOC_BUILDS_KEPT } from './evict-ad-hoc-builds.js';
export { providerNames } from './registry.js';
export { resolveRefRun, resolveRefCommit, redactRepository, parseGitRef, isCommitVersion, REF_CACHE_DIR } from './source/resolve-ref.js';
/** @typedef {import('./source/resolve-ref.js').ResolvedRefRun} ResolvedRefRun a ref run's candidate and base, resolved with git */
/** @typedef {import('./source/resolve-ref.js').RefSide} RefSide one side of a ref run */

/**
 * Install (or find in the cache) one release: pick the provider, check the spec against it, install.
 * @param {import('./types.js').InstallSpec} spec product, version, provider (see registry.js), and the provider's options (path, suite, ref, profile, jobs, url, sha256)
 * @param {import('./types.js').InstallContext} ctx config, cacheDir (absolute), log
 * @returns {Promise<import('../types.js').InstallResult>} status installed / skipped (cached) / failed (with reason)
 * @throws {UserError} for an unknown provider, product or version, or options the provider rejects
 */
export async function installRelease(spec, ctx) {
  const provider = getProvider(spec.provider);
  const problems = provider.validateOptions(spec);
  if (problems.length) {
    throw new UserError(`cannot install ${spec.product} ${spec.version} with provider '${provider.name}':\n  - ${problems.join('\n  - ')}`);
  }
  return provider.install(spec, ctx);
}
