/**
 * Turn the site's input into its generated data files, in two steps so a large store never
 * has to sit in memory whole: computeSlice() per (host class, product, suite) slice of the
 * store gives every file of that slice from one grouping of its runs, plus small summaries;
 * finishSite() turns the summaries of all slices into the manifest, the regressions list and
 * the feed. Pure (no fs).
 */
import { groupTables } from './group-tables.js';
import { buildTableData } from './build-table-data.js';
import { buildReleaseData } from './build-release-data.js';
import { bisectsForRelease } from './build-bisect-data.js';
import { manifestEntry, buildManifest, regressionRows, buildRegressions } from './build-manifest.js';
import { renderCsv } from './render-csv.js';
import { renderFeed } from './render-feed.js';
import { dataPaths } from '../../site/js/paths.js';
import { viewPaths } from '../../site/js/pages/view-paths.js';
import { buildSeries } from './build-series.js';
import { buildSequenceData } from './build-sequence-data.js';
import { buildSliceViews } from './build-views-data.js';
import { crossSlice } from './build-cross-data.js';
import { buildHostSuite } from './build-host-data.js';
import { referenceRecords } from '../compare/index.js';
import { legKey } from '../store/index.js';

/** @import { SiteInput, RunRecord, StoredComparison } from './types.js' */
/** @import { IssueRef } from '../types.js' */
/** @import { TableGroup } from './group-tables.js' */

/**
 * @typedef {object} SiteFiles
 * @property {Map<string, unknown>} json site path -> data written as JSON
 * @property {Map<string, string>} text site path -> text (CSV, Atom)
 */

/**
 * @typedef {object} SliceSummary what the build keeps of a slice for the site-wide files (small)
 * @property {any[]} entries manifest entries of its tables
 * @property {any[]} regressions regression rows
 * @property {any[]} suspects suspect rows (inconclusive verdicts leaning the bad way)
 * @property {Set<IssueRef>} usedIssues issues matched to a stored verdict
 * @property {StoredComparison[]} feed its comparisons, slimmed to what the feed shows
 * @property {{runs: number, comparisons: number, releases: number}} counts
 * @property {import('./build-views-data.js').TableViews[]} views its tables' views (loops,
 *   timings, reads per operation, matrix cells), for the views' index
 * @property {import('./build-cross-data.js').CrossSlice} cross its few numbers for the cross pages
 * @property {import('./build-host-data.js').HostSuiteData|null} hostSuite the host class's
 *   reference release in this suite, when the slice holds its runs
 * @property {{compared: string[], finished: [string, string][]}} legs what the slice ended of
 *   failed legs (store's legKey): legs whose release has a comparison, and each leg's newest
 *   finished (not partial) run start
 */

/**
 * @typedef {object} SliceContext what a slice needs of the site beyond its own runs
 * @property {{hostClass: string, product: string, suite: string}} slice which slice it is
 * @property {{product: string, version: string}|null} reference its host class's reference release (configs/)
 * @property {import('../compare/index.js').CompareThresholds|null} thresholds what the reference's drift is judged by
 */

/**
 * Every file of one slice (tables, test histories, release pages, "where the instructions
 * went", CSV, change points, views) and its summaries, all from one grouping of its runs. The
 * per-record files (downloads and per-second series: recordFiles) and the comparisons'
 * downloads (comparisonDownload) are the caller's to write as it reads the store, so that the
 * records and comparisons given here can be slimmed of their samples and evidence.
 * @param {SiteInput} input one slice of the store
 * @param {Set<string>} seriesPaths site paths of the per-second series already written
 * @param {SliceContext} context
 * @returns {{files: SiteFiles, summary: SliceSummary}}
 */
export function computeSlice(input, seriesPaths, context) {
  /** @type {SiteFiles} */
  const files = { json: new Map(), text: new Map() };
  const groups = groupTables(input);
  const entries = [];
  let releases = 0;
  for (const group of groups) {
    const table = addTableFiles(files, group, input, seriesPaths);
    entries.push(manifestEntry(group, table, input.issues));
    releases += table.releases.length;
  }
  const views = buildSliceViews(groups);
  for (const v of views) files.json.set(viewPaths.table(v), v);
  const { rows, suspects, used } = regressionRows(input.issues, groups);
  const { slice, reference } = context;
  const referenceRuns = reference?.product === slice.product ? referenceRecords(input.records, reference) : [];
  return {
    files,
    summary: {
      entries,
      regressions: rows,
      suspects,
      usedIssues: used,
      feed: input.comparisons.map((s) => ({
        id: s.id,
        comparison: { ...s.comparison, tests: s.comparison.tests.filter((t) => t.verdict === 'regression' || t.verdict === 'improvement') },
      })),
      counts: { runs: input.records.length, comparisons: input.comparisons.length, releases },
      views,
      cross: crossSlice(input.records, { ...slice, host: slice.hostClass, productName: input.products[slice.product]?.displayName ?? slice.product }),
      hostSuite: reference && context.thresholds && referenceRuns.length > 0 ? buildHostSuite(referenceRuns, context.thresholds) : null,
      legs: legsEnded(input, slice),
    },
  };
}

