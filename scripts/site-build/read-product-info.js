/**
 * Product display names and configured base versions per product line, from configs/ when
 * the site is built inside a tagbench checkout. A store can be published without its configs
 * (a copy of the results branch): then ids are shown as they are and the base defaults to the
 * baseline or the oldest release.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config/index.js';

/**
 * @param {string} root folder holding configs/
 * @returns {Promise<import('./types.js').SiteInput['products']>}
 * @throws {import('../errors.js').UserError} when configs/ exists but is invalid
 */
export async function readProductInfo(root) {
  const has = await stat(join(root, 'configs', 'products')).then((s) => s.isDirectory(), () => false);
  if (!has) return {};
  const config = await loadConfig(root);
  /** @type {import('./types.js').SiteInput['products']} */
  const out = {};
  for (const p of Object.values(config.products)) {
    /** @type {Record<string, string>} */
    const baseVersions = {};
    for (const line of p.lines) if (line.baseVersion) baseVersions[line.name] = line.baseVersion;
    out[p.name] = { displayName: p.displayName, baseVersions };
  }
  return out;
}
