/**
 * Release: every test's verdict with its numbers and interval, the minimum detectable effect,
 * the instructions per operation counted under callgrind and their verdict (where the runs
 * counted them) with where the instructions went (release-functions.js), efficiency, latency,
 * hardware counters, the sequence benchmarks' response times per operation
 * (release-latencies.js), database size, provenance (build, my.cnf, host, tools), and the my.cnf
 * and settings diff against the release it was compared with; and any bisect whose bad or first
 * bad release this is (release-bisect.js).
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJsonOrNull, params } from '../data.js';
import { dataPaths, pageUrl } from '../paths.js';
import { fmtBytes, fmtCount, fmtDate, fmtDetectable, fmtNum, fmtPct, fmtQps, fmtRatio, fmtSeconds, fmtSmallPct, ratioDigits } from '../format.js';
import { bisectSection } from './release-bisect.js';
import { functionsSection, belowThresholdSection } from './release-functions.js';
import { overviewChart } from './release-overview.js';
import { sequenceSection, drawSequenceCharts } from './sequences.js';
import { latencySection } from './release-latencies.js';
import { shownAgainst } from '../ratios.js';
import { formatShownRatio, computeShownRatio } from '#shown-ratio';
import { breadcrumb, verdictBadge, shownRatioSpan, summaryBadges, summaryText, legend, tableTitle, lineHref, testHref, requireParams, suspectsTable, findingsList } from '../components.js';

/** @param {HTMLElement} main */
export async function render(main) {
  const key = requireParams(params(), ['product', 'version', 'host', 'suite']);
  const d = await loadJsonOrNull(dataPaths.release(key));
  if (!d) throw new Error(`no results for ${key.product} ${key.version} on host class ${key.host} with suite ${key.suite}`);
  // Without a comparison the page still shows ratios, to the table's default base, from the
  // medians (no verdicts: those come only from the compare stage).
  let baseData = null;
  if (!d.comparison && d.defaultBase && d.defaultBase !== d.version) {
    baseData = await loadJsonOrNull(dataPaths.release({ ...key, version: d.defaultBase }));
  }
  const title = `${d.productName} ${d.version} · ${d.host} · ${d.suite}`;
  const moves = functionsSection(d, d.functions ? await loadJsonOrNull(d.functions) : null);
  // An older release of a long history: its function tables are in its comparison only.
  if (!moves.section && d.functionsInComparison && d.comparison) {
    moves.section = h('section', { id: 'where-instructions-went', dataset: { inComparison: 'true' } }, h('h2', { text: 'Where the instructions went' }),
      h('p', { class: 'muted' }, 'This site draws the function tables of its newest releases only; this release\'s are in its ', h('a', { href: d.comparison.file, text: 'comparison (JSON)' }), ', each instructions verdict\'s ', h('code', { text: 'functions' }), ' field.'));
  }
  const overview = overviewChart(d);
  fill(main, 
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: tableTitle(d), href: lineHref(d) }, { label: d.version }]),
    h('h1', { text: title }),
    tagNotes(d),
    findingsBlock(d),
    verdictIntro(d, baseData),
    overview.figure,
    suspectsSection(d),
    legend(),
    testsTable(d, baseData),
    timeAndWorkSection(d),
    moves.section,
    belowThresholdSection(d),
    bisectSection(d),
    sequenceSection(d.sequences, { highlight: d.version }),
    latencySection(d),
    otherVerdicts(d),
    efficiencyTable(d),
    countersTable(d),
    dbSizeTable(d),
    differences(d),
    provenance(d));
  await overview.draw();
  await drawSequenceCharts(d.sequences, { highlight: d.version });
  await moves.draw();
}

/**
 * What happened to the release's tag upstream: moved (a run of the new commit says from which)
 * or deleted (watch no longer finds it). Absent in data built before tags were tracked.
 * @param {any} d
 */
function tagNotes(d) {
  const moved = d.tag?.moved ?? [];
  const deleted = d.tag?.deleted ?? null;
  if (moved.length === 0 && !deleted) return null;
  return h('div', { id: 'tag-notes' },
    moved.map((/** @type {any} */ m) => h('p', { class: 'note', dataset: { tagMoved: m.runId } },
      h('strong', { text: 'Tag moved: ' }), `${m.tag ?? 'the tag'} moved from `, h('code', { text: m.from }), ' to ', h('code', { text: m.to ?? 'an unrecorded commit' }),
      `; run ${m.runId} benchmarked the new commit.`, d.runs.some((/** @type {any} */ r) => r.superseded) ? ' Runs of the old commit are listed below, not counted.' : '')),
    deleted ? h('p', { class: 'note', id: 'tag-deleted' }, h('strong', { text: 'Tag deleted: ' }),
      `upstream no longer has ${deleted.tags.join(', ')} (checked ${fmtDate(deleted.checkedAt)}). Its runs stay here as they were measured.`) : null);
}

