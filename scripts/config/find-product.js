/**
 * The one lookup of a product by the name a user gave (an option, a `product@version` entry),
 * so that every command refuses an unknown product with the same message and the same list of
 * the configured ones.
 */
import { UserError } from '../errors.js';

/**
 * Look a product up in the loaded configuration.
 * @param {Readonly<Pick<import('../types.js').Config, 'products'>>} config loaded configuration
 * @param {string} name product id as the user wrote it (`mariadb`)
 * @param {string} [optionName] how the message names it: `--product` gives "unknown --product
 *   'x'"; default `product`
 * @param {string} [within] where the name was found when it is part of a longer value, e.g.
 *   `--releases 'postgres@16.1'` gives "unknown product 'postgres' in --releases 'postgres@16.1'"
 * @returns {import('../types.js').ProductConfig} the product's configuration
 * @throws {UserError} naming the product and every configured one (configs/products/*.yml)
 */
export function findProduct(config, name, optionName = 'product', within) {
  const product = config.products[name];
  if (product) return product;
  const known = Object.keys(config.products);
  // An empty list says nothing on its own: say where products come from instead.
  throw new UserError(`unknown ${optionName} '${name}'${within ? ` in ${within}` : ''}; known: ${known.join(', ') || '(none: add configs/products/<name>.yml)'}`);
}
