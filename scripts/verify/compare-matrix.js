/**
 * `tagbench compare --suite <matrix suite>`: a matrix suite has no records of its own; each cell
 * is a series `<suite>--<cell>`, compared on its own with its verdicts (as `--suite
 * <suite>--<cell>` does), then seed 000's view of them all: a table per cell, a row per release.
 * A cell without records is named and left out.
 */
import { UserError, EXIT } from '../errors.js';
import { renderMatrixTables } from '../compare/index.js';
import { compareLine } from './compare-line.js';

/**
 * Compare every cell of a matrix suite (see the module comment).
 * @param {Record<string, any>} options see CompareOptions in compare-releases.js (markdown and
 *   json: not for a matrix); suite is the matrix suite
 * @param {Record<string, Record<string, unknown>>} matrix the suite's matrix: dimension -> values
 * @param {import('./compare-line.js').LineContext} ctx what each cell's compare runs with
 * @returns {Promise<number>} 2 when any cell has an issue-level regression, else 0
 * @throws {UserError} when no cell has records, or with --markdown / --json
 */
export async function compareMatrix(options, matrix, ctx) {
  if (options.markdown || options.json) throw new UserError(`--markdown and --json take one series; suite '${options.suite}' is a matrix: compare one cell, e.g. --suite ${options.suite}--${Object.entries(matrix).map(([d, v]) => `${d}-${Object.keys(v)[0]}`).join('--')}`);
  const { out } = ctx;
  const cells = listMatrixCells(matrix);
  /** @type {Parameters<typeof renderMatrixTables>[0]} */
  const tables = [];
  /** @type {string[]} */
  const missing = [];
  /** @type {number} */
  let exit = EXIT.ok;
  for (const cell of cells) {
    const series = `${options.suite}--${cell}`;
    out(`\n== matrix cell ${cell} (series ${series}) ==\n`);
    try {
      const code = await compareLine({ ...options, suite: series, onTable: (/** @type {any} */ table) => tables.push({ cell, series, table }) }, ctx);
      if (code === EXIT.regression) exit = code;
    } catch (err) {
      // A cell nobody ran yet is named and left out; any other failure stops the compare.
      if (!(err instanceof UserError) || !/^no run record/.test(err.message)) throw err;
      missing.push(series);
      out(`${err.message}\n`);
    }
  }
  if (tables.length === 0) throw new UserError(`no run record of any cell of matrix suite '${options.suite}' (${cells.map((c) => `${options.suite}--${c}`).join(', ')}): run \`tagbench run --suite ${options.suite}\` first`);
  out(`\n${renderMatrixTables(tables, { format: 'terminal', title: `${options.suite}: a table per matrix cell${missing.length ? ` (no records: ${missing.join(', ')})` : ''}` })}`);
  return exit;
}

/**
 * The cells in the matrix's order, named as scripts/workload/variants.js names them
 * (`dim-value--dim-value`, the first dimension outermost). Pure.
 * @param {Record<string, Record<string, unknown>>} matrix
 * @returns {string[]}
 */
function listMatrixCells(matrix) {
  return Object.entries(matrix)
    .reduce((acc, [dim, values]) => acc.flatMap((c) => Object.keys(values).map((v) => (c ? `${c}--${dim}-${v}` : `${dim}-${v}`))), /** @type {string[]} */ ([''])).filter(Boolean);
}