/**
 * Every regression and suspect of the comparison by name, first: the tests table below holds a
 * counted verdict past the right edge of a 1400 px screen, and the charts show one meter each.
 * @param {any} d
 */
function findingsBlock(d) {
  if (!d.comparison) return null;
  const findings = d.findings ?? [];
  const count = (/** @type {string} */ kind) => {
    const n = findings.filter((/** @type {any} */ f) => f.kind === kind).length;
    return `${n} ${kind}${n === 1 ? '' : 's'}`;
  };
  return h('div', { id: 'findings' }, h('p', { class: 'findings-head' }, h('strong', { text: `Against ${d.comparison.base.version}: ` }),
    `${count('regression')} and ${count('suspect')}, every gated metric, timed and counted:`), findingsList(findings, d));
}

/**
 * Whether the release's runs counted instructions (or its comparison judged them): the
 * tests table then has their columns.
 * @param {any} d
 */
function hasInstructions(d) {
  return d.tests.some((/** @type {any} */ t) => t.instructions || t.instructionVerdict);
}

/** @param {any} d @param {any} baseData */
function verdictIntro(d, baseData) {
  const c = d.comparison;
  if (!c) {
    return h('p', { class: 'note', id: 'verdict-summary' }, 'No comparison is stored for this release, so there are no verdicts. ',
      baseData ? `Ratios below are medians relative to ${baseData.version} (the default base of this product line).` : 'This is the base release of its product line.');
  }
  const counted = countsOf(d, 'instructionVerdict');
  // The counted metric named as its meter states it (the verdict's label), not worded here.
  const countedLabel = d.tests.find((/** @type {any} */ t) => t.instructionVerdict?.label)?.instructionVerdict.label ?? 'counted per operation';
  return h('div', { id: 'verdict-summary' },
    // How sure comes first: a reader weighs every count and ratio below by it.
    howSure(d),
    h('p', null, 'Compared with ', h('strong', { text: c.base.version }), ` (runs ${c.base.runIds.join(', ')}) on ${fmtDate(c.createdAt)}. Throughput: `,
      summaryBadges(throughputCounts(d)),
      Object.keys(counted).length ? [` ${countedLabel[0].toUpperCase()}${countedLabel.slice(1)}: `, h('span', { dataset: { scope: 'instructions' } }, summaryBadges(counted))] : null,
      h('span', { class: 'muted', text: ` All gated metrics: ${summaryText(c.summary)}.` })),
    h('p', { class: 'muted' }, `Thresholds (relative change: warn / issue) per group: ${Object.entries(c.thresholds.groups ?? {}).map(([g, t]) => `${g} ${fmtPct(/** @type {any} */ (t).warn)} / ${fmtPct(/** @type {any} */ (t).issue)}`).join('; ')}. `,
      h('a', { href: c.file, text: 'Comparison (JSON)' })));
}

/**
 * How sure the verdicts are: the sentence compare/how-sure.js words for every place a verdict
 * reaches a reader (the site build stores it with the comparison). It cites only a calibration
 * that matches this run; the host class's page has every one.
 * @param {any} d
 */
function howSure(d) {
  if (!d.comparison?.howSure) return null;
  return h('p', { id: 'how-sure' }, h('strong', { text: 'How sure: ' }), d.comparison.howSure,
    h('span', { class: 'muted' }, ' Every calibration of this host class: ', h('a', { href: pageUrl('host', { host: d.host }), text: `host ${d.host}` }), '.'));
}

/**
 * The comparison's suspects, right after the verdict counts: where to look first among the
 * inconclusive verdicts.
 * @param {any} d
 */
