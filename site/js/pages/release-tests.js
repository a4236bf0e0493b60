/**
 * The release page's table of every test: its throughput (median with its range, repeats and
 * their length, the one ratio with its interval, the detectable change, the verdict frozen at
 * the right edge) and a column per counting meter of the runs (the meter's figure, ratio and
 * verdict in one cell, headed by the meter's own label), so the table fits a 1400 px screen and
 * scrolls inside its own frame below that. No meter is known here by name: the release file
 * carries each counted meter's figures (`counted`) and verdict (`countedVerdicts`) under its name.
 */
import { h, scrollTable } from '../dom.js';
import { fmtCount, fmtDetectable, fmtQps, fmtRatio, fmtSeconds, fmtSmallPct, ratioDigits } from '../format.js';
import { shownAgainst } from '../ratios.js';
import { formatShownRatio, computeShownRatio } from '#shown-ratio';
import { verdictBadge, shownRatioSpan, testHref, countingMeters } from '../components.js';

/** @param {string} s @returns {string} */
const capital = (s) => `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}`;

/**
 * @param {any} d release data
 * @param {any} baseData the default base release's data (no comparison), if loaded
 */
export function testsTable(d, baseData) {
  const meters = countingMeters(d.tests);
  const rows = d.tests.filter((/** @type {any} */ t) => t.present).map((/** @type {any} */ t) => {
    const baseTest = baseData?.tests.find((/** @type {any} */ x) => x.name === t.name);
    return h('tr', { dataset: { test: t.name, timed: String(t.timed !== false) } },
      h('th', { scope: 'row', class: 'text' }, h('a', { href: testHref(d, t.name), text: t.name })),
      h('td', { class: 'text', text: t.group }),
      throughputCells(d, t, baseData, baseTest),
      meters.map(({ meter }) => countedCell(t, meter, baseTest)),
      h('td', { class: 'text' }, t.verdict?.reason || t.reason ? h('details', { class: 'why' }, h('summary', { text: 'why' }), h('p', { text: t.verdict?.reason ?? t.reason })) : ''));
  });
  // One ratio per test: with a comparison it is the verdict's estimate (as on every page that
  // shows the verdict); without one, median / median, named so.
  const heads = ['Median (min – max)', 'Repeats × length', `${d.comparison ? 'Ratio' : 'Median ratio'} [interval]`, 'Detectable drop / rise (noise df)', 'Verdict'];
  const col = (/** @type {string} */ c, /** @type {boolean} */ text, rowspan = 1, extra = '') => h('th', { scope: 'col', class: [text ? 'text' : '', extra].filter(Boolean).join(' ') || null, rowspan: rowspan > 1 ? String(rowspan) : null, text: c });
  // With counted figures the throughput columns sit under a heading of their own, and each
  // counting meter's column under its label.
  const thead = meters.length
    ? h('thead', null,
      h('tr', null, col('Test', true, 2), col('Group', true, 2),
        h('th', { scope: 'colgroup', colspan: String(heads.length), class: 'text', text: 'Throughput (timed)' }),
        h('th', { scope: 'colgroup', colspan: String(meters.length), class: 'text', text: 'Counted per operation: median, ratio [interval], verdict' }),
        col('Why', true, 2)),
      h('tr', null, heads.map((c) => col(c, c === 'Verdict', 1, c === 'Verdict' ? 'sticky-verdict' : '')),
        meters.map(({ meter, label }) => h('th', { scope: 'col', class: 'text', dataset: { meter }, text: capital(label) }))))
    : h('thead', null, h('tr', null, ['Test', 'Group', ...heads, 'Why'].map((c) => col(c, ['Test', 'Group', 'Verdict', 'Why'].includes(c), 1, c === 'Verdict' ? 'sticky-verdict' : ''))));
  return h('section', null, h('h2', { text: 'Tests' }),
    meters.length ? h('p', { class: 'muted', id: 'counted-note', text: 'Counted columns: each counting meter\'s figure per operation, counted over a fixed amount of work, the median of the counted repeats and their spread ((max − min) ÷ median; hover for the range). '
      + 'Counted, not timed: they move by hundredths of a percent, so the ratio has five decimals. Lower is better.' }) : null,
    scrollTable(`Throughput${meters.length ? ' and counted figures' : ''} of every test${d.comparison ? ` and the verdicts against ${d.comparison.base.version}` : ''}`, [
      thead,
      h('tbody', null, rows),
    ], { id: 'release-tests' }));
}

/**
 * A test's throughput cells: median with its range, repeats, ratio with its interval,
 * detectable change and the verdict.
 * @param {any} d @param {any} t @param {any} baseData @param {any} baseTest
 */
