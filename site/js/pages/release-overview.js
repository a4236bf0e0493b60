/**
 * The release page's first pictures: every test's throughput ratio to the compared release with
 * its interval, sorted by ratio (worst first), the issue threshold band drawn, the verdict as
 * the point's colour and shape, suspects marked; beside it the counted verdicts (instructions
 * and work per operation) drawn the same way. A reader sees in one look which tests moved,
 * how sure each is, and where to look first; the tests table below has the same numbers.
 */
import { h } from '../dom.js';
import { drawChart, chartFigure } from '../charts.js';
import { fmtRatio } from '../format.js';
import { ratioAxisRange } from '../ratios.js';

/** Point colours by verdict (the legend's words are the series names). */
const COLOURS = Object.freeze({ regression: '#c62828', improvement: '#2e7d32', unchanged: '#78909c', inconclusive: '#f9a825', failed: '#6a1b9a' });
/** Pixels per test row: every test keeps a readable label. */
const ROW_PX = 18;

/**
 * @typedef {object} ForestRow one verdict on the chart
 * @property {string} label the y axis label (the test, with the metric on the counted chart)
 * @property {number} ratio the verdict's estimate
 * @property {[number, number]|null} ci
 * @property {string} verdict
 * @property {boolean} suspect
 */

/**
 * The release page's first pictures, side by side: every test's throughput verdict (timed), and
 * every counted verdict (instructions and work per operation), each a ratio with its interval
 * against the compared release, worst first.
 * @param {any} d the release data
 * @returns {{figure: HTMLElement|null, draw: () => Promise<void>}} no figure without a comparison
 *   or without verdicts to draw
 */
export function overviewChart(d) {
  if (!d.comparison) return { figure: null, draw: async () => {} };
  const suspectOf = (/** @type {string} */ test, /** @type {string} */ metric) => (d.suspects ?? []).some((/** @type {any} */ s) => s.test === test && s.metric === metric);
  const timedRows = d.tests.filter((/** @type {any} */ t) => t.verdict && typeof t.verdict.ratio === 'number')
    .map((/** @type {any} */ t) => ({ label: t.name, ratio: t.verdict.ratio, ci: t.verdict.ci ?? null, verdict: t.verdict.verdict, suspect: suspectOf(t.name, 'throughput'), group: t.group }))
    // Worst first: for throughput the lowest ratio.
    .sort((/** @type {ForestRow} */ a, /** @type {ForestRow} */ b) => a.ratio - b.ratio);
  const counted = countedRows(d, suspectOf);
  const charts = [
    timedRows.length ? forest(`Throughput ratio to ${d.comparison.base.version} with its interval, every test, worst first (band: the issue threshold; ◆ suspect)`, 'overview', timedRows,
      { axis: `ratio to ${d.comparison.base.version} (the verdict's estimate)`, band: bandOf(d, timedRows), digits: 2 }) : null,
    counted.rows.length ? forest(`Counted per operation (${counted.labels}): ratio to ${d.comparison.base.version} with its interval, worst (highest) first${counted.left ? `; ${counted.left} counted verdicts whose interval holds no change and that are not inconclusive are left out (the tables below have them)` : ''} (◆ suspect)`,
      'overview-counted', counted.rows, { axis: `ratio to ${d.comparison.base.version}, counted (lower is better)`, band: countedBand(d, counted.metrics), digits: 5 }) : null,
  ].filter((c) => c !== null);
  if (charts.length === 0) return { figure: null, draw: async () => {} };
  return { figure: h('div', { class: 'charts', id: 'overview-charts' }, charts.map((c) => c.figure)), draw: async () => { for (const c of charts) await c.draw(); } };
}

/**
 * The counted verdicts worth a row: every instructions verdict, and each other counted verdict
 * (the work meter's counters) that is decided, inconclusive, or whose interval excludes no
 * change; worst (highest ratio: more work per operation) first.
 * @param {any} d
 * @param {(test: string, metric: string) => boolean} suspectOf
 * @returns {{rows: ForestRow[], left: number, labels: string, metrics: string[]}}
 */
function countedRows(d, suspectOf) {
  // Each counting meter's own column metric is always drawn; its other metrics when they moved.
  const all = d.tests.flatMap((/** @type {any} */ t) => [...Object.values(t.countedVerdicts ?? {}).map((v) => ({ v, column: true })), ...(t.otherVerdicts ?? []).map((/** @type {any} */ v) => ({ v, column: false }))]
    .filter(({ v }) => v && v.counted && typeof v.ratio === 'number').map(({ v, column }) => ({ test: t.name, v, column })));
  const shown = all.filter((/** @type {any} */ { v, column }) => column || v.verdict !== 'unchanged' || (v.ci && (v.ci[0] > 1 || v.ci[1] < 1)));
  const metrics = [...new Set(shown.map((/** @type {any} */ { v }) => v.metric))];
  const rows = shown.map((/** @type {any} */ { test, v }) => ({
    label: metrics.length > 1 ? `${test} · ${v.metric}` : test, ratio: v.ratio, ci: v.ci ?? null, verdict: v.verdict, suspect: suspectOf(test, v.metric),
  })).sort((/** @type {ForestRow} */ a, /** @type {ForestRow} */ b) => b.ratio - a.ratio);
  const labels = [...new Set(shown.map((/** @type {any} */ { v }) => v.label ?? v.metric))].join('; ');
  return { rows, left: all.length - shown.length, labels, metrics };
}

