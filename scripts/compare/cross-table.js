/**
 * The relative-to-base table across product lines and products, in seed post 003's form (MySQL
 * 5.0.96 … 8.0.3 in one table; seed 000 puts binaries of different products side by side): any
 * releases run on the same host class and suite, a column each, a row per test, QPS and the
 * ratio to a chosen base. A view, never a verdict: verdicts against a baseline stay per product
 * line (compare-runs.js), because a baseline and its thresholds belong to one line. Pure.
 */
import { computeRelativeTable } from './relative-table.js';
import { renderRelativeTable } from './render-relative-table.js';

/**
 * @typedef {object} CrossRelease one column: a release of any product line or product
 * @property {string} product product id, e.g. `mariadb`
 * @property {string} [productName] display name, e.g. `MariaDB` (default: the id)
 * @property {string} line product line of the release, e.g. `10.11`
 * @property {string} version
 * @property {string} [label] one server kind of the release (`rocksdb` of `--engine innodb,rocksdb`):
 *   its records are only those (the command selects them)
 * @property {import('./types.js').RunRecord[]} records its run records on the table's host class and suite
 */

/**
 * @typedef {object} CrossColumn
 * @property {string} key `product@version` (`product@version#label` for a labelled release): the
 *   key of the column's cells and geometric means
 * @property {string} product
 * @property {string} productName
 * @property {string} line
 * @property {string} version
 * @property {string} label column heading, e.g. `MariaDB 10.11.18`
 */

/**
 * @typedef {import('./types.js').RelativeTable & {kind: 'cross', hostClass: string, suite: string, columns: CrossColumn[]}} CrossTable
 *   a RelativeTable whose `versions`, `base` and cell keys are `product@version` keys; `columns`
 *   says what each key stands for, in column order
 */

/**
 * The key of a release in a cross table: versions of different products may be equal.
 * @param {{product: string, version: string, label?: string}} release
 * @returns {string} `product@version`, or `product@version#label`: the form `tagbench run --releases` takes
 */
export function releaseKey(release) {
  return `${release.product}@${release.version}${release.label ? `#${release.label}` : ''}`;
}

/**
 * @param {{hostClass: string, suite: string, base: string, releases: CrossRelease[]}} input
 *   base: the key (`product@version`) of one of the releases; releases in column order
 * @returns {CrossTable}
 * @throws {Error} when a release appears twice, the base is not among the releases, or a record
 *   was run on another host class or suite (the command selects records so that none is)
 */
export function computeCrossTable(input) {
  const keys = input.releases.map(releaseKey);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) throw new Error(`release ${twice} appears twice among ${keys.join(', ')}`);
  if (!keys.includes(input.base)) throw new Error(`base ${input.base} is not among ${keys.join(', ')}`);
  for (const rel of input.releases) {
    for (const r of rel.records) {
      // Ratios across releases mean something only on one host class and one suite.
      if (r.host.class !== input.hostClass || r.config.suite !== input.suite || r.release.product !== rel.product || r.release.version !== rel.version) {
        throw new Error(`run ${r.id} is ${r.release.product} ${r.release.version} on ${r.host.class} with suite ${r.config.suite}; the column ${releaseKey(rel)} of this table needs ${input.hostClass} and suite ${input.suite}`);
      }
    }
  }
  const relative = computeRelativeTable({
    product: [...new Set(input.releases.map((r) => r.product))].join(', '),
    line: [...new Set(input.releases.map((r) => r.line))].join(', '),
    base: input.base,
    releases: input.releases.map((r) => ({ version: releaseKey(r), records: r.records })),
  });
  const columns = input.releases.map((r) => {
    const productName = r.productName ?? r.product;
    return { key: releaseKey(r), product: r.product, productName, line: r.line, version: r.version, label: `${productName} ${r.version}${r.label ? `#${r.label}` : ''}` };
  });
  return { ...relative, kind: 'cross', hostClass: input.hostClass, suite: input.suite, columns };
}

/**
 * Render a cross table for the terminal or as Markdown, with the per-line tables' marks.
 * @param {CrossTable} table
 * @param {{format: 'markdown'|'terminal', color?: boolean}} options
 * @returns {string} text ending with a newline
 */
export function renderCrossTable(table, options) {
  const labels = Object.fromEntries(table.columns.map((c) => [c.key, c.label]));
  const lines = describeLines(table.columns);
  const title = `${table.suite} on ${table.hostClass}: throughput and ratio to ${labels[table.base]}, across ${lines}`;
  const note = 'A view across product lines and products, not a verdict: verdicts against a baseline stay per product line (tagbench compare --product P --line L).\n';
  return renderRelativeTable(table, { ...options, title, labels, note });
}

/**
 * "MariaDB 10.5, 10.11, 11.8 and MySQL 9.7" (lines in column order, grouped by product).
 * @param {CrossColumn[]} columns
 */
function describeLines(columns) {
  /** @type {Map<string, string[]>} */
  const byProduct = new Map();
  for (const c of columns) {
    const lines = byProduct.get(c.productName) ?? [];
    if (!lines.includes(c.line)) lines.push(c.line);
    byProduct.set(c.productName, lines);
  }
  const parts = [...byProduct].map(([name, lines]) => `${name} ${lines.join(', ')}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join('; ')} and ${parts.at(-1)}` : parts[0] ?? '';
}
