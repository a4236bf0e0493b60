/**
 * The product-line table (tests × releases) and the per-test histories of one table. Pure:
 * takes a TableGroup, returns data objects keyed by site path.
 */
import { dataPaths } from '../../site/js/paths.js';
import { summarizeRepeats, summarizeCounted, throughputSteps, countedMeters } from './summarize-repeats.js';
import { releaseHostSeries } from './host-series.js';
import { testFunctionMoves } from './build-function-moves.js';
import { describeTestTimeAndWork, describeVerdict, parseSweepName, computeShownRatio, COUNTED_TYPES_NOT_JUDGED } from '../compare/index.js';

/** @import { TableData, TestVerdict } from './types.js' */
/** @import { TableGroup, ReleaseGroup } from './group-tables.js' */
/** @import { CountedMeter } from './summarize-repeats.js' */

export const SCHEMA_VERSION = 1;

/** Reporting groups in the order and words of the seed posts. */
const GROUP_LABELS = /** @type {Record<string, string>} */ ({
  point: 'Point queries',
  range: 'Range queries without aggregation',
  'range-agg': 'Range queries with aggregation',
  write: 'Writes',
});

/**
 * The throughput verdict of a test in a comparison (a comparison may also judge cpuUsPerOp,
 * stalls...: those show on the release page).
 * @param {ReleaseGroup} rel
 * @param {string} test
 * @returns {TestVerdict|null}
 */
export function throughputVerdict(rel, test) {
  return verdictOf(rel, test, 'throughput');
}

/**
 * @param {ReleaseGroup} rel
 * @param {string} test
 * @param {string} metric
 * @returns {TestVerdict|null}
 */
function verdictOf(rel, test, metric) {
  const tests = rel.comparison?.comparison.tests ?? [];
  return tests.find((v) => v.test === test && v.metric === metric) ?? null;
}

/**
 * A test's shown ratios in a release's comparison (shownRatioOf): its throughput's, and each
 * counting meter's (in its first metric) where the release counted the test or has its verdict.
 * @param {ReleaseGroup} rel
 * @param {ReleaseGroup[]} releases the table's
 * @param {string} test
 * @param {CountedMeter[]} meters the table's counting meters (countedMeters)
 * @returns {{shown: import('./types.js').ShownRatio|null, countedShown: Record<string, import('./types.js').ShownRatio|null>}}
 *   countedShown: by meter name, only the meters the release counted or judged
 */
export function testShownRatios(rel, releases, test, meters) {
  /** @type {Record<string, import('./types.js').ShownRatio|null>} */
  const countedShown = {};
  for (const meter of meters) {
    const countedOf = (/** @type {ReleaseGroup} */ r) => summarizeCounted(r.records.flatMap((x) => x.steps.filter((s) => s.name === test)), meter);
    const metric = meter.metrics[0].name;
    if (countedOf(rel) || verdictOf(rel, test, metric)) countedShown[meter.meter] = shownRatioOf(rel, releases, test, metric, (r) => countedOf(r)?.median ?? null, true);
  }
  return {
    shown: shownRatioOf(rel, releases, test, 'throughput', (r) => summarizeRepeats(throughputSteps(r.records, test).steps).median),
    countedShown,
  };
}

/**
 * The ratio every page, chart and file shows for a test's metric in a release's comparison:
 * the verdict's estimate, else the medians' ratio compare kept with its reason for not judging
 * (scripts/compare/shown-ratio.js). The medians of the site's own summaries stand in only for
 * comparisons stored before compare kept that ratio.
 * @param {ReleaseGroup} rel
 * @param {ReleaseGroup[]} releases the table's, to find the comparison's base
 * @param {string} test
 * @param {string} metric
 * @param {(r: ReleaseGroup) => number|null} medianOf the site's median of the metric in a release
 * @param {boolean} [counted] a counting meter's metric (its ratio shown with more digits)
 * @returns {import('./types.js').ShownRatio|null} null when the release has no comparison
 */
export function shownRatioOf(rel, releases, test, metric, medianOf, counted = false) {
  const cmp = rel.comparison?.comparison;
  if (!cmp) return null;
  const verdict = verdictOf(rel, test, metric);
  const notJudged = cmp.notJudged?.find((n) => n.test === test && n.metric === metric) ?? null;
  const base = releases.find((r) => r.version === cmp.base.version);
  return computeShownRatio({
    verdict, notJudged, counted,
    baseMedian: base ? medianOf(base) : null, candidateMedian: medianOf(rel),
    noVerdict: `no ${metric} verdict in the comparison with ${cmp.base.version}`,
  });
}

