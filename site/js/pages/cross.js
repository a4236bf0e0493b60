/**
 * Across lines and products: seed post 003's one table (a row per test, a column per release,
 * QPS and the ratio to a base, marked below 0.95 / above 1.05) for releases of any product line
 * or product run on one host class with one suite, and charts of the ratio by release over the
 * whole history of each product (every line in order) and across products. A view: verdicts
 * against baselines stay on the line pages. Host class and suite, columns, base and the charts'
 * test are kept in the URL (?host= &suite= &releases= &base= &test=).
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson, loadJsonOrNull, params, setParam } from '../data.js';
import { dataPaths, pageUrl } from '../paths.js';
import { fmtQps, fmtRatio, fmtDate, ratioClass, LO, HI } from '../format.js';
import { geometricMean } from '../ratios.js';
import { breadcrumb, ratioSpan, lineHref } from '../components.js';
import { drawChart, chartFigure, zoomFor } from '../charts.js';

/**
 * @typedef {{key: string, product: string, productName: string, line: string, version: string, date: string|null, runs: number}} CrossRelease
 * @typedef {{schemaVersion: number, host: string, suite: string, releases: CrossRelease[],
 *   groups: {name: string, label: string, tests: string[]}[],
 *   tests: {name: string, group: string, metric: string, values: (number|null)[], n: number[], refused?: (string|null)[]}[],
 *   defaultColumns: string[], defaultBase: string|null}} CrossData
 */

/** @param {HTMLElement} main */
export async function render(main) {
  const q = params();
  const index = await loadJsonOrNull(dataPaths.crossIndex());
  const tables = /** @type {{host: string, suite: string, releaseCount: number, products: string[], lineCount: number}[]} */ (index?.tables ?? []);
  const crumbs = breadcrumb([{ label: 'Home', href: 'index.html' }, { label: 'Across lines and products' }]);
  if (tables.length === 0) {
    fill(main, crumbs, h('h1', { text: 'Across lines and products' }),
      h('p', { class: 'note', text: 'No run records yet. Run `tagbench run` and build the site again.' }));
    return;
  }
  const chosen = tables.find((t) => t.host === q.get('host') && t.suite === q.get('suite')) ?? tables[0];
  /** @type {CrossData} */
  const t = await loadJson(dataPaths.cross(chosen));
  const keys = t.releases.map((r) => r.key);
  const wanted = (q.get('releases') ?? '').split(',').filter((k) => keys.includes(k));
  /** @type {CrossState} */
  const state = {
    columns: wanted.length > 0 ? wanted : t.defaultColumns,
    base: '',
    test: t.tests.some((x) => x.name === q.get('test')) ? /** @type {string} */ (q.get('test')) : t.tests[0]?.name ?? '',
  };
  state.base = /** @type {string} */ (keys.includes(q.get('base') ?? '') ? q.get('base') : state.columns[0] ?? t.defaultBase);
  const label = (/** @type {string} */ key) => {
    const r = t.releases.find((x) => x.key === key);
    return r ? `${r.productName} ${r.version}` : key;
  };
  const controls = crossControls(t, tables, chosen, state);
  const byProduct = [...new Set(t.releases.map((r) => r.productName))];
  const tableBox = h('div', { id: 'cross-tables' });
  const chartsBox = h('div', { class: 'charts' });

  fill(main, crumbs,
    h('h1', { text: `Across lines and products · ${t.host} · ${t.suite}` }),
    h('p', null, `${t.releases.length} releases of ${byProduct.join(', ')} run on the host class ${t.host} with the suite ${t.suite}. Each cell: median throughput of the repeats (QPS; rows/s for scans) and its ratio to the base release. `,
      'A view, not a verdict: verdicts against a baseline are on each product line\'s page (',
      lineLinks(t), ').'),
    h('div', { class: 'controls' },
      h('label', { for: 'table-select' }, 'Host class and suite', controls.table),
      h('label', { for: 'release-select' }, 'Releases in the table (columns; Ctrl or Shift to pick several)', controls.releases),
      h('label', { for: 'base-select' }, 'Base release (ratio = QPS ÷ base QPS)', controls.base),
      h('label', { for: 'test-select' }, 'Test in the charts', controls.test)),
    // The marks only: this page shows no verdicts.
    h('p', { class: 'legend' },
      h('span', null, h('span', { class: 'swatch lo', text: '0.90' }), ` ratio below ${LO}`),
      h('span', null, h('span', { class: 'swatch hi', text: '1.10' }), ` ratio above ${HI}`)),
    tableBox,
    h('h2', { id: 'charts-h', text: 'Ratio to the base release by release, over the whole history' }),
    h('p', { class: 'muted', text: 'Every release stored for this host class and suite, in version order, whatever the table shows: one chart per product (a line per product line), and one across products.' }),
    chartsBox);

  const draw = () => {
    fill(controls.base, state.columns.map((k) => h('option', { value: k, selected: k === state.base, text: label(k) })));
    fill(tableBox, ...renderTable(t, state.columns, state.base, label));
  };
  draw();
  const redrawCharts = await drawCrossCharts(t, chartsBox, state, label);
  wireControls(t, controls, state, () => { draw(); redrawCharts(); }, redrawCharts);
  setParam('host', t.host);
  setParam('suite', t.suite);
}

