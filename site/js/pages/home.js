/** Home: the newest release of every product line on every host class, with its verdicts, and any host whose reference release drifted. */
import { h, scrollTable, fill, safeHref } from '../dom.js';
import { loadJson, loadJsonOrNull } from '../data.js';
import { dataPaths, pageUrl } from '../paths.js';
import { fmtDate } from '../format.js';
import { summaryBadges, summaryText, lineHref, releaseHref, findingsList } from '../components.js';

/** @param {HTMLElement} main */
export async function render(main) {
  const m = await loadJson(dataPaths.manifest());
  const products = [...new Set(m.tables.map((/** @type {any} */ t) => t.product))];
  const intro = h('p', null, `${m.counts.runs} run records, ${m.counts.comparisons} comparisons, ${m.counts.releases} releases in ${m.counts.tables} tables. Built ${fmtDate(m.generatedAt)}. `,
    h('a', { href: dataPaths.feed(), text: 'Atom feed of new verdicts' }), '.');
  const drifted = ((await loadJsonOrNull(dataPaths.hosts()))?.hosts ?? []).filter((/** @type {any} */ x) => x.drifts > 0);
  // A drifting reference means the host moved: every verdict measured there since may carry it.
  const hostNote = drifted.length === 0 ? null : h('p', { class: 'note', id: 'host-drift-note', role: 'status' },
    'The host moved: ', drifted.map((/** @type {any} */ x, /** @type {number} */ i) => [i > 0 ? '; ' : '',
      h('a', { href: pageUrl('host', { host: x.host }), dataset: { host: x.host }, text: `${x.host}` }),
      ` (reference ${x.reference.product} ${x.reference.version}: ${x.drifts} drift${x.drifts === 1 ? '' : 's'})`]),
    '. A drift of a host class\'s reference release is a change of the host, not of a release: verdicts measured there since may carry it.');
  const failed = failedLegs(m.failedLegs ?? []);
  if (m.tables.length === 0) {
    fill(main, h('h1', { text: m.title }), intro, failed,
      h('p', { class: 'note', text: 'No run records yet. Run `tagbench run` (or the demo) and build the site again.' }));
    return;
  }
  const sections = products.map((product) => {
    const tables = m.tables.filter((/** @type {any} */ t) => t.product === product);
    const name = tables[0].productName;
    const rows = tables.map((/** @type {any} */ t) => h('tr', { dataset: { table: `${t.product}/${t.line}/${t.host}/${t.suite}` } },
      h('th', { scope: 'row', class: 'text' }, h('a', { href: lineHref(t), text: `${name} ${t.line}` })),
      h('td', { class: 'text', text: t.host }),
      h('td', { class: 'text', text: t.suite }),
      h('td', { class: 'text' }, t.latest ? h('a', { href: releaseHref(t, t.latest.version), text: t.latest.version, dataset: { latest: t.latest.version } }) : '—'),
      h('td', { class: 'text', text: fmtDate(t.latest?.date) }),
      h('td', { class: 'text wrap-cell' }, t.latest?.comparison ? [
        h('span', { dataset: { scope: 'throughput' } }, summaryBadges(t.latest.comparison.throughputSummary)),
        h('span', { class: 'muted', text: ` vs ${t.latest.comparison.baseVersion}` }),
        h('br'), h('span', { class: 'muted', dataset: { scope: 'all' }, text: `all gated metrics: ${summaryText(t.latest.comparison.summary)}` })]
        : h('span', { class: 'muted', text: 'no comparison' })),
      h('td', { class: 'text wrap-cell' }, t.openIssues.length ? t.openIssues.map((/** @type {any} */ i) => h('a', { href: i.url, title: i.title, text: `#${i.number} ` })) : h('span', { class: 'muted', text: 'none' })),
      h('td', { text: String(t.releaseCount) })));
    return h('section', { 'aria-labelledby': `p-${product}` },
      h('h2', { id: `p-${product}`, text: name }),
      scrollTable(`Latest ${name} releases per product line and host class`, [
        h('thead', null, h('tr', null, ['Product line', 'Host class', 'Suite', 'Latest release', 'Finished', 'Throughput verdicts', 'Open regression issues', 'Releases']
          .map((c, i) => h('th', { scope: 'col', class: i < 7 ? 'text' : null, text: c })))),
        h('tbody', null, rows),
      ]));
  });
  fill(main, h('h1', { text: m.title }), newestFindings(m.tables), howSureList(m.tables), intro, hostNote, failed, ...sections);
}

