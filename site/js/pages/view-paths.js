/**
 * Data files and pages of issue 12's views (config matrices, loops, DDL and reload timings,
 * reads per operation), shared by the builder (scripts/site-build/build-views-data.js) and the
 * pages like site/js/paths.js, whose fileSafe scheme they follow.
 */
import { fileSafe } from '../paths.js';

export const viewPaths = {
  /** @param {{host: string, product: string, line: string, suite: string}} k one table's views */
  table: (k) => `data/views/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.line)}/${fileSafe(k.suite)}.json`,
  /** which tables have views, and the config matrices */
  index: () => 'data/views/index.json',
};

/** Pages beyond site/js/paths.js PAGES, rendered from the same template. */
export const VIEW_PAGES = /** @type {const} */ ([
  { page: 'matrix', title: 'Config matrices' },
]);

/**
 * @param {{product: string, line: string, host: string, suite: string}|null} [k] a matrix (its
 *   suite without a cell); none = the list of matrices
 * @returns {string} relative link to the matrix page
 */
export function matrixUrl(k = null) {
  if (!k) return 'matrix.html';
  const q = new URLSearchParams({ product: k.product, line: k.line, host: k.host, suite: k.suite });
  return `matrix.html?${q}`;
}
