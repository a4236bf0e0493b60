/**
 * The release page's verdicts beside throughput and the counting meters' columns: the other
 * gated metrics (latency, CPU per op, per-second quality of service...), a row per test and a
 * column per metric, and apart from them the context verdicts: timed figures whose question a
 * counted verdict of the same test decided (scripts/compare/context-verdicts.js). Those are
 * shown, never gated (outside the run's family, out of the counts, never an issue), so listing
 * them under "gated" told a reader the opposite of what compare did with them.
 */
import { h, scrollTable } from '../dom.js';
import { fmtRatio } from '../format.js';
import { verdictBadge } from '../components.js';
import { computeShownRatio, formatShownRatio, SHOWN_RATIO_DIGITS } from '#shown-ratio';

/**
 * @param {any} d the release file
 * @returns {(HTMLElement|null)[]} the gated verdicts' section and the context verdicts' (each null when empty)
 */
export function otherVerdictSections(d) {
  return [gatedSection(d), contextSection(d)];
}

/**
 * A verdict's ratio, with its interval, in the one ratio's digits (compare/shown-ratio.js: the
 * same string as every other page, the Markdown and the terminal).
 * @param {any} v
 * @returns {{ratio: string, ci: string}}
 */
function ratioText(v) {
  const shown = computeShownRatio({ verdict: v });
  const digits = shown.counted ? SHOWN_RATIO_DIGITS.counted : SHOWN_RATIO_DIGITS.timed;
  return {
    ratio: shown.ratio === null ? '—' : formatShownRatio(shown),
    ci: v.ci ? ` [${fmtRatio(v.ci[0], digits)}, ${fmtRatio(v.ci[1], digits)}]` : '',
  };
}

/**
 * The gated verdicts on other metrics; the full reasoning is in each cell's tooltip.
 * @param {any} d
 */
function gatedSection(d) {
  const gated = (/** @type {any} */ t) => t.otherVerdicts.filter((/** @type {any} */ v) => !v.context);
  const metrics = [...new Set(d.tests.flatMap((/** @type {any} */ t) => gated(t).map((/** @type {any} */ v) => v.metric)))];
  if (metrics.length === 0) return null;
  const rows = d.tests.filter((/** @type {any} */ t) => gated(t).length > 0).map((/** @type {any} */ t) => h('tr', { dataset: { test: t.name } },
    h('th', { scope: 'row', class: 'text', text: t.name }),
    metrics.map((m) => {
      const v = gated(t).find((/** @type {any} */ x) => x.metric === m);
      if (!v) return h('td', { class: 'muted', text: '—' });
      const { ratio, ci } = ratioText(v);
      return h('td', { title: `${v.words ?? v.verdict}: ${v.reason}`, dataset: { metric: m, verdict: v.verdict } },
        ratio, h('span', { class: 'muted', text: ci }), ' ', verdictBadge(v.verdict, v.reason, 'verdict', v.words ?? null));
    })));
  return h('section', { id: 'other-gated' }, h('h2', { text: 'Other gated metrics' }),
    h('p', { class: 'muted', text: 'Ratio (candidate ÷ base) with its interval and verdict per metric; hover a cell for the reasoning (also in the comparison JSON). For latency and CPU per operation lower is better.' }),
    scrollTable('Verdicts on latency, efficiency and per-second quality of service', [
      h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text', text: 'Test' }), metrics.map((m) => h('th', { scope: 'col', text: m })))),
      h('tbody', null, rows),
    ], { id: 'release-other-verdicts' }));
}

/**
 * The context verdicts: each timed figure with its own reading and the counted verdict that
 * answers its question instead (compare's words, the reason's opening).
 * @param {any} d
 */
function contextSection(d) {
  const list = d.tests.flatMap((/** @type {any} */ t) => t.otherVerdicts.filter((/** @type {any} */ v) => v.context).map((/** @type {any} */ v) => ({ test: t.name, v })));
  if (list.length === 0) return null;
  // compare's reason opens with why it is context, then "Its own reading: " and the verdict's own reason.
  const why = (/** @type {string} */ reason) => reason.split(' Its own reading: ')[0];
  return h('section', { id: 'context-verdicts' }, h('h2', { text: 'Context: the counted verdict answers this question' }),
    h('p', { class: 'muted', text: `Timed figures of ${list.length} verdict${list.length === 1 ? '' : 's'} whose question (such as the CPU cost of an operation) a counted verdict of the same test decided: shown for what they read, not gated (outside the run's family of verdicts, out of the counts above, never an issue).` }),
    scrollTable('Context verdicts: timed figures whose question a counted verdict decided', [
      h('thead', null, h('tr', null, ['Test', 'Metric', 'Ratio [interval]', 'Its own reading', 'Why not gated'].map((c, i) => h('th', { scope: 'col', class: i === 2 ? null : 'text', text: c })))),
      h('tbody', null, list.map((/** @type {{test: string, v: any}} */ { test, v }) => {
        const { ratio, ci } = ratioText(v);
        return h('tr', { dataset: { test, metric: v.metric, verdict: v.verdict } },
          h('th', { scope: 'row', class: 'text', text: test }),
          h('td', { class: 'text', text: v.label ?? v.metric }),
          h('td', null, ratio, h('span', { class: 'muted', text: ci })),
          h('td', { class: 'text', title: v.reason, text: v.words ?? v.verdict }),
          h('td', { class: 'text wrap', text: why(v.reason) }));
      })),
    ], { id: 'release-context-verdicts' }));
}
