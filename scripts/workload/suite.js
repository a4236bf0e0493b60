/**
 * The suite composer: a suite's plan is the steps of every benchmark plug-in it names in
 * `benchmarks` (default: the registry's DEFAULT_BENCHMARKS), in that order, each plug-in planning
 * its own steps. Knows no plug-in by name. Pure.
 */
import { UserError } from '../errors.js';
import { BENCHMARKS, DEFAULT_BENCHMARKS, getBenchmark } from './registry.js';

/** @typedef {import('./types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').SuiteConfig} SuiteConfig */

/**
 * Build the ordered plan of a suite: the steps of every benchmark it names in `benchmarks`, in
 * that order, as each plug-in plans them.
 *
 * `only` is checked against the names every plug-in accepts (its `stepNames`, else the names of
 * its steps); each plug-in gets the names that are its own in `only`, and a plug-in none of whose
 * names `only` gives is left out. A plug-in whose steps are one sequence (each depends on the
 * data of the one before) keeps them all when any is named; the sysbench plug-in keeps the named
 * tests and the steps they need.
 *
 * @param {SuiteConfig} suite validated suite config (configs/suites/*.yml)
 * @param {{engine?: 'innodb'|'rocksdb'}} [opts] storage engine of the tables (default innodb)
 * @returns {StepPlan[]} in run order
 * @throws {UserError} when `only` names an unknown test, `benchmarks` an unknown benchmark, a
 *   plug-in's settings are wrong, or the engine is unknown
 * @throws {Error} when two plug-ins plan the same step name (a bug in one of them)
 */
export function planSuite(suite, opts = {}) {
  const engine = opts.engine ?? 'innodb';
  if (engine !== 'innodb' && engine !== 'rocksdb') {
    throw new UserError(`unknown engine '${engine}' for suite '${suite.name}'; valid: innodb, rocksdb`);
  }
  const { only, ...whole } = suite;
  const parts = suiteBenchmarks(suite).map((name) => {
    const plugin = getBenchmark(name);
    // A plug-in without stepNames accepts the names of its steps: planned once, kept.
    const steps = plugin.stepNames ? null : plugin.planSteps(suite, { engine });
    const names = plugin.stepNames ? plugin.stepNames(whole) : /** @type {StepPlan[]} */ (steps).map((s) => s.name);
    return { plugin, steps, names };
  });
  const known = parts.flatMap((p) => p.names);
  const clash = known.find((n, i) => known.indexOf(n) !== i);
  if (clash) throw new Error(`step name '${clash}' is planned twice in suite '${suite.name}' (two benchmarks use it)`);
  if (only) {
    const unknown = only.map((name, i) => ({ name, i })).filter(({ name }) => !known.includes(name));
    if (unknown.length > 0) {
      const list = unknown.map(({ name, i }) => `suites.${suite.name}.only[${i}] = '${name}'`).join(', ');
      throw new UserError(`unknown test name in configs/suites/${suite.name}.yml: ${list}; valid names: ${known.join(', ')}. Fix the name or remove it from 'only'.`);
    }
  }
  return parts.flatMap(({ plugin, steps, names }) => {
    const mine = only?.filter((n) => names.includes(n));
    if (mine && mine.length === 0) return [];
    return steps ?? plugin.planSteps(mine ? { ...whole, only: mine } : whole, { engine });
  });
}

/**
 * The benchmarks a suite runs, in order, checked against the registered plug-ins.
 * @param {SuiteConfig} suite
 * @returns {string[]}
 * @throws {UserError} naming the suite file and the unknown entry
 */
export function suiteBenchmarks(suite) {
  const named = suite.benchmarks ?? [...DEFAULT_BENCHMARKS];
  const valid = Object.keys(BENCHMARKS);
  named.forEach((name, i) => {
    if (!valid.includes(name)) {
      throw new UserError(`unknown benchmark in configs/suites/${suite.name}.yml: benchmarks[${i}] = '${name}'; valid: ${valid.join(', ')}`);
    }
  });
  return named;
}
