/**
 * Host: the host is watched too. Each host class may name a reference release that is rerun in
 * every benchmark cycle; this page draws its throughput run by run, one line per host series
 * (a new series starts where the hardware, kernel or BIOS settings of the runs changed), and
 * marks the drifts the compare stage's host check found: those are changes of the host, never
 * a release's regression. It also shows how far the verdicts of the host class can be trusted:
 * its calibration (false issues per A/A run, detection of injected slowdowns, the smallest
 * detectable change per test), per meter the stored calibration a run of the host would cite in
 * its "how sure" and why the others would not be, and the false alarms engineers found in service. Without ?host=
 * it lists the host classes that have a reference.
 */
import { h, scrollTable, fill } from '../dom.js';
import { loadJson, loadJsonOrNull, params } from '../data.js';
import { dataPaths, pageUrl } from '../paths.js';
import { fmtQps, fmtPct, fmtDate } from '../format.js';
import { breadcrumb } from '../components.js';
import { drawChart, chartFigure } from '../charts.js';

const CHANGE_COLOR = '#9a6700';
const DRIFT_COLOR = '#cf222e';

/** @param {HTMLElement} main */
export async function render(main) {
  const host = params().get('host');
  if (!host) {
    await renderList(main);
    return;
  }
  const d = await loadJsonOrNull(dataPaths.host(host));
  if (!d) throw new Error(`no reference release for host class ${host}: name one in configs/hosts/${host}.yml (reference: { product, version }) and build the site again`);
  const ref = `${d.reference.product} ${d.reference.version}`;
  /** @type {{el: HTMLElement, option: any}[]} */
  const charts = [];
  const sections = d.suites.map((/** @type {any} */ s) => {
    const figures = s.tests.map((/** @type {any} */ t) => {
      const fig = chartFigure(`${t.test}: ${t.metric} of reference ${ref} per run, suite ${s.suite}`, 'tall');
      charts.push({ el: fig.canvas, option: referenceOption(s, t) });
      return fig.figure;
    });
    return h('section', { 'aria-labelledby': `suite-${s.suite}`, dataset: { suite: s.suite } },
      h('h2', { id: `suite-${s.suite}`, text: `Suite ${s.suite}` }),
      driftNote(s),
      driftTable(s, ref),
      seriesTable(s),
      h('div', { class: 'charts' }, figures),
      runsTable(s));
  });
  fill(main,
    breadcrumb([{ label: 'Home', href: 'index.html' }, { label: 'Hosts', href: pageUrl('host') }, { label: d.host }]),
    h('h1', { text: `Host ${d.host} · reference ${ref}` }),
    h('p', null, `${ref} is rerun in every benchmark cycle on host class ${d.host}. The same binary on the same host should measure the same, so a lasting change of its throughput is a change of the host (firmware, neighbours, cooling, a package update), not of any release. `,
      'A change of the runs\' hardware, kernel or BIOS settings starts a new host series: the line breaks there and runs are never compared across it.'),
    d.suites.length === 0 ? h('p', { class: 'note', id: 'host-no-runs', text: `No run of ${ref} on ${d.host} yet: the benchmark workflow reruns it every cycle.` }) : null,
    citingSection(d),
    calibrationSection(d),
    citableSection(d),
    falseAlarmSection(d),
    sections);
  for (const c of charts) await drawChart(c.el, c.option);
}

