/**
 * Test: the history of one test across the releases of a product line (median and every
 * repeat, a new line per host series where the host facts changed, with the change points the compare stage found (release-series rule or apache-otava) marked, and each
 * release's verdict apart), and per-second throughput and latency of any runs, overlaid, where
 * stalls show as dips.
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJsonOrNull, params, setParam } from '../data.js';
import { dataPaths } from '../paths.js';
import { fmtDate, fmtDetectable, fmtNum, fmtPct, fmtQps, fmtRatio } from '../format.js';
import { countedSection, countedCell, countedTypesSection } from './test-counted.js';
import { breadcrumb, verdictBadge, countingMeters, shownRatioSpan, tableTitle, lineHref, releaseHref, requireParams } from '../components.js';
import { shownAgainst } from '../ratios.js';
import { formatShownRatio } from '#shown-ratio';
import { drawChart, chartFigure, zoomFor, UNJUDGED_GREY } from '../charts.js';
import { perSecondOption } from './test-per-second.js';

/** @param {HTMLElement} main */
export async function render(main) {
  const q = params();
  const key = requireParams(q, ['product', 'line', 'host', 'suite', 'test']);
  const d = await loadJsonOrNull(dataPaths.test(key));
  if (!d) throw new Error(`no history for test ${key.test} of ${key.product} ${key.line} on ${key.host} with suite ${key.suite}`);
  const versions = d.releases.map((/** @type {any} */ r) => r.version);
  const base = versions.includes(q.get('base')) ? q.get('base') : d.defaultBase;
  const baseRel = d.releases.find((/** @type {any} */ r) => r.version === base);

  /** every repeat of every run, newest release first: the choices for the per-second charts */
  const choices = [...d.releases].reverse().flatMap((/** @type {any} */ rel) => rel.runs.flatMap((/** @type {any} */ run) =>
    run.series ? run.repeats.map((/** @type {any} */ rep) => ({
      id: `${run.id}:${rep.index}`, version: rel.version, run, repeat: rep.index,
      // short legend name: release, run number within the release when it has several, repeat
      short: `${rel.version}${rel.runs.length > 1 ? ` run ${rel.runs.indexOf(run) + 1}` : ''} r${rep.index + 1}`,
    })) : []));
  const wanted = (q.get('runs') ?? '').split(',').filter((s) => choices.some((c) => c.id === s));
  if (wanted.length === 0) {
    // Default overlay: the newest release and the base, first repeat of their first run.
    for (const v of [versions.at(-1), base]) {
      const c = choices.find((x) => x.version === v);
      if (c && !wanted.includes(c.id)) wanted.push(c.id);
    }
  }

  const history = chartFigure(`${d.test}: ${d.metric} by release`, 'tall');
  const qpsFig = chartFigure(`${d.test}: per-second ${d.metric}`);
  const latFig = chartFigure(`${d.test}: per-second latency (ms)`);
  const picker = h('fieldset', { class: 'run-picker' }, h('legend', { text: 'Runs to overlay (release · run · repeat)' }),
    choices.map((c) => h('label', null, h('input', { type: 'checkbox', value: c.id, checked: wanted.includes(c.id), name: 'runs' }),
      ` ${c.version} · ${c.run.id} · repeat ${c.repeat + 1}`)));

  const counted = countedSection(d);
  fill(main, 
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: tableTitle(d), href: lineHref(d) }, { label: d.test }]),
    h('h1', { text: `${d.test} · ${tableTitle(d)}` }),
    h('p', null, `Group ${d.group}; ${d.releases.length} releases.`),
    counted.section,
    countedTypesSection(d),
    changePointNote(d),
    hostSeriesNote(d),
    h('div', { class: 'charts' }, history.figure),
    historyTable(d, base, baseRel),
    timeAndWorkList(d),
    changePointTable(d),
    h('h2', { text: 'Per second' }),
    h('p', { class: 'muted', text: 'Pick runs to overlay; dips are stalls. Latency is the per-second p95 sysbench reports, or the per-second maximum where the benchmark gives it.' }),
    seriesLeftOutNote(d),
    // nothing to pick when no run of the test has per-second samples here (the charts say why)
    choices.length > 0 ? picker : null,
    h('div', { class: 'charts' }, qpsFig.figure, latFig.figure));

  await drawChart(history.canvas, historyOption(d, base, baseRel));
  await counted.draw();
  const perSecondCharts = await Promise.all(/** @type {const} */ (['qps', 'latency']).map(async (what) => {
    const canvas = what === 'qps' ? qpsFig.canvas : latFig.canvas;
    const option = await perSecondOption(d, choices, wanted, what);
    canvas.dataset.perSecondNote = option.title.text;
    return { what, canvas, chart: await drawChart(canvas, option) };
  }));
  picker.addEventListener('change', async () => {
    const ids = [...picker.querySelectorAll('input:checked')].map((el) => /** @type {HTMLInputElement} */ (el).value);
    setParam('runs', ids.join(',') || null);
    for (const { what, canvas, chart } of perSecondCharts) {
      const option = await perSecondOption(d, choices, ids, what);
      canvas.dataset.perSecondNote = option.title.text;
      chart.update(option);
    }
  });
}