function suspectsSection(d) {
  if (!d.comparison) return null;
  const suspects = d.suspects ?? [];
  if (suspects.length === 0) {
    return h('p', { class: 'muted', id: 'suspects' }, 'Suspects: none. No inconclusive throughput or instruction verdict leans the bad way (90 % of its interval on the bad side of no change, or three quarters with its estimate past the issue threshold).');
  }
  return h('section', { id: 'suspects' },
    h('h2', { text: 'Suspects' }),
    h('p', null, 'Inconclusive throughput and instruction verdicts that lean the bad way: at least 90 % of the interval on the bad side of no change, or three quarters with the estimate past the issue threshold. Leads, not findings: about one noise verdict in ten leans this far by chance; each says what would settle it.'),
    suspectsTable(suspects, { id: 'suspects-table' }));
}

/**
 * @param {any} d
 * @returns {Record<string, number>} throughput verdicts per class
 */
function throughputCounts(d) {
  return countsOf(d, 'verdict');
}

/**
 * @param {any} d
 * @param {'verdict'|'instructionVerdict'} field
 * @returns {Record<string, number>} that verdict of every test, per class
 */
function countsOf(d, field) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const t of d.tests) if (t[field]) out[t[field].verdict] = (out[t[field].verdict] ?? 0) + 1;
  return out;
}

/** @param {any} d @param {any} baseData */
function testsTable(d, baseData) {
  const counted = hasInstructions(d);
  const rows = d.tests.filter((/** @type {any} */ t) => t.present).map((/** @type {any} */ t) => {
    const v = t.verdict;
    const baseTest = baseData?.tests.find((/** @type {any} */ x) => x.name === t.name);
    // The one ratio (site/js/ratios.js): the stored one with a comparison, else to the default base, not judged.
    const shown = d.comparison ? t.shown ?? null : shownAgainst({ own: null, comparedWith: null, base: baseData?.version ?? d.version, version: d.version, baseMedian: baseTest?.median ?? null, median: t.median });
    // A run with counting meters only leaves its timed steps skipped: say so, not "skipped".
    const status = t.timed === false ? 'not timed' : t.status;
    return h('tr', { dataset: { test: t.name, timed: String(t.timed !== false) } },
      h('th', { scope: 'row', class: 'text' }, h('a', { href: testHref(d, t.name), text: t.name })),
      h('td', { class: 'text', text: t.group }),
      h('td', { dataset: { median: t.median ?? '' } }, fmtQps(t.median), h('span', { class: 'muted', text: ` ${t.metric}` })),
      h('td', { text: t.min === null ? '—' : `${fmtQps(t.min)} – ${fmtQps(t.max)}` }),
      // Repeats and their measured length: a step of a fraction of a second is shown, not judged.
      h('td', { dataset: { durationS: t.durationS ?? '' }, text: t.durationS == null ? String(t.n) : `${t.n} × ${fmtSeconds(t.durationS)}` }),
      h('td', { dataset: { ratio: shown?.ratio ?? '', shownRatio: shown ? formatShownRatio(shown) : '', judged: shown ? String(shown.judged) : '' } }, shownRatioSpan(shown),
        shown?.refused ? h('span', { class: 'sub-line muted', text: `not judged: ${shown.why}` }) : null),
      h('td', { text: v?.ci ? `${fmtRatio(v.ci[0], 3)} – ${fmtRatio(v.ci[1], 3)}` : '—' }),
      // drop and rise differ (1 - e^-s vs e^s - 1); the df say how settled the noise estimate is
      h('td', { text: v ? `${fmtDetectable(v.mdeDrop ?? v.mde)} / ${fmtDetectable(v.mdeRise ?? v.mde)}${v.noiseDf ? ` (${v.noiseDf} df)` : ''}` : '—', title: v ? `instances: ${v.base?.n ?? 0} vs ${v.candidate?.n ?? 0}` : undefined }),
      // Frozen at the right edge while the columns before it scroll: in view at 800 px.
      h('td', { class: 'text sticky-verdict', dataset: { status } }, v ? [verdictBadge(v.verdict, v.reason, 'verdict', v.words ?? null), ` ${v.words ?? v.verdict}`, v.confirmed ? ' (confirmed)' : ''] : t.status !== 'ok' ? status : h('span', { class: 'muted', text: 'none' })),
      counted ? instructionCells(t, baseTest) : null,
      h('td', { class: 'text' }, v?.reason || t.reason ? h('details', { class: 'why' }, h('summary', { text: 'why' }), h('p', { text: v?.reason ?? t.reason })) : ''));
  });
  // One ratio per test: with a comparison it is the verdict's estimate (as on every page that
  // shows the verdict); without one, median / median, named so.
  const throughputHeads = ['Median', 'Min – max', 'Repeats × length', d.comparison ? 'Ratio' : 'Median ratio', 'Interval of the ratio', 'Detectable drop / rise (noise df)', 'Verdict'];
  const col = (/** @type {string} */ c, /** @type {boolean} */ text, rowspan = 1, extra = '') => h('th', { scope: 'col', class: [text ? 'text' : '', extra].filter(Boolean).join(' ') || null, rowspan: rowspan > 1 ? String(rowspan) : null, text: c });
  // With counted figures the columns come in two groups under a heading each, so the
  // instructions' median, ratio and verdict need not repeat the word in every header.
  const thead = counted
    ? h('thead', null,
      h('tr', null, col('Test', true, 2), col('Group', true, 2),
        h('th', { scope: 'colgroup', colspan: String(throughputHeads.length), class: 'text', text: 'Throughput (timed)' }),
        h('th', { scope: 'colgroup', colspan: '3', class: 'text', text: 'Instructions per operation (query path, counted)' }),
        col('Why', true, 2)),
      h('tr', null, throughputHeads.map((c) => col(c, c === 'Verdict', 1, c === 'Verdict' ? 'sticky-verdict' : '')),
        col('Median (spread)', false), col('Ratio [interval]', false), col('Verdict', true)))
    : h('thead', null, h('tr', null, ['Test', 'Group', ...throughputHeads, 'Why'].map((c) => col(c, ['Test', 'Group', 'Verdict', 'Why'].includes(c), 1, c === 'Verdict' ? 'sticky-verdict' : ''))));
  return h('section', null, h('h2', { text: 'Tests' }),
    counted ? h('p', { class: 'muted', id: 'instructions-note', text: 'Instructions per operation: the query path (the dispatch function and everything it calls) counted under callgrind, '
      + 'the median of the counted repeats and their spread ((max − min) ÷ median; hover for the range). Counted, not timed: they move by hundredths of a percent, so the ratio has five decimals. Lower is better.' }) : null,
    scrollTable(`Throughput${counted ? ' and instructions per operation' : ''} of every test${d.comparison ? ` and the verdicts against ${d.comparison.base.version}` : ''}`, [
      thead,
      h('tbody', null, rows),
    ], { id: 'release-tests' }));
}