/** @param {HTMLElement} main */
async function renderList(main) {
  const index = await loadJsonOrNull(dataPaths.hosts());
  const hosts = index?.hosts ?? [];
  fill(main, breadcrumb([{ label: 'Home', href: 'index.html' }, { label: 'Hosts' }]),
    h('h1', { text: 'Hosts' }),
    h('p', null, 'Each host class can name a reference release that is rerun in every cycle (configs/hosts/<class>.yml, ', h('code', { text: 'reference' }), '): its series watches the host itself.'),
    hosts.length === 0 ? h('p', { class: 'note', id: 'hosts-none', text: 'No host class names a reference release.' })
      : scrollTable('Host classes and their reference release', [
        h('thead', null, h('tr', null, ['Host class', 'Reference', 'Runs', 'Host series', 'Drifts', 'Calibration runs', 'False issues per run (95 % bound)', 'False alarms in service']
          .map((c, i) => h('th', { scope: 'col', class: i < 2 ? 'text' : null, text: c })))),
        h('tbody', null, hosts.map((/** @type {any} */ x) => h('tr', { dataset: { host: x.host, drifts: x.drifts } },
          h('th', { scope: 'row', class: 'text' }, h('a', { href: pageUrl('host', { host: x.host }), text: x.host })),
          h('td', { class: 'text', text: `${x.reference.product} ${x.reference.version}` }),
          h('td', { text: String(x.runs) }), h('td', { text: String(x.series) }), h('td', { text: String(x.drifts) }),
          h('td', { text: x.calibration ? String(x.calibration.runs) : '—' }),
          h('td', { text: x.calibration ? `${x.calibration.withIssue} of ${x.calibration.runs} (≤ ${fmtPct(x.calibration.upper95)})` : '—' }),
          h('td', { text: x.falseAlarms === null ? '—' : String(x.falseAlarms) })))),
      ], { id: 'hosts' }),
    noiseOverview(index?.noise ?? null));
}

/** @param {any} noise the noise summary's counts (every host class), or null when the site was built without one */
function noiseOverview(noise) {
  if (!noise) return h('p', { class: 'note', id: 'noise-none', text: 'False alarms in service are not shown: this site was built without a noise summary (tagbench triage --out FILE, then tagbench site --noise-summary FILE).' });
  return h('section', { 'aria-labelledby': 'noise-heading' },
    h('h2', { id: 'noise-heading', text: 'False alarms in service' }),
    h('p', null, `What engineers answered on ${noise.issues} official regression issue${noise.issues === 1 ? '' : 's'} of ${noise.repo} (counted ${fmtDate(noise.countedAt)}): `,
      `${noise.answers.noise} judged noise (false alarms); confirmed bug: ${noise.answers['confirmed-bug']}, expected change: ${noise.answers['expected-change']}, unanswered: ${noise.answers.unanswered}.`),
    scrollTable('Regression issues per metric and how they were judged', [
      h('thead', null, h('tr', null, ['Metric', 'Issues', 'Noise (false alarms)', 'Confirmed bug', 'Expected change', 'Unanswered']
        .map((c, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: c })))),
      h('tbody', null, noise.metrics.map((/** @type {any} */ m) => h('tr', { dataset: { metric: m.metric, noise: m.noise, issues: m.issues } },
        h('th', { scope: 'row', class: 'text', text: m.metric }),
        [m.issues, m.noise, m.confirmedBug, m.expectedChange, m.unanswered].map((n) => h('td', { text: String(n) }))))),
    ], { id: 'noise-metrics' }));
}

