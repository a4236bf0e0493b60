/**
 * Release: every test's verdict with its numbers and interval, the minimum detectable effect,
 * efficiency, latency, database size, provenance (build, my.cnf, host, tools), and the my.cnf
 * and settings diff against the release it was compared with; and any bisect whose bad or first
 * bad release this is (release-bisect.js).
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson, loadJsonOrNull, params } from '../data.js';
import { dataPaths } from '../paths.js';
import { fmtQps, fmtNum, fmtPct, fmtDate, fmtBytes, fmtRatio } from '../format.js';
import { bisectSection } from './release-bisect.js';
import { sequenceSection, drawSequenceCharts } from './sequences.js';
import { breadcrumb, verdictBadge, ratioSpan, summaryBadges, summaryText, legend, tableTitle, lineHref, testHref, requireParams } from '../components.js';

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
  fill(main, 
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: tableTitle(d), href: lineHref(d) }, { label: d.version }]),
    h('h1', { text: title }),
    verdictIntro(d, baseData),
    legend(),
    testsTable(d, baseData),
    bisectSection(d),
    sequenceSection(d.sequences, { highlight: d.version }),
    otherVerdicts(d),
    efficiencyTable(d),
    dbSizeTable(d),
    differences(d),
    provenance(d));
  await drawSequenceCharts(d.sequences, { highlight: d.version });
}

/** @param {any} d @param {any} baseData */
function verdictIntro(d, baseData) {
  const c = d.comparison;
  if (!c) {
    return h('p', { class: 'note', id: 'verdict-summary' }, 'No comparison is stored for this release, so there are no verdicts. ',
      baseData ? `Ratios below are medians relative to ${baseData.version} (the default base of this product line).` : 'This is the base release of its product line.');
  }
  return h('div', { id: 'verdict-summary' },
    h('p', null, 'Compared with ', h('strong', { text: c.base.version }), ` (runs ${c.base.runIds.join(', ')}) on ${fmtDate(c.createdAt)}. Throughput: `,
      summaryBadges(throughputCounts(d)), h('span', { class: 'muted', text: ` All gated metrics: ${summaryText(c.summary)}.` })),
    h('p', { class: 'muted' }, `Thresholds (relative change: warn / issue) per group: ${Object.entries(c.thresholds.groups ?? {}).map(([g, t]) => `${g} ${fmtPct(/** @type {any} */ (t).warn)} / ${fmtPct(/** @type {any} */ (t).issue)}`).join('; ')}. `,
      h('a', { href: c.file, text: 'Comparison (JSON)' })));
}

/**
 * @param {any} d
 * @returns {Record<string, number>} throughput verdicts per class
 */
function throughputCounts(d) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const t of d.tests) if (t.verdict) out[t.verdict.verdict] = (out[t.verdict.verdict] ?? 0) + 1;
  return out;
}

/** @param {any} d @param {any} baseData */
function testsTable(d, baseData) {
  const rows = d.tests.filter((/** @type {any} */ t) => t.present).map((/** @type {any} */ t) => {
    const v = t.verdict;
    const baseTest = baseData?.tests.find((/** @type {any} */ x) => x.name === t.name);
    const ratio = v ? v.ratio : baseTest?.median && t.median !== null ? t.median / baseTest.median : null;
    return h('tr', { dataset: { test: t.name } },
      h('th', { scope: 'row', class: 'text' }, h('a', { href: testHref(d, t.name), text: t.name })),
      h('td', { class: 'text', text: t.group }),
      h('td', { dataset: { median: t.median ?? '' } }, fmtQps(t.median), h('span', { class: 'muted', text: ` ${t.metric}` })),
      h('td', { text: t.min === null ? '—' : `${fmtQps(t.min)} – ${fmtQps(t.max)}` }),
      h('td', { text: String(t.n) }),
      h('td', { dataset: { ratio: ratio ?? '' } }, ratioSpan(ratio)),
      h('td', { text: v?.ci ? `${fmtRatio(v.ci[0])} – ${fmtRatio(v.ci[1])}` : '—' }),
      // drop and rise differ (1 - e^-s vs e^s - 1); the df say how settled the noise estimate is
      h('td', { text: v ? `${fmtPct(v.mdeDrop ?? v.mde)} / ${fmtPct(v.mdeRise ?? v.mde)}${v.noiseDf ? ` (${v.noiseDf} df)` : ''}` : '—', title: v ? `instances: ${v.base?.n ?? 0} vs ${v.candidate?.n ?? 0}` : undefined }),
      h('td', { class: 'text' }, v ? [verdictBadge(v.verdict, v.reason), ` ${v.verdict}`, v.confirmed ? ' (confirmed)' : ''] : t.status !== 'ok' ? `${t.status}` : h('span', { class: 'muted', text: 'none' })),
      h('td', { class: 'text' }, v?.reason || t.reason ? h('details', { class: 'why' }, h('summary', { text: 'why' }), h('p', { text: v?.reason ?? t.reason })) : ''));
  });
  return h('section', null, h('h2', { text: 'Tests' }),
    scrollTable(`Throughput of every test${d.comparison ? ` and its verdict against ${d.comparison.base.version}` : ''}`, [
      h('thead', null, h('tr', null, ['Test', 'Group', 'Median', 'Min – max', 'Repeats', 'Ratio', 'Interval of the ratio', 'Detectable drop / rise (noise df)', 'Verdict', 'Why']
        .map((c, i) => h('th', { scope: 'col', class: [0, 1, 8, 9].includes(i) ? 'text' : null, text: c })))),
      h('tbody', null, rows),
    ], { id: 'release-tests' }));
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
      const ci = v.ci ? ` [${fmtRatio(v.ci[0])}, ${fmtRatio(v.ci[1])}]` : '';
      return h('td', { title: `${v.verdict}: ${v.reason}`, dataset: { metric: m, verdict: v.verdict } },
        v.ratio === null ? '—' : fmtNum(v.ratio), h('span', { class: 'muted', text: ci }), ' ', verdictBadge(v.verdict, v.reason));
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
    h('h3', null, `Run ${r.id} `, h('span', { class: 'muted', text: `(${r.status}${r.reason ? `: ${r.reason}` : ''})` })),
    h('p', null, h('a', { href: r.record, text: 'Run record (JSON)' }), ` · started ${fmtDate(r.startedAt)}, finished ${fmtDate(r.finishedAt)}`),
    facts('Build', [
      ['Server version', r.release.serverVersionString], ['Tag', r.release.tag], ['Commit', r.release.commit], ['Provider', r.release.provider],
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
