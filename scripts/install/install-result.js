/**
 * The InstallResult of a release checked in its work folder, with every path moved to where the
 * folder will be renamed to. One builder for every provider, so a field added to InstallResult
 * or Provenance is filled the same way everywhere.
 */
import { join, relative } from 'node:path';
import { sha256File } from './provenance.js';

/**
 * @param {object} a
 * @param {string} a.builtDir the work folder that becomes finalPrefix
 * @param {string} a.finalPrefix
 * @param {NonNullable<Awaited<ReturnType<typeof import('./prefix-layout.js').detectLayout>>>} a.layout detected in builtDir
 * @param {{name: string}} a.product
 * @param {string} a.version
 * @param {'mariadb'|'mysql'} a.flavor
 * @param {string} a.provider
 * @param {Record<string, string>} a.env
 * @param {string} a.versionLine what the server printed for --version
 * @param {Partial<import('../types.js').Provenance>} a.provenance provider-specific provenance fields
 * @returns {Promise<import('../types.js').InstallResult>} status 'installed'
 */
export async function buildInstallResult({ builtDir, finalPrefix, layout, product, version, flavor, provider, env, versionLine, provenance }) {
  const toFinal = (/** @type {string} */ p) => join(finalPrefix, relative(builtDir, p));
  return {
    status: 'installed',
    product: product.name,
    flavor,
    version,
    provider,
    prefix: finalPrefix,
    bin: {
      server: toFinal(layout.bin.server),
      installDb: layout.bin.installDb ? toFinal(layout.bin.installDb) : null,
      client: toFinal(layout.bin.client),
      admin: toFinal(layout.bin.admin),
    },
    pluginDir: toFinal(layout.pluginDir),
    shareDir: toFinal(layout.shareDir),
    env,
    provenance: {
      product: product.name,
      version,
      provider,
      debianSuite: null,
      packages: [],
      serverSha256: await sha256File(layout.bin.server),
      serverVersionString: versionLine,
      tag: null,
      commit: null,
      buildProfile: null,
      buildFlags: null,
      patchedElf: [],
      ...provenance,
    },
  };
}
