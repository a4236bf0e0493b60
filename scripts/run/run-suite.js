/**
 * `tagbench run` of a suite, whatever its variants: a suite with a config matrix runs every
 * release under each cell in turn (one runReleases per cell, the releases alternating within
 * it as always), each cell stored as its own series `<suite>--<cell>` (scripts/workload/variants.js);
 * any other suite is one runReleases.
 */
import { matrixCells } from '../workload/index.js';
import { runReleases } from './run-releases.js';
import { UserError } from '../errors.js';

/**
 * @param {import('../types.js').Config} config
 * @param {import('./run-releases.js').RunOptions} options
 * @returns {Promise<import('./run-releases.js').RunOutcome & {cells: string[]}>} every cell's
 *   records in cell order; cells: the series run ([] for a suite without a matrix)
 * @throws {UserError} as runReleases, and on an unknown suite
 */
export async function runSuite(config, options) {
  const suite = config.suites[options.suite];
  if (suite === undefined) return { ...(await runReleases(config, options)), cells: [] };
  const cells = matrixCells(suite);
  if (!cells) return { ...(await runReleases(config, options)), cells: [] };
  const clash = cells.find((c) => config.suites[c.suiteName] !== undefined);
  if (clash) throw new UserError(`matrix cell ${clash.name} of configs/suites/${suite.name}.yml would be stored as suite '${clash.suiteName}', which configs/suites/${clash.suiteName}.yml already is: rename one of them`);
  const write = options.write ?? ((/** @type {string} */ t) => process.stderr.write(t));
  /** @type {import('./run-releases.js').RunOutcome} */
  const all = { records: [], paths: [], interrupted: false };
  for (const cell of cells) {
    if (options.signal?.aborted) break;
    write(`matrix cell ${cell.name} (series ${cell.suiteName})\n`);
    // resolveRun finds the cell's suite by its series name (findCellSuite).
    const outcome = await runReleases(config, { ...options, suite: cell.suiteName });
    all.records.push(...outcome.records);
    all.paths.push(...outcome.paths);
    all.interrupted ||= outcome.interrupted;
  }
  return { ...all, cells: cells.map((c) => c.suiteName) };
}
