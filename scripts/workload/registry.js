/**
 * Benchmark runners by name (STYLE.md section 2): explicit imports into a frozen map, each
 * checked for its shape when registered, so a broken runner fails at load time naming its file
 * and the missing member.
 *
 * Two kinds: RUNNERS are tools the sysbench suite calls once per repeat (buildCommand +
 * parseOutput); SEQUENCES are sequence benchmarks (planSteps + runStep), whose steps run in
 * order once per pass from a fresh state (README.md "Sequence benchmarks").
 */
import { sysbench } from './runners/sysbench.js';
import { ibench } from './runners/ibench.js';
import { linkbench } from './runners/linkbench.js';
import { ddl } from './runners/ddl.js';
import { reload } from './runners/reload.js';
import { loops } from './runners/loops.js';

/** @typedef {import('./types.js').BenchRunner} BenchRunner */
/** @typedef {import('./types.js').SequenceBenchmark} SequenceBenchmark */

const REQUIRED = /** @type {const} */ (['name', 'metrics', 'buildCommand', 'parseOutput']);
const SEQUENCE_REQUIRED = /** @type {const} */ (['name', 'metrics', 'planSteps', 'runStep']);

/**
 * @template {object} T
 * @param {Record<string, T>} byFile file stem -> runner
 * @param {readonly string[]} required members every runner of this kind has
 * @returns {Readonly<Record<string, T>>}
 */
function register(byFile, required) {
  for (const [file, runner] of Object.entries(byFile)) {
    const r = /** @type {Record<string, unknown>} */ (runner);
    const missing = required.filter((k) => r[k] === undefined);
    if (missing.length > 0) throw new Error(`scripts/workload/runners/${file}.js: runner lacks ${missing.join(', ')}`);
    if (r.name !== file) throw new Error(`scripts/workload/runners/${file}.js: runner name '${r.name}' must equal the file name`);
  }
  return Object.freeze({ ...byFile });
}

/** Every known runner, name -> runner. */
export const RUNNERS = register({ sysbench }, REQUIRED);

/** Every known sequence benchmark, name -> benchmark (a suite's `benchmarks` names them). */
export const SEQUENCES = register({ ibench, linkbench, ddl, reload, loops }, SEQUENCE_REQUIRED);

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

/**
 * @param {string} name sequence benchmark name (a step's `sequence`)
 * @returns {SequenceBenchmark}
 * @throws {Error} for an unknown name, listing the known ones
 */
export function getSequenceBenchmark(name) {
  const bench = SEQUENCES[name];
  if (!bench) throw new Error(`unknown sequence benchmark '${name}'; known: ${Object.keys(SEQUENCES).join(', ')}`);
  return bench;
}
