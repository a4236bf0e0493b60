/**
 * The HTML shells of the site's pages, from one template (site/templates/page.html). The
 * pages fill themselves from data/ in the browser, so a few small files serve any number of
 * product lines, releases and tests. Pure.
 */
import { PAGES } from '../../site/js/paths.js';
import { VIEW_PAGES } from '../../site/js/pages/view-paths.js';

/**
 * The Content-Security-Policy of every page (a `<meta http-equiv>`: GitHub Pages sets no
 * headers). The site shows data that pull requests and publishers wrote, so a script injected
 * through it must not run: scripts and style sheets only from the site's own files (no inline
 * script, no `<style>` element, no eval), data fetched from the site only, no plugins, no
 * `<base>` that could move every relative URL, no form posting anywhere. Images: the site's own
 * and the empty `data:` icon. The one exception is the style *attribute*
 * (`style-src-attr 'unsafe-inline'`): ECharts writes its HTML tooltips (the series' colour
 * marks) with style attributes, and Chromium refuses them under `style-src 'self'`
 * (instructions-site.test.js saw it). A style attribute runs no script, and the pages put data
 * into the document only as text (dom.js), so no data can bring one. frame-ancestors cannot be
 * set by a meta element.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "style-src-attr 'unsafe-inline'", "img-src 'self' data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "form-action 'none'",
].join('; ');

/**
 * @param {string} template HTML with {{title}}, {{siteTitle}}, {{page}}, {{preload}}, {{chartsNav}}, {{csp}} placeholders
 * @param {string} siteTitle
 * @param {{charts?: boolean}} [opts] charts: the build holds github-action-benchmark's charts
 *   under benchmarks/, linked from the menu (never a link to a folder the build lacks)
 * @returns {[string, string][]} [file name, html]
 */
export function renderPages(template, siteTitle, opts = {}) {
  const chartsNav = opts.charts ? '\n      <li><a href="benchmarks/" data-nav="charts">Charts</a></li>' : '';
  return [...PAGES, ...VIEW_PAGES].map(({ page, title }) => [`${page}.html`, template
    .replaceAll('{{csp}}', CONTENT_SECURITY_POLICY)
    .replaceAll('{{chartsNav}}', chartsNav)
    .replaceAll('{{preload}}', preloads(page))
    .replaceAll('{{title}}', escapeHtml(page === 'index' ? siteTitle : `${title} · ${siteTitle}`))
    .replaceAll('{{siteTitle}}', escapeHtml(siteTitle))
    .replaceAll('{{page}}', page)]);
}

/** Modules every page imports, fetched in parallel instead of one import level at a time. */
const SHARED_MODULES = ['dom.js', 'data.js', 'paths.js', 'format.js', 'components.js'];
/** Pages that draw charts: they also fetch the charting library early. */
const CHART_PAGES = new Set(['line', 'test', 'host', 'cross']);

/**
 * @param {string} page
 * @returns {string} link elements for the head
 */
function preloads(page) {
  const file = page === 'index' ? 'home' : page;
  const links = [...SHARED_MODULES.map((m) => `js/${m}`), `js/pages/${file}.js`].map((href) => `<link rel="modulepreload" href="${href}">`);
  if (CHART_PAGES.has(page)) {
    links.push('<link rel="modulepreload" href="js/charts.js">', '<link rel="preload" as="script" href="vendor/echarts.common.min.js">');
  }
  return links.join('\n');
}

/** @param {string} s */
function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
