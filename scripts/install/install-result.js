/**
 * The InstallResult of every provider, built in one place so that a field added to InstallResult
 * or Provenance is filled the same way everywhere: a release checked in its work folder
 * (installed), or an install that did not work (failed).
 */
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { detectLayout } from './prefix-layout.js';
import { flavorOfVersionLine, readServerVersion, sha256File, versionOfVersionLine } from './provenance.js';

/**
 * The InstallResult of a release checked in its work folder, with every path moved to where the
 * folder will be renamed to.
 * @param {object} a
 * @param {string} a.builtDir the work folder that becomes finalPrefix
 * @param {string} a.finalPrefix
 * @param {NonNullable<Awaited<ReturnType<typeof import('./prefix-layout.js').detectLayout>>>} a.layout detected in builtDir
 * @param {{name: string}} a.product
 * @param {string} a.version
 * @param {import('../config/index.js').FlavorName} a.flavor
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

/**
 * Check a release that was built or unpacked into a work folder and describe it as an
 * InstallResult with its final paths: the layout is complete, the server runs, and it is the
 * product and version that was asked for. Shared by the source and tarball providers (the deb
 * provider has its own, with library checks for foreign Debian suites).
 * @param {object} a
 * @param {string} a.builtDir the work folder that will become finalPrefix
 * @param {string} a.finalPrefix
 * @param {import('./types.js').InstallProductConfig} a.product
 * @param {string} a.version upstream version asked for
 * @param {'source'|'tarball'} a.provider
 * @param {string} a.origin what was installed, for messages (`tag mariadb-10.11.19`, `mariadb-10.11.18-linux-systemd-x86_64.tar.gz`)
 * @param {Partial<import('./types.js').InstallProvenance>} a.provenance provider-specific provenance fields
 * @param {(msg: string) => void} a.log
 * @returns {Promise<import('../types.js').InstallResult>} status 'installed', with final paths
 * @throws {UserError} incomplete layout, a server that does not run, another flavor or version
 */
export async function describePrefix({ builtDir, finalPrefix, product, version, provider, origin, provenance, log }) {
  const layout = await detectLayout(builtDir);
  if (!layout) throw new UserError(`${origin} holds no server binary (looked for mariadbd and mysqld in sbin/, bin/, libexec/ under usr/ and the top folder)`);
  if (layout.missing.length) throw new UserError(`${origin} lacks ${layout.missing.join(', ')} (found the server at ${relative(builtDir, layout.bin.server)})`);
  const toFinal = (/** @type {string} */ p) => join(finalPrefix, relative(builtDir, p));

  const versionLine = await readServerVersion({ cmd: layout.bin.server, args: ['--version'], env: {}, argv0: toFinal(layout.bin.server) });
  const flavor = flavorOfVersionLine(versionLine);
  const configFile = `configs/products/${product.name}.yml`;
  if (flavor !== product.flavor) throw new UserError(`${configFile} says flavor ${product.flavor} but the server of ${origin} says: ${versionLine}`);
  const found = versionOfVersionLine(versionLine);
  // Percona versions carry a build number (8.0.39-30) that --version prints after the MySQL version.
  if (found && found !== version && !version.startsWith(`${found}-`) && !isCommitOfLine(product, version, found)) {
    throw new UserError(`${origin} is ${product.name} ${found} (${versionLine}), not ${version}: check the version, the tag or the file`);
  }
  log(`check: ${versionLine}`);
  return buildInstallResult({ builtDir, finalPrefix, layout, product, version, flavor, provider, env: {}, versionLine, provenance });
}

/**
 * A ref run's commit after a release (`<release>+<commit>`, scripts/install/source/resolve-ref.js)
 * reports the version its tree says: the release, or the next one its line is working towards.
 * Either is of the release's line; another line's version is another tree.
 * @param {import('./types.js').InstallProductConfig} product
 * @param {string} version asked for
 * @param {string} found what the server printed
 * @returns {boolean}
 */
function isCommitOfLine(product, version, found) {
  const release = /^([^+]+)\+./.exec(version)?.[1];
  if (!release) return false;
  const lineOf = (/** @type {string} */ v) => product.lines.filter((l) => v === l.name || v.startsWith(`${l.name}.`)).sort((a, b) => b.name.length - a.name.length)[0]?.name ?? null;
  const line = lineOf(release);
  return line !== null && lineOf(found) === line;
}

/**
 * The InstallResult of an install that was attempted and did not work (download failed, the
 * binary does not run on this host...). The pipeline records it and goes on with other releases.
 * @param {object} what
 * @param {import('../types.js').ReleaseSpec} what.spec
 * @param {import('../config/index.js').FlavorName} what.flavor
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
