/** The config stage: load + validate configs/ once. */
export { loadConfig } from './load-config.js';
export { validateAgainst, registerSchema } from './validate.js';