/**
 * The change points of one test's throughput, as the compare stage stored them (apache-otava
 * over the series): the site computes none of its own and never stands verdicts in for them.
 * @param {TableGroup} table
 * @param {string} test
 * @returns {import('./types.js').TestChangePoints|null} null when no change-point file is stored for the table
 */
export function testChangePoints(table, test) {
  const file = table.changePoints;
  if (!file) return null;
  const series = file.tests.find((s) => s.test === test && s.metric === 'throughput') ?? null;
  return {
    createdAt: file.createdAt,
    method: file.method,
    releases: file.releases.map((r) => r.version),
    file: dataPaths.changePoints(table.key),
    analysed: series !== null,
    higherIsBetter: series?.higherIsBetter ?? true,
    points: series ? series.changePoints.map((c) => ({ ...c })) : [],
  };
}

/**
 * A throughput ratio as the table file keeps it beside every cell: four decimals, below what
 * the line page draws or prints (two), where full doubles would triple a long line's file
 * (about 300 KiB for 200 releases x 40 tests, bench/site-scale.md).
 * @param {number} ratio
 */
function toRatioPrecision(ratio) {
  return Number(ratio.toFixed(4));
}

/**
 * Seconds a repeat must run for the test page to chart it per second: with fewer one-second
 * samples a dip has no seconds around it to be a dip, and the line says nothing about stalls
 * (the demo's 3 s sysbench tests give 2 or 3 samples, its sub-second insert steps none).
 */
export const MIN_PER_SECOND_S = 5;

/**
 * @param {TableGroup} table
 * @param {Set<string>} seriesPaths per-second series files that exist (see buildSeries)
 * @returns {{table: TableData, files: Map<string, unknown>}} the table data and the test
 *   histories, keyed by site path
 */
export function buildTableData(table, seriesPaths) {
  const { key } = table;
  /** @type {Map<string, unknown>} */
  const files = new Map();
  const hostSeries = releaseHostSeries(table.releases);
  const meters = countedMeters(table.releases.flatMap((r) => r.records));
  const tests = table.tests.map((t) => {
    const { row, history } = buildTestRow(table, t, { hostSeries, meters }, seriesPaths);
    files.set(dataPaths.test({ ...key, test: t.name }), {
      schemaVersion: SCHEMA_VERSION,
      ...key,
      productName: table.productName,
      test: t.name, group: t.group, metric: t.metric,
      defaultBase: table.defaultBase,
      releases: history,
      changePoints: testChangePoints(table, t.name),
      // where the host facts changed: the history is not one series across such a change
      hostSeries: hostSeries.segments.map((seg) => ({ index: seg.index, facts: seg.facts, firstAt: seg.firstAt, lastAt: seg.lastAt, change: seg.change })),
    });
    return row;
  });
  /** @type {TableData} */
  const data = {
    schemaVersion: SCHEMA_VERSION,
    product: key.product, productName: table.productName, line: key.line, host: key.host, suite: key.suite,
    defaultBase: table.defaultBase,
    defaultBaseSource: table.defaultBaseSource,
    releases: tableReleases(table),
    groups: groupTests(tests),
    tests,
    csv: dataPaths.csv(key),
  };
  const sweeps = listSweeps(tests);
  if (sweeps.length > 0) data.sweeps = sweeps;
  return { table: data, files };
}

/**
 * The table's releases: date, runs and comparison of each.
 * @param {TableGroup} table
 * @returns {TableData['releases']}
 */
function tableReleases(table) {
  const { key } = table;
  return table.releases.map((rel) => ({
    version: rel.version,
    date: rel.records.map((r) => r.finishedAt ?? r.startedAt).sort().at(-1) ?? null,
    runs: rel.records.map((r) => ({
      id: r.id,
      status: r.status,
      startedAt: r.startedAt,
      record: dataPaths.runRecord({ host: key.host, product: key.product, version: rel.version, suite: key.suite, id: r.id }),
    })),
    comparison: rel.comparison ? {
      id: rel.comparison.id,
      baseVersion: rel.comparison.comparison.base.version,
      createdAt: rel.comparison.comparison.createdAt,
      summary: { ...rel.comparison.comparison.summary },
      file: dataPaths.comparison({ host: key.host, product: key.product, version: rel.version, suite: key.suite, id: rel.comparison.id }),
    } : null,
  }));
}