/**
 * One forest plot: a row per verdict, its interval as a bar, its estimate as a point coloured by
 * verdict (a diamond for a suspect), no change and the band of no issue drawn.
 * @param {string} caption
 * @param {string} cls the figure's class (and the canvas's data-chart name)
 * @param {ForestRow[]} rows worst first
 * @param {{axis: string, band: [number, number]|null, digits: number}} o
 */
function forest(caption, cls, rows, o) {
  const { figure, canvas } = chartFigure(caption, cls);
  canvas.style.height = `${Math.max(260, rows.length * ROW_PX + 90)}px`;
  canvas.dataset.tests = String(rows.length);
  const verdicts = Object.keys(COLOURS).filter((v) => rows.some((r) => r.verdict === v));
  const option = () => {
    const lows = rows.map((r) => r.ci?.[0] ?? null);
    const spans = rows.map((r) => (r.ci ? r.ci[1] - r.ci[0] : null));
    const [min, max] = axisRange(rows, o.band, o.digits);
    const point = (/** @type {string} */ verdict) => ({
      name: verdict, type: 'scatter', symbolSize: 9, z: 3,
      itemStyle: { color: COLOURS[/** @type {keyof typeof COLOURS} */ (verdict)] ?? '#999' },
      data: rows.map((r, i) => (r.verdict === verdict ? { value: [r.ratio, i], symbol: r.suspect ? 'diamond' : 'circle', symbolSize: r.suspect ? 13 : 9 } : null)).filter(Boolean),
    });
    return {
      tooltip: {
        trigger: 'axis', axisPointer: { type: 'shadow' },
        formatter: (/** @type {any[]} */ items) => {
          const row = rows.find((r) => r.label === items[0]?.axisValue);
          return row ? `${row.label}: ${fmtRatio(row.ratio, o.digits)}${row.ci ? ` [${fmtRatio(row.ci[0], o.digits)}, ${fmtRatio(row.ci[1], o.digits)}]` : ''}, ${row.verdict}${row.suspect ? ' (suspect)' : ''}` : '';
        },
      },
      legend: { top: 0, data: verdicts },
      grid: { left: 10, right: 24, top: 34, bottom: 44, containLabel: true },
      xAxis: { type: 'value', name: o.axis, nameLocation: 'middle', nameGap: 28, min, max, axisLabel: { formatter: (/** @type {number} */ v) => fmtRatio(v, o.digits === 2 ? 2 : 4) } },
      yAxis: { type: 'category', data: rows.map((r) => r.label), inverse: true, axisLabel: { interval: 0, fontSize: 11 } },
      series: [
        // The interval as a bar from its low end to its high end: an invisible bar up to the
        // low end, stacked under the visible span.
        { name: 'below interval', type: 'bar', stack: 'ci', silent: true, itemStyle: { color: 'transparent' }, data: lows, barWidth: 4, tooltip: { show: false } },
        { name: 'interval', type: 'bar', stack: 'ci', itemStyle: { color: '#90a4ae' }, data: spans, barWidth: 4,
          markArea: o.band ? { silent: true, itemStyle: { color: 'rgba(120,144,156,0.12)' }, data: [[{ xAxis: o.band[0] }, { xAxis: o.band[1] }]] } : undefined,
          markLine: { silent: true, symbol: 'none', label: { show: false }, lineStyle: { type: 'dashed', color: '#555' }, data: [{ xAxis: 1 }] } },
        ...verdicts.map(point),
      ],
    };
  };
  return { figure, draw: async () => { await drawChart(canvas, option()); } };
}

/**
 * The x range: timed ratios as every ratio chart of the site; counted ones move by tenths of a
 * percent, so their range is their own ends and the band, padded, not ±2 % around them.
 * @param {ForestRow[]} rows
 * @param {[number, number]|null} band
 * @param {number} digits
 * @returns {[number, number]}
 */
function axisRange(rows, band, digits) {
  const ends = [...rows.flatMap((r) => r.ci ?? []), ...(band ?? [])];
  if (digits === 2) return /** @type {[number, number]} */ (ratioAxisRange(rows.map((r) => r.ratio), ends));
  const all = [1, ...rows.map((r) => r.ratio), ...ends];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = Math.max((hi - lo) * 0.1, 0.0005);
  return [Number((lo - pad).toFixed(4)), Number((hi + pad).toFixed(4))];
}

/**
 * The band of no issue of the counted metrics drawn: the narrowest issue threshold among them.
 * @param {any} d
 * @param {string[]} metrics
 * @returns {[number, number]|null}
 */
function countedBand(d, metrics) {
  const own = d.comparison.thresholds?.metrics ?? {};
  const issues = metrics.map((m) => own[m]?.issue).filter((x) => typeof x === 'number');
  if (issues.length === 0) return null;
  const issue = Math.min(...issues);
  return [1 - issue, 1 + issue];
}

/**
 * The band of no issue around 1: the issue threshold of the groups the tests belong to (the
 * narrowest, when groups differ, so that nothing outside the band looks settled).
 * @param {any} d
 * @param {any[]} rows
 * @returns {[number, number]}
 */
function bandOf(d, rows) {
  const groups = d.comparison.thresholds?.groups ?? {};
  const issues = [...new Set(rows.map((r) => r.group))].map((g) => groups[g]?.issue).filter((x) => typeof x === 'number');
  const issue = issues.length ? Math.min(...issues) : 0.05;
  return [1 - issue, 1 + issue];
}
