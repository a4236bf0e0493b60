/**
 * Benchmark runners by name (STYLE.md section 2): explicit imports into a frozen map, each
 * checked for the BenchRunner shape when registered, so a broken runner fails at load time
 * naming its file and the missing member.
 */
import { sysbench } from './runners/sysbench.js';

/** @typedef {import('./types.js').BenchRunner} BenchRunner */

const REQUIRED = /** @type {const} */ (['name', 'metrics', 'buildCommand', 'parseOutput']);

/**
 * @param {Record<string, BenchRunner>} byFile file stem -> runner
 * @returns {Readonly<Record<string, BenchRunner>>}
 */
function register(byFile) {
  for (const [file, runner] of Object.entries(byFile)) {
    const missing = REQUIRED.filter((k) => runner[k] === undefined);
    if (missing.length > 0) throw new Error(`scripts/workload/runners/${file}.js: runner lacks ${missing.join(', ')}`);
    if (runner.name !== file) throw new Error(`scripts/workload/runners/${file}.js: runner name '${runner.name}' must equal the file name`);
  }
  return Object.freeze({ ...byFile });
}

/** Every known runner, name -> runner. */
export const RUNNERS = register({ sysbench });

/**
 * @param {string} name runner name (a step's kind)
 * @returns {BenchRunner}
 * @throws {Error} for an unknown name, listing the known ones
 */
export function getRunner(name) {
  const runner = RUNNERS[name];
  if (!runner) throw new Error(`unknown runner '${name}'; known: ${Object.keys(RUNNERS).join(', ')}`);
  return runner;
}
