/**
 * What the install stage reads about a product: its entry in the loaded configuration, and the
 * releases the deb provider can install (the product's `deb:` map, or what a Debian suite offers:
 * the way to find the exact version to add under `deb:` in a product file).
 */
import { findProduct } from '../config/index.js';
import { PACKAGE_ROLES, compareUpstream, openAptEnv, releaseOfSuite, upstreamOf } from './apt/index.js';

/**
 * The providers' name for config/'s findProduct (one message for an unknown product across the
 * commands); deb.js, source/ and tarball/ import it from here.
 */
export { findProduct as productConfig } from '../config/index.js';

/**
 * List the installable versions of a product, oldest first, from the product's `deb:` map.
 * @param {Readonly<import('../types.js').Config>} config
 * @param {string} product product id
 * @returns {import('./types.js').AvailableVersion[]}
 * @throws {UserError} for an unknown product
 */
export function listAvailable(config, product) {
  const p = findProduct(config, product);
  return Object.entries(p.deb ?? {})
    .map(([version, src]) => ({ product: p.name, version, provider: 'deb', suite: src.suite, packageVersion: src.packageVersion ?? null }))
    .sort((a, b) => compareUpstream(a.version, b.version));
}

/**
 * One-line list for error messages: `10.5.23 (bullseye), 10.11.18 (bookworm)`.
 * @param {Readonly<import('../types.js').Config>} config
 * @param {string} product
 * @returns {string}
 */
export function describeAvailable(config, product) {
  const rows = listAvailable(config, product);
  return rows.length ? rows.map((r) => `${r.version} (${r.suite})`).join(', ') : 'none';
}

/**
 * What a Debian suite offers for a product, straight from its private apt lists.
 * @param {Readonly<import('../types.js').Config>} config
 * @param {string} product
 * @param {string} suite a suite of the release to ask (`trixie`; its -updates and -security are included)
 * @param {string} cacheDir where the private apt state lives
 * @param {(msg: string) => void} log
 * @returns {Promise<import('./types.js').AvailableVersion[]>} oldest first, one row per Debian version
 * @throws {UserError} for an unknown product or a machine without a Debian mirror
 */
export async function listSuiteVersions(config, product, suite, cacheDir, log) {
  const p = findProduct(config, product);
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