function throughputCells(d, t, baseData, baseTest) {
  const v = t.verdict;
  // The one ratio (site/js/ratios.js): the stored one with a comparison, else to the default base, not judged.
  const shown = d.comparison ? t.shown ?? null : shownAgainst({ own: null, comparedWith: null, base: baseData?.version ?? d.version, version: d.version, baseMedian: baseTest?.median ?? null, median: t.median });
  // A run with counting meters only leaves its timed steps skipped: say so, not "skipped".
  const status = t.timed === false ? 'not timed' : t.status;
  return [
    h('td', { dataset: { median: t.median ?? '' } }, fmtQps(t.median), h('span', { class: 'muted', text: ` ${t.metric}` }),
      t.min === null ? null : h('span', { class: 'sub-line muted', text: `${fmtQps(t.min)} – ${fmtQps(t.max)}` })),
    // Repeats and their measured length: a step of a fraction of a second is shown, not judged.
    h('td', { dataset: { durationS: t.durationS ?? '' }, text: t.durationS == null ? String(t.n) : `${t.n} × ${fmtSeconds(t.durationS)}` }),
    h('td', { dataset: { ratio: shown?.ratio ?? '', shownRatio: shown ? formatShownRatio(shown) : '', judged: shown ? String(shown.judged) : '' } }, shownRatioSpan(shown),
      v?.ci ? h('span', { class: 'sub-line muted', text: `[${fmtRatio(v.ci[0], 3)}, ${fmtRatio(v.ci[1], 3)}]` }) : null,
      shown?.refused ? h('span', { class: 'sub-line muted note', text: `not judged: ${shown.why}` }) : null),
    // drop and rise differ (1 - e^-s vs e^s - 1); the df say how settled the noise estimate is
    h('td', { text: v ? `${fmtDetectable(v.mdeDrop ?? v.mde)} / ${fmtDetectable(v.mdeRise ?? v.mde)}${v.noiseDf ? ` (${v.noiseDf} df)` : ''}` : '—', title: v ? `instances: ${v.base?.n ?? 0} vs ${v.candidate?.n ?? 0}` : undefined }),
    // Frozen at the right edge while the columns before it scroll: in view at 800 px.
    h('td', { class: 'text sticky-verdict', dataset: { status } }, v ? [verdictBadge(v.verdict, v.reason, 'verdict', v.words ?? null), ` ${v.words ?? v.verdict}`, v.confirmed ? ' (confirmed)' : ''] : t.status !== 'ok' ? status : h('span', { class: 'muted', text: 'none' })),
  ];
}

/**
 * One counting meter's cell of a test: its median (spread below), the one ratio with its
 * interval, and its verdict.
 * @param {any} t
 * @param {string} meter
 * @param {any} baseTest the same test of the default base release (no comparison), if loaded
 */
function countedCell(t, meter, baseTest) {
  const c = t.counted?.[meter] ?? null;
  const v = t.countedVerdicts?.[meter] ?? null;
  const digits = ratioDigits(v ?? { counted: true });
  const base = baseTest?.counted?.[meter];
  const own = t.countedShown?.[meter] ?? (base?.median && c?.median
    ? computeShownRatio({ baseMedian: base.median, candidateMedian: c.median, counted: true, noVerdict: 'this release has no comparison' }) : null);
  const shown = own ? { ...own, counted: true } : null;
  const spread = c?.median && c.min !== null ? (c.max - c.min) / c.median : null;
  return h('td', { class: 'counted', dataset: { counted: meter, countedMedian: c?.median ?? '', countedRatio: shown?.ratio ?? '', shownRatio: shown ? formatShownRatio(shown) : '', judged: shown ? String(shown.judged) : '', countedVerdict: v?.verdict ?? '' },
    title: c?.median ? `${c.n} counted repeats on ${c.rounds} server processes, from ${fmtCount(c.min)} to ${fmtCount(c.max)} ${c.unit}` : undefined },
  c?.median ? [h('span', { class: 'count', text: fmtCount(c.median) }), h('span', { class: 'muted spread', text: ` ±${fmtSmallPct(spread)}` })]
    : h('span', { class: 'muted', text: c && c.status !== 'ok' ? c.status : '—' }),
  h('span', { class: 'sub-line' },
    h('span', { class: `ratio-value${shown && !shown.judged ? ' ratio unjudged' : ''}`, title: shown && !shown.judged ? `not judged: ${shown.why}` : null, text: shown ? formatShownRatio(shown) : '—' }),
    v?.ci ? h('span', { class: 'muted', text: ` [${fmtRatio(v.ci[0], digits)}, ${fmtRatio(v.ci[1], digits)}]` }) : null),
  h('span', { class: 'sub-line' }, v ? [verdictBadge(v.verdict, v.reason, 'countedBadge', v.words ?? null), ` ${v.words ?? v.verdict}`] : h('span', { class: 'muted', text: 'no verdict' })));
}
