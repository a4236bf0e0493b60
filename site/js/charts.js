/**
 * Charts through Apache ECharts (vendored at build time as vendor/echarts.common.min.js). Chosen over
 * Chart.js and uPlot because one package covers everything the pages need without plugins:
 * category axes of releases, zoom/pan over hundreds of releases or thousands of seconds
 * (dataZoom), marked change points (markPoint/markLine), a built-in dark theme, and ARIA
 * descriptions generated from the data. The library loads only on pages that draw charts.
 */

/** @type {Promise<any>|null} */
let loading = null;

/** @returns {Promise<any>} the global `echarts` */
export function loadECharts() {
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const w = /** @type {any} */ (window);
      if (w.echarts) { resolve(w.echarts); return; }
      const s = document.createElement('script');
      s.src = 'vendor/echarts.common.min.js';
      s.onload = () => resolve(w.echarts);
      s.onerror = () => reject(new Error('vendor/echarts.common.min.js failed to load'));
      document.head.append(s);
    });
  }
  return loading;
}

/** The colour of a figure compare did not judge, in every chart (the CSS's .ratio.unjudged): its value shown, never as a verdict. */
export const UNJUDGED_GREY = '#8c959f';

const dark = window.matchMedia('(prefers-color-scheme: dark)');

/** @type {Set<{el: HTMLElement, option: any, chart: any}>} */
const live = new Set();

/**
 * Draw a chart into an element; redraws on resize and when the colour scheme changes.
 * @param {HTMLElement} el a sized container
 * @param {any} option ECharts option
 * @returns {Promise<{update: (option: any) => void}>} update merges a new option (e.g. new base)
 */
export async function drawChart(el, option) {
  const echarts = await loadECharts();
  /** @type {{el: HTMLElement, option: any, chart: any}} */
  const entry = { el, option, chart: null };
  const init = () => {
    entry.chart?.dispose();
    entry.chart = echarts.init(el, dark.matches ? 'dark' : null, { renderer: 'canvas' });
    entry.chart.setOption(withDefaults(entry.option));
  };
  init();
  live.add(entry);
  new ResizeObserver(() => entry.chart?.resize()).observe(el);
  return {
    update(next) {
      entry.option = { ...entry.option, ...next };
      entry.chart.setOption(withDefaults(entry.option), { replaceMerge: ['series'] });
    },
  };
}

/** @param {any} option */
function withDefaults(option) {
  return {
    backgroundColor: 'transparent',
    aria: { enabled: true },
    animation: false,
    textStyle: { fontFamily: 'system-ui, "DejaVu Sans", sans-serif' },
    ...option,
  };
}

dark.addEventListener('change', () => {
  for (const entry of live) {
    entry.chart?.dispose();
    loadECharts().then((echarts) => {
      entry.chart = echarts.init(entry.el, dark.matches ? 'dark' : null);
      entry.chart.setOption(withDefaults(entry.option));
    });
  }
});

/**
 * A figure holding a chart container, captioned.
 * @param {string} caption
 * @param {string} [cls] extra class of the canvas container
 * @returns {{figure: HTMLElement, canvas: HTMLElement}}
 */
export function chartFigure(caption, cls = '') {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  const cap = document.createElement('figcaption');
  cap.textContent = caption;
  const canvas = document.createElement('div');
  canvas.className = `chart-canvas ${cls}`.trim();
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${caption} (the table on this page has the same numbers)`);
  canvas.dataset.chart = caption;
  figure.append(cap, canvas);
  return { figure, canvas };
}

/**
 * Zoom controls for long axes: a slider plus wheel/drag zoom, starting at the newest part.
 * @param {number} points number of categories or samples on the x axis
 * @param {number} show how many to show at first
 */
export function zoomFor(points, show) {
  if (points <= show) return [];
  const start = Math.max(0, 100 - (show / points) * 100);
  return [{ type: 'slider', start, end: 100, bottom: 6, height: 18 }, { type: 'inside', start, end: 100 }];
}
