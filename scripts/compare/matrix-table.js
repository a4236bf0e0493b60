/**
 * Config matrices in seed post 000's form: a table per cell (`p0.c0`, `p0.c1`, ...), a row per
 * release and a column per test. Each cell of a suite's matrix is its own series
 * (`<suite>--<cell>`, scripts/workload/variants.js), so each cell has its own relative table
 * (relative-table.js, with verdicts per cell); this view lays those tables side by side,
 * transposed. Pure: relative tables in, text out.
 */
import { formatQps, formatTableRatio } from '../format-number.js';

/**
 * @typedef {object} MatrixCellTable
 * @property {string} cell the cell's name, e.g. `compression-on`
 * @property {string} series the suite series its records are stored under, e.g. `matrix-smoke--compression-on`
 * @property {import('./types.js').RelativeTable} table the cell's relative table
 */

/**
 * @param {MatrixCellTable[]} cells in the matrix's order
 * @param {{format: 'markdown'|'terminal', title?: string}} options
 * @returns {string} text ending with a newline
 */
export function renderMatrixTables(cells, options) {
  const md = options.format === 'markdown';
  const out = [];
  if (options.title) out.push(md ? `## ${options.title}\n` : `${options.title}\n`);
  out.push('A table per matrix cell, a row per release: median throughput of the repeats (ratio to the cell\'s base release).\n');
  for (const { cell, series, table } of cells) {
    const rows = table.groups.flatMap((g) => g.rows);
    const header = ['release', ...rows.map((r) => (r.metric === 'qps' ? r.test : `${r.test} (${r.metric})`))];
    const body = table.versions.map((v) => [
      v === table.base ? `${v} (base)` : v,
      ...rows.map((r) => {
        const c = r.cells[v];
        if (!c?.stats) return c?.status ?? 'n/a';
        return v === table.base || c.ratio === null ? formatQps(c.stats.median) : `${formatQps(c.stats.median)} (${formatTableRatio(c.ratio)})`;
      }),
    ]);
    const heading = `${cell} (series ${series})`;
    out.push(md ? `\n### ${heading}\n\n` : `\n${heading}\n`);
    if (md) {
      out.push(`| ${header.join(' | ')} |\n|${header.map((_h, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|\n`);
      for (const row of body) out.push(`| ${row.join(' | ')} |\n`);
    } else {
      const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
      const line = (/** @type {string[]} */ cs) => cs.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
      out.push(`${[line(header), ...body.map(line)].join('\n')}\n`);
    }
  }
  return out.join('');
}
