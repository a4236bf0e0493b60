/**
 * Changes under review: every ad-hoc ref run of the store (`tagbench run --ref`: a branch, tag,
 * commit or pull request against its base), newest first, each linking to its own page. Ref runs
 * are never releases: they appear on no line page, table or series.
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson } from '../data.js';
import { dataPaths } from '../paths.js';
import { fmtDate } from '../format.js';
import { summaryBadges } from '../components.js';
import { describeBase, refLabel } from './ref.js';

/** @param {HTMLElement} main */
export async function render(main) {
  const d = await loadJson(dataPaths.refs());
  const rows = d.refRuns ?? [];
  fill(main,
    h('h1', { text: 'Changes under review' }),
    h('p', null, 'Commits of branches, tags and pull requests benchmarked against their base before anything is released (tagbench run --ref), each on its own page. They never count as a release of a line, never move a baseline and never enter a change-point series.'),
    rows.length === 0 ? h('p', { class: 'note', text: 'No ref runs in the store.' })
      : scrollTable(`${rows.length} ref run${rows.length === 1 ? '' : 's'} (newest first)`, [
        h('thead', null, h('tr', null, ['Ref', 'Commit', 'Repository', 'Pull request', 'Base', 'Host class', 'Suite', 'Date', 'Verdicts']
          .map((c, i) => h('th', { scope: 'col', class: i < 7 ? 'text' : null, text: c })))),
        h('tbody', null, rows.map((/** @type {any} */ r) => h('tr', { dataset: { commit: r.commit } },
          h('th', { scope: 'row', class: 'text' }, h('a', { href: r.page, text: refLabel(r) })),
          h('td', { class: 'text' }, h('code', { title: r.commit, text: r.commit.slice(0, 12) })),
          h('td', { class: 'text', text: r.repository }),
          h('td', { class: 'text', text: r.pullRequest ? `#${r.pullRequest}` : '—' }),
          h('td', { class: 'text', text: describeBase(r.base) }),
          h('td', { class: 'text', text: r.host }),
          h('td', { class: 'text', text: r.suite }),
          h('td', { text: fmtDate(r.date) }),
          h('td', null, r.summary ? summaryBadges(r.summary) : h('span', { class: 'muted', text: 'not compared yet' }))))),
      ], { id: 'refs-table' }));
}
