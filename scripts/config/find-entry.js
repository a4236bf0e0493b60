/**
 * The one lookup of a configured product or host class by the name a user gave (an option, a
 * `product@version` entry), so that every command refuses an unknown name with the same message:
 * the name, every configured one, and the folder that configures them.
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
  return findEntry(config.products, 'products', name, optionName, within);
}

/**
 * Look a host class up in the loaded configuration.
 * @param {Readonly<Pick<import('../types.js').Config, 'hosts'>>} config loaded configuration
 * @param {string} name host class as the user wrote it (`local`)
 * @param {string} [optionName] how the message names it: `--host-class` gives "unknown
 *   --host-class 'x'"; default `host class`
 * @returns {import('../types.js').HostClass} the host class's configuration
 * @throws {UserError} naming the host class and every configured one (configs/hosts/*.yml)
 */
export function findHostClass(config, name, optionName = 'host class') {
  return findEntry(config.hosts, 'hosts', name, optionName);
}

/**
 * @template T
 * @param {Readonly<Record<string, T>>} entries one collection of the configuration, by name
 * @param {string} folder its folder under configs/
 * @param {string} name as the user wrote it
 * @param {string} optionName how the message names it
 * @param {string} [within] the longer value the name was part of
 * @returns {T}
 * @throws {UserError}
 */
function findEntry(entries, folder, name, optionName, within) {
  // Own keys only: `--product toString` must not find Object.prototype.toString.
  if (Object.hasOwn(entries, name)) return entries[name];
  const known = Object.keys(entries);
  // An empty list says nothing on its own: say where the entries come from instead.
  const list = known.length ? `${known.join(', ')} (configs/${folder}/<name>.yml)` : `none (add configs/${folder}/<name>.yml)`;
  throw new UserError(`unknown ${optionName} '${name}'${within ? ` in ${within}` : ''}; known: ${list}`);
}
