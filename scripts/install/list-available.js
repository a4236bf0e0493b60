/**
 * Which releases of a product the deb provider can install, from the product's `deb:` map.
 */
import { productConfig } from './product-config.js';
import { compareUpstream } from './deb/deb-packages.js';

/**
 * List the installable versions of a product, oldest first.
 * @param {Readonly<import('../config/load-config.js').Config>} config
 * @param {string} product product id
 * @returns {import('./types.js').AvailableVersion[]}
 * @throws {import('../errors.js').UserError} for an unknown product
 */
export function listAvailable(config, product) {
  const p = productConfig(config, product);
  return Object.entries(p.deb ?? {})
    .map(([version, src]) => ({ product: p.name, version, provider: 'deb', suite: src.suite, packageVersion: src.packageVersion ?? null }))
    .sort((a, b) => compareUpstream(a.version, b.version));
}

/**
 * One-line list for error messages: `10.5.23 (bullseye), 10.11.18 (bookworm)`.
 * @param {Readonly<import('../config/load-config.js').Config>} config
 * @param {string} product
 * @returns {string}
 */
export function describeAvailable(config, product) {
  const rows = listAvailable(config, product);
  return rows.length ? rows.map((r) => `${r.version} (${r.suite})`).join(', ') : 'none';
}
