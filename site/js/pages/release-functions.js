/**
 * Where the instructions went, on the release page: for each test whose query-path
 * instructions verdict carries the compare stage's function moves, a horizontal bar chart of the
 * functions that added (red) and removed (green) the most self instructions per operation, one
 * bar for the code without a name, the totals in the caption and the chart's numbers in a table.
 * Open for regressions and improvements, folded for the other verdicts; a folded chart is drawn
 * when first opened (ECharts cannot size a hidden container).
 */
import { h, scrollTable } from '../dom.js';
import { drawChart, chartFigure } from '../charts.js';
import { fmtCount, fmtPct, fmtSmallPct, fmtRatio, ratioDigits, shortFunctionName } from '../format.js';
import { verdictBadge } from '../components.js';

const ADDED = '#cf222e';
const REMOVED = '#1a7f37';
const UNNAMED = '#8c959f';
const BAR_PX = 26;

/**
 * @typedef {object} Bar one bar of the chart
 * @property {string} label shortened name, unique within the chart
 * @property {number} delta candidate − base self instructions per operation
 * @property {string} color
 * @property {any|null} f the function row (null: the code without a name)
 */

/**
 * @param {any} d the release data
 * @param {any|null} moves its functions file (data/functions/…), null when it has none
 * @returns {{section: HTMLElement|null, draw: () => Promise<void>}} draw: after the section is
 *   in the page, draws the open charts and the others on first open
 */
export function functionsSection(d, moves) {
  if (!moves || moves.tests.length === 0) return { section: null, draw: async () => {} };
  const order = d.tests.map((/** @type {any} */ t) => t.name);
  const entries = [...moves.tests].sort((a, b) => order.indexOf(a.test) - order.indexOf(b.test));
  /** @type {{details: HTMLElement, canvas: HTMLElement, option: any}[]} */
  const charts = [];
  const blocks = entries.map((e) => {
    // The counted verdict whose figures the functions break down (the moves name its metric).
    const counted = Object.values(d.tests.find((/** @type {any} */ t) => t.name === e.test)?.countedVerdicts ?? {});
    const verdict = counted.find((/** @type {any} */ v) => v.metric === e.metric) ?? null;
    const m = e.functions;
    const bars = barsOf(m);
    const fig = chartFigure(`${e.test}: change in self instructions per operation, ${moves.baseVersion} → ${d.version}`);
    fig.canvas.style.height = `${bars.length * BAR_PX + 70}px`;
    fig.canvas.dataset.functions = e.test;
    const moved = verdict?.verdict === 'regression' || verdict?.verdict === 'improvement';
    const details = h('details', { class: 'functions', open: moved, dataset: { test: e.test, verdict: verdict?.verdict ?? '' } },
      h('summary', null, h('strong', { text: e.test }), ' ', verdict ? [verdictBadge(verdict.verdict, verdict.reason), ` ${verdict.verdict}, ratio ${fmtRatio(verdict.ratio, ratioDigits(verdict))}; `] : '',
        `query path ${fmtCount(m.base.queryPathPerOp)} → ${fmtCount(m.candidate.queryPathPerOp)} instructions/op (${fmtCount(m.queryPathDelta, { signed: true })})`),
      // Before the chart: a list that explains under half must not be read as the cause.
      e.words?.listed ? h('p', { class: 'note', dataset: { partial: 'true' }, text: e.words.listed }) : null,
      fig.figure,
      caption(m, moves.baseVersion, d.version, e.words?.unnamed ?? null),
      numbersTable(e.test, bars));
    charts.push({ details, canvas: fig.canvas, option: chartOption(bars) });
    return details;
  });
  const section = h('section', { id: 'where-instructions-went' }, h('h2', { text: 'Where the instructions went' }),
    h('p', { class: 'muted', text: `Per test with an instructions verdict: the functions whose own (self) instructions per operation changed the most between ${moves.baseVersion} and ${d.version}, `
      + 'means over the counted repeats under callgrind each verdict judged. Open for regressions and improvements; the other verdicts are folded.' }),
    blocks);
  const draw = async () => {
    for (const c of charts) {
      if (/** @type {HTMLDetailsElement} */ (c.details).open) await drawChart(c.canvas, c.option);
      else {
        const once = async () => {
          if (!/** @type {HTMLDetailsElement} */ (c.details).open) return;
          c.details.removeEventListener('toggle', once);
          await drawChart(c.canvas, c.option);
        };
        c.details.addEventListener('toggle', once);
      }
    }
  };
  return { section, draw };
}

/**
 * Added functions largest first, then removed ones down to the largest removal, then the code
 * without a name: the bars read top to bottom as one descending list.
 * @param {any} m FunctionMoves
 * @returns {Bar[]}
 */
