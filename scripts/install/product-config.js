/**
 * Look a product up in the loaded configuration.
 */
import { UserError } from '../errors.js';

/**
 * @param {Readonly<import('../config/load-config.js').Config>} config
 * @param {string} name product id (`mariadb`, `mysql`)
 * @returns {import('../types.js').ProductConfig}
 * @throws {UserError} naming the known products when it is not configured
 */
export function productConfig(config, name) {
  const product = config.products[name];
  if (!product) {
    const known = Object.keys(config.products).sort();
    throw new UserError(`unknown product '${name}'; known: ${known.join(', ') || 'none'} (configs/products/<name>.yml)`);
  }
  return product;
}
