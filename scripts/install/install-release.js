/**
 * The install stage's entry: pick the provider, check the spec against it, install.
 */
import { UserError } from '../errors.js';
import { getProvider } from './registry.js';

/**
 * Install (or find in the cache) one release.
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