/** @param {any} d host data */
function calibrationSection(d) {
  const c = d.calibration;
  // The host class's report file (bench/calibration-<class>.json), whatever machine and design it
  // was measured on: a reader must not take it for the calibration a run cites, which the section
  // above chooses by CPU, meter and design.
  const heading = h('h2', { id: 'calibration-heading', text: 'The host class\'s calibration report' });
  if (!c) {
    return h('section', { 'aria-labelledby': 'calibration-heading', id: 'host-calibration' }, heading,
      h('p', { class: 'note', id: 'calibration-none', text: `No calibration report for ${d.host}: tagbench calibrate --host-class ${d.host} measures its false issues and detection (bench/calibration-${d.host}.json).` }));
  }
  const f = c.falseIssues;
  return h('section', { 'aria-labelledby': 'calibration-heading', id: 'host-calibration' }, heading,
    h('p', { class: 'note', id: 'calibration-report-not-cited' }, `This is ${c.file} as it stands; it is cited by a run only where it matches the run's CPU, meter and design (see "What a run of this host cites" above).`),
    h('p', null, `Measured with ${c.release || 'one release'}${c.suite ? `, suite ${c.suite}` : ''}, last on ${fmtDate(c.measuredAt)} (${c.file}): `,
      'A/A runs compare two installs of the same release, so every issue they would open is a false one; ',
      'the injected runs slow the candidate\'s server down by a known share to see how often compare and confirm catch it.'),
    scrollTable('False issues: A/A runs through compare and confirm', [
      h('thead', null, h('tr', null, ['A/A runs', 'Runs that would open an issue', 'False issues per run, 95 % upper bound'].map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', null, h('tr', { dataset: { runs: f.runs, withIssue: f.withIssue, upper95: f.upper95 } },
        h('td', { text: String(f.runs) }), h('td', { text: String(f.withIssue) }), h('td', { text: fmtPct(f.upper95) }))),
    ], { id: 'calibration-false-issues' }),
    scrollTable('Detection of injected CPU slowdowns (throughput verdicts; detected = a confirmed issue)', [
      h('thead', null, h('tr', null, ['Injected slowdown', 'Trials', 'Detected', 'Flagged at any level', 'Detection rate', '95 % interval']
        .map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', null, c.detection.map((/** @type {any} */ x) => h('tr', { dataset: { slowdown: x.slowdown, trials: x.trials, detected: x.detected } },
        h('th', { scope: 'row', text: fmtPct(x.slowdown) }),
        h('td', { text: String(x.trials) }), h('td', { text: String(x.detected) }), h('td', { text: String(x.flagged) }),
        h('td', { text: x.trials ? fmtPct(x.detected / x.trials) : '—' }),
        h('td', { text: x.interval ? `${fmtPct(x.interval[0])} – ${fmtPct(x.interval[1])}` : '—' })))),
    ], { id: 'calibration-detection' }),
    scrollTable('Minimum detectable effect per test (throughput, last A/A run)', [
      h('thead', null, h('tr', null, ['Test', 'Smallest detectable drop', 'Smallest detectable rise'].map((t, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: t })))),
      h('tbody', null, c.mde.map((/** @type {any} */ m) => h('tr', { dataset: { test: m.test } },
        h('th', { scope: 'row', class: 'text', text: m.test }), h('td', { text: fmtPct(m.drop) }), h('td', { text: fmtPct(m.rise) })))),
    ], { id: 'calibration-mde' }));
}

/** @param {any} design @returns {string} e.g. "3 rounds paired" */
function designWords(design) {
  return design.paired ? `${design.instances} rounds paired` : `${design.instances} instances per side`;
}

/**
 * Per meter, the calibration a run of this host made today would cite in its "how sure" (the
 * site build asks compare's rule, as every comparison does), with what a reader weighs it by, and
 * the ones it would pass over with why.
 * @param {any} d host data
 */
function citingSection(d) {
  const c = d.citing;
  if (!c) return null;
  const run = c.run ? `a run on ${c.run.cpuModel ?? 'a CPU not recorded'} with ${c.run.cores ?? 'an unrecorded number of'} cores (the machine of its newest run, ${c.run.id})`
    : 'a run (no run of this host class is stored: its CPU is not known)';
  const heading = h('h2', { id: 'citing-heading', text: 'What a run of this host cites' });
  const intro = h('p', null, `Per meter, for ${run} made when this site was built (${fmtDate(c.at)}), with the design of the host class's newest comparison: the calibration its "how sure" would cite (same host class, CPU model and cores, meter and design, at most ${c.maxAgeDays} days old), and the ones it would not, with why.`);
  if (c.meters.length === 0) return h('section', { 'aria-labelledby': 'citing-heading', id: 'host-citing' }, heading, intro, h('p', { class: 'note', id: 'citing-none', text: 'No comparison of this host class and no stored calibration: nothing to cite yet (tagbench calibrate writes one).' }));
  return h('section', { 'aria-labelledby': 'citing-heading', id: 'host-citing' }, heading, intro,
    scrollTable(`The calibration a run of ${d.host} would cite, per meter`, [
      h('thead', null, h('tr', null, ['Meter (metric)', 'Run\'s design', 'Measured', 'Release, suite, design', 'Max load', 'Detected (size: caught of trials)', 'Report']
        .map((t, i) => h('th', { scope: 'col', class: i === 4 ? null : 'text', text: t })))),
      h('tbody', null, c.meters.map((/** @type {any} */ m) => {
        const cal = m.cited?.calibration ?? null;
        const meter = `${m.meter || m.metric} (${m.metric})`;
        const design = m.design ? designWords(m.design) : 'not known: no comparison of this host class judged it';
        if (!cal) return h('tr', { dataset: { meter: m.meter, metric: m.metric, cited: '' } }, h('th', { scope: 'row', class: 'text', text: meter }), h('td', { class: 'text', text: design }),
          h('td', { class: 'text', colspan: '5', text: `none: ${m.passedOver.length > 0 ? 'no stored calibration matches (below)' : 'none of this meter is stored (tagbench calibrate)'}` }));
        return h('tr', { dataset: { meter: m.meter, metric: m.metric, cited: cal.source } },
          h('th', { scope: 'row', class: 'text', text: meter }), h('td', { class: 'text', text: design }),
          h('td', { class: 'text' }, fmtDate(cal.measuredAt), h('span', { class: 'sub-line', text: ` (${m.cited.ageDays} day${m.cited.ageDays === 1 ? '' : 's'} old)` })),
          h('td', { class: 'text wrap-cell', text: [`${cal.product ?? ''} ${cal.version ?? ''}`.trim(), `suite ${cal.suite}`, designWords(cal.design)].filter(Boolean).join(', ') }),
          h('td', { text: cal.load.maxOneMinute === null ? 'not recorded' : String(cal.load.maxOneMinute) }),
          h('td', { class: 'text wrap-cell', text: cal.detection.map((/** @type {any} */ x) => `${fmtPct(x.size)}: ${x.detected} of ${x.trials}${x.trials ? ` (${fmtPct(x.detected / x.trials)})` : ''}`).join('; ') || 'no trial yet' }),
          h('td', { class: 'text' }, m.cited.report ? h('a', { href: m.cited.report, title: cal.source.replace(/\.json$/, '.md'), text: 'Markdown' }) : cal.source));
      })),
    ], { id: 'citing-calibrations' }),
    h('ul', { id: 'citing-passed-over' }, c.meters.filter((/** @type {any} */ m) => m.passedOver.length > 0).map((/** @type {any} */ m) =>
      h('li', { dataset: { metric: m.metric } }, h('strong', { text: `${m.meter || m.metric} (${m.metric}), not cited: ` }), m.passedOver.join('; '), '.'))));
}

