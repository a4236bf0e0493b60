/**
 * The install providers, by name. Explicit imports keep the list greppable and type-checked;
 * every message that lists providers is built from this map.
 */
import { UserError } from '../errors.js';
import { deb } from './providers/deb.js';
import { path } from './providers/path.js';
import { source } from './providers/source.js';
import { tarball } from './providers/tarball.js';

/** @type {Readonly<Record<string, import('./types.js').InstallProvider>>} */
const PROVIDERS = Object.freeze(checkShapes({ deb, path, source, tarball }));

/**
 * @param {string} name
 * @returns {import('./types.js').InstallProvider}
 * @throws {UserError} "unknown provider 'x'; known: <the names in the map>"
 */
export function getProvider(name) {
  const p = Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
  if (!p) throw new UserError(`unknown provider '${name}'; known: ${providerNames().join(', ')}`);
  return p;
}

/**
 * @returns {string[]} provider names, sorted
 */
export function providerNames() {
  return Object.keys(PROVIDERS).sort();
}

/**
 * Fail at load time, naming the provider and the member, when one does not fit the shape.
 * @param {Record<string, import('./types.js').InstallProvider>} map
 * @returns {Record<string, import('./types.js').InstallProvider>}
 */
function checkShapes(map) {
  for (const [key, p] of Object.entries(map)) {
    const file = `scripts/install/providers/${key}.js`;
    if (p.name !== key) throw new Error(`${file}: name is '${p.name}' but must be '${key}'`);
    for (const member of /** @type {const} */ (['validateOptions', 'install'])) {
      if (typeof p[member] !== 'function') throw new Error(`${file}: missing function '${member}'`);
    }
  }
  return map;
}
