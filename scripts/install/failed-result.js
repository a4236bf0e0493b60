/**
 * The InstallResult of an install that was attempted and did not work (download failed, the
 * binary does not run on this host...). The pipeline records it and goes on with other releases.
 */

/**
 * @param {object} what
 * @param {import('../types.js').ReleaseSpec} what.spec
 * @param {'mariadb'|'mysql'} what.flavor
 * @param {string} what.prefix where the release would have been installed
 * @param {string|null} what.debianSuite
 * @param {string} what.reason what went wrong, and what to do
 * @returns {import('../types.js').InstallResult}
 */
export function failedResult({ spec, flavor, prefix, debianSuite, reason }) {
  return {
    status: 'failed',
    product: spec.product,
    flavor,
    version: spec.version,
    provider: spec.provider,
    prefix,
    bin: { server: '', installDb: null, client: '', admin: '' },
    pluginDir: '',
    shareDir: '',
    env: {},
    provenance: {
      product: spec.product,
      version: spec.version,
      provider: spec.provider,
      debianSuite,
      packages: [],
      serverSha256: '',
      serverVersionString: '',
      tag: null,
      commit: null,
      buildProfile: null,
      buildFlags: null,
      patchedElf: [],
    },
    reason,
  };
}
