/**
 * Every stage's command specs, in the order `tagbench --help` lists them (pipeline order).
 * Each stage owns its scripts/<stage>/commands.js; this list only strings them together.
 */
import { commands as watch } from './watch/commands.js';
import { commands as install } from './install/commands.js';
import { commands as run } from './run/commands.js';
import { commands as verify } from './verify/commands.js';
import { commands as github } from './github/commands.js';
import { commands as workflow } from './workflow/commands.js';
import { commands as store } from './store/commands.js';
import { commands as site } from './site-build/commands.js';
import { commands as doctor } from './doctor/commands.js';

/** @type {import('./command-spec.js').CommandSpec[]} */
export const commandSpecs = [...watch, ...install, ...run, ...verify, ...github, ...workflow, ...store, ...site, ...doctor];