/** @param {any} d test data @returns {any[]} its change points (none when none are stored) */
function points(d) {
  return d.changePoints?.points ?? [];
}

/** @param {number} pct @returns {string} signed, e.g. "-20.1 %" */
function fmtChange(pct) {
  return `${pct > 0 ? '+' : ''}${fmtPct(pct / 100)}`;
}

/**
 * Where a change point is shown: a change between releases, in the metric's good or bad
 * direction, or a split between repeats of one release (noise inside it, shown apart).
 * @param {any} d
 * @param {any} c
 * @returns {{glyph: string, word: string, color: string}}
 */
function pointKind(d, c) {
  if (!c.atReleaseBoundary) return { glyph: '◆', word: 'inside the repeats of one release', color: '#8c959f' };
  const worse = d.changePoints.higherIsBetter ? c.forwardChangePct < 0 : c.forwardChangePct > 0;
  // the release-series rule says what shape the change has (a dip that recovers, a step, a drift)
  const shape = c.kind ? `${c.kind}${c.untilVersion && c.untilVersion !== c.version ? ` to ${c.untilVersion}` : ''}, ` : '';
  return worse ? { glyph: '▼', word: `${shape}worse`, color: '#cf222e' } : { glyph: '▲', word: `${shape}better`, color: '#1a7f37' };
}

/** @param {any} d */
function changePointNote(d) {
  const cp = d.changePoints;
  if (!cp) {
    return h('p', { id: 'change-point-note', dataset: { changePoints: 'none' } }, 'No change points are stored for this product line: ', h('code', { text: 'tagbench compare' }), ' over all its releases finds them (the release-series rule; apache-otava for long series) and stores them. ',
      'Verdicts below compare each release with a base; they are not change points.');
  }
  const m = cp.method;
  const span = `${cp.releases.length} releases (${cp.releases[0]} … ${cp.releases.at(-1)})`;
  const newer = d.releases.filter((/** @type {any} */ r) => !cp.releases.includes(r.version)).map((/** @type {any} */ r) => r.version);
  return h('p', { id: 'change-point-note', dataset: { changePoints: cp.analysed ? String(cp.points.length) : 'not-analysed' } },
    m.tool === 'release-series'
      ? `Change points: release-series rule ${m.version} (one value per release; dips that recover, steps and drifts tested together${m.alpha ? `, at most ${fmtPct(m.alpha)} false events per series` : ''}; never inside a release) over the ${d.metric} of ${span}, computed ${fmtDate(cp.createdAt)}: `
      : `Change points: ${m.tool} ${m.version} (E-divisive means with a t-test; window ${m.windowLen}, max p-value ${m.maxPValue}${m.minMagnitude ? `, min. change ${fmtPct(m.minMagnitude)}` : ''}) over the ${d.metric} of every repeat of ${span}, computed ${fmtDate(cp.createdAt)}: `,
    cp.analysed ? `${cp.points.length} found, marked ▼ / ▲ in the chart and the table (◆: between repeats of one release, noise). ` : 'this test was not part of that series. ',
    newer.length > 0 ? `Not in that series: ${newer.join(', ')}. ` : '',
    h('a', { href: cp.file, download: '', text: 'Change-point file' }), '. Verdicts compare each release with a base; they are not change points.');
}

/**
 * A site of a long history carries the per-second series of its newest releases only (tagbench
 * site --detail-releases): say which releases have none here, and where their samples are.
 * @param {any} d
 * @returns {HTMLElement|null}
 */