/**
 * Time and work side by side: for each test judged by more than one meter, whether the timed and
 * the counted verdicts agree and what a disagreement points to (compare's sentence, as the
 * terminal, the report and the issue word it). Disagreements first.
 * @param {any} d
 */
function timeAndWorkSection(d) {
  const stated = d.tests.filter((/** @type {any} */ t) => t.timeAndWork);
  if (stated.length === 0) return null;
  const disagree = stated.filter((/** @type {any} */ t) => t.timeAndWork.agreement === 'disagree');
  const ordered = [...disagree, ...stated.filter((/** @type {any} */ t) => !disagree.includes(t))];
  return h('section', { id: 'time-and-work' }, h('h2', { text: 'Time and work' }),
    h('p', { class: 'muted', text: `Does the time follow the work? For the ${stated.length} test${stated.length === 1 ? '' : 's'} judged by more than one meter, ${disagree.length} disagree. Only decided verdicts decide: an undecided one is named, never guessed.` }),
    h('ul', null, ordered.map((/** @type {any} */ t) => h('li', { dataset: { test: t.name, agreement: t.timeAndWork.agreement } }, h('a', { href: testHref(d, t.name), text: t.name }), `: ${t.timeAndWork.sentence}`))));
}

/**
 * A test's counted figures and their verdict, beside its throughput.
 * @param {any} t
 * @param {any} baseTest the same test of the default base release (no comparison), if loaded
 */
