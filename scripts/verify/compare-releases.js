/**
 * `tagbench compare`: for a product line's releases on one host class and suite, print the
 * relative-to-base table, the verdicts of every release against the base (stored in the
 * results store), and the change points across the releases (stored as the series' change-point
 * file when the compare covers the whole series). Exit 2 when a regression at the issue level
 * is found. Three forms, each in its own file: one product line (compare-line.js), a matrix
 * suite cell by cell (compare-matrix.js), and a table across lines and products without
 * verdicts (compare-across.js); this file picks the form from the options.
 */
import { parseList } from '../command-spec.js';
import { findProduct } from '../config/index.js';
import { UserError } from '../errors.js';
import { loadVerifyContext } from './load-verify-context.js';
import { compareAcross } from './compare-across.js';
import { compareMatrix } from './compare-matrix.js';
import { compareLine } from './compare-line.js';

/**
 * @typedef {object} CompareOptions
 * @property {string} [store] results store (default `results`)
 * @property {string} [hostClass] default `local`
 * @property {string} [suite] default `smoke`
 * @property {string} product
 * @property {string} [line] product line; default: the line of the releases' records
 * @property {string[]|string} [releases] versions in column order; default: every version in the store.
 *   `version#label` names one server kind of a release: `10.11.18#rocksdb` (label = engine: its
 *   MyRocks records, from `tagbench run --engine innodb,rocksdb` or `--engine rocksdb`) or another
 *   run label (`#b` of an A/A run: the records whose id carries it). A plain version never pools
 *   records of two engines.
 * @property {string} [base] base version; default: the baseline file, else the line's baseVersion, else the first;
 *   with `ref`: the base the ref run ran beside (when its runs had several)
 * @property {string} [ref] a ref run's candidate (`tagbench run --ref`): compare-ref.js
 * @property {string} [repo] with ref: its repository (default the product's gitUrl)
 * @property {string} [commit] with ref: the candidate's commit (default: what the ref names now)
 * @property {string} [baseRef] with ref: the runs whose base is the merge base with this ref
 * @property {string} [baselines] baselines folder (default `baselines`)
 * @property {string} [markdown] write the Markdown report here
 * @property {string} [json] write {table, comparisons, changePoints} here
 * @property {boolean} [storeVerdicts] false = do not write comparison files nor the change-point
 *   file to the store
 * @property {boolean} [changePoints] false = skip apache-otava (and write no change-point file)
 * @property {boolean} [adaptive] run more instances of undecided tests before judging
 *   (scripts/verify/adaptive-repeats.js), within the host class's budget
 * @property {number} [adaptiveBudget] seconds, instead of the host class's adaptive.budgetS
 * @property {string} [workDir] datadirs of the adaptive rounds
 * @property {string} [cacheDir] install cache of the adaptive rounds
 * @property {string} [root] project root holding configs/ (default: this checkout)
 * @property {(text: string) => void} [out] stdout writer (tests capture it)
 * @property {boolean} [color] ANSI colours (default: stdout is a terminal and NO_COLOR unset)
 * @property {(table: import('../compare/types.js').RelativeTable) => void} [onTable] gets the
 *   relative table before it is printed (a matrix collects its cells' tables)
 */

/**
 * `tagbench compare` (see the module comment).
 * @param {Record<string, any>} options see CompareOptions
 * @returns {Promise<number>} 0, or 2 when a regression at the issue level is found
 * @throws {UserError} bad options, no records, unreadable store or baseline
 */
export async function compareReleases(options) {
  const ctx = await loadVerifyContext(options);
  const { config } = ctx;
  /** @type {string[]|undefined} */
  const named = typeof options.releases === 'string' ? parseList(options.releases) : options.releases;
  if (named?.some((r) => r.includes('@'))) return compareAcross({ ...options, releases: named }, ctx);
  if (!options.product) throw new UserError(`missing --product; known: ${Object.keys(config.products).join(', ')}`);
  const product = findProduct(config, options.product, '--product');
  const suite = options.suite ?? 'smoke';
  // An ad-hoc ref run: its candidate commit against the base that ran beside it, stored apart.
  if (options.ref) return (await import('./compare-ref.js')).compareRef({ ...options, suite }, { ...ctx, product });
  for (const [flag, key] of /** @type {const} */ ([['--repo', 'repo'], ['--commit', 'commit'], ['--base-ref', 'baseRef']])) {
    if (options[key] !== undefined) throw new UserError(`${flag} goes with --ref (the verdicts of a ref run)`);
  }
  const lineOptions = { ...options, releases: named, suite };
  // A matrix suite has no records of its own: each cell is a series `<suite>--<cell>`.
  const matrix = /** @type {{matrix?: Record<string, Record<string, unknown>>}} */ (config.suites[suite] ?? {}).matrix;
  if (matrix) return compareMatrix(lineOptions, matrix, { ...ctx, product });
  return compareLine(lineOptions, { ...ctx, product });
}