function seriesLeftOutNote(d) {
  const drawn = d.releases.some((/** @type {any} */ r) => r.runs.some((/** @type {any} */ run) => run.series));
  const without = d.releases.filter((/** @type {any} */ r) => r.runs.length > 0 && r.runs.every((/** @type {any} */ run) => !run.series));
  if (!drawn || without.length === 0) return null;
  return h('p', { id: 'series-left-out', class: 'note', dataset: { releases: String(without.length) } },
    `${without.length} older release${without.length === 1 ? ' has' : 's have'} no per-second chart on this site (${without.slice(0, 3).map((/** @type {any} */ r) => r.version).join(', ')}${without.length > 3 ? ', …' : ''}): `,
    'their samples are in each run record\'s samples file on the results branch (', h('code', { text: 'runs/…/<run-id>.samples.json.gz' }), ').');
}

/** @param {any} d @returns {any[]} host series of the table's runs (one when the host never changed) */
function hostSeriesOf(d) {
  return d.hostSeries ?? [];
}

/**
 * The releases where a new host series starts in column order, with the change that started it.
 * @param {any} d
 * @returns {{version: string, series: number, label: string}[]}
 */
function hostBoundaries(d) {
  const series = hostSeriesOf(d);
  /** @type {{version: string, series: number, label: string}[]} */
  const out = [];
  d.releases.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
    const prev = d.releases[i - 1];
    if (!prev || prev.hostSeries === r.hostSeries) return;
    const change = series[r.hostSeries]?.change;
    out.push({ version: r.version, series: r.hostSeries, label: change ? change.label : `host series ${r.hostSeries + 1}` });
  });
  return out;
}

/** @param {any} d */
function hostSeriesNote(d) {
  const series = hostSeriesOf(d);
  if (series.length <= 1) return null;
  return h('div', { id: 'host-series-note', class: 'note', dataset: { hostSeries: String(series.length) } },
    h('p', null, `The host changed while this history was measured: ${series.length} host series. The chart starts a new line at each change instead of continuing across new hardware, kernel or BIOS settings; compare releases within one series.`),
    h('ul', null, series.filter((/** @type {any} */ s) => s.change).map((/** @type {any} */ s) =>
      h('li', { dataset: { hostChange: s.change.at } }, `Host series ${s.index + 1}: ${s.change.label}`))));
}

/** @param {any} d */
function changePointTable(d) {
  if (points(d).length === 0) return null;
  return scrollTable(`${d.test}: change points (${d.changePoints.method.tool}), where a new level of ${d.metric} starts`, [
    h('thead', null, h('tr', null, ['Starts at', 'Previous point', 'Change', 'Mean before', 'Mean after', 'p-value', 'Kind']
      .map((c, i) => h('th', { scope: 'col', class: i <= 1 || i === 6 ? 'text' : null, text: c })))),
    h('tbody', null, points(d).map((/** @type {any} */ c) => {
      const kind = pointKind(d, c);
      return h('tr', { dataset: { version: c.version, change: c.forwardChangePct, pValue: c.pValue } },
        h('th', { scope: 'row', class: 'text' }, h('a', { href: releaseHref(d, c.version), text: c.version })),
        h('td', { class: 'text', text: c.previousVersion }),
        h('td', { text: fmtChange(c.forwardChangePct) }),
        h('td', { text: fmtQps(c.meanBefore) }),
        h('td', { text: fmtQps(c.meanAfter) }),
        h('td', { text: c.pValue.toExponential(1) }),
        h('td', { class: 'text', title: c.evidence ?? undefined }, h('span', { 'aria-hidden': 'true', text: `${kind.glyph} ` }), kind.word));
    })),
  ], { id: 'change-points' });
}

/**
 * Time and work side by side, per release whose comparison judged this test by more than one
 * meter: compare's sentence (do the timed and the counted verdicts agree, and what a
 * disagreement points to). Newest release first.
 * @param {any} d
 */
function timeAndWorkList(d) {
  const stated = [...d.releases].reverse().filter((/** @type {any} */ r) => r.timeAndWork);
  if (stated.length === 0) return null;
  return h('section', { id: 'time-and-work' }, h('h2', { text: 'Time and work' }),
    h('ul', null, stated.map((/** @type {any} */ r) => h('li', { dataset: { version: r.version, agreement: r.timeAndWork.agreement } }, h('a', { href: releaseHref(d, r.version), text: r.version }), `: ${r.timeAndWork.sentence}`))));
}

