/**
 * The data of the page across product lines and products (seed post 003's one table of MySQL
 * 5.0 … 8.0; seed 000's binaries of different products): per host class × suite, every release
 * of every product run there, with each test's median throughput. The page picks the columns
 * and the base and computes the ratios, as the line page does; this is a view, never a verdict
 * (verdicts against baselines stay per line). Built from the store's (host, product, suite)
 * slices one at a time: crossSlice() keeps the few numbers a slice gives, buildCrossData()
 * joins the slices of one host class and suite. Pure.
 */
import { compareVersions } from '../version-order.js';
import { dataPaths } from '../../site/js/paths.js';
import { summarizeRepeats } from './summarize-repeats.js';
import { SCHEMA_VERSION } from './build-table-data.js';
import { explainStepRefused } from '../compare/index.js';

/** @import { RunRecord } from './types.js' */

/** Reporting groups in the order and words of the line tables. */
const GROUP_LABELS = /** @type {Record<string, string>} */ ({
  point: 'Point queries',
  range: 'Range queries without aggregation',
  'range-agg': 'Range queries with aggregation',
  write: 'Writes',
});

/**
 * @typedef {object} CrossSliceRelease one release of one slice, with its tests' medians
 * @property {string} key `product@version` (compare stage's releaseKey)
 * @property {string} product
 * @property {string} productName
 * @property {string} line
 * @property {string} version
 * @property {string|null} date finishedAt of the newest run
 * @property {number} runs
 * @property {Record<string, {median: number|null, n: number, refused: string|null}>} tests by
 *   test name; refused: why compare would not judge its throughput (repeats too short: the
 *   compare stage's rule), so the page leaves it out of the group means
 */

/**
 * @typedef {object} CrossSlice what a (host, product, suite) slice gives the cross page
 * @property {string} host
 * @property {string} suite
 * @property {CrossSliceRelease[]} releases version order
 * @property {{name: string, group: string, metric: string}[]} tests reported tests, first-seen order
 */

/**
 * @param {RunRecord[]} records the runs of one host class, product and suite
 * @param {{host: string, product: string, suite: string, productName: string}} slice
 * @param {import('../compare/index.js').CompareThresholds|null} [thresholds] the project's (none:
 *   nothing refused)
 * @returns {CrossSlice}
 */
export function crossSlice(records, slice, thresholds = null) {
  /** @type {Map<string, RunRecord[]>} */
  const byVersion = new Map();
  /** @type {Map<string, {name: string, group: string, metric: string}>} */
  const tests = new Map();
  for (const r of records) {
    byVersion.set(r.release.version, [...(byVersion.get(r.release.version) ?? []), r]);
    for (const s of r.steps) if (s.reported && s.group !== 'setup' && !tests.has(s.name)) tests.set(s.name, { name: s.name, group: s.group, metric: s.metric });
  }
  const releases = [...byVersion].sort(([a], [b]) => compareVersions(a, b)).map(([version, runs]) => {
    const sorted = [...runs].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    /** @type {Record<string, {median: number|null, n: number, refused: string|null}>} */
    const medians = {};
    for (const [name, test] of tests) {
      const steps = sorted.flatMap((r) => r.steps.filter((s) => s.name === name));
      if (steps.length === 0) continue;
      const sum = summarizeRepeats(steps);
      const ok = steps.flatMap((s) => s.repeats.filter((rep) => rep.status === 'ok'));
      medians[name] = { median: sum.median, n: sum.n, refused: thresholds ? explainStepRefused(thresholds, test, ok) : null };
    }
    return {
      key: `${slice.product}@${version}`,
      product: slice.product,
      productName: slice.productName,
      // The newest run's line, as the compare command takes it.
      line: sorted.at(-1)?.release.line ?? '',
      version,
      date: sorted.map((r) => r.finishedAt ?? r.startedAt).sort().at(-1) ?? null,
      runs: sorted.length,
      tests: medians,
    };
  });
  return { host: slice.host, suite: slice.suite, releases, tests: [...tests.values()] };
}

