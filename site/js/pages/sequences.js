/**
 * The insert benchmark's and LinkBench's section of the line and release pages (data from
 * scripts/site-build/build-sequence-data.js, in the table and release files as `sequences`):
 * per insert-benchmark step a row per release (rate, l.x seconds, whether the background writers
 * kept up), a per-second insert-rate chart per load/write step with a line per release (seed
 * 002's picture, where stalls show as dips), and LinkBench's table of load rate, size after the
 * load, and QPS and size after each request phase (seed 000).
 */
import { h, scrollTable } from '../dom.js';
import { loadJsonOrNull } from '../data.js';
import { fmtQps, fmtNum, fmtPct, fmtBytes, fmtSeconds } from '../format.js';
import { drawChart, chartFigure } from '../charts.js';

/**
 * The section's tables, with an empty box for the charts (drawSequenceCharts fills it once the
 * section is in the page: a chart needs its container's size).
 * @param {any} view the `sequences` field of a table or release file (null: nothing to show)
 * @param {{highlight?: string}} [options] highlight: the release a release page is about
 * @returns {HTMLElement|null}
 */
export function sequenceSection(view, options = {}) {
  if (!view) return null;
  const section = h('section', { id: 'sequences' });
  if (view.insert.length > 0) {
    section.append(h('h2', { id: 'ibench-h', text: 'Insert benchmark' }), insertTable(view.insert, options.highlight),
      h('div', { class: 'charts', id: 'ibench-charts' }));
  }
  if (view.linkbench) section.append(h('h2', { id: 'linkbench-h', text: 'LinkBench' }), linkbenchTable(view.linkbench, options.highlight));
  return section;
}

/**
 * A per-second insert-rate chart per load/write step of the insert benchmark, a line per release.
 * @param {any} view
 * @param {{highlight?: string}} [options]
 */
export async function drawSequenceCharts(view, options = {}) {
  const charts = document.getElementById('ibench-charts');
  if (!view || !charts) return;
  for (const step of view.insert.filter((/** @type {any} */ s) => s.rateField === 'inserts')) {
    // One second's sample is a point no line joins: drawn alone it left bare axes (the demo's
    // l.i1, 1.3-1.5 s repeats), and a sub-second step has none. Such a release is named in the
    // caption, or, when no release has a line, a note stands where the chart would.
    const lines = (await loadLines(step)).filter((l) => l.t.length >= MIN_LINE_SAMPLES);
    const short = step.releases.filter((/** @type {any} */ r) => r.rate !== null && r.rate !== undefined && !lines.some((l) => l.version === r.version));
    if (lines.length === 0 && short.length === 0) continue;
    const why = short.length === 0 ? null : `${short.map((/** @type {any} */ r) => r.version).join(', ')}: ${tooShortText(short)}`;
    if (lines.length === 0) {
      charts.append(h('p', { class: 'note chart-note', dataset: { ibenchNote: step.test },
        text: `${step.test}: no per-second chart: ${tooShortText(short)}.` }));
      continue;
    }
    const { figure, canvas } = chartFigure(`${step.test}: inserts per second, one repeat per release (the one of median rate)${why ? `; not drawn: ${why}` : ''}`);
    canvas.dataset.ibenchStep = step.test;
    canvas.dataset.lines = String(lines.length);
    charts.append(figure);
    await drawChart(canvas, rateChartOption(lines, options.highlight));
  }
}

/** Per-second samples a line needs to be a line (one is a point with nothing to compare). */
const MIN_LINE_SAMPLES = 2;

/**
 * Why releases give no line: under two per-second samples of their charted repeat here, and how
 * long their repeats ran (a site of a long history may also carry no samples of an older release).
 * @param {{version: string, seconds: number|null}[]} short the step's rows of those releases
 * @returns {string}
 */
function tooShortText(short) {
  const seconds = short.map((r) => r.seconds).filter((x) => typeof x === 'number');
  const lo = Math.min(...seconds);
  const hi = Math.max(...seconds);
  const ran = seconds.length > 0 ? ` (its repeats ran ${hi > lo ? `${fmtSeconds(lo).replace(/ s$/, '')}–` : ''}${fmtSeconds(hi)}, the median per release${hi < MIN_LINE_SAMPLES + 1 ? ': too short for a per-second picture' : ''})` : '';
  return `fewer than ${MIN_LINE_SAMPLES} per-second samples${ran}`;
}

/**
 * @param {any[]} steps
 * @param {string|undefined} highlight
 */
