/**
 * Check a release that was built or unpacked into a work folder and describe it as an
 * InstallResult with its final paths: the layout is complete, the server runs, and it is the
 * product and version that was asked for. Shared by the source and tarball providers (the deb
 * provider has its own, with library checks for foreign Debian suites).
 */
import { join, relative } from 'node:path';
import { UserError } from '../../errors.js';
import { detectLayout } from '../prefix-layout.js';
import { flavorOfVersionLine, readServerVersion, versionOfVersionLine } from '../provenance.js';
import { buildInstallResult } from '../install-result.js';

/**
 * @param {object} a
 * @param {string} a.builtDir the work folder that will become finalPrefix
 * @param {string} a.finalPrefix
 * @param {import('../types.js').InstallProductConfig} a.product
 * @param {string} a.version upstream version asked for
 * @param {'source'|'tarball'} a.provider
 * @param {string} a.origin what was installed, for messages (`tag mariadb-10.11.19`, `mariadb-10.11.18-linux-systemd-x86_64.tar.gz`)
 * @param {Partial<import('../types.js').InstallProvenance>} a.provenance provider-specific provenance fields
 * @param {(msg: string) => void} a.log
 * @returns {Promise<import('../../types.js').InstallResult>} status 'installed', with final paths
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
  if (found && found !== version && !version.startsWith(`${found}-`)) {
    throw new UserError(`${origin} is ${product.name} ${found} (${versionLine}), not ${version}: check the version, the tag or the file`);
  }
  log(`check: ${versionLine}`);
  return buildInstallResult({ builtDir, finalPrefix, layout, product, version, flavor, provider, env: {}, versionLine, provenance });
}