/** @param {any} d @param {string} base @param {any} baseRel */
function historyTable(d, base, baseRel) {
  // Each counting meter of the releases' runs: a column of its figure and verdict, by its label.
  const meters = countingMeters(d.releases);
  const heads = ['Release', 'Median', 'Min – max', 'Repeats', `Ratio to ${base}`, 'Change point', 'Verdict', 'Ratio of the verdict [interval]', 'Min. detectable effect', 'Compared with',
    ...meters.map(({ label }) => `${label[0].toUpperCase()}${label.slice(1)}: median, verdict`)];
  return scrollTable(`${d.test}: median ${d.metric} per release, ratio to ${base}, change points, and the verdict of its comparison`, [
    h('thead', null, h('tr', null, heads.map((c, i) => h('th', { scope: 'col', class: i === 0 || i === 5 || i === 6 || i === 9 || i >= 10 ? 'text' : null, text: c })))),
    h('tbody', null, [...d.releases].reverse().map((/** @type {any} */ r) => {
      // The verdict's estimate when compared with this base, else median ÷ median, not judged.
      const shown = shownAgainst({ own: r.shown ?? null, comparedWith: r.comparedWith ?? null, base, version: r.version, baseMedian: baseRel?.median ?? null, median: r.median });
      const v = r.verdict;
      const here = points(d).filter((/** @type {any} */ c) => c.version === r.version);
      const between = here.some((/** @type {any} */ c) => c.atReleaseBoundary);
      const mixed = r.mixedHostSeries ?? [];
      return h('tr', { dataset: { version: r.version, median: r.median ?? '', hostSeries: r.hostSeries ?? 0 }, class: between ? 'change-point' : null },
        h('th', { scope: 'row', class: 'text' }, h('a', { href: releaseHref(d, r.version), text: r.version }),
          hostSeriesOf(d).length > 1 ? h('span', { class: 'muted', dataset: { mixed: mixed.join(' ') },
            text: mixed.length > 1 ? ` (runs on host series ${mixed.map((/** @type {number} */ i) => i + 1).join(' and ')}: its median mixes hosts)` : ` (host series ${(r.hostSeries ?? 0) + 1})` }) : null),
        h('td', { text: fmtQps(r.median) }),
        h('td', { text: r.min === null ? '—' : `${fmtQps(r.min)} – ${fmtQps(r.max)}` }),
        h('td', { text: String(r.n) }),
        h('td', { dataset: { ratio: shown?.ratio ?? '', shownRatio: shown ? formatShownRatio(shown) : '', judged: shown ? String(shown.judged) : '' } }, shownRatioSpan(shown),
          shown && !shown.judged && shown.refused ? h('span', { class: 'muted note-inline', text: ` not judged: ${shown.why}` }) : null),
        h('td', { class: 'text', dataset: { changePoint: here.map((/** @type {any} */ c) => c.forwardChangePct).join(' ') } }, here.length === 0 ? h('span', { class: 'muted', text: '—' })
          : here.map((/** @type {any} */ c) => {
            const kind = pointKind(d, c);
            return h('span', { title: `${kind.word}: mean ${fmtNum(c.meanBefore)} → ${fmtNum(c.meanAfter)}, p ${c.pValue.toExponential(1)}` },
              h('span', { 'aria-hidden': 'true', text: `${kind.glyph} ` }), `${fmtChange(c.forwardChangePct)}${c.atReleaseBoundary ? '' : ' (inside)'} `);
          })),
        h('td', { class: 'text' }, v ? [verdictBadge(v.verdict, v.reason, 'verdict', v.words ?? null), ` ${v.words ?? v.verdict}`] : h('span', { class: 'muted', text: r.status === 'ok' ? 'none' : r.timed === false ? 'not timed' : r.status })),
        h('td', { text: v ? `${formatShownRatio(r.shown)}${v.ci ? ` [${fmtRatio(v.ci[0], 3)}, ${fmtRatio(v.ci[1], 3)}]` : ''}` : '—' }),
        h('td', { text: v ? fmtDetectable(v.mde) : '—' }),
        h('td', { class: 'text', text: v?.baseVersion ?? '—' }),
        meters.map(({ meter }) => countedCell(r, meter)));
    })),
  ], { id: 'test-history' });
}

/**
 * Why compare refused to judge each release's figure of this test against the base (a step too
 * short to judge), by version: its points are drawn grey and the tooltip says why.
 * @param {any} d @param {string} base @param {any} baseRel
 * @returns {Map<string, string>}
 */
function refusedByVersion(d, base, baseRel) {
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const r of d.releases) {
    const shown = shownAgainst({ own: r.shown ?? null, comparedWith: r.comparedWith ?? null, base, version: r.version, baseMedian: baseRel?.median ?? null, median: r.median });
    if (shown?.refused) out.set(r.version, shown.why ?? 'compare refused to judge it');
  }
  return out;
}