/**
 * The newest release of every table that has regressions or suspects, each named with a link to
 * its test page, before the tables: a count alone ("1 regression") does not say where to look.
 * @param {any[]} tables the manifest's
 * @returns {HTMLElement}
 */
function newestFindings(tables) {
  const withFindings = tables.filter((t) => (t.latest?.comparison?.findings ?? []).length > 0);
  const compared = tables.filter((t) => t.latest?.comparison).length;
  if (withFindings.length === 0) {
    return h('p', { id: 'newest-findings', class: 'muted', text: compared === 0 ? 'No release has been compared yet.' : `No regression and no suspect in the newest release of the ${compared} compared table${compared === 1 ? '' : 's'}.` });
  }
  return h('section', { id: 'newest-findings', 'aria-labelledby': 'newest-findings-h' },
    h('h2', { id: 'newest-findings-h', text: 'Regressions and suspects in the newest releases' }),
    withFindings.map((t) => h('div', { class: 'findings-table', dataset: { table: `${t.product}/${t.line}/${t.host}/${t.suite}` } },
      h('p', { class: 'findings-head' }, h('a', { href: releaseHref(t, t.latest.version), text: `${t.productName} ${t.latest.version}` }),
        ` on ${t.host}, suite ${t.suite}, against ${t.latest.comparison.baseVersion}:`),
      findingsList(t.latest.comparison.findings, t))));
}

/**
 * How sure each table's latest comparison is, first on the page: the sentence compare/how-sure.js
 * words for the reports and the release page (the site build stores it in the manifest).
 * @param {any[]} tables the manifest's
 * @returns {HTMLElement|null}
 */
function howSureList(tables) {
  const sure = tables.filter((t) => t.latest?.comparison?.howSure);
  if (sure.length === 0) return null;
  return h('ul', { id: 'how-sure', class: 'how-sure' }, sure.map((t) => h('li', { dataset: { table: `${t.product}/${t.line}/${t.host}/${t.suite}` } },
    h('strong', null, 'How sure, ', h('a', { href: releaseHref(t, t.latest.version), text: `${t.productName} ${t.latest.version}` }), ` vs ${t.latest.comparison.baseVersion} (${t.host}, ${t.suite}): `),
    t.latest.comparison.howSure)));
}

/**
 * Benchmark legs whose bench job failed (or timed out, or was cancelled) and that nothing has
 * benchmarked since: watch backs off from them and stops after its limit, so a person should look.
 * @param {any[]} legs the manifest's failedLegs
 * @returns {HTMLElement|null}
 */
export function failedLegs(legs) {
  if (legs.length === 0) return null;
  return h('section', { id: 'failed-legs', 'aria-labelledby': 'failed-legs-h' },
    h('h2', { id: 'failed-legs-h', text: `Failed benchmark legs (${legs.length})` }),
    h('p', { class: 'note', text: 'Legs whose benchmark job failed, timed out or was cancelled, and that nothing has benchmarked since. The service proposes each again after a back-off (6, 12, 24 hours) and stops after three attempts: then fix the cause and dispatch the benchmark workflow by hand.' }),
    scrollTable('Failed benchmark legs', [
      h('thead', null, h('tr', null, ['Host class', 'Release', 'Suite', 'Failed attempts', 'Last', 'Why', 'Run']
        .map((c, i) => h('th', { scope: 'col', class: i === 3 ? null : 'text', text: c })))),
      h('tbody', null, legs.map((l) => h('tr', { dataset: { leg: `${l.hostClass}/${l.product}/${l.version}/${l.suite}` } },
        h('td', { class: 'text', text: l.hostClass }),
        h('th', { scope: 'row', class: 'text', text: `${l.product} ${l.version}` }),
        h('td', { class: 'text', text: l.suite }),
        h('td', { text: String(l.count) }),
        h('td', { class: 'text', text: `${l.lastOutcome}, ${fmtDate(l.lastAt)}` }),
        h('td', { class: 'text wrap-cell', text: l.lastReason }),
        // A leg attempt's run URL is data a publisher wrote: linked only when https: (or a site path).
        h('td', { class: 'text' }, safeHref(l.lastRunUrl) ? h('a', { href: l.lastRunUrl, text: 'run' }) : h('span', { class: 'muted', text: '—' }))))),
    ]));
}
