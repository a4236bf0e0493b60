/**
 * Issue 12's views on the line and test pages, added after those pages render (app.js calls
 * `enhance`), from data/views/ (scripts/site-build/build-views-data.js):
 *
 * - line page: QPS per loop and database size per loop, logical and on disk, a line per release
 *   (seed 001's qps@N, gb@N); DDL statement and reload seconds per release with relative
 *   performance (seed 004 shows reload time that way: base seconds ÷ seconds, higher is better);
 *   storage reads per operation under each throughput of a table whose runs read (seed 004's
 *   IO-bound test); a link to the matrix a cell series belongs to (seed 000);
 * - test page: a reads/op column beside the median in the history of such a table.
 *
 * A table without views gets nothing: the index (always written) says which tables have them,
 * so no page asks for a file that is not there.
 */
import { h, scrollTable } from '../dom.js';
import { loadJson, params } from '../data.js';
import { fmtQps, fmtRatio, fmtNum, fmtBytes } from '../format.js';
import { verdictBadge, ratioSpan } from '../components.js';
import { drawChart, chartFigure } from '../charts.js';
import { viewPaths, matrixUrl } from './view-paths.js';

/** Releases drawn per chart by loop: more lines than this are unreadable. */
const LOOP_RELEASES = 10;

/**
 * @param {string} page the page app.js rendered
 * @param {HTMLElement} main
 */
export async function enhance(page, main) {
  if (page !== 'line' && page !== 'test') return;
  const q = params();
  const key = { product: q.get('product') ?? '', line: q.get('line') ?? '', host: q.get('host') ?? '', suite: q.get('suite') ?? '' };
  const index = await loadJson(viewPaths.index());
  const entry = index.tables.find((/** @type {any} */ t) => t.product === key.product && t.line === key.line && t.host === key.host && t.suite === key.suite);
  if (!entry) return;
  const views = await loadJson(entry.file);
  if (page === 'test') {
    addReadsColumn(main, views, q.get('test') ?? '');
    return;
  }
  const sections = [];
  if (views.matrixCell) sections.push(matrixNote(views));
  if (views.loops.length > 0) sections.push(h('section', { id: 'loops' }, h('h2', { text: 'Long run: QPS and database size per loop' }),
    h('p', null, 'Each loop is an equal slice of one request phase, run on the data the loops before it changed (seed 001\'s qps@N and gb@N). ',
      'Medians of the repeats; size after the loop: logical (data + index) and on disk (the datadir).')));
  const timingBox = views.timings.length > 0 ? h('div', { id: 'timings-table' }) : null;
  if (timingBox) sections.push(h('section', { id: 'timings' }, h('h2', { text: 'DDL and reload: seconds per statement' }), timingBox));
  main.append(...sections);

  for (const series of views.loops) await drawLoops(/** @type {HTMLElement} */ (main.querySelector('#loops')), series);
  if (timingBox) {
    const baseSelect = /** @type {HTMLSelectElement|null} */ (main.querySelector('#base-select'));
    const baseNow = () => (baseSelect && views.versions.includes(baseSelect.value) ? baseSelect.value : views.defaultBase);
    const draw = () => timingBox.replaceChildren(timingTable(views, baseNow()));
    draw();
    baseSelect?.addEventListener('change', draw);
  }
  if (views.reads) {
    const tables = /** @type {HTMLElement|null} */ (main.querySelector('#line-tables'));
    if (tables) {
      addReadsToLineTable(tables, views);
      // The line page redraws its table when the reader picks another base or window.
      new MutationObserver(() => addReadsToLineTable(tables, views)).observe(tables, { childList: true });
    }
  }
}

/** @param {any} views */
function matrixNote(views) {
  const link = matrixUrl({ product: views.product, line: views.line, host: views.host, suite: views.matrixCell.matrix });
  return h('p', { class: 'note', id: 'matrix-note' }, `This series is the cell ${views.matrixCell.cell} of the config matrix ${views.matrixCell.matrix}: `,
    h('a', { href: link, text: 'its table per cell, a row per release' }), '.');
}

