/**
 * One ad-hoc ref run: its candidate commit on a host class, product and suite, against its base
 * (the page a check run on the commit links to: scripts/store/ref-runs.js builds its address
 * from the same parameters). Its comparisons, newest first, with every verdict; its run records.
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJsonOrNull, params } from '../data.js';
import { dataPaths } from '../paths.js';
import { fmtDate, fmtRatio, ratioDigits, fmtDetectable, fmtQps, shortFunctionName } from '../format.js';
import { breadcrumb, requireParams, summaryBadges, verdictBadge } from '../components.js';

/**
 * The ref as a reader names it.
 * @param {{name: string, pullRequest: number|null}} r
 * @returns {string}
 */
export function refLabel(r) {
  return r.pullRequest ? `#${r.pullRequest} (${r.name})` : r.name;
}

/**
 * @param {{how: string, version: string, ref: string|null, commit: string}} b
 * @returns {string}
 */
export function describeBase(b) {
  const how = { 'branched-from': 'the release it branched from', 'pull-request-base': `merge base with ${b.ref}`, named: 'named release' }[b.how] ?? b.how;
  return `${b.version} (${how}, ${b.commit.slice(0, 12)})`;
}

/** @param {HTMLElement} main */
export async function render(main) {
  const q = requireParams(params(), ['host', 'product', 'suite', 'commit']);
  const d = await loadJsonOrNull(dataPaths.refRun(q));
  if (!d) {
    fill(main, h('h1', { text: 'Change under review' }), h('p', { class: 'error', role: 'alert', text: `No ref run of ${q.product} at ${q.commit} on ${q.host} (suite ${q.suite}) in this site yet.` }),
      h('p', null, h('a', { href: 'refs.html', text: 'Every change under review' })));
    return;
  }
  const newest = d.comparisons[0] ?? null;
  fill(main,
    breadcrumb([{ label: 'Changes under review', href: 'refs.html' }, { label: refLabel(d) }]),
    h('h1', { text: `${d.productName} ${refLabel(d)} at ${d.commit.slice(0, 12)}` }),
    h('dl', { class: 'facts', id: 'ref-facts' },
      fact('Ref', d.name), fact('Commit', d.commit), fact('Repository', d.repository), fact('Pull request', d.pullRequest ? `#${d.pullRequest}` : '—'),
      fact('Version', d.version), fact('Base', describeBase(d.base)), fact('Host class', d.host), fact('Suite', d.suite), fact('Date', fmtDate(d.date))),
    h('p', null, 'A change under review is not a release: it appears on no line page, moves no baseline and enters no change-point series.'),
    newest ? [h('h2', { text: 'Verdicts' }), h('p', { id: 'ref-summary' }, summaryBadges(newest.summary), ` ${newest.candidateVersion} against ${newest.baseVersion}, compared ${fmtDate(newest.createdAt)}. `, h('a', { href: newest.download, text: 'The comparison (JSON)' })),
      testsTable(newest)]
      : h('p', { class: 'note', id: 'ref-summary', text: 'Not compared yet: the run is stored, its comparison is not (tagbench compare --ref).' }),
    d.comparisons.length > 1 ? [h('h2', { text: 'Earlier comparisons' }), h('ul', null, d.comparisons.slice(1).map((/** @type {any} */ c) => h('li', null, `${fmtDate(c.createdAt)}: `, summaryBadges(c.summary), ' ', h('a', { href: c.download, text: 'JSON' }))))] : null,
    h('h2', { text: 'Run records' }),
    scrollTable('Run records of the candidate and its base', [
      h('thead', null, h('tr', null, ['Run', 'Side', 'Version', 'Commit', 'Status', 'Started'].map((c) => h('th', { scope: 'col', class: 'text', text: c })))),
      h('tbody', null, d.records.map((/** @type {any} */ r) => h('tr', null,
        h('th', { scope: 'row', class: 'text' }, h('a', { href: r.download, text: r.id })), h('td', { class: 'text', text: r.role ?? '' }), h('td', { class: 'text', text: r.version }),
        h('td', { class: 'text' }, h('code', { text: (r.commit ?? '').slice(0, 12) })), h('td', { class: 'text', text: r.status }), h('td', { class: 'text', text: fmtDate(r.startedAt) })))),
    ], { id: 'ref-records' }));
}

/**
 * @param {string} term
 * @param {string} value
 */
function fact(term, value) {
  return [h('dt', { text: term }), h('dd', { text: value })];
}

/**
 * Every verdict of a comparison, worst first, with the functions that moved (instructions).
 * @param {any} c
 */
function testsTable(c) {
  const order = ['regression', 'failed', 'inconclusive', 'improvement', 'unchanged'];
  const tests = [...c.tests].sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict) || a.test.localeCompare(b.test) || a.metric.localeCompare(b.metric));
  return scrollTable(`${tests.length} verdicts of ${c.candidateVersion} against ${c.baseVersion}`, [
    h('thead', null, h('tr', null, ['Test', 'Metric', 'Base', 'Candidate', 'Ratio', 'Interval', 'Min. detectable effect', 'Verdict', 'Functions that moved']
      .map((col, i) => h('th', { scope: 'col', class: i < 2 || i === 8 ? 'text' : null, text: col })))),
    h('tbody', null, tests.map((/** @type {any} */ t) => h('tr', { dataset: { test: t.test, metric: t.metric } },
      h('th', { scope: 'row', class: 'text', text: t.test }),
      h('td', { class: 'text', text: t.metric }),
      h('td', { text: t.base ? fmtQps(t.base.median) : '—' }),
      h('td', { text: t.candidate ? fmtQps(t.candidate.median) : '—' }),
      h('td', { text: fmtRatio(t.ratio, ratioDigits(t)) }),
      h('td', { text: t.ci ? `${fmtRatio(t.ci[0], ratioDigits(t))} – ${fmtRatio(t.ci[1], ratioDigits(t))}` : '—' }),
      h('td', { text: fmtDetectable(t.mde) }),
      h('td', null, verdictBadge(t.verdict, t.reason)),
      h('td', { class: 'text' }, t.functions ? [[...t.functions.added.map((/** @type {any} */ f) => `+${Math.round(f.selfDelta)} ${shortFunctionName(f.name)}`), ...t.functions.removed.map((/** @type {any} */ f) => `${Math.round(f.selfDelta)} ${shortFunctionName(f.name)}`)].join('; '),
        // A list that explains under half of the difference says so beside it (compare's words).
        t.functions.listed ? h('span', { class: 'sub-line muted', dataset: { partial: 'true' }, text: t.functions.listed }) : null] : '')))),
  ], { id: 'ref-tests' });
}
