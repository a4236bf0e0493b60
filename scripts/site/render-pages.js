/**
 * The HTML shells of the site's pages, from one template (site/templates/page.html). The
 * pages fill themselves from data/ in the browser, so six small files serve any number of
 * product lines, releases and tests. Pure.
 */
import { PAGES } from '../../site/js/paths.js';

/**
 * @param {string} template HTML with {{title}}, {{siteTitle}}, {{page}} placeholders
 * @param {string} siteTitle
 * @returns {[string, string][]} [file name, html]
 */
export function renderPages(template, siteTitle) {
  return PAGES.map(({ page, title }) => [`${page}.html`, template
    .replaceAll('{{title}}', escapeHtml(page === 'index' ? siteTitle : `${title} · ${siteTitle}`))
    .replaceAll('{{siteTitle}}', escapeHtml(siteTitle))
    .replaceAll('{{page}}', page)]);
}

/** @param {string} s */
function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