/** @param {any} d @param {string} base @param {any} baseRel */
function historyOption(d, base, baseRel) {
  const versions = d.releases.map((/** @type {any} */ r) => r.version);
  const refused = refusedByVersion(d, base, baseRel);
  const grey = { color: UNJUDGED_GREY };
  const repeats = d.releases.flatMap((/** @type {any} */ r) => r.runs.flatMap((/** @type {any} */ run) =>
    run.repeats.filter((/** @type {any} */ x) => x.status === 'ok').map((/** @type {any} */ x) => (refused.has(r.version) ? { value: [r.version, x.throughput], itemStyle: grey } : [r.version, x.throughput]))));
  // A not-judged release keeps its place on the line, as a grey hollow point (the line page's mark).
  const greyMedians = (/** @type {any} */ line) => ({ ...line, data: line.data.map((/** @type {number|null} */ v, /** @type {number} */ i) => (v !== null && refused.has(versions[i]) ? { value: v, symbol: 'emptyCircle', symbolSize: 8, itemStyle: grey } : v)) });
  return {
    tooltip: {
      trigger: 'axis',
      formatter: (/** @type {any[]} */ items) => {
        const version = items[0]?.axisValue;
        const why = refused.get(version);
        return [version, ...items.filter((it) => it.seriesName !== 'repeats' || !why).map((it) => `${it.marker}${it.seriesName}: ${fmtQps(Array.isArray(it.value) ? it.value[1] : it.value)}`),
          ...(why ? [`not judged: ${why}`] : [])].join('<br>');
      },
    },
    legend: { top: 0 },
    grid: { left: 70, right: 16, top: 36, bottom: versions.length > 40 ? 78 : 56 },
    xAxis: { type: 'category', data: versions, axisLabel: { rotate: 40 } },
    // From zero: a history whose axis starts at its own minimum makes a 2 % wobble look like a cliff (issue 35).
    yAxis: { type: 'value', name: d.metric, min: 0 },
    dataZoom: zoomFor(versions.length, 60),
    series: [
      {
        ...greyMedians(medianLines(d)[0]), showSymbol: versions.length <= 80 || refused.size > 0,
        markLine: hostMarkLine(d),
        markPoint: {
          symbolSize: 44,
          // only the stored change points (release-series rule or apache-otava); never verdicts standing in for them
          data: points(d).filter((/** @type {any} */ c) => versions.includes(c.version)).map((/** @type {any} */ c) => {
            const kind = pointKind(d, c);
            return {
              name: `change point ${fmtChange(c.forwardChangePct)} (${kind.word})`, coord: [c.version, d.releases.find((/** @type {any} */ r) => r.version === c.version)?.median],
              value: kind.glyph, itemStyle: { color: kind.color }, changePct: c.forwardChangePct,
            };
          }),
        },
      },
      ...medianLines(d).slice(1).map((line) => ({ ...greyMedians(line), showSymbol: versions.length <= 80 || refused.size > 0 })),
      { name: 'repeats', type: 'scatter', data: repeats, symbolSize: 5, itemStyle: { opacity: 0.6 } },
      // A legend entry for the grey, so the colour is explained without hovering.
      ...(refused.size > 0 ? [{ name: 'not judged (grey)', type: 'scatter', data: [], itemStyle: grey }] : []),
    ],
  };
}

/**
 * The median line, one per host series: a release's median only joins the line of its own
 * series, so the line breaks where the host changed.
 * @param {any} d
 * @returns {{name: string, type: 'line', data: (number|null)[], connectNulls: boolean}[]}
 */
function medianLines(d) {
  const series = hostSeriesOf(d);
  if (series.length <= 1) return [{ name: 'median', type: 'line', data: d.releases.map((/** @type {any} */ r) => r.median), connectNulls: false }];
  return series.map((/** @type {any} */ s) => ({
    name: `median, host series ${s.index + 1}`, type: 'line', connectNulls: false,
    data: d.releases.map((/** @type {any} */ r) => ((r.hostSeries ?? 0) === s.index ? r.median : null)),
  }));
}

/**
 * Vertical marks where a new host series starts, labelled with the change.
 * @param {any} d
 */
function hostMarkLine(d) {
  const marks = hostBoundaries(d);
  return {
    symbol: 'none', silent: false,
    lineStyle: { type: 'dashed', color: '#9a6700' },
    label: { formatter: (/** @type {any} */ p) => p.name, position: 'insideEndTop', color: '#9a6700' },
    data: marks.map((m) => ({ name: m.label, xAxis: m.version, hostSeries: m.series })),
  };
}
