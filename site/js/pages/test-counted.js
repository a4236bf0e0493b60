/**
 * What the test page shows of the counting meters: the newest counted verdicts near the top
 * (with where the counted work went per function), and a column per counting meter in the
 * history table. No meter is known here by name: each release of the history carries its
 * meters' figures and verdicts under their names (`counted`), labelled as the meters label them.
 * And a counted step's parts per operation type (LinkBench's request phase), never judged.
 */
import { h, scrollTable } from '../dom.js';
import { fmtCount, fmtRatio, ratioDigits } from '../format.js';
import { formatShownRatio } from '#shown-ratio';
import { verdictBadge } from '../components.js';
import { functionsSection } from './release-functions.js';

/**
 * The newest counted verdict of the test (each counting meter's, in the meter's own words: its
 * label) near the top, and where the counted work went per function when the release's
 * comparison has the function moves (the site build keeps them for the newest release): the
 * chart and words of the release page.
 * @param {any} d test data
 * @returns {{section: HTMLElement|null, draw: () => Promise<void>}}
 */
export function countedSection(d) {
  const rel = [...d.releases].reverse().find((/** @type {any} */ r) => Object.values(r.counted ?? {}).some((/** @type {any} */ c) => c.verdict));
  if (!rel) return { section: null, draw: async () => {} };
  const judged = Object.entries(rel.counted).filter(([, c]) => /** @type {any} */ (c).verdict).map(([meter, c]) => ({ meter, c: /** @type {any} */ (c), v: { .../** @type {any} */ (c).verdict, metric: /** @type {any} */ (c).metric, counted: true } }));
  const moves = rel.functions
    ? functionsSection({ version: rel.version, tests: [{ name: d.test, countedVerdicts: Object.fromEntries(judged.map(({ meter, v }) => [meter, v])) }] }, { baseVersion: rel.comparedWith, tests: [rel.functions] })
    : { section: null, draw: async () => {} };
  return {
    section: h('section', { id: 'counted-verdict', dataset: { version: rel.version, countedVerdict: judged[0].v.verdict } },
      judged.map(({ meter, c, v }) => {
        const digits = ratioDigits(v);
        return h('p', { dataset: { meter, countedVerdict: v.verdict } }, h('strong', { text: `Counted, ${rel.version} against ${rel.comparedWith ?? 'its base'}: ` }), verdictBadge(v.verdict, v.reason, 'countedBadge', v.words),
          ` ${c.label}: ${v.words}, ratio ${fmtRatio(v.ratio, digits)}${v.ci ? ` [${fmtRatio(v.ci[0], digits)}, ${fmtRatio(v.ci[1], digits)}]` : ''}.`);
      }),
      rel.functions ? null : h('p', { class: 'muted', text: 'Where the counted work went per function: on the release page of the newest release, or in its comparison (JSON).' }),
      moves.section),
    draw: moves.draw,
  };
}

/**
 * One release's cell of a counting meter: its median, then its verdict with the one ratio (or
 * the ratio not judged and why).
 * @param {any} r a release of the history
 * @param {string} meter
 */
export function countedCell(r, meter) {
  const c = r.counted?.[meter] ?? null;
  const v = c?.verdict ?? null;
  const shown = r.countedShown?.[meter] ?? null;
  return h('td', { class: 'text', dataset: { counted: meter, countedMedian: c?.median ?? '' }, title: c?.n ? `median of ${c.n} counted repeats` : undefined },
    h('span', { text: fmtCount(c?.median) }),
    h('span', { class: 'sub-line' }, v ? [verdictBadge(v.verdict, v.reason, 'countedBadge', v.words ?? null), ` ${v.words ?? v.verdict}, ${formatShownRatio(shown)}`]
      : shown?.refused ? h('span', { class: 'ratio unjudged', text: `${formatShownRatio(shown)}* not judged: ${shown.why}` }) : h('span', { class: 'muted', text: '—' })));
}


/**
 * A counted step's parts per operation type (a LinkBench request phase followed by each type
 * counted alone), newest release against its base: the comparison's figures, never judged, each
 * row saying why (the phase's own verdict is the one gated; compare/counted-types.js).
 * @param {any} d test data
 * @returns {HTMLElement|null} null when the newest comparison has no parts for the test
 */
export function countedTypesSection(d) {
  const rel = [...d.releases].reverse().find((/** @type {any} */ r) => r.countedTypes);
  if (!rel) return null;
  return h('section', { id: 'counted-types', dataset: { version: rel.version } }, rel.countedTypes.map((/** @type {any} */ e) => [
    h('h2', { text: `Per operation type: ${e.metric} (${e.meter} meter)` }),
    h('p', { class: 'muted', text: `${rel.version} against ${rel.comparedWith ?? 'its base'}: each operation type counted alone after the mixed phase, ${e.unit}, median over the rounds; the ratio is paired by round where both releases were counted side by side, with its interval. Not judged: ${e.notJudged}.` }),
    scrollTable(`${d.test}: ${e.unit} per operation type, ${rel.version} against ${rel.comparedWith ?? 'its base'}`, [
      h('thead', null, h('tr', null, ['Type', `Base (${rel.comparedWith ?? 'base'})`, `Candidate (${rel.version})`, 'Paired rounds', 'Ratio [interval]', 'Verdict']
        .map((c, i) => h('th', { scope: 'col', class: i === 0 || i === 5 ? 'text' : null, text: c })))),
      h('tbody', null, e.types.map((/** @type {any} */ r) => h('tr', { dataset: { type: r.type, ratio: r.ratio ?? '' } },
        h('th', { scope: 'row', class: 'text', text: r.type }),
        h('td', { text: fmtCount(r.base) }),
        h('td', { text: fmtCount(r.candidate) }),
        h('td', { text: String(r.rounds) }),
        h('td', null, h('span', { class: 'ratio unjudged', text: formatShownRatio({ ratio: r.ratio, counted: true }) }),
          r.ci ? h('span', { class: 'muted', text: ` [${formatShownRatio({ ratio: r.ci[0], counted: true })}, ${formatShownRatio({ ratio: r.ci[1], counted: true })}]` }) : null),
        h('td', { class: 'text muted wrap', text: `not judged: ${e.notJudged.replace(/^not gated: /, '')}` })))),
    ], { id: `counted-types-${e.meter}` }),
  ]));
}