function insertTable(steps, highlight) {
  const body = steps.flatMap((step) => step.releases.map((/** @type {any} */ r) => h('tr', { class: isHighlighted(r.version, highlight) ? 'current' : null, dataset: { step: step.test, version: r.version } },
    h('th', { scope: 'row', class: 'text', text: step.test }), versionCell('td', r.version, highlight), h('td', { text: String(r.repeats) }),
    h('td', { text: r.rate === null || r.rate === undefined ? '—' : step.test === 'l.x' ? `${fmtNum(r.seconds)} s` : `${fmtQps(r.rate)} ${step.rateField === 'inserts' ? 'inserts/s' : 'queries/s'}` }),
    h('td', { class: r.keepUp && !r.keepUp.sustained ? 'text keep-up-missed' : 'text', text: keepUpText(r.keepUp) }))));
  return scrollTable('Insert benchmark: each step\'s rate per release (median over the ok repeats; l.x: seconds to build the three indexes; query steps: whether the background writers held 95 % of their target)', [
    h('thead', null, h('tr', null, ['step', 'release', 'repeats', 'rate', 'writers kept up'].map((c, i) => h('th', { scope: 'col', class: i < 2 || i === 4 ? 'text' : null, text: c })))),
    h('tbody', null, body),
  ], { id: 'ibench-table' });
}

/**
 * A release's name, in bold on the page about that release.
 * @param {'th'|'td'} tag
 * @param {string} version
 * @param {string|undefined} highlight
 */
function versionCell(tag, version, highlight) {
  const attrs = tag === 'th' ? { scope: 'row', class: 'text' } : { class: 'text' };
  return h(tag, attrs, isHighlighted(version, highlight) ? h('strong', { text: version }) : version);
}

/**
 * Whether a row or line is the page's release: the release itself or one of its engines
 * (`10.11.18#rocksdb` when the table holds runs of several engines).
 * @param {string} version
 * @param {string|undefined} highlight
 */
function isHighlighted(version, highlight) {
  return highlight !== undefined && (version === highlight || version.startsWith(`${highlight}#`));
}

/** @param {any} k */
function keepUpText(k) {
  if (!k) return '';
  return k.sustained ? `yes (${fmtPct(k.share)})` : `no: ${k.failedRepeats} repeat(s) missed, worst ${fmtPct(k.share)}`;
}

/**
 * The charted repeat of each release: its per-second series file, that repeat's samples.
 * @param {any} step
 * @returns {Promise<{version: string, t: number[], qps: number[]}[]>}
 */
async function loadLines(step) {
  const files = await Promise.all(step.releases.map((/** @type {any} */ r) => (r.series ? loadJsonOrNull(r.series) : null)));
  return step.releases.flatMap((/** @type {any} */ r, /** @type {number} */ i) => {
    const rep = files[i]?.repeats.find((/** @type {any} */ x) => x.index === r.repeat);
    return rep && rep.t.length > 0 ? [{ version: r.version, t: rep.t, qps: rep.qps }] : [];
  });
}

/**
 * @param {{version: string, t: number[], qps: number[]}[]} lines
 * @param {string|undefined} highlight
 */
function rateChartOption(lines, highlight) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 60, right: 20, top: 36, bottom: 40 },
    xAxis: { type: 'value', name: 'second', nameLocation: 'middle', nameGap: 24, min: 0 },
    yAxis: { type: 'value', name: 'inserts/s' },
    series: lines.map((l) => ({
      name: l.version, type: 'line', showSymbol: false,
      lineStyle: { width: highlight && !isHighlighted(l.version, highlight) ? 1 : 2 },
      data: l.t.map((t, i) => [t, l.qps[i]]),
    })),
  };
}

/**
 * A size cell: on disk / logical; the logical one alone, marked, in records from before the
 * on-disk size was measured (the same rule as the terminal's table).
 * @param {number|null|undefined} onDisk
 * @param {number|null|undefined} logical
 */
function sizePair(onDisk, logical) {
  if (onDisk === null || onDisk === undefined) return logical === null || logical === undefined ? '—' : `${fmtBytes(logical)} (logical only)`;
  return `${fmtBytes(onDisk)} / ${fmtBytes(logical)}`;
}

/**
 * @param {{phases: string[], rows: any[]}} lb
 * @param {string|undefined} highlight
 */
function linkbenchTable(lb, highlight) {
  const phase = (/** @type {string} */ p) => p.replace(/^linkbench\.request\./, 'request ');
  const head = ['release', 'load ips', 'size after load', 'index (s)', ...lb.phases.flatMap((p) => [`${phase(p)} qps`, `size after ${phase(p)}`])];
  return scrollTable('LinkBench per release (medians over the ok repeats): links loaded per second, database size after the load, seconds to build id1_type, then each request phase\'s requests per second and the size after it. Sizes: on disk (linkdb0\'s files; MyRocks: its SST files) / logical (information_schema after ANALYZE: InnoDB\'s are sampled statistics, trust the first)', [
    h('thead', null, h('tr', null, head.map((c, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : null, text: c })))),
    h('tbody', null, lb.rows.map((r) => h('tr', { class: isHighlighted(r.version, highlight) ? 'current' : null, dataset: { version: r.version } },
      versionCell('th', r.version, highlight), h('td', { text: fmtQps(r.loadIps) }), h('td', { text: sizePair(r.loadFilesBytes, r.loadBytes) }),
      h('td', { text: fmtNum(r.indexS) }),
      r.requests.flatMap((/** @type {any} */ q) => [h('td', { text: fmtQps(q.qps) }), h('td', { text: sizePair(q.filesBytes, q.sizeBytes) })])))),
  ], { id: 'linkbench-table' });
}