/**
 * Every stored calibration of the host class with the conditions that decide whether a run may
 * cite it (compare/select-calibration.js: host class, meter, design, at most 30 days old).
 * @param {any} d host data
 */
function citableSection(d) {
  const list = d.calibrations ?? [];
  const heading = h('h2', { id: 'citable-heading', text: 'Calibrations a run may cite' });
  const intro = h('p', null, `A run's "how sure" cites one of these only when its CPU model and cores, meter and design (paired by round or not, instances per side) are the run's and it was measured at most ${d.citing?.maxAgeDays ?? 30} days before the run; otherwise it says none matches (docs/method.md, "How sure").`);
  if (list.length === 0) return h('section', { 'aria-labelledby': 'citable-heading', id: 'host-citable' }, heading, intro, h('p', { class: 'note', id: 'citable-none', text: `None stored for ${d.host} (bench/calibrations/${d.host}/): tagbench calibrate writes one.` }));
  return h('section', { 'aria-labelledby': 'citable-heading', id: 'host-citable' }, heading, intro,
    scrollTable(`Stored calibrations of ${d.host}, newest first`, [
      h('thead', null, h('tr', null, ['Measured', 'Meter (metric)', 'Suite', 'Design', 'Highest load', 'Detected (injected size: confirmed of trials)', 'Report']
        .map((c, i) => h('th', { scope: 'col', class: i === 4 ? null : 'text', text: c })))),
      h('tbody', null, list.map((/** @type {any} */ c) => h('tr', { dataset: { meter: c.meter, measured: c.measuredAt } },
        h('th', { scope: 'row', class: 'text', text: fmtDate(c.measuredAt) }),
        h('td', { class: 'text', text: `${c.meter} (${c.metric})` }),
        h('td', { class: 'text', text: c.suite }),
        h('td', { class: 'text', text: c.design.paired ? `${c.design.instances} rounds paired` : `${c.design.instances} instances per side` }),
        h('td', { text: c.load.maxOneMinute === null ? 'not recorded' : String(c.load.maxOneMinute) }),
        h('td', { class: 'text', text: c.detection.map((/** @type {any} */ x) => `${fmtPct(x.size)}: ${x.detected} of ${x.trials}`).join('; ') || '—' }),
        h('td', { class: 'text', text: c.source })))),
    ], { id: 'citable-calibrations' }));
}