/**
 * One table's files into `files`: its data (with the sequence benchmarks' views), test
 * histories, release pages, their function tables, CSV and change points.
 * @param {SiteFiles} files
 * @param {TableGroup} group
 * @param {SiteInput} input
 * @param {Set<string>} seriesPaths
 * @returns {import('./types.js').TableData} the table's data, for its manifest entry
 */
function addTableFiles(files, group, input, seriesPaths) {
  const { table, files: extra } = buildTableData(group, seriesPaths);
  // The insert benchmark's and LinkBench's views (both pages show the whole table's releases).
  const sequences = buildSequenceData(group, seriesPaths);
  files.json.set(dataPaths.table(group.key), sequences ? { ...table, sequences } : table);
  for (const [path, data] of extra) files.json.set(path, data);
  for (const rel of group.releases) {
    const { path, data, functions } = buildReleaseData(group, rel, input.calibration ?? null, input.deletedTags ?? null);
    // An older release of a long history keeps its function tables in its comparison only.
    const detailed = !input.detailVersions || input.detailVersions.has(rel.version);
    const elsewhere = functions && !detailed ? { functions: null, functionsInComparison: true } : {};
    files.json.set(path, { .../** @type {object} */ (data), ...elsewhere, bisects: bisectsForRelease(input.bisects ?? [], rel.version), ...(sequences ? { sequences } : {}) });
    if (functions && detailed) files.json.set(functions.path, functions.data);
  }
  files.text.set(table.csv, renderCsv(table));
  if (group.changePoints) files.json.set(dataPaths.changePoints(group.key), group.changePoints);
  return table;
}

/**
 * What a slice's runs and comparisons ended of failed legs (store's openFailedLegs decides).
 * @param {SiteInput} input
 * @param {{hostClass: string, product: string, suite: string}} slice
 * @returns {SliceSummary['legs']}
 */
function legsEnded(input, slice) {
  /** @type {Map<string, string>} */
  const finished = new Map();
  for (const r of input.records) {
    const leg = legKey({ ...slice, version: r.release.version });
    if (r.status !== 'partial' && (finished.get(leg) ?? '') < r.startedAt) finished.set(leg, r.startedAt);
  }
  return { compared: input.comparisons.map((c) => legKey({ ...slice, version: c.comparison.candidate.version })), finished: [...finished] };
}

/**
 * The files one run record gives on its own: its download path and its per-second series.
 * @param {RunRecord} record
 * @returns {{download: string, series: Map<string, unknown>}}
 */
export function recordFiles(record) {
  return {
    download: dataPaths.runRecord({ host: record.host.class, product: record.release.product, version: record.release.version, suite: record.config.suite, id: record.id }),
    series: buildSeries(record),
  };
}

/**
 * @param {StoredComparison} s
 * @returns {string} site path of its download copy
 */
export function comparisonDownload(s) {
  const c = s.comparison;
  return dataPaths.comparison({ host: c.hostClass, product: c.product, version: c.candidate.version, suite: c.suite, id: s.id });
}

/**
 * @param {{issues: IssueRef[], title: string, generatedAt: string, siteUrl: string|null, recordsUrl?: string|null, failedLegs?: import('../store/index.js').LegAttempts[]}} input
 *   failedLegs: legs whose bench job failed and that nothing has benchmarked since
 * @param {SliceSummary[]} parts
 * @param {Record<string, string>} tools versions for the footer
 * @returns {{json: Map<string, unknown>, text: Map<string, string>}} manifest, regressions, feed
 */
export function finishSite(input, parts, tools) {
  const entries = parts.flatMap((p) => p.entries);
  const counts = { runs: 0, comparisons: 0, releases: 0, tables: entries.length };
  for (const p of parts) {
    counts.runs += p.counts.runs;
    counts.comparisons += p.counts.comparisons;
    counts.releases += p.counts.releases;
  }
  const used = new Set(parts.flatMap((p) => [...p.usedIssues]));
  return {
    json: new Map(/** @type {[string, unknown][]} */ ([
      [dataPaths.manifest(), buildManifest({ title: input.title, generatedAt: input.generatedAt, tools, counts, entries, failedLegs: input.failedLegs ?? [] })],
      [dataPaths.regressions(), buildRegressions(parts.flatMap((p) => p.regressions), input.issues.filter((i) => !used.has(i)), parts.flatMap((p) => p.suspects))],
    ])),
    text: new Map([[dataPaths.feed(), renderFeed({ comparisons: parts.flatMap((p) => p.feed), title: input.title, siteUrl: input.siteUrl, recordsUrl: input.recordsUrl ?? null, generatedAt: input.generatedAt })]]),
  };
}
