/**
 * The HTML shells of the site's pages, from one template (site/templates/page.html). The
 * pages fill themselves from data/ in the browser, so a few small files serve any number of
 * product lines, releases and tests. Pure.
 */
import { createHash } from 'node:crypto';
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
 * set by a meta element. The template's one inline script is its import map (how the pages
 * name compare's shown-ratio.js): the policy allows exactly that text by its hash
 * (`policyFor`), so a changed or injected inline script still does not run.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "style-src-attr 'unsafe-inline'", "img-src 'self' data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "form-action 'none'",
].join('; ');

/** The template's import map, the one inline script a page may have. */
const IMPORT_MAP = /<script type="importmap">([^<]*)<\/script>/;

/**
 * The policy of pages made from this template: CONTENT_SECURITY_POLICY, with the hash of the
 * template's import map (if it has one) added to script-src.
 * @param {string} template
 * @returns {string}
 */
export function policyFor(template) {
  const map = IMPORT_MAP.exec(template);
  if (!map) return CONTENT_SECURITY_POLICY;
  const hash = createHash('sha256').update(map[1], 'utf8').digest('base64');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`);
}

/**
 * github-action-benchmark's chart page (its own index.html, copied under benchmarks/) with a
 * Content-Security-Policy like ours: the same rules, plus exactly what the page itself holds
 * when it is copied (the hash of each inline script and `<style>` element, and the exact https
 * URL of each script it loads: Chart.js from its CDN), so a script that data.js or its
 * commit messages would inject still does not run. The meta element goes first in the head, before
 * anything it governs. Chart.js 2 also adds a `<style>` element of its own at run time (its resize
 * animation): refused, which costs the charts their redraw on a window resize, not their drawing.
 * @param {string} html the action's index.html
 * @returns {string} the page with its policy
 */
export function withChartsPolicy(html) {
  const hash = (/** @type {string} */ text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([^]*?)<\/script>/gi)].map((m) => hash(m[1]));
  const styles = [...html.matchAll(/<style[^>]*>([^]*?)<\/style>/gi)].map((m) => hash(m[1]));
  const remote = [...html.matchAll(/<script[^>]*\bsrc="(https:\/\/[^"\s;,']+)"/gi)].map((m) => m[1]);
  const policy = CONTENT_SECURITY_POLICY
    .replace("script-src 'self'", ['script-src', "'self'", ...remote, ...inlineScripts].join(' '))
    .replace("style-src 'self'", ['style-src', "'self'", ...styles].join(' '));
  // Without a <head> tag (HTML lets a page omit it) the meta goes after the doctype: the parser
  // opens the head for it there, before anything the policy governs.
  const head = /<head[^>]*>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  const at = head ? head.index + head[0].length : 0;
  return `${html.slice(0, at)}\n    <meta http-equiv="Content-Security-Policy" content="${policy}">${html.slice(at)}`;
}

/**
 * @param {string} template HTML with {{title}}, {{siteTitle}}, {{page}}, {{preload}}, {{chartsNav}}, {{csp}} placeholders
 * @param {string} siteTitle
 * @param {{charts?: boolean}} [opts] charts: the build holds github-action-benchmark's charts
 *   under benchmarks/, linked from the menu (never a link to a folder the build lacks)
 * @returns {[string, string][]} [file name, html]
 */
export function renderPages(template, siteTitle, opts = {}) {
  const chartsNav = opts.charts ? '\n      <li><a href="benchmarks/" data-nav="charts">Charts</a></li>' : '';
  const policy = policyFor(template);
  return [...PAGES, ...VIEW_PAGES].map(({ page, title }) => [`${page}.html`, template
    .replaceAll('{{csp}}', policy)
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
