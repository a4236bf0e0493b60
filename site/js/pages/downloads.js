/** Downloads: the Atom feed, a CSV per table, its change points, and every run record and comparison as JSON. */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson } from '../data.js';
import { dataPaths } from '../paths.js';
import { tableTitle, lineHref } from '../components.js';

/** @param {HTMLElement} main */
export async function render(main) {
  const m = await loadJson(dataPaths.manifest());
  const rows = m.tables.map((/** @type {any} */ t) => {
    const details = h('details', { dataset: { table: t.files.table } }, h('summary', { text: `${t.releaseCount} releases: run records and comparisons` }));
    // Loaded when opened: the run lists grow with history, the page should not.
    details.addEventListener('toggle', async () => {
      if (!/** @type {HTMLDetailsElement} */ (details).open || details.dataset.loaded) return;
      details.dataset.loaded = 'true';
      const data = await loadJson(t.files.table);
      details.append(h('ul', null, [...data.releases].reverse().map((/** @type {any} */ r) => h('li', null, `${r.version}: `,
        r.runs.map((/** @type {any} */ run) => [h('a', { href: run.record, text: run.id }), ' ']),
        r.comparison ? ['· ', h('a', { href: r.comparison.file, text: `comparison vs ${r.comparison.baseVersion}` })] : null))));
    });
    return h('tr', null,
      h('th', { scope: 'row', class: 'text' }, h('a', { href: lineHref(t), text: tableTitle(t) })),
      h('td', { class: 'text' }, h('a', { href: t.files.csv, download: '', text: 'CSV' })),
      h('td', { class: 'text' }, h('a', { href: t.files.table, text: 'JSON' })),
      h('td', { class: 'text' }, t.files.changePoints ? h('a', { href: t.files.changePoints, download: '', text: 'JSON' }) : h('span', { class: 'muted', text: 'none stored' })),
      h('td', { class: 'text' }, details));
  });
  fill(main, 
    h('h1', { text: 'Downloads' }),
    h('ul', null,
      h('li', null, h('a', { href: dataPaths.feed(), text: 'Atom feed of new verdicts' }), ' (feed.atom)'),
      h('li', null, h('a', { href: dataPaths.manifest(), text: 'Manifest (JSON)' }), ': every table and its newest release'),
      h('li', null, h('a', { href: dataPaths.regressions(), text: 'Regressions (JSON)' }))),
    h('p', null, 'Run records are copied as the store holds them (the unit of truth: every repeat, per-second interval, efficiency figure and the full my.cnf). CSV columns per release: median, ratio to the default base, verdict; a test counted by a counting meter has a row per meter, metric its unit (e.g. instructions/op), with the median count, its ratio (five decimals) and that meter\'s verdict. Comparisons hold every verdict, instructions ones with where the instructions went (the functions that moved).'),
    m.tables.length ? scrollTable('Tables', [
      h('thead', null, h('tr', null, ['Table', 'CSV', 'Data', 'Change points', 'Run records'].map((c) => h('th', { scope: 'col', class: 'text', text: c })))),
      h('tbody', null, rows),
    ], { id: 'downloads-table' }) : h('p', { class: 'note', text: 'No tables yet.' }));
}
