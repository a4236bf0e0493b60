/** Regressions: every regression verdict, open and closed, with the issue filed about it; then the suspects. */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson, params, setParam } from '../data.js';
import { dataPaths } from '../paths.js';
import { fmtDate, fmtDetectable, fmtRatio, ratioDigits } from '../format.js';
import { releaseHref, testHref, lineHref, suspectsTable } from '../components.js';

const STATES = ['all', 'open', 'closed', 'no issue'];

/** @param {HTMLElement} main */
export async function render(main) {
  const d = await loadJson(dataPaths.regressions());
  const q = params();
  let state = STATES.includes(q.get('state') ?? '') ? /** @type {string} */ (q.get('state')) : 'all';
  const select = h('select', { id: 'state-select' }, STATES.map((s) => h('option', { value: s, selected: s === state, text: s })));
  const box = h('div');
  const draw = () => {
    const rows = d.regressions.filter((/** @type {any} */ r) => state === 'all' || r.state === state);
    fill(box, rows.length === 0 ? h('p', { class: 'note', text: state === 'all' ? 'No regression verdicts in the store.' : `No regression whose issue state is "${state}".` })
      : scrollTable(`${rows.length} regression verdicts (newest first)`, [
        h('thead', null, h('tr', null, ['Issue', 'State', 'Release', 'Product line', 'Host class', 'Suite', 'Test', 'Metric', 'Ratio', 'Interval', 'Min. detectable effect', 'Base', 'Compared']
          .map((c, i) => h('th', { scope: 'col', class: i < 8 || i === 11 ? 'text' : null, text: c })))),
        h('tbody', null, rows.map((/** @type {any} */ r) => h('tr', { dataset: { state: r.state, test: r.test, version: r.version } },
          h('th', { scope: 'row', class: 'text' }, r.issue ? h('a', { href: r.issue.url, title: r.issue.title, text: `#${r.issue.number}` }) : h('span', { class: 'muted', text: '—' })),
          h('td', { class: 'text', text: r.state + (r.confirmed ? ', confirmed' : '') }),
          h('td', { class: 'text' }, h('a', { href: releaseHref(r, r.version), text: r.version })),
          h('td', { class: 'text' }, h('a', { href: lineHref(r), text: `${r.productName} ${r.line}` })),
          h('td', { class: 'text', text: r.host }),
          h('td', { class: 'text', text: r.suite }),
          h('td', { class: 'text' }, h('a', { href: testHref(r, r.test), text: r.test })),
          h('td', { class: 'text', text: r.metric }),
          // Every row is a regression: mark it so whichever way the metric points.
          h('td', null, h('span', { class: 'ratio lo', title: r.higherIsBetter === false ? 'higher is worse for this metric' : 'lower is worse', text: fmtRatio(r.ratio, ratioDigits(r)) })),
          h('td', { text: r.ci ? `${fmtRatio(r.ci[0], ratioDigits(r))} – ${fmtRatio(r.ci[1], ratioDigits(r))}` : '—' }),
          h('td', { text: fmtDetectable(r.mde) }),
          h('td', { class: 'text', text: r.baseVersion }),
          h('td', { text: fmtDate(r.createdAt) })))),
      ], { id: 'regressions-table' }));
  };
  select.addEventListener('change', () => {
    state = /** @type {HTMLSelectElement} */ (select).value;
    setParam('state', state === 'all' ? null : state);
    draw();
  });
  draw();
  fill(main, 
    h('h1', { text: 'Regressions' }),
    h('p', null, 'Every regression verdict of each release\'s newest comparison, with the GitHub issue filed about it when there is one. An issue is filed only after a confirmation rerun agrees.'),
    h('div', { class: 'controls' }, h('label', { for: 'state-select' }, 'Issue state', select)),
    box,
    h('section', { id: 'suspects' }, h('h2', { text: 'Suspects' }),
      (d.suspects ?? []).length === 0
        ? h('p', { class: 'note', text: 'No suspects: no inconclusive verdict of a newest comparison leans the bad way.' })
        : [h('p', null, 'Inconclusive throughput and instruction verdicts of each release\'s newest comparison that lean the bad way (at least 90 % of the interval on the bad side of no change, or three quarters with the estimate past the issue threshold): leads, not findings (about one noise verdict in ten leans this far by chance), so no issue is filed for them; each says what would settle it.'),
          suspectsTable(d.suspects, { withRelease: true, id: 'suspects-table' })]),
    d.otherIssues.length ? h('section', null, h('h2', { text: 'Other regression issues' }),
      h('p', { class: 'muted', text: 'Issues whose release has no comparison in this store.' }),
      scrollTable('Regression issues without a stored verdict', [
        h('thead', null, h('tr', null, ['Issue', 'State', 'Title', 'Release', 'Host class', 'Suite'].map((c) => h('th', { scope: 'col', class: 'text', text: c })))),
        h('tbody', null, d.otherIssues.map((/** @type {any} */ i) => h('tr', null,
          h('th', { scope: 'row', class: 'text' }, h('a', { href: i.url, text: `#${i.number}` })),
          h('td', { class: 'text', text: i.state }), h('td', { class: 'text', text: i.title }),
          h('td', { class: 'text', text: `${i.product} ${i.version}` }), h('td', { class: 'text', text: i.hostClass }), h('td', { class: 'text', text: i.suite })))),
      ])) : null);
}
