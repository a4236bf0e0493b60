/**
 * Config matrices in seed post 000's form: a table per cell (`compression-off`,
 * `compression-on`, ...), a row per release and a column per test, median throughput and its
 * ratio to the cell's base release, with the cell's verdicts. Each cell is its own series (its
 * own site table, `<suite>--<cell>`); this page lays their tables side by side, transposed, as
 * `tagbench compare` does for a matrix suite (scripts/compare/matrix-table.js). Without
 * parameters it lists the matrices.
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson, params } from '../data.js';
import { fmtQps, fmtDate } from '../format.js';
import { tableRatios } from '../ratios.js';
import { breadcrumb, verdictBadge, ratioSpan, legend, lineHref, releaseHref, testHref } from '../components.js';
import { viewPaths, matrixUrl } from './view-paths.js';

/** @param {HTMLElement} main */
export async function render(main) {
  const q = params();
  const index = await loadJson(viewPaths.index());
  const wanted = ['product', 'line', 'host', 'suite'].map((k) => q.get(k));
  if (wanted.every((v) => !v)) {
    listMatrices(main, index.matrices);
    return;
  }
  const [product, line, host, suite] = wanted;
  const m = index.matrices.find((/** @type {any} */ x) => x.product === product && x.line === line && x.host === host && x.suite === suite);
  if (!m) throw new Error(`no config matrix ${suite} of ${product} ${line} on ${host}; the matrices are listed on ${matrixUrl()}`);
  const tables = await Promise.all(m.cells.map((/** @type {any} */ c) => loadJson(c.table)));
  const title = `${m.productName} ${m.line} · ${m.host} · matrix ${m.suite}`;
  fill(main,
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: 'Config matrices', href: matrixUrl() }, { label: title }]),
    h('h1', { text: title }),
    h('p', null, `${m.cells.length} cells, each its own series. A table per cell, a row per release: median throughput of the repeats (QPS; rows/s for scans) and its ratio to the cell's base release, with the cell's verdicts.`),
    legend(),
    m.cells.map((/** @type {any} */ c, /** @type {number} */ i) => cellSection(c, tables[i])));
}

/**
 * @param {HTMLElement} main
 * @param {any[]} matrices
 */
function listMatrices(main, matrices) {
  fill(main,
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: 'Config matrices' }]),
    h('h1', { text: 'Config matrices' }),
    matrices.length === 0
      ? h('p', { text: 'No config matrix has run yet: a suite with a `matrix` block runs each release under each cell (tagbench run), each cell its own series.' })
      : h('ul', { id: 'matrix-list' }, matrices.map((m) => h('li', { dataset: { matrix: m.suite } },
        h('a', { href: matrixUrl(m), text: `${m.productName} ${m.line} · ${m.host} · ${m.suite}` }),
        ` (${m.cells.length} cells: ${m.cells.map((/** @type {any} */ c) => c.cell).join(', ')})`))));
}

/**
 * One cell: a row per release, a column per test.
 * @param {{cell: string, series: string}} c
 * @param {any} t the cell's table data
 */
function cellSection(c, t) {
  const base = t.defaultBase;
  const ratios = tableRatios(t, base);
  return h('section', { class: 'matrix-cell', dataset: { cell: c.cell, series: c.series } },
    h('h2', { text: c.cell }),
    h('p', { class: 'muted' }, `Series ${c.series}; ratios to ${base}. `, h('a', { href: lineHref(t), text: 'Its product-line table' }), '.'),
    scrollTable(`${c.cell}: median throughput per release and test (ratio to ${base})`, [
      h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text', text: 'Release' }),
        t.tests.map((/** @type {any} */ test) => h('th', { scope: 'col' }, h('a', { href: testHref(t, test.name), text: test.metric === 'qps' ? test.name : `${test.name} (${test.metric})` }))))),
      h('tbody', null, t.releases.map((/** @type {any} */ rel, /** @type {number} */ i) => h('tr', { dataset: { version: rel.version }, class: rel.version === base ? 'is-base' : null },
        h('th', { scope: 'row', class: 'text', title: `finished ${fmtDate(rel.date)}` }, h('a', { href: releaseHref(t, rel.version), text: rel.version }), rel.version === base ? ' (base)' : ''),
        t.tests.map((/** @type {any} */ test, /** @type {number} */ k) => {
          const v = test.values[i];
          const verdict = test.verdicts[i];
          return h('td', { dataset: { test: test.name, qps: v ?? '', ratio: ratios[k][i] ?? '' }, title: v === null ? 'no result' : `median of ${test.n[i]} repeats` },
            h('span', { class: 'qps', text: fmtQps(v) }),
            rel.version === base ? null : h('span', { class: 'ratio-line' }, ratioSpan(ratios[k][i]),
              verdict && verdict !== 'unchanged' ? [' ', verdictBadge(verdict, rel.comparison ? `vs ${rel.comparison.baseVersion}` : '')] : null));
        })))),
    ], { class: 'matrix-table' }));
}
