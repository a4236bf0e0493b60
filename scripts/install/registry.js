/**
 * The install providers, by name. Explicit imports keep the list greppable and type-checked;
 * every message that lists providers is built from this map.
 *
 * Where a provider lives: one file, `scripts/install/<name>.js`, while it needs no helpers
 * (deb, path); a folder `scripts/install/<name>/` once it does, whose index.js is the provider and
 * whose other files are its helpers (source, tarball). Never both a file and a folder. Only
 * this file imports a provider; everything else reaches one through getProvider. What the
 * providers share is below them: the install cache and its skeleton (install-with-cache.js),
 * and the apt library (`apt/`) that the deb provider, products.js and the source provider's
 * Debian origin use.
 */
import { UserError } from '../errors.js';
import { deb } from './deb.js';
import { path } from './path.js';
import { source } from './source/index.js';
import { tarball } from './tarball/index.js';

/** @type {Readonly<Record<string, import('./types.js').InstallProvider>>} */
const PROVIDERS = Object.freeze(checkShapes({
  deb: { provider: deb, file: 'deb.js' },
  path: { provider: path, file: 'path.js' },
  source: { provider: source, file: 'source/index.js' },
  tarball: { provider: tarball, file: 'tarball/index.js' },
}));

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
 * @returns {string[]} names of the providers that have a dry run (`install --dry-run`), sorted
 */
export function dryRunProviderNames() {
  return providerNames().filter((n) => PROVIDERS[n].dryRun);
}

/**
 * Fail at load time, naming the provider's file and the member, when one does not fit the shape.
 * @param {Record<string, {provider: import('./types.js').InstallProvider, file: string}>} map
 *   name -> the provider and its file (relative to scripts/install/)
 * @returns {Record<string, import('./types.js').InstallProvider>} name -> provider
 */
function checkShapes(map) {
  /** @type {Record<string, import('./types.js').InstallProvider>} */
  const out = {};
  for (const [key, { provider: p, file: rel }] of Object.entries(map)) {
    const file = `scripts/install/${rel}`;
    if (p.name !== key) throw new Error(`${file}: name is '${p.name}' but must be '${key}'`);
    for (const member of /** @type {const} */ (['validateOptions', 'install'])) {
      if (typeof p[member] !== 'function') throw new Error(`${file}: missing function '${member}'`);
    }
    if (p.dryRun !== undefined && typeof p.dryRun !== 'function') throw new Error(`${file}: 'dryRun' must be a function when present`);
    out[key] = p;
  }
  return out;
}
