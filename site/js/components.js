/** Pieces several pages share: breadcrumbs, verdict badges, summaries, table titles. */
import { h, scrollTable } from './dom.js';
import { pageUrl } from './paths.js';
import { VERDICT_GLYPH, VERDICT_ORDER, fmtRatio, ratioClass, LO, HI } from './format.js';
import { formatShownRatio } from '#shown-ratio';

/**
 * @param {{label: string, href?: string}[]} items the last one is the current page
 */
export function breadcrumb(items) {
  return h('nav', { 'aria-label': 'Breadcrumb' }, h('ol', { class: 'breadcrumb' },
    items.map((it, i) => h('li', null, it.href && i < items.length - 1 ? h('a', { href: it.href, text: it.label })
      : h('span', { 'aria-current': i === items.length - 1 ? 'page' : null, text: it.label })))));
}

/**
 * A verdict as a small badge (glyph + hidden word for screen readers).
 * @param {string|null|undefined} verdict
 * @param {string} [detail] extra text for the tooltip
 * @param {string} [dataKey] its data attribute: `verdict` (data-verdict) marks a row's
 *   throughput verdict, so a second verdict in the same row takes another name
 * @param {string|null} [words] the verdict's words when they differ from its class (compare's
 *   describeVerdict: an unchanged verdict whose interval excludes no change is worded as its
 *   change, and the tooltip and screen readers say so too)
 */
export function verdictBadge(verdict, detail = '', dataKey = 'verdict', words = null) {
  if (!verdict) return null;
  const said = words ?? verdict;
  return h('span', { class: `verdict verdict-${verdict}`, title: `${said}${detail ? `: ${detail}` : ''}`, dataset: { [dataKey]: verdict } },
    h('span', { 'aria-hidden': 'true', text: VERDICT_GLYPH[verdict] ?? '?' }), h('span', { class: 'sr-only', text: ` ${said}` }));
}

/**
 * Verdict counts, e.g. "2 regressions, 1 improvement"; zero counts left out except regression.
 * @param {Record<string, number>|null|undefined} summary
 */
export function summaryBadges(summary) {
  if (!summary) return h('span', { class: 'muted', text: 'no verdicts' });
  return h('span', { class: 'summary-badges' }, VERDICT_ORDER.filter((k) => (summary[k] ?? 0) > 0 || k === 'regression').map((k) =>
    h('span', { class: `verdict verdict-${k}`, dataset: { summary: k }, text: `${summary[k] ?? 0} ${plural(k, summary[k] ?? 0)}` })));
}

/**
 * Verdict counts as plain text, e.g. "8 regressions, 13 improvements, 153 inconclusive".
 * @param {Record<string, number>} summary
 */
export function summaryText(summary) {
  return VERDICT_ORDER.filter((k) => (summary[k] ?? 0) > 0).map((k) => `${summary[k]} ${plural(k, summary[k])}`).join(', ') || 'none';
}

/** @param {string} word @param {number} n */
function plural(word, n) {
  if (n === 1) return word;
  return word === 'unchanged' || word === 'inconclusive' || word === 'failed' ? word : `${word}s`;
}

/**
 * A ratio cell's content, marked below LO / above HI.
 * @param {number|null} ratio
 */
export function ratioSpan(ratio) {
  const cls = ratioClass(ratio);
  return h('span', { class: `ratio ${cls}`.trim(), title: cls === 'lo' ? `below ${LO}` : cls === 'hi' ? `above ${HI}` : null, text: fmtRatio(ratio) });
}

/**
 * A shown ratio's cell content (site/js/ratios.js shownAgainst): its digits as every page and
 * file prints them, marked below LO / above HI when judged, grey with why when not.
 * @param {import('#shown-ratio').ShownRatio|null} shown
 */
export function shownRatioSpan(shown) {
  if (!shown) return h('span', { class: 'ratio', text: '—' });
  if (!shown.judged) {
    return h('span', { class: 'ratio unjudged', dataset: { judged: 'false' }, title: `not judged: ${shown.why}`, text: `${formatShownRatio(shown)}*` });
  }
  const cls = ratioClass(shown.ratio);
  return h('span', { class: `ratio ${cls}`.trim(), dataset: { judged: 'true' }, title: `the verdict's estimate${cls === 'lo' ? `, below ${LO}` : cls === 'hi' ? `, above ${HI}` : ''}`, text: formatShownRatio(shown) });
}

/** Legend for the colour marks and verdict glyphs. */
export function legend() {
  return h('p', { class: 'legend' },
    h('span', null, h('span', { class: 'swatch lo', text: '0.90' }), ` ratio below ${LO}`),
    h('span', null, h('span', { class: 'swatch hi', text: '1.10' }), ` ratio above ${HI}`),
    VERDICT_ORDER.map((k) => h('span', null, verdictBadge(k), ` ${k}`)));
}

/**
 * Display name of a table: "MariaDB 10.11 · local · smoke".
 * @param {{productName?: string, product: string, line: string, host: string, suite: string}} t
 */
export function tableTitle(t) {
  return `${t.productName ?? t.product} ${t.line} · ${t.host} · ${t.suite}`;
}

/**
 * Link to a product line page.
 * @param {{product: string, line: string, host: string, suite: string}} t
 * @param {string|null} [base]
 */
