/**
 * What a Debian suite offers for a product, straight from its private apt lists: the way to
 * find the exact version to add under `deb:` in a product file.
 */
import { openAptEnv } from './apt-env.js';
import { releaseOfSuite } from './apt-sources.js';
import { PACKAGE_ROLES, compareUpstream, upstreamOf } from './deb-packages.js';
import { productConfig } from '../product-config.js';

/**
 * @param {Readonly<import('../../config/load-config.js').Config>} config
 * @param {string} product
 * @param {string} suite a suite of the release to ask (`trixie`; its -updates and -security are included)
 * @param {string} cacheDir where the private apt state lives
 * @param {(msg: string) => void} log
 * @returns {Promise<import('../types.js').AvailableVersion[]>} oldest first, one row per Debian version
 * @throws {import('../../errors.js').UserError} for an unknown product or a machine without a Debian mirror
 */
export async function listSuiteVersions(config, product, suite, cacheDir, log) {
  const p = productConfig(config, product);
  const apt = await openAptEnv(cacheDir, releaseOfSuite(suite), log);
  await apt.ensureUpdated();
  const role = PACKAGE_ROLES[p.flavor][0];
  // The server-core package, plain or with a release suffix (mariadb-server-core-10.5).
  const names = (await apt.packageNames(role)).filter((n) => n === role || /^-\d+\.\d+$/.test(n.slice(role.length)));
  const rows = names.length ? await apt.madison(names) : [];
  const seen = new Set();
  return rows
    .filter((r) => r.name === role || names.includes(r.name))
    .filter((r) => !seen.has(r.version) && seen.add(r.version))
    .map((r) => ({ product: p.name, version: upstreamOf(r.version), provider: 'deb', suite: r.suite, packageVersion: r.version }))
    .sort((a, b) => compareUpstream(a.version, b.version));
}
