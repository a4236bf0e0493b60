/**
 * `tagbench site` builder: read the store, compute every data file slice by slice (a slice is
 * one host class × product × suite of the store: computeSlice), then the site-wide files, and
 * write it all into a fresh folder (site-folder.js) that then replaces the output folder in one
 * rename, so a failed build never leaves a half-written site.
 */
import { dirname, join, resolve } from 'node:path';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { readRecords, readComparisons, readChangePoints, readBisectReports, readLegAttempts, summarizeLegAttempts, openFailedLegs } from '../store/index.js';
import { computeSlice, finishSite, recordFiles, comparisonDownload } from './compute-site.js';
import { slimVerdict } from './build-release-data.js';
import { slimRecord } from './build-series.js';
import { buildHostData, buildHostIndex } from './build-host-data.js';
import { hostFalseAlarms, noiseOverview } from './build-calibration-data.js';
import { buildCrossFiles } from './build-cross-data.js';
import { buildViewsIndex } from './build-views-data.js';
import { viewPaths } from '../../site/js/pages/view-paths.js';
import { describeHowSure, findSuspects } from '../compare/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { storeLinker, detailVersions } from './store-links.js';
import { buildRefData } from './build-ref-data.js';
import { readSiteInputs } from './read-site-inputs.js';
import { MARKER, PROJECT_ROOT, startSiteFolder, writeSiteSources, checkReplaceable } from './site-folder.js';

/** @import { SiteWriter } from './site-folder.js' */
/** @import { SiteInputs } from './read-site-inputs.js' */
/** @import { SliceSummary } from './compute-site.js' */
/** @typedef {{readMs: number, computeMs: number, writeMs: number}} Timings */
/** @typedef {Awaited<ReturnType<typeof import('../store/index.js').listPartitions>>[number]} StoreSlice */

/**
 * @typedef {object} BuildOptions
 * @property {string} store results store directory (runs/, verdicts/)
 * @property {string} out output folder for the site (replaced whole)
 * @property {string} [baselines] baselines folder (<host-class>/<product>/<line>/<suite>.yml); default <project>/baselines
 * @property {string|null} [issues] issue list file, as `tagbench issues --out FILE` writes it
 * @property {string|null} [noiseSummary] noise summary file, as `tagbench triage --out FILE` writes it
 * @property {string|null} [deletedTags] deleted-tags file, as `tagbench watch --deleted-tags-out FILE` writes it
 * @property {string} [configRoot] folder holding configs/ (display names, base versions) and bench/
 *   (calibration reports); default the project
 * @property {string} [title] site title
 * @property {string|null} [siteUrl] absolute URL the site is published at, for the feed's links
 * @property {string|null} [recordsUrl] base URL of the results branch's files: run records and
 *   comparisons are linked there instead of copied into the site (store-links.js); null = copies
 * @property {number|null} [detailReleases] per-second series and "where the instructions went"
 *   files for the newest this many releases of each (host class, product, suite) and the lines'
 *   base releases; null = every release (default)
 * @property {string|null} [charts] github-action-benchmark's chart folder (its `dev/bench` on the
 *   bench-charts branch: index.html + data.js), copied to benchmarks/ and linked from the menu
 * @property {Date} [now] build time (tests pin it)
 * @property {(msg: string) => void} [progress] progress lines (stderr in the CLI)
 */

/**
 * @typedef {object} BuildResult
 * @property {string} outDir absolute path of the built site
 * @property {number} files files written
 * @property {{runs: number, comparisons: number, tables: number}} counts
 * @property {Timings} timings summed over the store's slices
 */

/**
 * Build the static site: read what the slices share, build each slice, then the site-wide files.
 * @param {BuildOptions} opts
 * @returns {Promise<BuildResult>}
 * @throws {UserError} on unreadable input or when `out` exists and is not a tagbench site
 */
