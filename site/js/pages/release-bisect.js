/**
 * The release page's bisect section: each bisect whose bad release, or first bad release, this
 * is (data: scripts/site-build/build-bisect-data.js), with its outcome, the notes a reader
 * must know, and a row per probe and test with the numbers that decided it.
 */
import { h, scrollTable } from '../dom.js';
import { fmtDate, fmtDetectable, fmtRatio } from '../format.js';
import { verdictBadge } from '../components.js';

/**
 * @param {any} d the release data
 * @returns {HTMLElement|null} null when no bisect concerns this release
 */
export function bisectSection(d) {
  const bisects = d.bisects ?? [];
  if (bisects.length === 0) return null;
  return h('section', { id: 'bisects' }, h('h2', { text: bisects.length === 1 ? 'Bisect' : 'Bisects' }),
    bisects.map((/** @type {any} */ b) => bisectCard(d, b)));
}

/** @param {any} d @param {any} b */
function bisectCard(d, b) {
  const o = b.outcome;
  const role = b.roles.includes('firstBad')
    ? `${d.version} is the first bad release between ${b.good} and ${b.bad}.`
    : o.status === 'found' ? `The first bad release between ${b.good} and this release is ${o.firstBad}.`
      : `The bisect between ${b.good} and this release ${o.status === 'interrupted' ? 'was interrupted' : 'stopped: the evidence was not enough to go on'}; the first bad release is one of ${o.suspects.join(', ')}.`;
  return h('article', { class: 'card', dataset: { bisect: b.id, status: o.status } },
    h('h3', null, `${b.good} (good) .. ${b.bad} (bad) `, h('span', { class: 'muted', text: `(${fmtDate(b.createdAt)})` })),
    h('p', { class: 'bisect-outcome' }, h('strong', { text: role }), ` ${o.message}`),
    b.notes.map((/** @type {string} */ n) => h('p', { class: 'note' }, h('strong', { text: 'Note: ' }), n)),
    h('p', { class: 'muted', text: `Tests: ${b.targets.map((/** @type {any} */ t) => `${t.test} ${t.metric}`).join(', ')}${b.comparisonId ? ` (the issue-level regressions of comparison ${b.comparisonId})` : ''}. Candidates, oldest first: ${b.candidates.join(', ') || 'none'}. Each probe ran a candidate and ${b.good} side by side, alternating.` }),
    b.probes.length === 0 ? h('p', { text: 'No probe was needed.' }) : scrollTable(`Probes of the bisect ${b.good} .. ${b.bad}, in the order they ran`, [
      h('thead', null, h('tr', null, ['#', 'Candidate', 'Call', 'Test', 'Verdict', `Ratio to ${b.good}`, 'Interval', `Instances (${b.good} / candidate)`, 'Detectable', 'Runs']
        .map((c, i) => h('th', { scope: 'col', class: [1, 2, 3, 4, 9].includes(i) ? 'text' : null, text: c })))),
      h('tbody', null, b.probes.flatMap((/** @type {any} */ p, /** @type {number} */ i) => p.evidence.map((/** @type {any} */ e) => h('tr', { dataset: { candidate: p.candidate, call: p.call } },
        h('td', { text: String(i + 1) }),
        h('th', { scope: 'row', class: 'text', text: p.candidate }),
        h('td', { class: 'text', title: p.reason }, h('strong', { text: p.call })),
        h('td', { class: 'text', text: `${e.test} ${e.metric}` }),
        h('td', { class: 'text' }, e.verdict ? [verdictBadge(e.verdict, p.reason), ` ${e.verdict}${e.level ? ` (${e.level})` : ''}`] : 'no result'),
        h('td', { text: fmtRatio(e.ratio) }),
        h('td', { text: e.ci ? `${fmtRatio(e.ci[0])} – ${fmtRatio(e.ci[1])}` : '—' }),
        h('td', { text: `${e.instances[0]} / ${e.instances[1]}${e.pairedRounds ? ` (${e.pairedRounds} rounds, paired)` : ''}` }),
        h('td', { text: fmtDetectable(e.mde) }),
        h('td', { class: 'text muted', text: [...p.runIds.good, ...p.runIds.candidate].join(', ') }))))),
    ], { class: 'bisect-probes' }));
}