function instructionCells(t, baseTest) {
  const c = t.instructions;
  const v = t.instructionVerdict;
  const digits = ratioDigits(v ?? { counted: true });
  const shown = t.instructionShown ?? (baseTest?.instructions?.median && c?.median
    ? computeShownRatio({ baseMedian: baseTest.instructions.median, candidateMedian: c.median, counted: true, noVerdict: 'this release has no comparison' }) : null);
  const counted = shown ? { ...shown, counted: true } : null;
  const spread = c?.median && c.min !== null ? (c.max - c.min) / c.median : null;
  return [
    h('td', { dataset: { instructions: c?.median ?? '' },
      title: c?.median ? `${c.n} counted repeats on ${c.rounds} server processes, from ${fmtCount(c.min)} to ${fmtCount(c.max)}; whole process ${fmtCount(c.processMedian)}/op` : undefined },
      c?.median ? [h('span', { class: 'count', text: fmtCount(c.median) }), h('span', { class: 'sub-line muted', text: `spread ${fmtSmallPct(spread)}` })]
        : h('span', { class: 'muted', text: c ? c.status : '—' })),
    h('td', { dataset: { instructionsRatio: counted?.ratio ?? '', shownRatio: counted ? formatShownRatio(counted) : '', judged: counted ? String(counted.judged) : '' } },
      h('span', { class: `ratio-value${counted && !counted.judged ? ' ratio unjudged' : ''}`, title: counted && !counted.judged ? `not judged: ${counted.why}` : null, text: counted ? formatShownRatio(counted) : '—' }),
      v?.ci ? h('span', { class: 'sub-line muted', text: `[${fmtRatio(v.ci[0], digits)}, ${fmtRatio(v.ci[1], digits)}]` }) : null),
    h('td', { class: 'text', dataset: { instructionsVerdict: v?.verdict ?? '' } }, v ? [verdictBadge(v.verdict, v.reason, 'instructionsBadge', v.words ?? null), ` ${v.words ?? v.verdict}`] : h('span', { class: 'muted', text: 'none' })),
  ];
}

/**
 * Verdicts on the other gated metrics (latency, CPU per op, per-second quality of service...),
 * a row per test and a column per metric; the full reasoning is in each cell's tooltip.
 * @param {any} d
 */
function otherVerdicts(d) {
  const metrics = [...new Set(d.tests.flatMap((/** @type {any} */ t) => t.otherVerdicts.map((/** @type {any} */ v) => v.metric)))];
  if (metrics.length === 0) return null;
  const rows = d.tests.filter((/** @type {any} */ t) => t.otherVerdicts.length > 0).map((/** @type {any} */ t) => h('tr', { dataset: { test: t.name } },
    h('th', { scope: 'row', class: 'text', text: t.name }),
    metrics.map((m) => {
      const v = t.otherVerdicts.find((/** @type {any} */ x) => x.metric === m);
      if (!v) return h('td', { class: 'muted', text: '—' });
      // counted metrics (the whole process's instructions) need their five decimals here too
      const digits = v.counted ? ratioDigits(v) : undefined;
      const ci = v.ci ? ` [${fmtRatio(v.ci[0], digits)}, ${fmtRatio(v.ci[1], digits)}]` : '';
      return h('td', { title: `${v.words ?? v.verdict}: ${v.reason}`, dataset: { metric: m, verdict: v.verdict } },
        v.ratio === null ? '—' : digits ? fmtRatio(v.ratio, digits) : fmtNum(v.ratio), h('span', { class: 'muted', text: ci }), ' ', verdictBadge(v.verdict, v.reason, 'verdict', v.words ?? null));
    })));
  return h('section', null, h('h2', { text: 'Other gated metrics' }),
    h('p', { class: 'muted', text: 'Ratio (candidate ÷ base) with its interval and verdict per metric; hover a cell for the reasoning (also in the comparison JSON). For latency and CPU per operation lower is better.' }),
    scrollTable('Verdicts on latency, efficiency and per-second quality of service', [
      h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text', text: 'Test' }), metrics.map((m) => h('th', { scope: 'col', text: m })))),
      h('tbody', null, rows),
    ], { id: 'release-other-verdicts' }));
}

