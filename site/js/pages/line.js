/**
 * Product line: the seed posts' table (a row per test, a column per release, QPS and the
 * ratio to a base release, marked below 0.95 / above 1.05), group summaries (geometric mean of
 * the ratios, as the compare stage's table), and one chart per test group of ratio by release.
 * The base release is selectable; the choice is kept in the URL (?base=).
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson, params, setParam } from '../data.js';
import { dataPaths } from '../paths.js';
import { fmtQps, fmtRatio, fmtDate, ratioClass } from '../format.js';
import { tableShownRatios, groupMeanRatios, groupSummary, intervalsAgainst, ratioAxisRange } from '../ratios.js';
import { formatShownRatio } from '#shown-ratio';
import { breadcrumb, verdictBadge, shownRatioSpan, legend, tableTitle, releaseHref, testHref, requireParams } from '../components.js';
import { drawChart, chartFigure, zoomFor, UNJUDGED_GREY } from '../charts.js';
import { sequenceSection, drawSequenceCharts } from './sequences.js';

/** Why the default base is the default, in words. */
const BASE_SOURCE = /** @type {Record<string, string>} */ ({
  baseline: 'accepted baseline', config: 'configured base', oldest: 'oldest release',
});

/** Columns shown at first in long lines (all releases stay in the charts and the CSV). */
const DEFAULT_WINDOW = 30;

/** @param {HTMLElement} main */
export async function render(main) {
  const q = params();
  const key = requireParams(q, ['product', 'line', 'host', 'suite']);
  const t = await loadJson(dataPaths.table(key));
  const versions = t.releases.map((/** @type {any} */ r) => r.version);
  let base = versions.includes(q.get('base')) ? /** @type {string} */ (q.get('base')) : t.defaultBase;
  let windowSize = q.get('show') === 'all' ? versions.length : Number(q.get('show')) || DEFAULT_WINDOW;

  const baseSelect = h('select', { id: 'base-select', name: 'base' },
    [...versions].reverse().map((v) => h('option', { value: v, selected: v === base, text: v === t.defaultBase ? `${v} (${BASE_SOURCE[t.defaultBaseSource] ?? 'default'})` : v })));
  const windowSelect = h('select', { id: 'window-select', name: 'show' },
    [10, 30, 100].filter((n) => n < versions.length).map((n) => h('option', { value: String(n), selected: n === windowSize, text: `newest ${n}` })),
    h('option', { value: 'all', selected: windowSize >= versions.length, text: `all ${versions.length}` }));
  const tablesBox = h('div', { id: 'line-tables' });
  const chartsBox = h('div', { class: 'charts' });
  const intervalsBox = h('p', { class: 'muted', id: 'interval-note', text: intervalNote(t, base) });

  fill(main, 
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: tableTitle(t) }]),
    h('h1', { text: tableTitle(t) }),
    h('p', null, `${versions.length} releases, ${t.tests.length} tests. Each cell: median throughput of the repeats (QPS; rows/s for scans) and its ratio to the base: the verdict's estimate (paired by round: the geometric mean of the rounds' ratios), the same number the release and test pages, the CSV and the reports give, when the release was compared with that base; otherwise median ÷ base median, grey and marked * as not judged, with why below the table. `,
      h('a', { href: t.csv, download: '', text: 'Download this table as CSV' }), '.'),
    h('div', { class: 'controls' },
      h('label', { for: 'base-select' }, 'Base release', baseSelect),
      h('label', { for: 'window-select' }, 'Releases in the tables', windowSelect)),
    legend(),
    h('h2', { id: 'charts-h', text: 'Ratio to the base release, by test group' }),
    intervalsBox,
    chartsBox,
    tablesBox,
    sequenceSection(t.sequences));

  const draw = () => fill(tablesBox, ...renderTables(t, base, windowSize));
  draw();

  /** @type {{g: any, chart: {update: (option: any) => void}}[]} */
  const charts = [];
  for (const g of t.groups) {
    const { figure, canvas } = chartFigure(`${g.label}: ratio to base by release (grey points: not judged)`);
    canvas.dataset.group = g.name;
    chartsBox.append(figure);
    charts.push({ g, chart: await drawChart(canvas, groupChartOption(t, g, base)) });
  }

  // Concurrency sweeps (seed 004's rows of "1 2 4 8 16 32 clients"): throughput by clients,
  // a line per release (the newest ones, as the tables show them).
  for (const sweep of t.sweeps ?? []) {
    const { figure, canvas } = chartFigure(`${sweep.test}: ${sweep.metric === 'qps' ? 'QPS' : sweep.metric} by clients`);
    canvas.dataset.sweep = sweep.test;
    chartsBox.append(figure);
    await drawChart(canvas, sweepChartOption(t, sweep));
  }

  await drawSequenceCharts(t.sequences);

  baseSelect.addEventListener('change', () => {
    base = /** @type {HTMLSelectElement} */ (baseSelect).value;
    setParam('base', base === t.defaultBase ? null : base);
    draw();
    intervalsBox.textContent = intervalNote(t, base);
    for (const { g, chart } of charts) chart.update(groupChartOption(t, g, base));
  });
  windowSelect.addEventListener('change', () => {
    const v = /** @type {HTMLSelectElement} */ (windowSelect).value;
    windowSize = v === 'all' ? versions.length : Number(v);
    setParam('show', v === String(DEFAULT_WINDOW) ? null : v);
    draw();
  });
}

