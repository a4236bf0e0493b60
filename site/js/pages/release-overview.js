/**
 * The release page's first picture: every test's throughput ratio to the compared release with
 * its interval, sorted by ratio (worst first), the issue threshold band drawn, the verdict as
 * the point's colour and shape, suspects marked. A reader sees in one look which tests moved,
 * how sure each is, and where to look first; the tests table below has the same numbers.
 */
import { drawChart, chartFigure } from '../charts.js';
import { fmtRatio } from '../format.js';
import { ratioAxisRange } from '../ratios.js';

/** Point colours by verdict (the legend's words are the series names). */
const COLOURS = Object.freeze({ regression: '#c62828', improvement: '#2e7d32', unchanged: '#78909c', inconclusive: '#f9a825', failed: '#6a1b9a' });
/** Pixels per test row: every test keeps a readable label. */
const ROW_PX = 18;

/**
 * @param {any} d the release data
 * @returns {{figure: HTMLElement|null, draw: () => Promise<void>}} no figure without a comparison
 *   or without throughput verdicts
 */
export function overviewChart(d) {
  const rows = d.tests.filter((/** @type {any} */ t) => t.verdict && typeof t.verdict.ratio === 'number')
    .map((/** @type {any} */ t) => ({ test: t.name, group: t.group, ...t.verdict }))
    // Worst first: for throughput the lowest ratio.
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.ratio - b.ratio);
  if (!d.comparison || rows.length === 0) return { figure: null, draw: async () => {} };
  const suspects = new Set((d.suspects ?? []).filter((/** @type {any} */ s) => s.metric === 'throughput').map((/** @type {any} */ s) => s.test));
  const { figure, canvas } = chartFigure(`Throughput ratio to ${d.comparison.base.version} with its interval, every test, worst first (band: the issue threshold; ◆ suspect)`, 'overview');
  canvas.style.height = `${Math.max(260, rows.length * ROW_PX + 90)}px`;
  canvas.dataset.tests = String(rows.length);
  const issueBand = bandOf(d, rows);
  const option = () => {
    const tests = rows.map((/** @type {any} */ r) => r.test);
    const lows = rows.map((/** @type {any} */ r) => r.ci?.[0] ?? null);
    const spans = rows.map((/** @type {any} */ r) => (r.ci ? r.ci[1] - r.ci[0] : null));
    const [min, max] = /** @type {[number, number]} */ (ratioAxisRange(rows.map((/** @type {any} */ r) => r.ratio), [...rows.flatMap((/** @type {any} */ r) => r.ci ?? []), ...issueBand]));
    const point = (/** @type {string} */ verdict) => ({
      name: verdict, type: 'scatter', symbolSize: 9, z: 3,
      itemStyle: { color: COLOURS[/** @type {keyof typeof COLOURS} */ (verdict)] ?? '#999' },
      data: rows.map((/** @type {any} */ r, /** @type {number} */ i) => (r.verdict === verdict ? { value: [r.ratio, i], symbol: suspects.has(r.test) ? 'diamond' : 'circle', symbolSize: suspects.has(r.test) ? 13 : 9 } : null)).filter(Boolean),
    });
    return {
      tooltip: {
        trigger: 'axis', axisPointer: { type: 'shadow' },
        formatter: (/** @type {any[]} */ items) => {
          const row = rows.find((/** @type {any} */ r) => r.test === items[0]?.axisValue);
          return row ? `${row.test}: ${fmtRatio(row.ratio)}${row.ci ? ` [${fmtRatio(row.ci[0])}, ${fmtRatio(row.ci[1])}]` : ''}, ${row.verdict}${suspects.has(row.test) ? ' (suspect)' : ''}` : '';
        },
      },
      legend: { top: 0, data: Object.keys(COLOURS).filter((v) => rows.some((/** @type {any} */ r) => r.verdict === v)) },
      grid: { left: 10, right: 24, top: 34, bottom: 44, containLabel: true },
      xAxis: { type: 'value', name: `ratio to ${d.comparison.base.version} (the verdict's estimate)`, nameLocation: 'middle', nameGap: 28, min, max },
      yAxis: { type: 'category', data: tests, inverse: true, axisLabel: { interval: 0, fontSize: 11 } },
      series: [
        // The interval as a bar from its low end to its high end: an invisible bar up to the
        // low end, stacked under the visible span.
        { name: 'below interval', type: 'bar', stack: 'ci', silent: true, itemStyle: { color: 'transparent' }, data: lows, barWidth: 4, tooltip: { show: false } },
        { name: 'interval', type: 'bar', stack: 'ci', itemStyle: { color: '#90a4ae' }, data: spans, barWidth: 4,
          markArea: { silent: true, itemStyle: { color: 'rgba(120,144,156,0.12)' }, data: [[{ xAxis: issueBand[0] }, { xAxis: issueBand[1] }]] },
          markLine: { silent: true, symbol: 'none', label: { show: false }, lineStyle: { type: 'dashed', color: '#555' }, data: [{ xAxis: 1 }] } },
        ...Object.keys(COLOURS).filter((v) => rows.some((/** @type {any} */ r) => r.verdict === v)).map(point),
      ],
    };
  };
  return { figure, draw: async () => { await drawChart(canvas, option()); } };
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