/** @param {any} d */
function efficiencyTable(d) {
  const rows = d.tests.filter((/** @type {any} */ t) => t.present).map((/** @type {any} */ t) => h('tr', null,
    h('th', { scope: 'row', class: 'text', text: t.name }),
    h('td', { text: fmtNum(t.efficiency?.cpuUsPerOp) }),
    h('td', { text: fmtNum(t.efficiency?.csPerOp) }),
    h('td', { text: fmtNum(t.efficiency?.readsPerOp) }),
    h('td', { text: fmtNum(t.efficiency?.kbReadPerOp) }),
    h('td', { text: fmtNum(t.efficiency?.kbWrittenPerOp) }),
    h('td', { text: fmtNum(t.latencyMs.avg) }),
    h('td', { text: fmtNum(t.latencyMs.p95) }),
    h('td', { text: fmtNum(t.latencyMs.p99) }),
    h('td', { text: fmtNum(t.latencyMs.max) }),
    h('td', { text: t.rssKb === null ? '—' : fmtBytes(t.rssKb * 1024) })));
  return h('section', null, h('h2', { text: 'Efficiency and latency' }),
    h('p', { class: 'muted', text: 'Per operation (query, or row for scans), medians of the repeats; CPU is user + system time over all CPUs. Latency: medians of each repeat\'s average, p95 and p99; max is the largest of any repeat.' }),
    scrollTable('Hardware efficiency per operation and latency (ms)', [
      h('thead', null, h('tr', null, ['Test', 'CPU µs/op', 'Context switches/op', 'Reads/op', 'KB read/op', 'KB written/op', 'Avg ms', 'p95 ms', 'p99 ms', 'Max ms', 'mysqld RSS']
        .map((c, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: c })))),
      h('tbody', null, rows),
    ], { id: 'release-efficiency' }));
}

/**
 * The counters meter's hardware counters over the timed repeats (perf stat on the server),
 * when the runs had it; a figure the host's PMU does not count stays a dash.
 * @param {any} d
 */
function countersTable(d) {
  const tests = d.tests.filter((/** @type {any} */ t) => t.present && t.counters);
  if (tests.length === 0) return null;
  return h('section', null, h('h2', { text: 'Hardware counters' }),
    h('p', { class: 'muted', text: 'Per operation of the timed repeats, medians; counted by perf on the server process while the test ran (the counters meter), so they include what the timed load does to caches and frequency. A dash: the host\'s CPU does not count it (no PMU, as in most virtual machines).' }),
    scrollTable('Hardware counters per operation (counters meter)', [
      h('thead', null, h('tr', null, ['Test', 'Instructions/op', 'Cycles/op', 'IPC', 'Branch misses/op', 'LLC misses/op']
        .map((c, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: c })))),
      h('tbody', null, tests.map((/** @type {any} */ t) => h('tr', { dataset: { test: t.name } },
        h('th', { scope: 'row', class: 'text', text: t.name }),
        h('td', { text: fmtCount(t.counters.instructionsPerOp) }),
        h('td', { text: fmtCount(t.counters.cyclesPerOp) }),
        h('td', { text: fmtNum(t.counters.ipc) }),
        h('td', { text: fmtNum(t.counters.branchMissesPerOp) }),
        h('td', { text: fmtNum(t.counters.llcMissesPerOp) })))),
    ], { id: 'release-counters' }));
}

/** @param {any} d */
function dbSizeTable(d) {
  return h('section', null, h('h2', { text: 'Database size' }),
    scrollTable('Database size after the load and at the end of each run', [
      h('thead', null, h('tr', null, ['Run', 'Logical after load', 'On disk after load', 'Logical at end', 'On disk at end']
        .map((c, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: c })))),
      h('tbody', null, d.runs.map((/** @type {any} */ r) => h('tr', null,
        h('th', { scope: 'row', class: 'text', text: r.id }),
        h('td', { text: fmtBytes(r.dbSize?.afterLoad?.logicalBytes) }),
        h('td', { text: fmtBytes(r.dbSize?.afterLoad?.onDiskBytes) }),
        h('td', { text: fmtBytes(r.dbSize?.atEnd?.logicalBytes) }),
        h('td', { text: fmtBytes(r.dbSize?.atEnd?.onDiskBytes) })))),
    ]));
}