export async function buildSite(opts) {
  const { store, title = 'tagbench results', recordsUrl = null, detailReleases = null, progress = () => {} } = opts;
  const outDir = resolve(opts.out);
  await checkReplaceable(outDir);
  checkDetailReleases(detailReleases);
  const t0 = performance.now();
  const configRoot = opts.configRoot ?? PROJECT_ROOT;
  const inputs = await readSiteInputs({ store, configRoot, baselines: opts.baselines ?? join(PROJECT_ROOT, 'baselines'),
    issues: opts.issues ?? null, noiseSummary: opts.noiseSummary ?? null, deletedTags: opts.deletedTags ?? null });
  if (inputs.partitions.length === 0) {
    progress(`site: no run records in the results store ${store}; building an empty site (run \`tagbench run\` first)`);
  }
  const linker = storeLinker(recordsUrl);
  const writer = await startSiteFolder(outDir, linker);
  try {
    const charts = await writeSiteSources(writer, title, opts.charts ?? null);
    const timings = { readMs: 0, computeMs: 0, writeMs: 0 };
    /** @type {{slice: StoreSlice, summary: SliceSummary}[]} */
    const built = [];
    for (const [i, slice] of inputs.partitions.entries()) {
      const summary = await buildSlice(store, slice, inputs, { detailReleases, linked: Boolean(linker) }, writer, timings);
      built.push({ slice, summary });
      progress(`site: ${i + 1}/${inputs.partitions.length} ${slice.hostClass}/${slice.product}/${slice.suite}: ${summary.counts.runs} run records, ${summary.counts.comparisons} comparisons`);
    }
    await writeHostsCrossAndViews(writer, inputs, built);
    await writeRefRuns(store, inputs.products, Boolean(linker), writer.write);
    const failedLegs = openFailedLegs(summarizeLegAttempts(await readLegAttempts(store)), legsBenchmarked(built.map((b) => b.summary)));
    const generatedAt = (opts.now ?? new Date()).toISOString();
    const last = finishSite({ issues: inputs.issues, title, generatedAt, siteUrl: opts.siteUrl ?? null, recordsUrl, failedLegs }, built.map((b) => b.summary), inputs.tools);
    await writer.write([...jsonAndText(last), [MARKER, `built by tagbench site ${inputs.tools.tagbench}; this folder is replaced whole by the next build\n`]]);
    await swapIn(writer.root, outDir);
    const files = writer.files() + charts;
    progress(`site: wrote ${files} files to ${outDir} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { outDir, files, counts: siteCounts(built.map((b) => b.summary)), timings };
  } catch (err) {
    await rm(writer.root, { recursive: true, force: true });
    throw err;
  }
}

/**
 * @param {number|null} detailReleases
 * @throws {UserError} unless null or a whole number of at least 1
 */
function checkDetailReleases(detailReleases) {
  if (detailReleases !== null && !(Number.isInteger(detailReleases) && detailReleases >= 1)) {
    throw new UserError(`--detail-releases ${detailReleases}: expected a whole number of at least 1`);
  }
}

/**
 * One slice: read its runs and comparisons (writing their downloads and per-second series as
 * they are read), compute its files, write them.
 * @param {string} store
 * @param {StoreSlice} slice
 * @param {SiteInputs} inputs
 * @param {{detailReleases: number|null, linked: boolean}} detail --detail-releases, and
 *   whether downloads link to the results branch (no copies)
 * @param {SiteWriter} writer
 * @param {Timings} timings added to
 * @returns {Promise<SliceSummary>}
 */
async function buildSlice(store, slice, inputs, detail, writer, timings) {
  const { products } = inputs;
  const withDetail = detailVersions(slice.versions, detail.detailReleases, Object.values(products[slice.product]?.baseVersions ?? {}));
  const { records, seriesPaths } = await readSliceRecords(store, slice, { withDetail, linked: detail.linked }, writer, timings);
  const r0 = performance.now();
  const verdicts = await readSliceVerdicts(store, slice, { linked: detail.linked, calibrations: inputs.storedCalibrations.get(slice.hostClass) ?? [] }, writer);
  const c0 = performance.now();
  const { files, summary } = computeSlice({
    records, ...verdicts, baselines: inputs.baselines, issues: inputs.issues, products,
    calibration: inputs.calibrations.get(slice.hostClass) ?? null, detailVersions: withDetail, deletedTags: inputs.deletedTags,
  }, seriesPaths, { slice, reference: inputs.references[slice.hostClass] ?? null, thresholds: inputs.thresholds });
  const w0 = performance.now();
  await writer.write(jsonAndText(files));
  timings.readMs += c0 - r0;
  timings.computeMs += w0 - c0;
  timings.writeMs += performance.now() - w0;
  return summary;
}

/**
 * A slice's run records, a release at a time: write their downloads and per-second series,
 * keep the records without their samples (see build-series.js).
 * @param {string} store
 * @param {StoreSlice} slice
 * @param {{withDetail: Set<string>, linked: boolean}} detail releases whose samples the site shows;
 *   whether downloads link to the results branch
 * @param {SiteWriter} writer
 * @param {Timings} timings added to
 * @returns {Promise<{records: import('./types.js').RunRecord[], seriesPaths: Set<string>}>}
 */
async function readSliceRecords(store, slice, { withDetail, linked }, writer, timings) {
  /** @type {import('./types.js').RunRecord[]} */
  const records = [];
  /** @type {Set<string>} */
  const seriesPaths = new Set();
  for (const version of slice.versions) {
    const r0 = performance.now();
    // Samples only where the site shows them (the rest of the build works from summaries).
    const full = await readRecords(store, { hostClass: slice.hostClass, product: slice.product, suite: slice.suite, version, samples: withDetail.has(version) || !linked });
    const w0 = performance.now();
    /** @type {[string, string][]} */
    const writes = [];
    for (const record of full) {
      const own = recordFiles(record);
      // The copy is self-contained: its samples inline, no samples file to look for.
      if (!linked) writes.push([own.download, JSON.stringify({ ...record, samples: undefined })]);
      if (withDetail.has(version)) for (const [path, data] of own.series) {
        writes.push([path, JSON.stringify(data)]);
        seriesPaths.add(path);
      }
      records.push(slimRecord(record));
    }
    await writer.write(writes);
    timings.readMs += w0 - r0;
    timings.writeMs += performance.now() - w0;
  }
  return { records, seriesPaths };
}

/**
 * A slice's comparisons (their downloads written unless linked), change points and bisects.
 * The pages show a few fields of each verdict; the compare stage's evidence stays in the
 * download. Suspects need the evidence (intervals' scale, noise, thresholds): found here, before.
 * @param {string} store
 * @param {StoreSlice} slice
 * @param {{linked: boolean, calibrations: import('../types.js').Calibration[]}} options linked:
 *   downloads point at the results branch (no copies); calibrations: the host class's stored
 *   ones, for each comparison's "how sure" sentence
 * @param {SiteWriter} writer
 * @returns {Promise<Pick<import('./types.js').SiteInput, 'comparisons'|'changePoints'|'bisects'>>}
 */
async function readSliceVerdicts(store, slice, { linked, calibrations }, writer) {
  const filter = { hostClass: slice.hostClass, product: slice.product, suite: slice.suite };
  /** @type {import('./types.js').StoredComparison[]} */
  const full = (await readComparisons(store, filter)).map(({ id, ...comparison }) => ({ id, comparison }));
  if (!linked) await writer.write(full.map((c) => [comparisonDownload(c), JSON.stringify(c.comparison)]));
  const comparisons = full.map((c) => ({
    id: c.id, suspects: findSuspects(/** @type {any} */ (c.comparison)),
    // Worded from the full verdicts (their issue-level detectable changes and designs), once for
    // the release page and home, as the reports word it.
    howSure: describeHowSure(c.comparison, calibrations),
    comparison: { ...c.comparison, tests: c.comparison.tests.map(slimVerdict) },
  }));
  return { comparisons, changePoints: await readChangePoints(store, filter), bisects: await readBisectReports(store, filter) };
}

/**
 * The host pages (each reference's suites, calibration and false alarms), the cross pages and
 * the views' index, from the slices' summaries.
 * @param {SiteWriter} writer
 * @param {SiteInputs} inputs
 * @param {{slice: StoreSlice, summary: SliceSummary}[]} built
 * @returns {Promise<void>}
 */
async function writeHostsCrossAndViews(writer, { references, calibrations, storedCalibrations, noise }, built) {
  const hosts = Object.entries(references).map(([host, reference]) => buildHostData(host, reference,
    built.flatMap((b) => (b.slice.hostClass === host && b.summary.hostSuite ? [b.summary.hostSuite] : [])),
    { calibration: calibrations.get(host) ?? null, falseAlarms: hostFalseAlarms(noise, host), calibrations: storedCalibrations.get(host) ?? [] }));
  const cross = buildCrossFiles(built.map((b) => b.summary.cross));
  const summaries = built.map((b) => b.summary);
  await writer.write([
    ...hosts.map((d) => /** @type {[string, string]} */ ([dataPaths.host(d.host), JSON.stringify(d)])),
    [dataPaths.hosts(), JSON.stringify(buildHostIndex(hosts, noiseOverview(noise)))],
    ...cross.files.map(([path, data]) => /** @type {[string, string]} */ ([path, JSON.stringify(data)])),
    [dataPaths.crossIndex(), JSON.stringify(cross.index)],
    [viewPaths.index(), JSON.stringify(buildViewsIndex(summaries.flatMap((s) => s.views), summaries.flatMap((s) => s.entries)))],
  ]);
}

/**
 * What the slices ended of failed legs, joined for the store's openFailedLegs.
 * @param {SliceSummary[]} summaries
 * @returns {import('../store/index.js').LegsBenchmarked}
 */
function legsBenchmarked(summaries) {
  /** @type {import('../store/index.js').LegsBenchmarked} */
  const legs = { compared: new Set(), lastFinishedAt: new Map() };
  for (const { legs: ended } of summaries) {
    for (const leg of ended.compared) legs.compared.add(leg);
    for (const [leg, at] of ended.finished) if ((legs.lastFinishedAt.get(leg) ?? '') < at) legs.lastFinishedAt.set(leg, at);
  }
  return legs;
}

/**
 * @param {SliceSummary[]} summaries
 * @returns {BuildResult['counts']}
 */
function siteCounts(summaries) {
  const counts = { runs: 0, comparisons: 0, tables: 0 };
  for (const s of summaries) {
    counts.runs += s.counts.runs;
    counts.comparisons += s.counts.comparisons;
    counts.tables += s.entries.length;
  }
  return counts;
}

/**
 * The ad-hoc ref runs (refs/ of the store): their list, a page of data per ref run and, unless
 * the downloads link to the results branch, copies of their records and comparisons. Apart from
 * the slices above: a ref run is never a release of a line, a table or a series.
 * @param {string} store
 * @param {import('./types.js').SiteInput['products']} products
 * @param {boolean} linked downloads point at the results branch (--records-url): no copies
 * @param {(writes: [string, string][]) => Promise<void>} write
 * @returns {Promise<void>}
 * @throws {UserError} an unreadable ref run record or comparison
 */
async function writeRefRuns(store, products, linked, write) {
  const records = await readRecords(store, { refs: true, samples: false });
  const comparisons = (await readComparisons(store, { refs: true })).map(({ id, ...comparison }) => ({ id, comparison }));
  const fileKey = (/** @type {{hostClass: string, product: string, suite: string}} */ k, /** @type {string} */ version, /** @type {string} */ id) => ({ host: k.hostClass, product: k.product, suite: k.suite, version, id });
  const download = {
    record: (/** @type {import('./types.js').RunRecord} */ r) => dataPaths.refRecord(fileKey({ hostClass: r.host.class, product: r.release.product, suite: r.config.suite }, r.release.version, r.id)),
    comparison: (/** @type {{id: string, comparison: import('../types.js').Comparison}} */ c) => dataPaths.refComparison(fileKey(c.comparison, c.comparison.candidate.version, c.id)),
  };
  const { index, pages } = buildRefData({ records, comparisons, products, download });
  /** @type {[string, string][]} */
  const writes = [[dataPaths.refs(), JSON.stringify(index)], ...pages.map(([p, d]) => /** @type {[string, string]} */ ([p, JSON.stringify(d)]))];
  if (!linked) {
    // Copies carry their samples inline like the releases' (readRecords puts them back).
    for (const r of await readRecords(store, { refs: true })) writes.push([download.record(r), JSON.stringify({ ...r, samples: undefined })]);
    for (const c of comparisons) writes.push([download.comparison(c), JSON.stringify(c.comparison)]);
  }
  return write(writes);
}


/**
 * @param {{json: Map<string, unknown>, text: Map<string, string>}} files
 * @returns {[string, string][]} site path -> text; JSON compact (it is for programs; the
 *   store keeps the indented originals)
 */
function jsonAndText(files) {
  return [...[...files.json].map(([p, d]) => /** @type {[string, string]} */ ([p, JSON.stringify(d)])), ...files.text];
}

/**
 * Replace outDir by the freshly built tmp folder: rename the old one away, rename the new one
 * in, then delete the old one, so readers see either the old or the new site.
 * @param {string} tmp the folder built (SiteWriter.root)
 * @param {string} outDir absolute path of the site's folder
 * @returns {Promise<void>}
 */
async function swapIn(tmp, outDir) {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await stat(outDir).then(() => true, () => false);
  await mkdir(dirname(outDir), { recursive: true });
  if (hadOld) await rename(outDir, old);
  await rename(tmp, outDir);
  if (hadOld) await rm(old, { recursive: true, force: true });
}

