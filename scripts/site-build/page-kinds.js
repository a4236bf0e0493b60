/**
 * The site's pages as two lists, like the registries of meters and benchmarks: adding a page is
 * its builder's file and one entry here, and the build (compute-site.js, build-site.js) knows
 * these lists, never a builder. A slice page makes its files from one computed slice (its runs
 * grouped once into tables); a site page gathers a small part of each slice, then makes its
 * files once from all the parts and what the site read beside the slices. Pure (no fs).
 */
import { buildTableData } from './build-table-data.js';
import { buildReleaseData } from './build-release-data.js';
import { bisectsForRelease } from './build-bisect-data.js';
import { manifestEntry, buildManifest, regressionRows, buildRegressions } from './build-manifest.js';
import { renderCsv } from './render-csv.js';
import { renderFeed } from './render-feed.js';
import { buildSequenceData } from './build-sequence-data.js';
import { buildSliceViews, buildViewsIndex } from './build-views-data.js';
import { crossSlice, buildCrossFiles } from './build-cross-data.js';
import { buildHostSuite, buildHostData, buildHostIndex } from './build-host-data.js';
import { hostFalseAlarms, noiseOverview, hostRunFacts, mergeRunFacts, hostCitations } from './build-calibration-data.js';
import { buildRefData } from './build-ref-data.js';
import { dataPaths } from '../../site/js/paths.js';
import { viewPaths } from '../../site/js/pages/view-paths.js';
import { referenceRecords } from '../compare/index.js';
import { legKey, openFailedLegs } from '../store/index.js';

/** @import { SiteInput, TableData } from './types.js' */
/** @import { TableGroup } from './group-tables.js' */
/** @import { SiteInputs } from './read-site-inputs.js' */

/**
 * @typedef {[string, unknown]} SiteFile a site path and its data: JSON, or text when a string
 *   under a path that is not .json (CSV, Atom)
 */

/**
 * @typedef {object} ComputedSlice one slice of the store, grouped once, as every page sees it
 * @property {SiteInput} input the slice's runs and comparisons and what the site read beside them
 * @property {TableGroup[]} groups its tables (groupTables, run once per slice)
 * @property {Set<string>} seriesPaths site paths of the per-second series already written
 * @property {{hostClass: string, product: string, suite: string}} slice which slice it is
 * @property {{product: string, version: string}|null} reference its host class's reference release
 * @property {import('../compare/index.js').CompareThresholds|null} thresholds what the reference's drift is judged by
 */

/**
 * @typedef {object} TableFiles
 * @property {TableData} table
 * @property {Map<string, unknown>} extra its test histories
 * @property {unknown} sequences the insert benchmark's and LinkBench's views, or null
 */

/**
 * @typedef {object} SiteContext what a site page is made from beside the slices' parts
 * @property {SiteInputs} inputs what the site read beside the slices
 * @property {string} title
 * @property {string} generatedAt build time, ISO
 * @property {string|null} siteUrl
 * @property {string|null} recordsUrl
 * @property {boolean} linked downloads link to the results branch: no copies in the site
 */

/** @typedef {{name: string, files: (slice: ComputedSlice) => SiteFile[]}} SlicePage */

/**
 * @template T
 * @typedef {object} SitePage
 * @property {string} name the key of its part in a slice's summary
 * @property {(slice: ComputedSlice) => T} gather what it keeps of one slice (small)
 * @property {(parts: T[], site: SiteContext) => SiteFile[]} files
 */

// What several pages of a slice share is made once, kept by the group or slice it was made from
// (weakly: a slice's groups are dropped once its files are written).
/** @type {WeakMap<TableGroup, TableFiles>} */
const tablesMade = new WeakMap();
/** @type {WeakMap<ComputedSlice, import('./build-views-data.js').TableViews[]>} */
const viewsMade = new WeakMap();

/**
 * A table's data with its sequence views, made once per table of a slice and shared by the pages
 * that need it (the table, its releases, the manifest).
 * @param {ComputedSlice} s
 * @param {TableGroup} group one of s.groups
 * @returns {TableFiles}
 */
function tableOf(s, group) {
  const kept = tablesMade.get(group);
  if (kept) return kept;
  const { table, files } = buildTableData(group, s.seriesPaths);
  const made = { table, extra: files, sequences: buildSequenceData(group, s.seriesPaths) };
  tablesMade.set(group, made);
  return made;
}

/**
 * A slice's tables' views (loops, timings, reads per operation, matrix cells), made once for
 * their files and the views' index.
 * @param {ComputedSlice} s
 * @returns {import('./build-views-data.js').TableViews[]}
 */
function viewsOf(s) {
  let made = viewsMade.get(s);
  if (!made) viewsMade.set(s, (made = buildSliceViews(s.groups)));
  return made;
}