/**
 * Release indexes in the tables: the newest `size`, plus the base when it is older.
 * @param {any} t
 * @param {string} base
 * @param {number} size
 */
function shownColumns(t, base, size) {
  const n = t.releases.length;
  const cols = [];
  for (let i = Math.max(0, n - size); i < n; i++) cols.push(i);
  const bi = t.releases.findIndex((/** @type {any} */ r) => r.version === base);
  if (bi >= 0 && !cols.includes(bi)) cols.unshift(bi);
  return cols;
}

/**
 * @param {any} t
 * @param {string} base
 * @param {number} size
 * @returns {HTMLElement[]}
 */
function renderTables(t, base, size) {
  const r = tableShownRatios(t, base);
  const means = groupMeanRatios(r);
  const cols = shownColumns(t, base, size);
  const head = (/** @type {string} */ first) => h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text sticky-col', text: first }),
    cols.map((i) => {
      const rel = t.releases[i];
      return h('th', { scope: 'col', class: rel.version === base ? 'is-base' : null, title: `finished ${fmtDate(rel.date)}${rel.version === base ? ' (base)' : ''}` },
        h('a', { href: releaseHref(t, rel.version), text: rel.version }));
    })));

  const summaryRows = t.groups.map((/** @type {any} */ g) =>
    h('tr', { dataset: { group: g.name } }, h('th', { scope: 'row', class: 'text sticky-col', text: `${g.label} (${g.tests.length})` }),
      cols.map((i) => {
        const { geomean, n, lo, hi } = groupSummary(t, g, means, i);
        return h('td', { class: ratioClass(geomean) || null, title: `geometric mean of the ratios of ${n} tests (tests compare refused to judge left out); ${lo} below 0.95, ${hi} above 1.05`, dataset: { version: t.releases[i].version, geomean: geomean ?? '' } },
          fmtRatio(geomean), lo || hi ? h('span', { class: 'muted', text: ` (${lo}▼ ${hi}▲)` }) : null);
      })));

  const bodies = t.groups.map((/** @type {any} */ g) => h('tbody', null,
    h('tr', null, h('th', { scope: 'rowgroup', colspan: String(cols.length + 1), class: 'sticky-col', text: g.label })),
    g.tests.map((/** @type {string} */ name) => {
      const k = t.tests.findIndex((/** @type {any} */ x) => x.name === name);
      const test = t.tests[k];
      return h('tr', { dataset: { test: name } },
        h('th', { scope: 'row', class: 'text sticky-col' }, h('a', { href: testHref(t, name), text: name })),
        cols.map((i) => {
          const v = test.values[i];
          const verdict = test.verdicts[i];
          const cmp = t.releases[i].comparison;
          const shown = r[k][i];
          return h('td', { dataset: { version: t.releases[i].version, qps: v ?? '', ratio: shown?.ratio ?? '', shownRatio: shown ? formatShownRatio(shown) : '', judged: shown ? String(shown.judged) : '' }, title: v === null ? 'no result' : `${name} on ${t.releases[i].version}: median of ${test.n[i]} repeats` },
            h('span', { class: 'qps', text: fmtQps(v) }),
            h('span', { class: 'ratio-line' }, shownRatioSpan(shown), verdict && verdict !== 'unchanged' ? [' ', verdictBadge(verdict, cmp ? `vs ${cmp.baseVersion}` : '')] : null));
        }));
    })));

  return /** @type {HTMLElement[]} */ ([
    h('h2', { text: 'Group summaries' }),
    scrollTable(`Geometric mean of the ratios to ${base} per test group, without the tests compare refused to judge (count of tests below 0.95 ▼ / above 1.05 ▲)`, [head('Group'), h('tbody', null, summaryRows)], { id: 'group-summary' }),
    h('h2', { text: 'Throughput by test' }),
    cols.length < t.releases.length ? h('p', { class: 'muted', text: `Showing ${cols.length} of ${t.releases.length} releases; pick "all" above to see every column.` }) : null,
    scrollTable(`QPS and ratio to ${base}, each test a row, each release a column`, [head('Test'), ...bodies], { id: 'line-table' }),
    refusedNote(t, r, cols),
  ].filter((x) => x !== null));
}