export function lineHref(t, base = null) {
  return pageUrl('line', { product: t.product, line: t.line, host: t.host, suite: t.suite, base });
}

/**
 * @param {{product: string, host: string, suite: string}} t
 * @param {string} version
 */
export function releaseHref(t, version) {
  return pageUrl('release', { product: t.product, version, host: t.host, suite: t.suite });
}

/**
 * @param {{product: string, line: string, host: string, suite: string}} t
 * @param {string} test
 */
export function testHref(t, test) {
  return pageUrl('test', { product: t.product, line: t.line, host: t.host, suite: t.suite, test });
}

/**
 * Read the required query parameters or throw a message naming the missing ones.
 * @param {URLSearchParams} q
 * @param {string[]} names
 * @returns {any} name -> value, every name present
 */
export function requireParams(q, names) {
  const missing = names.filter((n) => !q.get(n));
  if (missing.length) throw new Error(`this page needs the URL parameters ${missing.join(', ')}; open it from the home page`);
  return Object.fromEntries(names.map((n) => [n, /** @type {string} */ (q.get(n))]));
}

/**
 * Suspects: inconclusive verdicts that lean the bad way (compare's findSuspects), apart from
 * the noise, each with why and with what would settle it.
 * @param {any[]} rows suspects; on the Regressions page with their release's fields
 * @param {{withRelease?: boolean, id: string}} options withRelease: a column for the release
 */
export function suspectsTable(rows, options) {
  const digits = (/** @type {any} */ s) => (s.counted ? 5 : 3);
  const value = (/** @type {any} */ s) => (s.ratio !== null
    ? `${fmtRatio(s.ratio, digits(s))} [${fmtRatio(s.interval[0], digits(s))}, ${fmtRatio(s.interval[1], digits(s))}]`
    : `${s.difference} [${s.interval[0]}, ${s.interval[1]}]`);
  const head = [...(options.withRelease ? ['Release', 'Product line', 'Host class', 'Suite'] : []), 'Test', 'Metric', 'Ratio [interval]', 'Why', 'What would settle it'];
  return scrollTable(`${rows.length} suspect${rows.length === 1 ? '' : 's'}: inconclusive verdicts that lean the bad way`, [
    h('thead', null, h('tr', null, head.map((c) => h('th', { scope: 'col', class: 'text', text: c })))),
    h('tbody', null, rows.map((s) => h('tr', { dataset: { suspect: s.test, metric: s.metric } },
      options.withRelease ? [
        h('td', { class: 'text' }, h('a', { href: releaseHref(s, s.version), text: s.version })),
        h('td', { class: 'text', text: `${s.productName} ${s.line}` }),
        h('td', { class: 'text', text: s.host }),
        h('td', { class: 'text', text: s.suite }),
      ] : null,
      h('th', { scope: 'row', class: 'text' }, options.withRelease ? h('a', { href: testHref(s, s.test), text: s.test }) : s.test),
      h('td', { class: 'text', text: s.metric }),
      h('td', { class: 'text' }, h('span', { class: 'ratio lo', text: value(s) })),
      h('td', { class: 'text', text: s.why }),
      h('td', { class: 'text', text: s.settle ?? '' })))),
  ], { id: options.id });
}

/**
 * Every regression and suspect of a comparison by name (the site build's namedFindings), each
 * linked to its test page, with its metric, whether it was timed or counted, and the change with
 * its interval: what a reader looks for first, so it goes at the top of home and the release
 * page, above any chart or table. One line each, so a dozen still fit the first screen.
 * @param {any[]} findings
 * @param {{product: string, line: string, host: string, suite: string}} t the table the tests are in
 * @returns {HTMLElement} a list; empty findings give a line saying there are none
 */
export function findingsList(findings, t) {
  if (findings.length === 0) return h('p', { class: 'muted findings-none', text: 'No regression and no suspect.' });
  return h('ul', { class: 'findings' }, findings.map((f) => h('li', { dataset: { finding: f.kind, test: f.test, metric: f.metric, counted: String(f.counted) } },
    h('span', { class: `verdict verdict-${f.kind === 'regression' ? 'regression' : 'inconclusive'}`, text: f.kind === 'regression' ? `${VERDICT_GLYPH.regression ?? ''} regression` : '◆ suspect' }),
    ' ', h('a', { href: testHref(t, f.test), text: f.test }),
    h('span', { text: `: ${f.label} ${f.change ?? ''}` }),
    h('span', { class: 'muted', text: ` (${f.counted ? 'counted' : 'timed'}${f.confirmed ? ', confirmed' : ''})` }))));
}

/**
 * The counting meters of some rows (a release's tests, a test's releases), in the order the rows
 * first name them, each with the label its metric is shown by: the site names no meter itself,
 * each row carries its meters' figures (`counted`) and verdicts (`countedVerdicts`) by name.
 * @param {any[]} rows
 * @returns {{meter: string, label: string}[]}
 */
export function countingMeters(rows) {
  /** @type {Map<string, string>} */
  const labels = new Map();
  for (const row of rows) {
    for (const [meter, c] of [...Object.entries(row.counted ?? {}), ...Object.entries(row.countedVerdicts ?? {})]) {
      if (!labels.has(meter)) labels.set(meter, /** @type {any} */ (c).label ?? /** @type {any} */ (c).metric);
    }
  }
  return [...labels].map(([meter, label]) => ({ meter, label }));
}