/**
 * One test across the table's releases: its row of the table (a cell per release) and its
 * history (an entry per release that ran it) for the test page.
 * @param {TableGroup} table
 * @param {{name: string, group: string, metric: string}} t
 * @param {{hostSeries: ReturnType<typeof releaseHostSeries>, meters: CountedMeter[]}} across the
 *   table's host series and counting meters
 * @param {Set<string>} seriesPaths
 * @returns {{row: import('./types.js').TableTest, history: object[]}}
 */
function buildTestRow(table, t, { hostSeries, meters }, seriesPaths) {
  /** @type {(number|null)[]} */
  const values = [];
  /** @type {number[]} */
  const n = [];
  /** @type {(import('./types.js').VerdictClass|null)[]} */
  const verdicts = [];
  /** @type {import('./types.js').TableTest['intervals']} */
  const intervals = [];
  /** @type {import('./types.js').TableTest['shown']} */
  const shown = [];
  /** @type {NonNullable<import('./types.js').TableTest['counted']>} */
  const counted = Object.fromEntries(meters.map((m) => [m.meter, { metric: m.metrics[0].name, unit: m.metrics[0].unit, label: m.metrics[0].label ?? m.metrics[0].name, values: [], n: [], verdicts: [], shown: [] }]));
  const history = [];
  for (const rel of table.releases) {
    const cell = testCell(rel, t.name, meters);
    const { sum, verdict } = cell;
    values.push(cell.ran ? sum.median : null);
    n.push(sum.n);
    verdicts.push(verdict?.verdict ?? null);
    intervals.push(verdict && typeof verdict.ratio === 'number' && verdict.ci ? /** @type {[number, number, number]} */ ([verdict.ratio, ...verdict.ci].map(toRatioPrecision)) : null);
    const { shown: ratio, countedShown } = testShownRatios(rel, table.releases, t.name, meters);
    shown.push(ratio);
    for (const [meter, c] of Object.entries(counted)) {
      c.shown.push(countedShown[meter] ?? null);
      c.values.push(cell.counted[meter].sum?.median ?? null);
      c.n.push(cell.counted[meter].sum?.n ?? 0);
      c.verdicts.push(cell.counted[meter].verdict?.verdict ?? null);
    }
    // Where the instructions went, for the newest release only: the test page shows it for that one.
    const moves = rel === table.releases.at(-1) && rel.comparison ? testFunctionMoves(rel.comparison.comparison, t.name) : null;
    const types = rel === table.releases.at(-1) && rel.comparison ? testCountedTypes(rel.comparison.comparison, t.name) : null;
    if (cell.ran) history.push({ ...historyEntry(rel, t.name, cell, hostSeries, seriesPaths), comparedWith: rel.comparison?.comparison.base.version ?? null, shown: ratio, countedShown, functions: moves, countedTypes: types });
  }
  const used = Object.entries(counted).filter(([, c]) => c.values.some((v) => v !== null) || c.verdicts.some((v) => v !== null));
  return { row: { name: t.name, group: t.group, metric: t.metric, values, n, verdicts, intervals, shown, ...(used.length ? { counted: Object.fromEntries(used) } : {}) }, history };
}

/**
 * A counted step's parts per operation type (a LinkBench request phase's ten types, compare's
 * counted-types.js) as the test page shows them: never judged, each with why.
 * @param {import('./types.js').Comparison} comparison
 * @param {string} test
 * @returns {(import('../types.js').CountedTypeComparison & {notJudged: string})[]|null} null when
 *   the comparison has none for the test
 */
function testCountedTypes(comparison, test) {
  const entries = (comparison.countedTypes ?? []).filter((e) => e.test === test);
  return entries.length > 0 ? entries.map((e) => ({ ...e, notJudged: COUNTED_TYPES_NOT_JUDGED })) : null;
}

/**
 * What one release measured and judged of one test.
 * @param {ReleaseGroup} rel
 * @param {string} test
 * @param {CountedMeter[]} meters the table's counting meters
 */
function testCell(rel, test, meters) {
  const steps = rel.records.flatMap((r) => r.steps.filter((s) => s.name === test));
  const timing = throughputSteps(rel.records, test);
  return {
    ran: steps.length > 0,
    timed: timing.timed,
    sum: summarizeRepeats(timing.steps),
    verdict: throughputVerdict(rel, test),
    counted: Object.fromEntries(meters.map((m) => [m.meter, { sum: summarizeCounted(steps, m), verdict: verdictOf(rel, test, m.metrics[0].name) }])),
  };
}

