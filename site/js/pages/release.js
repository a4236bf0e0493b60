/**
 * Release: every test's verdict with its numbers and interval, the minimum detectable effect,
 * each counting meter's figures and verdict (the tests table: release-tests.js) with where the
 * counted instructions went per function (release-functions.js), efficiency, latency,
 * hardware counters, the sequence benchmarks' response times per operation
 * (release-latencies.js), database size, provenance (build, my.cnf, host, tools), and the my.cnf
 * and settings diff against the release it was compared with; and any bisect whose bad or first
 * bad release this is (release-bisect.js).
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJsonOrNull, params } from '../data.js';
import { dataPaths, pageUrl } from '../paths.js';
import { fmtBytes, fmtCount, fmtDate, fmtNum, fmtPct } from '../format.js';
import { bisectSection } from './release-bisect.js';
import { functionsSection, belowThresholdSection } from './release-functions.js';
import { overviewChart } from './release-overview.js';
import { testsTable } from './release-tests.js';
import { sequenceSection, drawSequenceCharts } from './sequences.js';
import { latencySection } from './release-latencies.js';
import { otherVerdictSections } from './release-other-verdicts.js';
import { breadcrumb, countingMeters, summaryBadges, summaryText, legend, tableTitle, lineHref, testHref, requireParams, suspectsTable, findingsList } from '../components.js';

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
    ...otherVerdictSections(d),
    efficiencyTable(d),
    ...timedMeterTables(d),
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

/** @param {any} d @param {any} baseData */
function verdictIntro(d, baseData) {
  const c = d.comparison;
  if (!c) {
    return h('p', { class: 'note', id: 'verdict-summary' }, 'No comparison is stored for this release, so there are no verdicts. ',
      baseData ? `Ratios below are medians relative to ${baseData.version} (the default base of this product line).` : 'This is the base release of its product line.');
  }
  // Each counting meter's verdicts, named as its meter states its metric (the label), not worded here.
  const counted = countingMeters(d.tests).map(({ meter, label }) => ({ meter, label, counts: countsOf(d, (t) => t.countedVerdicts?.[meter]) }))
    .filter((m) => Object.keys(m.counts).length > 0);
  return h('div', { id: 'verdict-summary' },
    // How sure comes first: a reader weighs every count and ratio below by it.
    howSure(d),
    h('p', null, 'Compared with ', h('strong', { text: c.base.version }), ` (runs ${c.base.runIds.join(', ')}) on ${fmtDate(c.createdAt)}. Throughput: `,
      summaryBadges(throughputCounts(d)),
      counted.map(({ meter, label, counts }) => [` ${label[0].toUpperCase()}${label.slice(1)}: `, h('span', { dataset: { scope: meter } }, summaryBadges(counts))]),
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
  return countsOf(d, (t) => t.verdict);
}

/**
 * @param {any} d
 * @param {(t: any) => any} verdictOf one verdict of a test, if any
 * @returns {Record<string, number>} that verdict of every test, per class
 */
function countsOf(d, verdictOf) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const t of d.tests) {
    const v = verdictOf(t);
    if (v) out[v.verdict] = (out[v.verdict] ?? 0) + 1;
  }
  return out;
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
 * Per meter whose figures the timed repeats kept (a timed meter's, such as perf's hardware
 * counters, or a counting meter's context such as the server's status counters), one table of
 * their medians per operation; a figure the host or the server does not count stays a dash.
 * @param {any} d
 * @returns {any[]}
 */
function timedMeterTables(d) {
  const meters = [...new Set(d.tests.flatMap((/** @type {any} */ t) => (t.present && t.timedMeters ? Object.keys(t.timedMeters) : [])))];
  const fmt = (/** @type {number|null} */ x) => (x !== null && Math.abs(x) >= 1000 ? fmtCount(x) : fmtNum(x));
  return meters.map((meter) => {
    const tests = d.tests.filter((/** @type {any} */ t) => t.present && t.timedMeters?.[meter]);
    // Every figure the meter gave, under its own name (the record's, e.g. cyclesPerOp).
    const names = [...new Set(tests.flatMap((/** @type {any} */ t) => Object.keys(t.timedMeters[meter])))];
    const title = `Per operation of the timed repeats (${meter} meter)`;
    return h('section', null, h('h2', { text: title }),
      h('p', { class: 'muted', text: `Medians over the timed repeats of what the ${meter} meter kept, per operation: counted while the timed load ran, so they include what it does to caches, background work and frequency; context, never a verdict here. A dash: the host or the server does not count it.` }),
      scrollTable(title, [
        h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'text', text: 'Test' }), names.map((c) => h('th', { scope: 'col', text: c })))),
        h('tbody', null, tests.map((/** @type {any} */ t) => h('tr', { dataset: { test: t.name } },
          h('th', { scope: 'row', class: 'text', text: t.name }),
          names.map((n) => h('td', { text: fmt(t.timedMeters[meter][n] ?? null) }))))),
      ], { id: `release-timed-${meter}` }));
  });
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
