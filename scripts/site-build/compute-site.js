/**
 * Turn the site's input into its generated data files, in two steps so a large store never
 * has to sit in memory whole: computePartition() per (host class, product, suite) slice of the
 * store gives that slice's files plus small summaries; finishSite() turns the summaries of
 * all slices into the manifest, the regressions list and the feed. Pure (no fs).
 */
import { groupTables } from './group-tables.js';
import { buildTableData } from './build-table-data.js';
import { buildReleaseData } from './build-release-data.js';
import { bisectsForRelease } from './build-bisect-data.js';
import { manifestEntry, buildManifest, regressionRows, buildRegressions } from './build-manifest.js';
import { renderCsv } from './render-csv.js';
import { renderFeed } from './render-feed.js';
import { dataPaths } from '../../site/js/paths.js';
import { buildSeries } from './build-series.js';
import { buildSequenceData } from './build-sequence-data.js';

/** @import { SiteInput, RunRecord, StoredComparison } from './types.js' */
/** @import { IssueRef } from '../types.js' */

/**
 * @typedef {object} SiteFiles
 * @property {Map<string, unknown>} json site path -> data written as JSON
 * @property {Map<string, string>} text site path -> text (CSV, Atom)
 */

/**
 * @typedef {object} PartitionSummary what finishSite needs from a slice (small)
 * @property {any[]} entries manifest entries of its tables
 * @property {any[]} regressions regression rows
 * @property {any[]} suspects suspect rows (inconclusive verdicts leaning the bad way)
 * @property {Set<IssueRef>} usedIssues issues matched to a stored verdict
 * @property {StoredComparison[]} feed its comparisons, slimmed to what the feed shows
 * @property {{runs: number, comparisons: number, releases: number}} counts
 */

/**
 * The tables, release pages, CSV and manifest entries of one slice. The per-record files
 * (downloads and per-second series: recordFiles) and the comparisons' downloads
 * (comparisonDownload) are the caller's to write as it reads the store, so that the records
 * and comparisons given here can be slimmed of their samples and evidence.
 * @param {SiteInput} input one slice of the store
 * @param {Set<string>} seriesPaths site paths of the per-second series already written
 * @returns {{files: SiteFiles, summary: PartitionSummary}}
 */
export function computePartition(input, seriesPaths) {
  /** @type {SiteFiles} */
  const files = { json: new Map(), text: new Map() };
  const groups = groupTables(input);
  const entries = [];
  let releases = 0;
  for (const group of groups) {
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
    entries.push(manifestEntry(group, table, input.issues));
    releases += table.releases.length;
  }
  const { rows, suspects, used } = regressionRows(input.issues, groups);
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
    },
  };
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
 * @param {PartitionSummary[]} parts
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