function barsOf(m) {
  /** @type {Bar[]} */
  const bars = [
    ...m.added.map((/** @type {any} */ f) => ({ label: shortFunctionName(f.name), delta: f.selfDelta, color: ADDED, f })),
    ...[...m.removed].reverse().map((/** @type {any} */ f) => ({ label: shortFunctionName(f.name), delta: f.selfDelta, color: REMOVED, f })),
    // Which objects hold it (largest change first), where the comparison kept them.
    { label: `code without a name${(m.unnamedByObject ?? []).length ? ` (${m.unnamedByObject.slice(0, 2).map((/** @type {any} */ o) => o.object || '?').join(', ')})` : ''}`, delta: m.unnamedDelta, color: UNNAMED, f: null },
  ];
  // Overloads shorten alike (`Item::val_int()` of two classes' clones); the axis needs distinct labels.
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const b of bars) {
    const n = (seen.get(b.label) ?? 0) + 1;
    seen.set(b.label, n);
    if (n > 1) b.label = `${b.label} #${n}`;
  }
  return bars;
}

/** @param {Bar[]} bars */
function chartOption(bars) {
  return {
    grid: { left: 8, right: 16, top: 8, bottom: 40, containLabel: true },
    xAxis: {
      type: 'value', name: 'Δ self instructions per operation', nameLocation: 'middle', nameGap: 26,
      // room for the value labels at both ends of the bars
      boundaryGap: ['12%', '12%'],
      axisLabel: { formatter: (/** @type {number} */ v) => fmtCount(v, { signed: true }) },
    },
    yAxis: {
      type: 'category', inverse: true, data: bars.map((b) => b.label),
      // at the left edge, not at zero where the green bars grow
      axisLine: { onZero: false }, axisTick: { show: false },
      axisLabel: { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', fontSize: 11 },
    },
    tooltip: { trigger: 'item', confine: true, extraCssText: 'max-width: 560px; white-space: normal;', formatter: (/** @type {any} */ p) => tooltip(bars[p.dataIndex]) },
    series: [{
      type: 'bar', name: 'Δ self instructions per operation', barMaxWidth: 18,
      data: bars.map((b) => ({
        value: b.delta, itemStyle: { color: b.color },
        label: { show: true, position: b.delta < 0 ? 'left' : 'right', formatter: () => fmtCount(b.delta, { signed: true }) },
      })),
    }],
  };
}

/**
 * Tooltip HTML (ECharts inserts it as markup, so every name is escaped: C++ names hold < > &).
 * @param {Bar} b
 */
function tooltip(b) {
  if (!b.f) {
    return `<strong>code without a name</strong><br>${esc(fmtCount(b.delta, { signed: true }))} self instructions per operation, summed over the functions the binary has no symbol for`;
  }
  const f = b.f;
  return [
    `<strong style="font-family: monospace">${esc(f.name)}</strong>`,
    `in ${esc(f.object)}`,
    `self: ${esc(fmtCount(f.base.selfPerOp))} → ${esc(fmtCount(f.candidate.selfPerOp))} (${esc(fmtCount(f.selfDelta, { signed: true }))}) per op`,
    `inclusive: ${esc(fmtCount(f.base.inclusivePerOp))} → ${esc(fmtCount(f.candidate.inclusivePerOp))} (${esc(fmtCount(f.inclusiveDelta, { signed: true }))}) per op`,
  ].join('<br>');
}

/** @param {string} s */
function esc(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The totals under the chart.
 * @param {any} m FunctionMoves
 * @param {string} base
 * @param {string} candidate
 * @param {string|null} unnamed compare's sentence on the code without a name (the site build's
 *   `words.unnamed`), its command in backticks
 */
function caption(m, base, candidate, unnamed) {
  const rel = (/** @type {number|null} */ delta, /** @type {number|null} */ of) => (delta !== null && of ? `, ${delta > 0 ? '+' : ''}${fmtSmallPct(delta / of)}` : '');
  const path = m.queryPathDelta === null ? null
    : `Query path (${m.dispatchFunction ?? 'the dispatch function'} and what it calls): ${fmtCount(m.base.queryPathPerOp)} → ${fmtCount(m.candidate.queryPathPerOp)} instructions per operation (${fmtCount(m.queryPathDelta, { signed: true })}${rel(m.queryPathDelta, m.base.queryPathPerOp)}), ${base} → ${candidate}.`;
  return h('div', { class: 'functions-caption', dataset: { caption: 'functions' } },
    path ? h('p', { text: path }) : null,
    h('p', { text: `Whole server process: ${fmtCount(m.base.totalPerOp)} → ${fmtCount(m.candidate.totalPerOp)} (${fmtCount(m.totalDelta, { signed: true })}${rel(m.totalDelta, m.base.totalPerOp)}); means over ${m.base.repeats} and ${m.candidate.repeats} counted repeats. `
      + `Bars: the ${m.added.length} of ${m.addedCount} functions that added and the ${m.removed.length} of ${m.removedCount} that removed the most self instructions (spent in the function itself, not in what it calls); hover a bar for its full name, object and inclusive counts.` }),
    unnamed ? h('p', { dataset: { unnamed: 'true' } }, unnamed.split('`').map((part, i) => (i % 2 === 1 ? h('code', { text: part }) : part)))
      : h('p', { text: `Code without a name: ${fmtCount(m.unnamedDelta, { signed: true })} instructions per operation${m.unnamedShare === null ? '' : ` (${fmtPct(m.unnamedShare)} of the difference)`}.` }));
}

/**
 * The chart's numbers with full names, folded: for screen readers and for copying a name.
 * @param {string} test
 * @param {Bar[]} bars
 */
function numbersTable(test, bars) {
  return h('details', null, h('summary', { text: 'The numbers, with full function names' }),
    scrollTable(`${test}: self and inclusive instructions per operation, base → candidate`, [
      h('thead', null, h('tr', null, ['Function', 'Object', 'Self/op', 'Δ self', 'Inclusive/op', 'Δ inclusive']
        .map((c, i) => h('th', { scope: 'col', class: i < 2 ? 'text' : null, text: c })))),
      h('tbody', null, bars.map((b) => h('tr', { dataset: { delta: b.delta } },
        h('th', { scope: 'row', class: 'text fn-name', text: b.f ? b.f.name : 'code without a name' }),
        h('td', { class: 'text', text: b.f ? b.f.object : '—' }),
        h('td', { text: b.f ? `${fmtCount(b.f.base.selfPerOp)} → ${fmtCount(b.f.candidate.selfPerOp)}` : '—' }),
        h('td', { text: fmtCount(b.delta, { signed: true }) }),
        h('td', { text: b.f ? `${fmtCount(b.f.base.inclusivePerOp)} → ${fmtCount(b.f.candidate.inclusivePerOp)}` : '—' }),
        h('td', { text: b.f ? fmtCount(b.f.inclusiveDelta, { signed: true }) : '—' })))),
    ], { class: 'functions-table' }));
}

/**
 * "Below the threshold, named": the functions whose instructions per operation rose beyond
 * their own noise across the paired rounds (or appeared), whatever their test's total did, as a
 * small table; listed only, never an issue by themselves. Names are set as text, never as HTML.
 * @param {any} d the release data (`belowThreshold`: scripts/site-build/types.js BelowThreshold)
 * @returns {HTMLElement|null} null when no verdict of the release was judged per function
 */
export function belowThresholdSection(d) {
  const b = d.belowThreshold;
  if (!b) return null;
  const intro = `Functions whose self or inclusive instructions per operation rose beyond their own noise across the paired rounds, by at least the floor, or that appeared, whatever the test's total did (${b.testsJudged} test${b.testsJudged === 1 ? '' : 's'} judged per function). Listed only: a finding never opens an issue by itself.`;
  if (b.functions.length === 0) {
    return h('section', { id: 'below-threshold' }, h('h2', { text: 'Below the threshold, named' }), h('p', { class: 'muted', text: `${intro} None rose.` }));
  }
  return h('section', { id: 'below-threshold' }, h('h2', { text: 'Below the threshold, named' }), h('p', { class: 'muted', text: intro }),
    scrollTable(`Functions that rose, ${d.comparison?.base?.version ?? 'base'} → ${d.version}`, [
      h('thead', null, h('tr', null, ['Function', 'Object', 'Change', 'Tests: instructions/op (share of the test\'s total)']
        .map((c, i) => h('th', { scope: 'col', class: i < 3 ? 'text' : null, text: c })))),
      h('tbody', null, b.functions.map((/** @type {any} */ f) => h('tr', null,
        h('th', { scope: 'row', class: 'text fn-name', text: f.name }),
        h('td', { class: 'text', text: f.object }),
        h('td', { class: 'text', text: f.change }),
        h('td', { text: f.tests.map((/** @type {any} */ t) => `${t.test} ${fmtCount(t.deltaPerOp, { signed: true })} (+${fmtSmallPct(t.shareOfTotal)})`).join(', ') })))),
    ], { class: 'findings-table' }),
    b.more > 0 ? h('p', { class: 'muted', text: `${b.more} more in the comparison file (each instructions verdict's functionFindings).` }) : null);
}