/**
 * Why each test compare refused to judge is not judged, under the table (a cell's tooltip says
 * it too, but a touch screen has no hover).
 * @param {any} t
 * @param {(import('#shown-ratio').ShownRatio|null)[][]} shown
 * @param {number[]} cols
 * @returns {HTMLElement|null}
 */
function refusedNote(t, shown, cols) {
  const items = t.tests.flatMap((/** @type {any} */ test, /** @type {number} */ k) => cols.flatMap((i) => {
    const s = shown[k][i];
    return s?.refused ? [h('li', { dataset: { test: test.name, version: t.releases[i].version } }, `${test.name} on ${t.releases[i].version} (${formatShownRatio(s)}*): not judged: ${s.why}`)] : [];
  }));
  return items.length === 0 ? null : h('div', { id: 'not-judged', class: 'note' }, h('p', { text: '* Not judged: grey in the table and the charts, left out of the group means.' }), h('ul', null, items));
}

/**
 * One chart per group: a line per test of its ratio to the base, by release.
 * @param {any} t
 * @param {any} g
 * @param {string} base
 */
function groupChartOption(t, g, base) {
  const shown = tableShownRatios(t, base);
  const r = shown.map((row) => row.map((x) => x?.ratio ?? null));
  const { intervals } = intervalsAgainst(t, base);
  const versions = t.releases.map((/** @type {any} */ x) => x.version);
  /** @type {number[]} the group's tests' indexes in the table */
  const rows = g.tests.map((/** @type {string} */ name) => t.tests.findIndex((/** @type {any} */ x) => x.name === name));
  const drawn = rows.flatMap((k) => intervals[k].flatMap((x) => (x ? [x] : [])));
  const range = ratioAxisRange([...rows.flatMap((k) => r[k]), ...drawn.map((x) => x.ratio)], [...drawn.flatMap((x) => x.ci), 0.95, 1.05]);
  // An interval wider than the axis is drawn to its edge (the tooltip has the whole of it).
  const clamp = (/** @type {number} */ v) => (range ? Math.min(range[1], Math.max(range[0], v)) : v);
  return {
    tooltip: {
      trigger: 'axis',
      formatter: (/** @type {any[]} */ items) => [items[0]?.axisValue, ...items.map((it) => {
        const iv = intervals[rows[it.seriesIndex]]?.[it.dataIndex];
        const s = shown[rows[it.seriesIndex]]?.[it.dataIndex];
        if (!s) return `${it.marker}${it.seriesName}: —`;
        return `${it.marker}${it.seriesName}: ${formatShownRatio(s)}${s.judged ? '' : ` (not judged: ${s.why})`}${iv ? ` [${fmtRatio(iv.ci[0], 3)}, ${fmtRatio(iv.ci[1], 3)}]` : ''}`;
      })].join('<br>'),
    },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 58, right: 16, top: 36, bottom: versions.length > 40 ? 78 : 56 },
    xAxis: { type: 'category', data: versions, axisLabel: { rotate: 40 } },
    // The range's ends are no round numbers: their labels would crowd the nearest tick's.
    yAxis: { type: 'value', name: `ratio to ${base}`, nameLocation: 'middle', nameGap: 40, scale: true, min: range?.[0] ?? null, max: range?.[1] ?? null,
      axisLabel: { showMinLabel: false, showMaxLabel: false } },
    dataZoom: zoomFor(versions.length, 40),
    series: rows.map((k, j) => {
      const bars = intervals[k].flatMap((iv, i) => (iv ? [{ version: versions[i], ...iv }] : []));
      return {
        // A ratio not judged is a grey hollow point: its value is shown, never as a verdict.
        name: t.tests[k].name, type: 'line', connectNulls: false, showSymbol: versions.length <= 60,
        data: shown[k].map((x, i) => (x && !x.judged && versions[i] !== base ? { value: x.ratio, symbol: 'emptyCircle', symbolSize: 7, itemStyle: { color: UNJUDGED_GREY } } : x?.ratio ?? null)),
        // Markers take the series' colour and hide with it from the legend: the verdict's
        // interval as a vertical bar, its own ratio as a tick across it.
        markLine: { silent: true, symbol: 'none', label: { show: false }, lineStyle: { type: 'dashed' },
          data: [
            ...(j === 0 ? [{ yAxis: 1 }, { yAxis: 0.95 }, { yAxis: 1.05 }] : []),
            ...bars.map((b) => [{ coord: [b.version, clamp(b.ci[0])], lineStyle: { type: 'solid', width: 2, opacity: 0.7 } }, { coord: [b.version, clamp(b.ci[1])] }]),
          ] },
        markPoint: bars.length === 0 ? undefined : { silent: true, symbol: 'rect', symbolSize: [12, 2], label: { show: false },
          data: bars.map((b) => ({ coord: [b.version, clamp(b.ratio)] })) },
      };
    }),
  };
}