/**
 * @param {HTMLElement} section
 * @param {any} series one LoopSeries
 */
async function drawLoops(section, series) {
  const shown = series.releases.slice(-LOOP_RELEASES);
  const qps = chartFigure(`${series.test}: QPS per loop, by release`);
  qps.canvas.dataset.loops = series.test;
  qps.canvas.dataset.kind = 'qps';
  const size = chartFigure(`${series.test}: database size after each loop (logical solid, on disk dashed)`);
  size.canvas.dataset.loops = series.test;
  size.canvas.dataset.kind = 'size';
  const loops = series.loops.map((/** @type {number} */ k) => String(k));
  section.append(h('div', { class: 'charts' }, qps.figure, size.figure), loopTable(series));
  await drawChart(qps.canvas, {
    tooltip: { trigger: 'axis', valueFormatter: (/** @type {number} */ v) => (v == null ? '—' : fmtQps(v)) },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 64, right: 16, top: 36, bottom: 48 },
    xAxis: { type: 'category', name: 'loop', nameLocation: 'middle', nameGap: 28, data: loops },
    yAxis: { type: 'value', name: 'QPS (median)', nameLocation: 'middle', nameGap: 48, scale: true },
    series: shown.map((/** @type {any} */ r) => ({ name: r.version, type: 'line', data: r.qps, connectNulls: false })),
  });
  await drawChart(size.canvas, {
    tooltip: { trigger: 'axis', valueFormatter: (/** @type {number} */ v) => (v == null ? '—' : fmtBytes(v)) },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 80, right: 16, top: 36, bottom: 48 },
    xAxis: { type: 'category', name: 'loop', nameLocation: 'middle', nameGap: 28, data: loops },
    yAxis: { type: 'value', name: 'bytes', nameLocation: 'middle', nameGap: 64, scale: true, axisLabel: { formatter: (/** @type {number} */ v) => fmtBytes(v) } },
    series: shown.flatMap((/** @type {any} */ r) => [
      { name: `${r.version} logical`, type: 'line', data: r.logicalBytes, connectNulls: false },
      { name: `${r.version} on disk`, type: 'line', data: r.onDiskBytes, connectNulls: false, lineStyle: { type: 'dashed' } },
    ]),
  });
}

/**
 * The numbers of the loop charts: a row per release, qps@k and size@k columns.
 * @param {any} series
 */
function loopTable(series) {
  return scrollTable(`${series.test}: median QPS of each loop and the database size after it (logical / on disk), a row per release`, [
    h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text', text: 'Release' }),
      series.loops.map((/** @type {number} */ k) => h('th', { scope: 'col', text: `qps@${k}` })),
      series.loops.map((/** @type {number} */ k) => h('th', { scope: 'col', text: `size@${k}` })))),
    h('tbody', null, series.releases.map((/** @type {any} */ r) => h('tr', { dataset: { version: r.version } },
      h('th', { scope: 'row', class: 'text', text: r.version }),
      r.qps.map((/** @type {number|null} */ v, /** @type {number} */ i) => h('td', { dataset: { loop: String(series.loops[i]), qps: v ?? '' }, text: fmtQps(v) })),
      r.onDiskBytes.map((/** @type {number|null} */ v, /** @type {number} */ i) => h('td', {
        dataset: { loop: String(series.loops[i]), logical: r.logicalBytes[i] ?? '', onDisk: v ?? '' },
        text: `${fmtBytes(r.logicalBytes[i])} / ${fmtBytes(v)}`,
      }))))),
  ], { id: `loops-table-${series.test}`, class: 'loops-table' });
}

/**
 * Seconds per statement (a row per statement, a column per release) with relative performance
 * to the base: base seconds ÷ seconds, so above 1 is faster, as the throughput ratios read.
 * @param {any} views
 * @param {string} base
 */
