/** The config stage: load + validate configs/ once, and look its entries up. */
export { loadConfig } from './load-config.js';
export { validateAgainst, registerSchema } from './validate.js';
export { findProduct, findHostClass } from './find-entry.js';
export { getFlavor, listFlavors } from './flavors.js';
/** @typedef {import('./flavors.js').Flavor} Flavor */
/** @typedef {import('./flavors.js').FlavorName} FlavorName */