/**
 * What the charts' bars are, and for which releases there are none against this base.
 * @param {any} t
 * @param {string} base
 */
function intervalNote(t, base) {
  const { intervals, comparedElsewhere } = intervalsAgainst(t, base);
  const withBars = t.releases.filter((/** @type {any} */ _r, /** @type {number} */ i) => intervals.some((row) => row[i] !== null)).map((/** @type {any} */ r) => r.version);
  const elsewhere = comparedElsewhere.map((c) => `${c.version} against ${c.baseVersion}`);
  return [
    withBars.length > 0 ? `Bars: the verdict's interval of each test of ${withBars.join(', ')} (compared with ${base}), the tick across a bar its own ratio (paired by round), which the line goes through. `
      : `No release was compared with ${base}, so no interval is drawn. `,
    elsewhere.length > 0 ? `Intervals exist only against the compared base: ${elsewhere.join(', ')}; pick that base to see them.` : '',
  ].join('').trim();
}

/** Releases drawn in a chart by clients: more lines than this are unreadable. */
const SWEEP_RELEASES = 10;

/**
 * Throughput by client count, a line per release (the newest SWEEP_RELEASES).
 * @param {any} t table data
 * @param {{test: string, metric: string, clients: number[], tests: string[]}} sweep
 */
export function sweepChartOption(t, sweep) {
  const indexes = t.releases.map((/** @type {any} */ _r, /** @type {number} */ i) => i).slice(-SWEEP_RELEASES);
  return {
    tooltip: { trigger: 'axis', valueFormatter: (/** @type {number} */ v) => (v == null ? '—' : fmtQps(v)) },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 64, right: 16, top: 36, bottom: 48 },
    xAxis: { type: 'category', name: 'clients', nameLocation: 'middle', nameGap: 28, data: sweep.clients.map(String) },
    yAxis: { type: 'value', name: sweep.metric === 'qps' ? 'QPS (median)' : `${sweep.metric} (median)`, nameLocation: 'middle', nameGap: 48 },
    series: indexes.map((/** @type {number} */ i) => ({
      name: t.releases[i].version,
      type: 'line',
      data: sweep.tests.map((name) => t.tests.find((/** @type {any} */ x) => x.name === name)?.values[i] ?? null),
      connectNulls: false,
    })),
  };
}