/** @param {any} d host data */
function falseAlarmSection(d) {
  const a = d.falseAlarms;
  const heading = h('h2', { id: 'false-alarms-heading', text: 'False alarms in service' });
  if (!a) {
    return h('section', { 'aria-labelledby': 'false-alarms-heading', id: 'host-false-alarms' }, heading,
      h('p', { class: 'note', id: 'false-alarms-none', text: 'Not shown: this site was built without a noise summary (tagbench site --noise-summary FILE).' }));
  }
  return h('section', { 'aria-labelledby': 'false-alarms-heading', id: 'host-false-alarms', dataset: { issues: a.issues } }, heading,
    h('p', null, `${a.issues} official regression issue${a.issues === 1 ? '' : 's'} of ${d.host} judged noise by engineers (${a.repo}, counted ${fmtDate(a.countedAt)}).`),
    a.issues === 0 ? null : scrollTable(`False alarms of ${d.host} per metric (an issue counts once for each metric it lists)`, [
      h('thead', null, h('tr', null, ['Metric', 'Issues judged noise'].map((t, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: t })))),
      h('tbody', null, a.metrics.map((/** @type {any} */ m) => h('tr', { dataset: { metric: m.metric, noise: m.noise } },
        h('th', { scope: 'row', class: 'text', text: m.metric }), h('td', { text: String(m.noise) })))),
    ], { id: 'false-alarm-metrics' }),
    a.issues === 0 ? null : h('ul', { id: 'false-alarm-issues' }, a.list.map((/** @type {any} */ n) => h('li', null,
      h('a', { href: n.url, text: `#${n.number}` }), ` ${n.product} ${n.version}, suite ${n.suite}: ${n.tests.join(', ')}`))));
}

/** @param {number} change @returns {string} e.g. "-20.1 %" */
function fmtChange(change) {
  return `${change > 0 ? '+' : ''}${fmtPct(change)}`;
}

/** @param {any} s suite data */
function driftNote(s) {
  const m = s.method;
  // The words are compare's (describeHostDrift, stored by the site build), as the report prints them.
  const words = s.driftWords ?? { state: 'steady', lines: [] };
  return h('p', { class: words.state === 'steady' ? null : 'note', dataset: { drifts: String(s.drifts.length), state: words.state }, id: `drift-note-${s.suite}` },
    `${words.lines.join(' ')} `,
    `Found by the release-series rule ${m.version} over the runs of each host series in time order (at most ${fmtPct(m.alpha)} false events per test and series, windows of ${m.windowRuns} runs), a change counting only from the test's warn threshold.`);
}

/** @param {any} s @param {string} ref */
function driftTable(s, ref) {
  if (s.drifts.length === 0) return null;
  return scrollTable(`Drifts of reference ${ref} (host changes, not release regressions)`, [
    h('thead', null, h('tr', null, ['Test', 'From', 'Kind', 'Change', 'Level before', 'Level after', 'Host series', 'p-value', 'Run']
      .map((c, i) => h('th', { scope: 'col', class: i <= 2 || i === 8 ? 'text' : null, text: c })))),
    h('tbody', null, s.drifts.map((/** @type {any} */ x) => h('tr', { dataset: { test: x.test, run: x.runId, change: x.change, kind: x.kind } },
      h('th', { scope: 'row', class: 'text', text: x.test }),
      h('td', { class: 'text', text: fmtDate(x.startedAt) }),
      h('td', { class: 'text', text: `${x.change < 0 ? '▼' : '▲'} ${x.kind}` }),
      h('td', { text: fmtChange(x.change) }),
      h('td', { text: fmtQps(x.levelBefore) }),
      h('td', { text: fmtQps(x.levelAfter) }),
      h('td', { text: String(x.segment + 1) }),
      h('td', { text: x.pValue.toExponential(1) }),
      h('td', { class: 'text', text: x.runId })))),
  ], { id: 'host-drifts', class: 'host-drifts' });
}