/**
 * @typedef {object} CrossData data/cross/<host>/<suite>.json
 * @property {number} schemaVersion
 * @property {string} host
 * @property {string} suite
 * @property {{key: string, product: string, productName: string, line: string, version: string, date: string|null, runs: number}[]} releases
 *   by product (id order), then version order: each product's whole history, every line in order
 * @property {{name: string, label: string, tests: string[]}[]} groups reporting groups, line-table order
 * @property {{name: string, group: string, metric: string, values: (number|null)[], n: number[], refused: (string|null)[]}[]} tests
 *   values: median throughput per release (aligned with releases), null = not run or no ok repeat;
 *   refused: why that release's repeats are too short to judge (left out of the group means)
 * @property {string[]} defaultColumns keys shown at first: the newest release of every line
 * @property {string|null} defaultBase the first default column
 */

/**
 * Join the slices of one host class and suite.
 * @param {CrossSlice[]} slices every slice of that host class and suite (one per product)
 * @returns {CrossData}
 */
export function buildCrossData(slices) {
  const [first] = slices;
  if (!first || slices.some((s) => s.host !== first.host || s.suite !== first.suite)) throw new Error('buildCrossData takes the slices of one host class and suite');
  const ordered = [...slices].sort((a, b) => (a.releases[0]?.product ?? '').localeCompare(b.releases[0]?.product ?? ''));
  const releases = ordered.flatMap((s) => s.releases);
  /** @type {Map<string, {name: string, group: string, metric: string}>} */
  const seen = new Map();
  for (const s of ordered) for (const t of s.tests) if (!seen.has(t.name)) seen.set(t.name, t);
  const rank = (/** @type {string} */ g) => {
    const i = Object.keys(GROUP_LABELS).indexOf(g);
    return i === -1 ? Infinity : i;
  };
  /** @type {CrossData['groups']} */
  const groups = [];
  for (const t of seen.values()) {
    let g = groups.find((x) => x.name === t.group);
    if (!g) groups.push((g = { name: t.group, label: GROUP_LABELS[t.group] ?? t.group, tests: [] }));
    g.tests.push(t.name);
  }
  groups.sort((a, b) => rank(a.name) - rank(b.name));
  const tests = groups.flatMap((g) => g.tests).map((name) => {
    const t = /** @type {{name: string, group: string, metric: string}} */ (seen.get(name));
    return { ...t, values: releases.map((r) => r.tests[name]?.median ?? null), n: releases.map((r) => r.tests[name]?.n ?? 0), refused: releases.map((r) => r.tests[name]?.refused ?? null) };
  });
  /** @type {Map<string, string>} product|line -> its newest release's key */
  const newest = new Map();
  for (const r of releases) newest.set(`${r.product}|${r.line}`, r.key);
  const defaultColumns = releases.filter((r) => newest.get(`${r.product}|${r.line}`) === r.key).map((r) => r.key);
  return {
    schemaVersion: SCHEMA_VERSION,
    host: first.host,
    suite: first.suite,
    releases: releases.map(({ tests: _tests, ...r }) => r),
    groups,
    tests,
    defaultColumns,
    defaultBase: defaultColumns[0] ?? null,
  };
}

/**
 * The cross tables of a store by host class and suite, for the page's selector.
 * @param {CrossSlice[]} slices every slice of the store
 * @returns {{files: [string, unknown][], index: unknown}} data files by site path, and data/cross/index.json
 */
export function buildCrossFiles(slices) {
  /** @type {Map<string, CrossSlice[]>} */
  const byTable = new Map();
  for (const s of slices) {
    if (s.releases.length === 0) continue;
    const id = JSON.stringify([s.host, s.suite]);
    byTable.set(id, [...(byTable.get(id) ?? []), s]);
  }
  const datas = [...byTable.values()].map(buildCrossData)
    .sort((a, b) => a.host.localeCompare(b.host) || a.suite.localeCompare(b.suite));
  return {
    files: datas.map((d) => [dataPaths.cross({ host: d.host, suite: d.suite }), d]),
    index: {
      schemaVersion: SCHEMA_VERSION,
      tables: datas.map((d) => ({
        host: d.host, suite: d.suite, releaseCount: d.releases.length,
        products: [...new Set(d.releases.map((r) => r.productName))],
        lineCount: new Set(d.releases.map((r) => `${r.product}|${r.line}`)).size,
        file: dataPaths.cross({ host: d.host, suite: d.suite }),
      })),
    },
  };
}