/**
 * One release's entry in a test's history (the test page).
 * @param {ReleaseGroup} rel
 * @param {string} test
 * @param {ReturnType<typeof testCell>} cell
 * @param {ReturnType<typeof releaseHostSeries>} hostSeries
 * @param {Set<string>} seriesPaths
 */
function historyEntry(rel, test, { sum, timed, verdict, counted }, hostSeries, seriesPaths) {
  return {
    version: rel.version,
    median: sum.median, min: sum.min, max: sum.max, n: sum.n, status: sum.status, reason: sum.reason, timed,
    // Each counting meter's figures in its first metric, named as the meter names it.
    counted: Object.fromEntries(Object.entries(counted).filter(([, c]) => c.sum || c.verdict).map(([meter, { sum: c, verdict: v }]) => [meter, {
      metric: c?.metric ?? v?.metric, unit: c?.unit ?? v?.unit ?? null, label: c?.label ?? v?.metric ?? null,
      median: c?.median ?? null, min: c?.min ?? null, max: c?.max ?? null, n: c?.n ?? 0,
      verdict: v ? { verdict: v.verdict, words: describeVerdict(v), ratio: v.ratio, ci: v.ci, reason: v.reason } : null,
    }])),
    // Whether the timed and the counted verdicts agree, in compare's words (null: one meter).
    timeAndWork: rel.comparison ? describeTestTimeAndWork(rel.comparison.comparison, test) : null,
    // which host series its runs belong to (the newest run's), and all of them when they span several
    hostSeries: hostSeries.byVersion.get(rel.version)?.series ?? 0,
    mixedHostSeries: hostSeries.byVersion.get(rel.version)?.mixed ?? [],
    verdict: verdict ? {
      verdict: verdict.verdict, words: describeVerdict(verdict), ratio: verdict.ratio, ci: verdict.ci, mde: verdict.mde,
      baseVersion: rel.comparison?.comparison.base.version ?? null, reason: verdict.reason,
      confirmed: verdict.confirmed ?? false,
    } : null,
    runs: rel.records.flatMap((r) => {
      const step = r.steps.find((s) => s.name === test);
      if (!step) return [];
      const seriesPath = dataPaths.series({ runId: r.id, test });
      return [{
        id: r.id,
        startedAt: r.startedAt,
        repeats: step.repeats.map((rep) => ({
          index: rep.index, status: rep.status, throughput: rep.throughput, durationS: rep.durationS,
          tooShortForPerSecond: rep.durationS < MIN_PER_SECOND_S,
        })),
        series: seriesPaths.has(seriesPath) ? seriesPath : null,
      }];
    }),
  };
}

/**
 * The table's tests by reporting group, in the seed posts' group order; groups they don't know
 * (other benchmarks) follow.
 * @param {{name: string, group: string}[]} tests
 * @returns {{name: string, label: string, tests: string[]}[]}
 */
function groupTests(tests) {
  /** @type {{name: string, label: string, tests: string[]}[]} */
  const groups = [];
  for (const t of tests) {
    let g = groups.find((x) => x.name === t.group);
    if (!g) groups.push((g = { name: t.group, label: GROUP_LABELS[t.group] ?? t.group, tests: [] }));
    g.tests.push(t.name);
  }
  const rank = (/** @type {string} */ name) => {
    const i = Object.keys(GROUP_LABELS).indexOf(name);
    return i === -1 ? Infinity : i;
  };
  return groups.sort((a, b) => rank(a.name) - rank(b.name));
}

/**
 * The concurrency sweeps of a table: each swept test's counts (`<test>.c<N>`, one test per
 * count), for the line page's chart of throughput by clients.
 * @param {{name: string, metric: string}[]} tests
 * @returns {import('./types.js').TableSweep[]} in the order their first count appears
 */
export function listSweeps(tests) {
  /** @type {Map<string, import('./types.js').TableSweep>} */
  const byTest = new Map();
  for (const t of tests) {
    const parsed = parseSweepName(t.name);
    if (!parsed) continue;
    const sweep = byTest.get(parsed.test) ?? { test: parsed.test, metric: t.metric, clients: [], tests: [] };
    sweep.clients.push(parsed.clients);
    sweep.tests.push(t.name);
    byTest.set(parsed.test, sweep);
  }
  return [...byTest.values()].map((s) => {
    const order = s.clients.map((c, i) => ({ c, name: s.tests[i] })).sort((a, b) => a.c - b.c);
    return { ...s, clients: order.map((o) => o.c), tests: order.map((o) => o.name) };
  });
}