/** @param {any} s */
function seriesTable(s) {
  const fields = ['cpuModel', 'cores', 'kernel', 'memoryBytes', 'governor', 'turbo', 'pinning', 'mycnf', 'scale', 'engine'];
  return scrollTable(`Host series of suite ${s.suite}: runs on unchanged hardware, kernel and BIOS settings (and the reference's own my.cnf, scale and engine)`, [
    h('thead', null, h('tr', null, ['Series', 'First run', 'Last run', 'Runs', 'Started by', ...fields]
      .map((c, i) => h('th', { scope: 'col', class: i === 0 || i >= 3 ? 'text' : null, text: c })))),
    h('tbody', null, s.segments.map((/** @type {any} */ g) => h('tr', { dataset: { series: g.index, change: g.change?.label ?? '' } },
      h('th', { scope: 'row', class: 'text', text: String(g.index + 1) }),
      h('td', { text: fmtDate(g.firstAt) }), h('td', { text: fmtDate(g.lastAt) }),
      h('td', { class: 'text', text: String(g.runIds.length) }),
      h('td', { class: 'text', text: g.change ? g.change.label : 'first series' }),
      fields.map((f) => h('td', { class: 'text', text: g.facts[f] ?? '—' }))))),
  ], { id: 'host-series' });
}

/** @param {any} s */
function runsTable(s) {
  return scrollTable(`Reference runs of suite ${s.suite}: median throughput per run and test`, [
    h('thead', null, h('tr', null, ['Test', 'Started', 'Host series', 'Median', 'Repeats', 'Drift', 'Run record']
      .map((c, i) => h('th', { scope: 'col', class: i <= 1 || i >= 5 ? 'text' : null, text: c })))),
    h('tbody', null, s.tests.flatMap((/** @type {any} */ t) => [...t.runs].reverse().map((/** @type {any} */ r) => {
      const drift = s.drifts.find((/** @type {any} */ x) => x.test === t.test && x.runId === r.id);
      return h('tr', { dataset: { test: t.test, run: r.id, median: r.median, series: r.segment } },
        h('th', { scope: 'row', class: 'text', text: t.test }),
        h('td', { class: 'text', text: fmtDate(r.startedAt) }),
        h('td', { text: String(r.segment + 1) }),
        h('td', { text: fmtQps(r.median) }),
        h('td', { text: String(r.values.length) }),
        h('td', { class: 'text', text: drift ? `${drift.change < 0 ? '▼' : '▲'} ${drift.kind} ${fmtChange(drift.change)} (host)` : '—' }),
        h('td', { class: 'text' }, h('a', { href: r.record, download: '', text: r.id })));
    }))),
  ], { class: 'host-runs' });
}

/**
 * One line per host series (so the line breaks at a host change), every repeat as a dot, the
 * host changes as labelled vertical lines and the drifts as markers.
 * @param {any} s suite data
 * @param {any} t test data
 */
function referenceOption(s, t) {
  const lines = s.segments.map((/** @type {any} */ g) => ({
    name: `host series ${g.index + 1}`, type: 'line', showSymbol: true,
    data: t.runs.filter((/** @type {any} */ r) => r.segment === g.index).map((/** @type {any} */ r) => [r.startedAt, r.median]),
  }));
  const drifts = s.drifts.filter((/** @type {any} */ x) => x.test === t.test);
  if (lines.length > 0) {
    lines[0].markLine = {
      symbol: 'none', lineStyle: { type: 'dashed', color: CHANGE_COLOR },
      label: { formatter: (/** @type {any} */ p) => p.name, position: 'insideEndTop', color: CHANGE_COLOR },
      data: s.segments.filter((/** @type {any} */ g) => g.change).map((/** @type {any} */ g) => ({ name: g.change.label, xAxis: g.change.at, series: g.index })),
    };
    lines[0].markPoint = {
      symbolSize: 44,
      data: drifts.map((/** @type {any} */ x) => ({
        name: `host drift ${fmtChange(x.change)} (${x.kind})`, value: x.change < 0 ? '▼' : '▲', runId: x.runId, change: x.change,
        coord: [x.startedAt, t.runs.find((/** @type {any} */ r) => r.id === x.runId)?.median], itemStyle: { color: DRIFT_COLOR },
      })),
    };
  }
  return {
    tooltip: { trigger: 'item' },
    legend: { top: 0 },
    grid: { left: 70, right: 24, top: 36, bottom: 40 },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: t.metric, scale: true },
    series: [...lines, {
      name: 'repeats', type: 'scatter', symbolSize: 5, itemStyle: { opacity: 0.5 },
      data: t.runs.flatMap((/** @type {any} */ r) => r.values.map((/** @type {number} */ v) => [r.startedAt, v])),
    }],
  };
}