/** @type {SlicePage[]} */
export const SLICE_PAGES = [
  { name: 'tables', files: (s) => s.groups.flatMap((group) => {
    const { table, extra, sequences } = tableOf(s, group);
    return [[dataPaths.table(group.key), sequences ? { ...table, sequences } : table], ...extra, [table.csv, renderCsv(table)],
      ...(group.changePoints ? [/** @type {SiteFile} */ ([dataPaths.changePoints(group.key), group.changePoints])] : [])];
  }) },
  { name: 'releases', files: (s) => s.groups.flatMap((group) => group.releases.flatMap((rel) => releaseFiles(s, group, rel))) },
  { name: 'views', files: (s) => viewsOf(s).map((v) => [viewPaths.table(v), v]) },
];

/**
 * A release page's file and its "where the instructions went" file.
 * @param {ComputedSlice} s
 * @param {TableGroup} group
 * @param {import('./group-tables.js').ReleaseGroup} rel
 * @returns {SiteFile[]}
 */
function releaseFiles(s, group, rel) {
  const { input } = s;
  const { sequences } = tableOf(s, group);
  const { path, data, functions } = buildReleaseData(group, rel, input.calibration ?? null, input.deletedTags ?? null);
  // An older release of a long history keeps its function tables in its comparison only.
  const detailed = !input.detailVersions || input.detailVersions.has(rel.version);
  const elsewhere = functions && !detailed ? { functions: null, functionsInComparison: true } : {};
  /** @type {SiteFile[]} */
  const out = [[path, { .../** @type {object} */ (data), ...elsewhere, bisects: bisectsForRelease(input.bisects ?? [], rel.version), ...(sequences ? { sequences } : {}) }]];
  if (functions && detailed) out.push([functions.path, functions.data]);
  return out;
}

/** @type {SitePage<{entries: any[], counts: {runs: number, comparisons: number, releases: number}, legs: {compared: string[], finished: [string, string][]}}>} */
const manifestPage = {
  name: 'manifest',
  gather: (s) => ({
    entries: s.groups.map((g) => manifestEntry(g, tableOf(s, g).table, s.input.issues)),
    counts: { runs: s.input.records.length, comparisons: s.input.comparisons.length, releases: s.groups.reduce((n, g) => n + tableOf(s, g).table.releases.length, 0) },
    legs: legsEnded(s),
  }),
  files: (parts, { inputs, title, generatedAt }) => {
    const counts = { runs: 0, comparisons: 0, releases: 0, tables: 0 };
    for (const p of parts) {
      counts.runs += p.counts.runs;
      counts.comparisons += p.counts.comparisons;
      counts.releases += p.counts.releases;
      counts.tables += p.entries.length;
    }
    const failedLegs = openFailedLegs(inputs.legAttempts, legsBenchmarked(parts.map((p) => p.legs)));
    return [[dataPaths.manifest(), buildManifest({ title, generatedAt, tools: inputs.tools, counts, entries: parts.flatMap((p) => p.entries), failedLegs })]];
  },
};

/** @type {SitePage<ReturnType<typeof regressionRows>>} */
const regressionsPage = {
  name: 'regressions',
  gather: (s) => regressionRows(s.input.issues, s.groups),
  files: (parts, { inputs }) => {
    const used = new Set(parts.flatMap((p) => [...p.used]));
    return [[dataPaths.regressions(), buildRegressions(parts.flatMap((p) => p.rows), inputs.issues.filter((i) => !used.has(i)), parts.flatMap((p) => p.suspects))]];
  },
};

/** @type {SitePage<import('./types.js').StoredComparison[]>} */
const feedPage = {
  name: 'feed',
  // Only what the feed shows: the regressions and improvements of each comparison.
  gather: (s) => s.input.comparisons.map((c) => ({
    id: c.id, comparison: { ...c.comparison, tests: c.comparison.tests.filter((t) => !t.context && (t.verdict === 'regression' || t.verdict === 'improvement')) },
  })),
  files: (parts, { title, siteUrl, recordsUrl, generatedAt }) => [[dataPaths.feed(), renderFeed({ comparisons: parts.flat(), title, siteUrl, recordsUrl, generatedAt })]],
};

/** @type {SitePage<{hostClass: string, suite: import('./build-host-data.js').HostSuiteData|null, runFacts: import('./build-calibration-data.js').HostRunFacts}>} */
const hostsPage = {
  name: 'hosts',
  gather: (s) => {
    const runs = s.reference?.product === s.slice.product ? referenceRecords(s.input.records, s.reference) : [];
    return {
      hostClass: s.slice.hostClass, suite: s.reference && s.thresholds && runs.length > 0 ? buildHostSuite(runs, s.thresholds) : null,
      runFacts: hostRunFacts(s.input.records, s.input.comparisons),
    };
  },
  files: (parts, { inputs: { references, calibrations, storedCalibrations, calibrationReports, noise }, generatedAt }) => {
    const reports = new Map([...calibrationReports].map(([source, r]) => [source, r.path]));
    const hosts = Object.entries(references).map(([host, reference]) => {
      const mine = parts.filter((p) => p.hostClass === host);
      const stored = storedCalibrations.get(host) ?? [];
      return buildHostData(host, reference, mine.flatMap((p) => (p.suite ? [p.suite] : [])), {
        calibration: calibrations.get(host) ?? null, falseAlarms: hostFalseAlarms(noise, host), calibrations: stored,
        // What a run made now would cite: the rule of every comparison's "how sure", on this host's facts.
        citing: hostCitations(stored, host, mergeRunFacts(mine.map((p) => p.runFacts)), generatedAt, reports),
      });
    });
    return [...hosts.map((d) => /** @type {SiteFile} */ ([dataPaths.host(d.host), d])), [dataPaths.hosts(), buildHostIndex(hosts, noiseOverview(noise))],
      ...[...calibrationReports.values()].map((r) => /** @type {SiteFile} */ ([r.path, r.text]))];
  },
};

