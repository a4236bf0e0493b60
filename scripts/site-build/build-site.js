/**
 * `tagbench site` builder: read the store, compute every data file, and write a complete
 * static site into a fresh folder that then replaces the output folder in one rename, so a
 * failed build never leaves a half-written site (and never touches a folder it didn't make).
 */
import { mkdir, writeFile, readFile, rename, rm, stat, cp, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';
import { loadConfig } from '../config/index.js';
import { readRecords, readComparisons, readChangePoints, readBaselines, readIssueList, listPartitions, readBisectReports, readNoiseSummary, readCalibrationReport, readLegAttempts, summarizeLegAttempts } from '../store/index.js';
import { computePartition, finishSite, recordFiles, comparisonDownload } from './compute-site.js';
import { slimVerdict } from './build-release-data.js';
import { slimRecord } from './build-series.js';
import { renderPages } from './render-pages.js';
import { buildHostSuite, buildHostData, buildHostIndex } from './build-host-data.js';
import { hostCalibration, hostFalseAlarms, noiseOverview } from './build-calibration-data.js';
import { crossSlice, buildCrossFiles } from './build-cross-data.js';
import { buildSliceViews, buildViewsIndex } from './build-views-data.js';
import { viewPaths } from '../../site/js/pages/view-paths.js';
import { resolveThresholds, findSuspects, referenceRecords } from '../compare/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { storeLinker, detailVersions } from './store-links.js';
import { buildRefData } from './build-ref-data.js';

/** Marker file: only a folder holding it may be replaced by a new build. */
const MARKER = '.tagbench-site';
const SITE_SRC = fileURLToPath(new URL('../../site/', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WRITE_CONCURRENCY = 64;

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
 * @property {{readMs: number, computeMs: number, writeMs: number}} timings summed over the store's slices
 */

/**
 * Build the static site.
 * @param {BuildOptions} opts
 * @returns {Promise<BuildResult>}
 * @throws {UserError} on unreadable input or when `out` exists and is not a tagbench site
 */
export async function buildSite(opts) {
  const progress = opts.progress ?? (() => {});
  const outDir = resolve(opts.out);
  await checkReplaceable(outDir);
  const t0 = performance.now();
  const [baselines, issues, { products, references, thresholds }, partitions, noise, deletedTags] = await Promise.all([
    readBaselines(opts.baselines ?? join(PROJECT_ROOT, 'baselines')),
    opts.issues ? readIssueList(opts.issues) : Promise.resolve([]),
    readProductInfo(opts.configRoot ?? PROJECT_ROOT),
    listPartitions(opts.store),
    opts.noiseSummary ? readNoiseSummary(opts.noiseSummary) : Promise.resolve(null),
    opts.deletedTags ? readDeletedTags(opts.deletedTags) : Promise.resolve(null),
  ]);
  const calibrations = new Map(await Promise.all(Object.keys(references).map(async (host) =>
    /** @type {const} */ ([host, hostCalibration(await readCalibrationReport(opts.configRoot ?? PROJECT_ROOT, host))]))));
  /** @type {Map<string, import('./build-host-data.js').HostSuiteData[]>} host class -> its reference's suites */
  const hostSuites = new Map(Object.keys(references).map((host) => [host, []]));
  if (partitions.length === 0) {
    progress(`site: no run records in the results store ${opts.store}; building an empty site (run \`tagbench run\` first)`);
  }
  const require = createRequire(import.meta.url);
  const echartsDir = dirname(require.resolve('echarts/package.json'));
  const tools = {
    tagbench: JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')).version,
    echarts: JSON.parse(await readFile(join(echartsDir, 'package.json'), 'utf8')).version,
  };
  const title = opts.title ?? 'tagbench results';
  const generatedAt = (opts.now ?? new Date()).toISOString();
  const siteUrl = opts.siteUrl ?? null;

  const linker = storeLinker(opts.recordsUrl);
  const detailReleases = opts.detailReleases ?? null;
  if (detailReleases !== null && !(Number.isInteger(detailReleases) && detailReleases >= 1)) {
    throw new UserError(`--detail-releases ${detailReleases}: expected a whole number of at least 1`);
  }
  /**
   * Write files into the site being built; data files get their download links rewritten
   * when the records are linked, not copied.
   * @param {[string, string][]} writes
   */
  const write = (writes) => writeAll(tmp, linker ? writes.map(([p, text]) => /** @type {[string, string]} */ ([p, p.endsWith('.json') ? linker(text) : text])) : writes);
  const tmp = `${outDir}.building-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const timings = { readMs: 0, computeMs: 0, writeMs: 0 };
  let fileCount = 0;
  try {
    // The site's own sources, then the charting library's dist file: vendored so the site
    // works offline and on an intranet with no CDN.
    await cp(join(SITE_SRC, 'css'), join(tmp, 'css'), { recursive: true });
    await cp(join(SITE_SRC, 'js'), join(tmp, 'js'), { recursive: true });
    await mkdir(join(tmp, 'vendor'), { recursive: true });
    // The "common" build has every chart and component the pages use (line, scatter, legend,
    // dataZoom, markPoint/markLine, tooltip, aria) at two thirds of the full build's size.
    await cp(join(echartsDir, 'dist', 'echarts.common.min.js'), join(tmp, 'vendor', 'echarts.common.min.js'));
    await cp(join(echartsDir, 'LICENSE'), join(tmp, 'vendor', 'echarts.LICENSE.txt'));
    const template = await readFile(join(SITE_SRC, 'templates', 'page.html'), 'utf8');
    if (opts.charts) fileCount += await copyCharts(opts.charts, join(tmp, 'benchmarks'));
    fileCount += await write(renderPages(template, title, { charts: Boolean(opts.charts) }));

    /** @type {import('./compute-site.js').PartitionSummary[]} */
    const parts = [];
    /** @type {import('./build-cross-data.js').CrossSlice[]} */
    const crossSlices = [];
    /** @type {import('./build-views-data.js').TableViews[]} loops, timings, reads per operation, matrix cells */
    const views = [];
    /** @type {Set<string>} legs whose release has a comparison: finished legs */
    const compared = new Set();
    /** @type {Map<string, string>} leg -> start of its newest finished (not partial) run */
    const lastFinishedRun = new Map();
    for (const [i, slice] of partitions.entries()) {
      // A release at a time: write its records' downloads and per-second series, keep the
      // records without their samples (see build-series.js).
      /** @type {import('./types.js').RunRecord[]} */
      const records = [];
      /** @type {Set<string>} */
      const seriesPaths = new Set();
      const withDetail = detailVersions(slice.versions, detailReleases, Object.values(products[slice.product]?.baseVersions ?? {}));
      for (const version of slice.versions) {
        const r0 = performance.now();
        // Samples only where the site shows them (the rest of the build works from summaries).
        const full = await readRecords(opts.store, { hostClass: slice.hostClass, product: slice.product, suite: slice.suite, version, samples: withDetail.has(version) || !linker });
        const w0 = performance.now();
        /** @type {[string, string][]} */
        const writes = [];
        for (const record of full) {
          const own = recordFiles(record);
          // The copy is self-contained: its samples inline, no samples file to look for.
          if (!linker) writes.push([own.download, JSON.stringify({ ...record, samples: undefined })]);
          if (withDetail.has(version)) for (const [path, data] of own.series) {
            writes.push([path, JSON.stringify(data)]);
            seriesPaths.add(path);
          }
          records.push(slimRecord(record));
        }
        fileCount += await write(writes);
        timings.readMs += w0 - r0;
        timings.writeMs += performance.now() - w0;
      }
      const r0 = performance.now();
      const sliceFilter = { hostClass: slice.hostClass, product: slice.product, suite: slice.suite };
      /** @type {import('./types.js').StoredComparison[]} */
      const fullComparisons = (await readComparisons(opts.store, sliceFilter)).map(({ id, ...comparison }) => ({ id, comparison }));
      if (!linker) fileCount += await write(fullComparisons.map((c) => [comparisonDownload(c), JSON.stringify(c.comparison)]));
      // The pages show a few fields of each verdict; the compare stage's evidence stays in the
      // download.
      // Suspects need the evidence (intervals' scale, noise, thresholds): found here, before.
      const comparisons = fullComparisons.map((c) => ({
        id: c.id, suspects: findSuspects(/** @type {any} */ (c.comparison)),
        comparison: { ...c.comparison, tests: c.comparison.tests.map(slimVerdict) },
      }));
      fullComparisons.length = 0;
      const changePoints = await readChangePoints(opts.store, sliceFilter);
      const bisects = await readBisectReports(opts.store, sliceFilter);
      const c0 = performance.now();
      // The host class's reference release: its own series, watched for drift (a host change).
      const reference = references[slice.hostClass];
      const referenceRuns = reference?.product === slice.product ? referenceRecords(records, reference) : [];
      if (reference && thresholds && referenceRuns.length > 0) hostSuites.get(slice.hostClass)?.push(buildHostSuite(referenceRuns, thresholds));
      const { files, summary } = computePartition({ records, comparisons, changePoints, bisects, baselines, issues, products, title, generatedAt, siteUrl, calibration: calibrations.get(slice.hostClass) ?? null, detailVersions: withDetail, deletedTags }, seriesPaths);
      crossSlices.push(crossSlice(records, { ...sliceFilter, host: slice.hostClass, productName: products[slice.product]?.displayName ?? slice.product }));
      const w0 = performance.now();
      fileCount += await write(jsonAndText(files));
      const sliceViews = buildSliceViews({ records, comparisons, changePoints, baselines, issues, products, title, generatedAt, siteUrl });
      fileCount += await write(sliceViews.map((v) => /** @type {[string, string]} */ ([viewPaths.table(v), JSON.stringify(v)])));
      views.push(...sliceViews);
      parts.push(summary);
      for (const r of records) {
        const leg = [slice.hostClass, slice.product, r.release.version, slice.suite].join('/');
        if (r.status !== 'partial' && (lastFinishedRun.get(leg) ?? '') < r.startedAt) lastFinishedRun.set(leg, r.startedAt);
      }
      for (const c of comparisons) compared.add([slice.hostClass, slice.product, c.comparison.candidate.version, slice.suite].join('/'));
      timings.readMs += c0 - r0;
      timings.computeMs += w0 - c0;
      timings.writeMs += performance.now() - w0;
      progress(`site: ${i + 1}/${partitions.length} ${slice.hostClass}/${slice.product}/${slice.suite}: ${records.length} run records, ${comparisons.length} comparisons`);
    }
    const hosts = [...hostSuites].map(([host, suites]) => buildHostData(host, references[host], suites,
      { calibration: calibrations.get(host) ?? null, falseAlarms: hostFalseAlarms(noise, host) }));
    fileCount += await write([...hosts.map((d) => /** @type {[string, string]} */ ([dataPaths.host(d.host), JSON.stringify(d)])),
      [dataPaths.hosts(), JSON.stringify(buildHostIndex(hosts, noiseOverview(noise)))]]);
    const cross = buildCrossFiles(crossSlices);
    fileCount += await write([...cross.files.map(([path, data]) => /** @type {[string, string]} */ ([path, JSON.stringify(data)])),
      [dataPaths.crossIndex(), JSON.stringify(cross.index)]]);
    fileCount += await write([[viewPaths.index(), JSON.stringify(buildViewsIndex(views, parts.flatMap((p) => p.entries)))]]);
    fileCount += await writeRefRuns(opts.store, products, Boolean(linker), write);
    // Legs whose bench job failed and that nothing has benchmarked since (watch's back-off
    // list): a leg is done when its release has a comparison, or a run finished after its last
    // failure. The records a failed attempt published before it died (checkpoints) do not end
    // it: watch resumes from them.
    const failedLegs = summarizeLegAttempts(await readLegAttempts(opts.store))
      .filter((a) => { const leg = [a.hostClass, a.product, a.version, a.suite].join('/'); return !compared.has(leg) && !((lastFinishedRun.get(leg) ?? '') > a.lastAt); });
    const last = finishSite({ issues, title, generatedAt, siteUrl, recordsUrl: opts.recordsUrl ?? null, failedLegs }, parts, tools);
    fileCount += await write([...jsonAndText(last),
      [MARKER, `built by tagbench site ${tools.tagbench}; this folder is replaced whole by the next build\n`]]);
    const counts = { runs: 0, comparisons: 0, tables: 0 };
    for (const p of parts) {
      counts.runs += p.counts.runs;
      counts.comparisons += p.counts.comparisons;
      counts.tables += p.entries.length;
    }
    await swapIn(tmp, outDir);
    progress(`site: wrote ${fileCount} files to ${outDir} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { outDir, files: fileCount, counts, timings };
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The ad-hoc ref runs (refs/ of the store): their list, a page of data per ref run and, unless
 * the downloads link to the results branch, copies of their records and comparisons. Apart from
 * the slices above: a ref run is never a release of a line, a table or a series.
 * @param {string} store
 * @param {import('./types.js').SiteInput['products']} products
 * @param {boolean} linked downloads point at the results branch (--records-url): no copies
 * @param {(writes: [string, string][]) => Promise<number>} write
 * @returns {Promise<number>} files written
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
 * Copy github-action-benchmark's charts into the site (they are its own pages, not ours).
 * @param {string} from the action's output folder
 * @param {string} to
 * @returns {Promise<number>} files copied
 * @throws {UserError} when the folder is not the action's output
 */
async function copyCharts(from, to) {
  const index = join(from, 'index.html');
  if (!(await stat(index).then((s) => s.isFile(), () => false))) {
    throw new UserError(`--charts ${from}: no index.html there; give github-action-benchmark's output folder (dev/bench on the bench-charts branch)`);
  }
  await cp(from, to, { recursive: true });
  return (await readdir(to, { recursive: true })).length;
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
 * What the site takes from configs/ when it is built inside a tagbench checkout: product
 * display names and configured base versions per product line, each host class's reference
 * release, and the thresholds the reference's drift is judged by. A store can be published
 * without its configs (a copy of the results branch): then ids are shown as they are, the base
 * defaults to the baseline or the oldest release, and no host page is built.
 * @param {string} root folder holding configs/
 * @returns {Promise<{products: import('./types.js').SiteInput['products'],
 *   references: Record<string, {product: string, version: string}>,
 *   thresholds: import('../compare/index.js').CompareThresholds|null}>}
 * @throws {UserError} when configs/ exists but is invalid
 */
async function readProductInfo(root) {
  const has = await stat(join(root, 'configs', 'products')).then((s) => s.isDirectory(), () => false);
  if (!has) return { products: {}, references: {}, thresholds: null };
  const config = await loadConfig(root);
  /** @type {import('./types.js').SiteInput['products']} */
  const products = {};
  for (const p of Object.values(config.products)) {
    /** @type {Record<string, string>} */
    const baseVersions = {};
    for (const line of p.lines) if (line.baseVersion) baseVersions[line.name] = line.baseVersion;
    products[p.name] = { displayName: p.displayName, baseVersions };
  }
  /** @type {Record<string, {product: string, version: string}>} */
  const references = {};
  for (const h of Object.values(config.hosts)) if (h.reference) references[h.name] = { product: h.reference.product, version: h.reference.version };
  return { products, references, thresholds: resolveThresholds(/** @type {any} */ (config.thresholds)) };
}

/**
 * @param {string} root
 * @param {[string, string][]} writes site path -> content
 * @returns {Promise<number>} files written
 */
async function writeAll(root, writes) {
  const dirs = new Set(writes.map(([p]) => dirname(join(root, p))));
  for (const d of [...dirs].sort()) await mkdir(d, { recursive: true });
  for (let i = 0; i < writes.length; i += WRITE_CONCURRENCY) {
    await Promise.all(writes.slice(i, i + WRITE_CONCURRENCY).map(([p, text]) => writeFile(join(root, p), text)));
  }
  return writes.length;
}
/**
 * Refuse to replace a folder that is not empty and not a site this tool built.
 * @param {string} outDir
 */
async function checkReplaceable(outDir) {
  const st = await stat(outDir).catch(() => null);
  if (!st) return;
  if (!st.isDirectory()) throw new UserError(`--out ${outDir}: exists and is not a folder; pick another output folder`);
  const entries = await readdir(outDir);
  if (entries.length > 0 && !entries.includes(MARKER)) {
    throw new UserError(`--out ${outDir}: folder exists, is not empty and was not built by \`tagbench site\` (no ${MARKER}); ` +
      'the build replaces the whole folder, so pick an empty or new folder');
  }
}

/**
 * Replace outDir by the freshly built tmp folder: rename the old one away, rename the new one
 * in, then delete the old one, so readers see either the old or the new site.
 * @param {string} tmp
 * @param {string} outDir
 */
async function swapIn(tmp, outDir) {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await stat(outDir).then(() => true, () => false);
  await mkdir(dirname(outDir), { recursive: true });
  if (hadOld) await rename(outDir, old);
  await rename(tmp, outDir);
  if (hadOld) await rm(old, { recursive: true, force: true });
}

/**
 * Read the file `tagbench watch --deleted-tags-out` wrote.
 * @param {string} file
 * @returns {Promise<import('./types.js').DeletedTags>}
 * @throws {UserError} naming the file and what is wrong with it
 */
export async function readDeletedTags(file) {
  const fix = 'write it again with tagbench watch --deleted-tags-out FILE';
  let data;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UserError(`--deleted-tags ${file}: ${/** @type {Error} */ (err).message}; ${fix}`);
  }
  if (data?.schemaVersion !== 1) throw new UserError(`--deleted-tags ${file}: schemaVersion is ${JSON.stringify(data?.schemaVersion)}, this tagbench reads 1; ${fix}`);
  if (typeof data.checkedAt !== 'string' || Number.isNaN(Date.parse(data.checkedAt))) throw new UserError(`--deleted-tags ${file}: field 'checkedAt' is ${JSON.stringify(data.checkedAt)}, not a time; ${fix}`);
  if (!Array.isArray(data.deleted)) throw new UserError(`--deleted-tags ${file}: field 'deleted' is ${JSON.stringify(data.deleted)}, not a list; ${fix}`);
  data.deleted.forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    if (typeof d?.product !== 'string' || typeof d?.tag !== 'string') throw new UserError(`--deleted-tags ${file}: field 'deleted.${i}' is ${JSON.stringify(d)}; expected {product, tag, ...}; ${fix}`);
  });
  return { checkedAt: data.checkedAt, deleted: data.deleted.map((/** @type {any} */ d) => ({ product: d.product, tag: d.tag })) };
}