/** @typedef {{columns: string[], base: string, test: string}} CrossState what the reader chose: the table's columns, its base, the charts' test */
/** @typedef {{table: HTMLElement, releases: HTMLElement, base: HTMLElement, test: HTMLElement}} CrossControls */

/**
 * The page's selects: host class and suite, the releases in the table, the base (filled by the
 * page as the columns change) and the test of the charts.
 * @param {CrossData} t
 * @param {{host: string, suite: string, releaseCount: number, products: string[]}[]} tables every cross table of the store
 * @param {object} chosen the one shown
 * @param {CrossState} state
 * @returns {CrossControls}
 */
function crossControls(t, tables, chosen, state) {
  const byProduct = [...new Set(t.releases.map((r) => r.productName))];
  return {
    table: h('select', { id: 'table-select', name: 'table' }, tables.map((x) =>
      h('option', { value: JSON.stringify([x.host, x.suite]), selected: x === chosen, text: `${x.host} · ${x.suite} (${x.products.join(', ')}: ${x.releaseCount} releases)` }))),
    releases: h('select', { id: 'release-select', name: 'releases', multiple: true, size: String(Math.min(12, t.releases.length + byProduct.length)) },
      byProduct.map((name) => h('optgroup', { label: name }, t.releases.filter((r) => r.productName === name)
        .map((r) => h('option', { value: r.key, selected: state.columns.includes(r.key), text: `${r.version} (line ${r.line})` }))))),
    base: h('select', { id: 'base-select', name: 'base' }),
    test: h('select', { id: 'test-select', name: 'test' }, t.tests.map((x) => h('option', { value: x.name, selected: x.name === state.test, text: x.name }))),
  };
}

/**
 * One history chart per product (a line per product line), and one across products when there
 * are several.
 * @param {CrossData} t
 * @param {HTMLElement} box
 * @param {CrossState} state
 * @param {(key: string) => string} label
 * @returns {Promise<() => void>} redraws every chart from the state
 */
async function drawCrossCharts(t, box, state, label) {
  const products = [...new Set(t.releases.map((r) => r.product))];
  /** @type {{product: string|null, chart: {update: (option: any) => void}}[]} */
  const charts = [];
  for (const product of [...products, ...(products.length > 1 ? [null] : [])]) {
    const name = product === null ? null : t.releases.find((r) => r.product === product)?.productName ?? product;
    const { figure, canvas } = chartFigure(name === null ? 'Across products: ratio to the base by release' : `${name}: ratio to the base by release, every line`);
    canvas.dataset.product = product ?? '';
    box.append(figure);
    charts.push({ product, chart: await drawChart(canvas, historyOption(t, product, state.test, state.base, label)) });
  }
  return () => { for (const c of charts) c.chart.update(historyOption(t, c.product, state.test, state.base, label)); };
}

/**
 * What each select changes: another table is another page; the releases and the base redraw
 * the table and charts; the test redraws the charts. Every choice is kept in the address.
 * @param {CrossData} t
 * @param {CrossControls} controls
 * @param {CrossState} state
 * @param {() => void} redrawAll
 * @param {() => void} redrawCharts
 */