/** @type {SitePage<import('./build-cross-data.js').CrossSlice>} */
const crossPage = {
  name: 'cross',
  gather: (s) => crossSlice(s.input.records, { ...s.slice, host: s.slice.hostClass, productName: s.input.products[s.slice.product]?.displayName ?? s.slice.product }, s.thresholds),
  files: (parts) => {
    const cross = buildCrossFiles(parts);
    return [...cross.files, [dataPaths.crossIndex(), cross.index]];
  },
};

/** @type {SitePage<{views: import('./build-views-data.js').TableViews[], entries: any[]}>} */
const viewsIndexPage = {
  name: 'viewsIndex',
  // The matrices' cells need only each table's identity and file.
  gather: (s) => ({ views: viewsOf(s), entries: s.groups.map((g) => ({ ...g.key, productName: g.productName, files: { table: dataPaths.table(g.key) } })) }),
  files: (parts) => [[viewPaths.index(), buildViewsIndex(parts.flatMap((p) => p.views), parts.flatMap((p) => p.entries))]],
};

/**
 * The ad-hoc ref runs: their list, a page of data per ref run and, unless the downloads link to
 * the results branch, copies of their records and comparisons. Apart from the slices: a ref run
 * is never a release of a line, a table or a series.
 * @type {SitePage<null>}
 */
const refsPage = {
  name: 'refs',
  gather: () => null,
  files: (_parts, { inputs: { refs, products }, linked }) => {
    const download = {
      record: (/** @type {import('./types.js').RunRecord} */ r) => dataPaths.refRecord({ host: r.host.class, product: r.release.product, suite: r.config.suite, version: r.release.version, id: r.id }),
      comparison: (/** @type {import('./types.js').StoredComparison} */ { id, comparison: c }) => dataPaths.refComparison({ host: c.hostClass, product: c.product, suite: c.suite, version: c.candidate.version, id }),
    };
    const { index, pages } = buildRefData({ records: refs.records, comparisons: refs.comparisons, products, download });
    // A copy's samples inline (undefined drops the samples file's name, as for the releases').
    const copies = linked ? [] : [...refs.copies.map((r) => /** @type {SiteFile} */ ([download.record(r), { ...r, samples: undefined }])),
      ...refs.comparisons.map((c) => /** @type {SiteFile} */ ([download.comparison(c), c.comparison]))];
    return [[dataPaths.refs(), index], ...pages, ...copies];
  },
};

/** @type {SitePage<any>[]} */
export const SITE_PAGES = [manifestPage, regressionsPage, feedPage, hostsPage, crossPage, viewsIndexPage, refsPage];

/**
 * What a slice's runs and comparisons ended of failed legs (store's openFailedLegs decides).
 * @param {ComputedSlice} s
 * @returns {{compared: string[], finished: [string, string][]}} legs whose release has a
 *   comparison, and each leg's newest finished (not partial) run start
 */
function legsEnded({ input, slice }) {
  /** @type {Map<string, string>} */
  const finished = new Map();
  for (const r of input.records) {
    const leg = legKey({ ...slice, version: r.release.version });
    if (r.status !== 'partial' && (finished.get(leg) ?? '') < r.startedAt) finished.set(leg, r.startedAt);
  }
  return { compared: input.comparisons.map((c) => legKey({ ...slice, version: c.comparison.candidate.version })), finished: [...finished] };
}

/**
 * What the slices ended of failed legs, joined for the store's openFailedLegs.
 * @param {{compared: string[], finished: [string, string][]}[]} ended
 * @returns {import('../store/index.js').LegsBenchmarked}
 */
function legsBenchmarked(ended) {
  /** @type {import('../store/index.js').LegsBenchmarked} */
  const legs = { compared: new Set(), lastFinishedAt: new Map() };
  for (const e of ended) {
    for (const leg of e.compared) legs.compared.add(leg);
    for (const [leg, at] of e.finished) if ((legs.lastFinishedAt.get(leg) ?? '') < at) legs.lastFinishedAt.set(leg, at);
  }
  return legs;
}