export function timingTable(views, base) {
  const bi = views.versions.indexOf(base);
  return scrollTable(`Seconds per statement, lower is better; relative performance = seconds on ${base} ÷ seconds (above 1 = faster than ${base})`, [
    h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text', text: 'Statement' }),
      views.versions.map((/** @type {string} */ v) => h('th', { scope: 'col', class: v === base ? 'is-base' : null, text: v === base ? `${v} (base)` : v })))),
    h('tbody', null, views.timings.map((/** @type {any} */ row) => h('tr', { dataset: { test: row.test } },
      h('th', { scope: 'row', class: 'text', title: row.statement ?? '' }, row.test, row.statement ? h('div', { class: 'muted', text: row.statement }) : null),
      row.cells.map((/** @type {any} */ c, /** @type {number} */ i) => {
        const baseSeconds = bi >= 0 ? row.cells[bi].seconds : null;
        const relative = i !== bi && c.seconds && baseSeconds ? baseSeconds / c.seconds : null;
        const cpu = c.clientCpuS !== null || c.serverCpuS !== null ? `CPU s: client ${fmtNum(c.clientCpuS)}, server ${fmtNum(c.serverCpuS)}` : null;
        return h('td', { dataset: { version: views.versions[i], seconds: c.seconds ?? '', relative: relative ?? '' }, title: `median of ${c.n} repeats${cpu ? `; ${cpu}` : ''}` },
          h('span', { class: 'seconds', text: c.seconds === null ? '—' : `${fmtNum(c.seconds)} s` }),
          i === bi ? null : h('span', { class: 'ratio-line' }, ratioSpan(relative),
            c.verdict && c.verdict.verdict !== 'unchanged' ? [' ', verdictBadge(c.verdict.verdict, `duration vs ${c.verdict.baseVersion}, ratio ${fmtRatio(c.verdict.ratio)}`)] : null),
          cpu ? h('div', { class: 'muted cpu', text: cpu }) : null);
      })))),
  ], { id: 'timing-table' });
}

/**
 * Reads per operation under each throughput in the line table (idempotent: the table is
 * redrawn when the base changes).
 * @param {HTMLElement} tables
 * @param {any} views
 */
function addReadsToLineTable(tables, views) {
  for (const row of tables.querySelectorAll('#line-table tr[data-test]')) {
    const test = /** @type {HTMLElement} */ (row).dataset.test;
    const reads = views.reads.tests.find((/** @type {any} */ t) => t.test === test);
    if (!reads) continue;
    for (const cell of row.querySelectorAll('td[data-version]')) {
      if (cell.querySelector('.reads')) continue;
      const i = views.versions.indexOf(/** @type {HTMLElement} */ (cell).dataset.version);
      const v = i >= 0 ? reads.readsPerOp[i] : null;
      cell.append(h('span', { class: 'reads muted', dataset: { readsPerOp: v ?? '' }, title: 'storage reads per operation (median of the repeats): the data does not fit the buffer pool', text: `${fmtNum(v)} reads/op` }));
    }
  }
}

/**
 * A reads/op column after the median in the test page's history.
 * @param {HTMLElement} main
 * @param {any} views
 * @param {string} test
 */
function addReadsColumn(main, views, test) {
  const reads = views.reads?.tests.find((/** @type {any} */ t) => t.test === test);
  const table = main.querySelector('#test-history');
  if (!reads || !table) return;
  table.querySelector('thead tr th:nth-child(2)')?.after(h('th', { scope: 'col', title: 'storage reads per operation (median of the repeats)', text: 'Reads/op' }));
  for (const row of table.querySelectorAll('tbody tr[data-version]')) {
    const i = views.versions.indexOf(/** @type {HTMLElement} */ (row).dataset.version);
    const v = i >= 0 ? reads.readsPerOp[i] : null;
    row.querySelector('td')?.after(h('td', { class: 'reads', dataset: { readsPerOp: v ?? '' }, text: fmtNum(v) }));
  }
}