function wireControls(t, controls, state, redrawAll, redrawCharts) {
  controls.table.addEventListener('change', () => {
    const [host, suite] = JSON.parse(/** @type {HTMLSelectElement} */ (controls.table).value);
    location.href = pageUrl('cross', { host, suite });
  });
  controls.releases.addEventListener('change', () => {
    const picked = [.../** @type {HTMLSelectElement} */ (controls.releases).selectedOptions].map((o) => o.value);
    state.columns = picked.length > 0 ? picked : t.defaultColumns;
    if (!state.columns.includes(state.base)) state.base = state.columns[0];
    setParam('releases', picked.length > 0 ? picked.join(',') : null);
    setParam('base', state.base);
    redrawAll();
  });
  controls.base.addEventListener('change', () => {
    state.base = /** @type {HTMLSelectElement} */ (controls.base).value;
    setParam('base', state.base);
    redrawAll();
  });
  controls.test.addEventListener('change', () => {
    state.test = /** @type {HTMLSelectElement} */ (controls.test).value;
    setParam('test', state.test);
    redrawCharts();
  });
}

/**
 * Links to the line pages of the lines in the cross table.
 * @param {CrossData} t
 */
function lineLinks(t) {
  /** @type {Map<string, CrossRelease>} */
  const lines = new Map();
  for (const r of t.releases) lines.set(`${r.product}|${r.line}`, r);
  return [...lines.values()].map((r, i) => [i > 0 ? ', ' : '', h('a', { href: lineHref({ product: r.product, line: r.line, host: t.host, suite: t.suite }), text: `${r.productName} ${r.line}` })]);
}

/**
 * Ratio of every release to the base, per test.
 * @param {CrossData} t
 * @param {string} base
 * @returns {(number|null)[][]} per test, per release (all of them)
 */
function ratiosTo(t, base) {
  const bi = t.releases.findIndex((r) => r.key === base);
  return t.tests.map((test) => test.values.map((v) => {
    const b = bi >= 0 ? test.values[bi] : null;
    return v !== null && b ? v / b : null;
  }));
}

/**
 * The table: group summaries (geometric mean of the ratios, as tagbench compare prints them)
 * and a row per test, a column per chosen release.
 * @param {CrossData} t
 * @param {string[]} columns keys in column order
 * @param {string} base
 * @param {(key: string) => string} label
 * @returns {HTMLElement[]}
 */
