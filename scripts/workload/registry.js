/**
 * Every benchmark plug-in by name (STYLE.md section 2): explicit imports into a frozen map, each
 * checked for its shape when registered, so a broken plug-in fails at load time naming its
 * folder and the missing member. A suite names plug-ins in `benchmarks`; a planned step names
 * its plug-in in `benchmark`, and the run stage dispatches every step through getBenchmark.
 */
import { sysbench } from './sysbench/index.js';
import { ibench } from './ibench/index.js';
import { linkbench } from './linkbench/index.js';
import { ddl } from './ddl/index.js';
import { reload } from './reload/index.js';
import { loops } from './loops/index.js';

/** @typedef {import('./types.js').Benchmark} Benchmark */

/**
 * The plug-in name form: a suite's `benchmarks` entries (scripts/config/schemas/suite.schema.json)
 * and a record's Step.kind (scripts/store/schemas/run-record.schema.json) have the same pattern,
 * so a new plug-in needs no schema edit; which names exist is said here only.
 */
export const BENCHMARK_NAME = /^[a-z][a-z0-9-]*$/;

/** Members every plug-in has (the optional ones: stepNames, parseOutput, toolVersions, prepareRun, prepareCounting, buildCommand). */
const REQUIRED = /** @type {const} */ (['name', 'planSteps', 'runStep']);

/**
 * @param {Record<string, Benchmark>} byFolder folder name -> plug-in
 * @returns {Readonly<Record<string, Benchmark>>}
 * @throws {Error} naming the folder and what is missing or wrong
 */
export function registerBenchmarks(byFolder) {
  for (const [folder, plugin] of Object.entries(byFolder)) {
    const where = `scripts/workload/${folder}/index.js`;
    const p = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (plugin));
    const missing = REQUIRED.filter((k) => p[k] === undefined);
    if (missing.length > 0) throw new Error(`${where}: benchmark plug-in lacks ${missing.join(', ')}`);
    if (p.name !== folder) throw new Error(`${where}: benchmark plug-in name '${p.name}' must equal its folder name`);
    if (!BENCHMARK_NAME.test(folder)) throw new Error(`${where}: benchmark plug-in name '${folder}' must match ${BENCHMARK_NAME} (lowercase, digits, hyphens)`);
    for (const k of ['planSteps', 'runStep', 'stepNames', 'parseOutput', 'toolVersions', 'prepareRun', 'prepareCounting']) {
      if (p[k] !== undefined && typeof p[k] !== 'function') throw new Error(`${where}: benchmark plug-in member ${k} must be a function`);
    }
  }
  return Object.freeze({ ...byFolder });
}

/** Every benchmark plug-in, name -> plug-in, in the order the documentation lists them. */
export const BENCHMARKS = registerBenchmarks({ sysbench, ibench, linkbench, ddl, reload, loops });

/**
 * The benchmarks a suite runs when its YAML has no `benchmarks`: the standard sysbench suite,
 * which every suite ran before there were other plug-ins (the suite schema's `benchmarks`
 * description says so).
 */
export const DEFAULT_BENCHMARKS = Object.freeze([sysbench.name]);

/**
 * @param {string} name a plug-in's name (a suite's `benchmarks` entry, a step's `benchmark`)
 * @returns {Benchmark}
 * @throws {Error} for an unknown name, listing the known ones
 */
export function getBenchmark(name) {
  const plugin = Object.hasOwn(BENCHMARKS, name) ? BENCHMARKS[name] : undefined;
  if (!plugin) throw new Error(`unknown benchmark '${name}'; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  return plugin;
}