/** @param {any} d */
function differences(d) {
  const ref = d.reference;
  if (!ref) return h('section', null, h('h2', { text: 'Differences' }), h('p', { class: 'muted', text: 'No reference release to compare settings with (this is the base, or nothing was compared).' }));
  const changed = ref.settings.filter((/** @type {any} */ s) => s.changed);
  const settingsTable = (/** @type {any[]} */ list, /** @type {string} */ caption) => scrollTable(caption, [
    h('thead', null, h('tr', null, ['Setting', ref.version, d.version].map((c, i) => h('th', { scope: 'col', class: 'text', text: c })))),
    h('tbody', null, list.map((s) => h('tr', { class: s.changed ? 'changed' : null },
      h('th', { scope: 'row', class: 'text', text: s.key }), h('td', { class: 'text', text: s.base ?? '—' }), h('td', { class: `text ${s.changed ? 'hi' : ''}`, text: s.candidate ?? '—' })))),
  ]);
  return h('section', { id: 'differences' },
    h('h2', { text: `Differences from ${ref.version}` }),
    h('p', { class: 'muted', text: `Against run ${ref.runId} of ${ref.version} (${ref.source === 'comparison' ? 'the base of this release\'s comparison' : 'the accepted baseline'}).` }),
    h('h3', { text: 'my.cnf' }),
    ref.mycnfDiff ? diffBlock(ref.mycnfDiff) : h('p', { id: 'mycnf-same', text: 'Identical my.cnf.' }),
    h('h3', { text: 'Build, tools, host and test options' }),
    changed.length ? settingsTable(changed, `${changed.length} settings differ`) : h('p', { id: 'settings-same', text: 'No setting differs.' }),
    h('details', null, h('summary', { text: `All ${ref.settings.length} settings` }), settingsTable(ref.settings, 'Every recorded setting')));
}

/** @param {string} text a unified diff */
function diffBlock(text) {
  const lines = text.split('\n').filter((l) => !/^(=+|Index:)/.test(l));
  return h('pre', { class: 'diff', id: 'mycnf-diff', tabindex: '0', 'aria-label': 'my.cnf diff' }, lines.map((l) => h('span', {
    class: l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : l.startsWith('@@') ? 'hunk' : null,
    text: l || ' ',
  })));
}

/** @param {any} d */
function provenance(d) {
  return h('section', null, h('h2', { text: 'Provenance' }), d.runs.map((/** @type {any} */ r) => h('article', { class: 'card' },
    h('h3', null, `Run ${r.id} `, h('span', { class: 'muted', text: `(${r.status}${r.reason ? `: ${r.reason}` : ''}${r.superseded ? '; of the commit the tag pointed at before it moved: not counted' : ''})` })),
    h('p', null, h('a', { href: r.record, text: 'Run record (JSON)' }), ` · started ${fmtDate(r.startedAt)}, finished ${fmtDate(r.finishedAt)}`),
    facts('Build', [
      ['Server version', r.release.serverVersionString], ['Tag', r.release.tag], ['Commit', r.release.commit],
      ...(r.release.movedFrom ? [/** @type {[string, any]} */ (['Moved from', `${r.release.movedFrom} (the tag's commit when it was benchmarked before)`])] : []), ['Provider', r.release.provider],
      ['Build profile', r.release.buildProfile], ['Build flags', r.release.buildFlags?.join(' ')], ['Server binary sha256', r.release.binarySha256],
      ['Packages', r.release.packages.map((/** @type {any} */ p) => `${p.name} ${p.version}`).join(', ')],
    ]),
    facts('Host', [
      ['Host class', r.host.class], ['Hostname', r.host.hostname], ['CPU', r.host.cpuModel], ['Cores', r.host.cores], ['Kernel', r.host.kernel],
      ['Memory', fmtBytes(r.host.memoryBytes)], ['Governor', r.host.governor ?? 'not exposed'], ['Turbo', r.host.turbo === null ? 'unknown' : r.host.turbo ? 'on' : 'off'],
      ['Pinning', `server ${r.host.pinning?.serverCpus ?? 'none'}, client ${r.host.pinning?.clientCpus ?? 'none'}`],
    ]),
    facts('Configuration', [
      ['Suite', r.config.suite], ['Scale', Object.entries(r.config.scale).map(([k, v]) => `${k} ${v}`).join(', ')], ['Engine', r.config.engine],
      ['Repeats', r.config.repeats], ['Alternated with', r.config.alternatedWith.join(', ') || '—'],
      ['Tools', Object.entries(r.config.tools).map(([k, v]) => `${k} ${v}`).join(', ')], ['my.cnf', `${r.config.mycnf.name} (sha256 ${r.config.mycnf.sha256.slice(0, 12)}…)`],
    ]))),
  d.mycnf !== null ? h('details', null, h('summary', { text: 'Full my.cnf' }), h('pre', { tabindex: '0', text: d.mycnf })) : null);
}

/**
 * @param {string} title
 * @param {[string, any][]} pairs
 */
function facts(title, pairs) {
  return h('div', null, h('h4', { text: title }), h('dl', { class: 'facts' },
    pairs.map(([k, v]) => [h('dt', { text: k }), h('dd', { text: v === null || v === undefined || v === '' ? '—' : String(v) })])));
}