function renderTable(t, columns, base, label) {
  const r = ratiosTo(t, base);
  const bi = t.releases.findIndex((x) => x.key === base);
  // Why a ratio is not judged: the release's or the base's repeats too short for compare to judge.
  const refusedAt = (/** @type {number} */ k, /** @type {number} */ i) => t.tests[k].refused?.[i] ?? (i !== bi ? t.tests[k].refused?.[bi] ?? null : null);
  const cols = columns.map((k) => t.releases.findIndex((x) => x.key === k)).filter((i) => i >= 0);
  const head = (/** @type {string} */ first) => h('thead', null,
    h('tr', null, h('th', { scope: 'col', class: 'text sticky-col', text: first }),
      cols.map((i) => {
        const rel = t.releases[i];
        return h('th', { scope: 'col', class: rel.key === base ? 'is-base' : null, dataset: { key: rel.key, product: rel.product, line: rel.line }, title: `line ${rel.line}; ${rel.runs} run${rel.runs === 1 ? '' : 's'}, newest finished ${fmtDate(rel.date)}${rel.key === base ? ' (base)' : ''}` },
          label(rel.key), rel.key === base ? h('span', { class: 'muted', text: ' (base)' }) : null);
      })));
  const summaryRows = t.groups.map((g) => h('tr', { dataset: { group: g.name } },
    h('th', { scope: 'row', class: 'text sticky-col', text: `${g.label} (${g.tests.length})` }),
    cols.map((i) => {
      const rows = g.tests.map((name) => t.tests.findIndex((x) => x.name === name));
      // A step too short to judge must not move its group's mean (issue 35: "Writes 1.03").
      const gm = geometricMean(rows.map((k) => (refusedAt(k, i) ? null : r[k][i])));
      const left = rows.filter((k) => refusedAt(k, i) && r[k][i] !== null).length;
      return h('td', { class: ratioClass(gm) || null, dataset: { key: t.releases[i].key, geomean: gm ?? '', notJudged: String(left) },
        title: left > 0 ? `${left} test${left === 1 ? '' : 's'} not judged left out (repeats too short)` : undefined }, fmtRatio(gm));
    })));
  const bodies = t.groups.map((g) => h('tbody', null,
    h('tr', null, h('th', { scope: 'rowgroup', colspan: String(cols.length + 1), class: 'sticky-col', text: g.label })),
    g.tests.map((name) => {
      const k = t.tests.findIndex((x) => x.name === name);
      const test = t.tests[k];
      return h('tr', { dataset: { test: name } },
        h('th', { scope: 'row', class: 'text sticky-col', text: test.metric === 'qps' ? name : `${name} (${test.metric})` }),
        cols.map((i) => {
          const v = test.values[i];
          const why = i === bi ? null : refusedAt(k, i);
          return h('td', { dataset: { key: t.releases[i].key, qps: v ?? '', ratio: r[k][i] ?? '', notJudged: why ?? '' }, title: v === null ? 'not run, or no ok repeat' : `${name} on ${label(t.releases[i].key)}: median of ${test.n[i]} repeats${why ? `; not judged: ${why}` : ''}` },
            h('span', { class: 'qps', text: fmtQps(v) }),
            h('span', { class: 'ratio-line' }, why && r[k][i] !== null ? h('span', { class: 'ratio unjudged', text: `${fmtRatio(r[k][i])}*` }) : ratioSpan(r[k][i])));
        }));
    })));
  return [
    h('h2', { text: 'Group summaries' }),
    scrollTable(`Geometric mean of the ratios to ${label(base)} per test group`, [head('Group'), h('tbody', null, summaryRows)], { id: 'cross-summary' }),
    h('h2', { text: 'Throughput by test' }),
    scrollTable(`QPS and ratio to ${label(base)}, each test a row, each release a column`, [head('Test'), ...bodies], { id: 'cross-table' }),
  ];
}

/**
 * Ratio to the base by release for one test: over one product's whole history (a series per
 * product line, releases in version order), or over every product (a series per product).
 * @param {CrossData} t
 * @param {string|null} product null = every product
 * @param {string} testName
 * @param {string} base
 * @param {(key: string) => string} label
 */
function historyOption(t, product, testName, base, label) {
  const k = t.tests.findIndex((x) => x.name === testName);
  const ratios = k >= 0 ? ratiosTo(t, base)[k] : [];
  const shown = t.releases.map((r, i) => ({ r, i })).filter(({ r }) => product === null || r.product === product);
  const categories = shown.map(({ r }) => (product === null ? label(r.key) : r.version));
  const seriesOf = product === null ? (/** @type {CrossRelease} */ r) => r.productName : (/** @type {CrossRelease} */ r) => `${r.productName} ${r.line}`;
  const names = [...new Set(shown.map(({ r }) => seriesOf(r)))];
  return {
    tooltip: { trigger: 'axis', valueFormatter: (/** @type {number} */ v) => (v == null ? '—' : v.toFixed(3)) },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 58, right: 16, top: 36, bottom: categories.length > 40 ? 78 : 64 },
    xAxis: { type: 'category', data: categories, axisLabel: { rotate: 40 } },
    yAxis: { type: 'value', name: `${testName}: ratio to ${label(base)}`, nameLocation: 'middle', nameGap: 40, scale: true },
    dataZoom: zoomFor(categories.length, 60),
    series: names.map((name, j) => ({
      name, type: 'line', connectNulls: false, showSymbol: true,
      data: shown.map(({ r, i }) => (seriesOf(r) === name ? ratios[i] ?? null : null)),
      markLine: j === 0 ? { silent: true, symbol: 'none', label: { show: false }, lineStyle: { type: 'dashed' }, data: [{ yAxis: 1 }, { yAxis: 0.95 }, { yAxis: 1.05 }] } : undefined,
    })),
  };
}
