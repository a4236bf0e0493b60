/**
 * What the site reads beside the store's slices, once per build: the baselines, the issue
 * list, configs/ (display names, base versions, host references, thresholds), the host classes'
 * calibration reports, the noise summary, watch's deleted tags, the store's slices (their list:
 * read-slice.js reads each), its leg attempts and ref runs, and the versions of the tools that
 * built the site.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { loadConfig } from '../config/index.js';
import { readBaselines, readIssueList, listPartitions, readNoiseSummary, readCalibrationReport, readCalibrations,
  readLegAttempts, summarizeLegAttempts, readRecords, readComparisons } from '../store/index.js';
import { resolveThresholds } from '../compare/index.js';
import { hostCalibration } from './build-calibration-data.js';
import { ECHARTS_DIR, PROJECT_ROOT } from './site-folder.js';
import { dataPaths } from '../../site/js/paths.js';

/**
 * @typedef {object} SiteSources where the site's inputs are (the `tagbench site` options)
 * @property {string} store results store directory
 * @property {string} baselines baselines folder
 * @property {string} configRoot folder holding configs/ and bench/
 * @property {string|null} issues issue list file, or none
 * @property {string|null} noiseSummary noise summary file, or none
 * @property {string|null} deletedTags deleted-tags file, or none
 * @property {boolean} linked downloads link to the results branch (--records-url): the ref runs'
 *   records are not read whole for copies
 */

/**
 * @typedef {object} SiteInputs what every slice and the site-wide files are built from
 * @property {import('../types.js').Baseline[]} baselines
 * @property {import('../types.js').IssueRef[]} issues
 * @property {import('./types.js').SiteInput['products']} products display names and base versions
 * @property {Record<string, {product: string, version: string}>} references host class -> its reference release
 * @property {import('../compare/index.js').CompareThresholds|null} thresholds what the references' drift is judged by
 * @property {Awaited<ReturnType<typeof listPartitions>>} partitions the store's slices
 * @property {import('../store/index.js').NoiseSummary|null} noise
 * @property {import('./types.js').DeletedTags|null} deletedTags
 * @property {Map<string, ReturnType<typeof hostCalibration>>} calibrations host class (with a reference) -> its calibration
 * @property {Map<string, import('../types.js').Calibration[]>} storedCalibrations host class (of a
 *   slice or a reference) -> its stored calibrations, which the "how sure" sentence chooses from
 * @property {Map<string, {path: string, text: string}>} calibrationReports a stored calibration's
 *   source -> its Markdown report (beside the source in bench/) and where the site keeps a copy
 * @property {{tagbench: string, echarts: string}} tools versions for the footer
 * @property {import('../store/index.js').LegAttempts[]} legAttempts the store's failed-leg
 *   bookkeeping, summarized per leg (store's openFailedLegs keeps those nothing benchmarked since)
 * @property {RefRuns} refs the ad-hoc ref runs (refs/ of the store)
 */

/**
 * @typedef {object} RefRuns
 * @property {import('./types.js').RunRecord[]} records without their samples
 * @property {import('./types.js').StoredComparison[]} comparisons
 * @property {import('./types.js').RunRecord[]} copies the records whole, for their downloads;
 *   none when the downloads link to the results branch
 */

/**
 * Read everything the site needs beside the slices' runs and comparisons.
 * @param {SiteSources} sources
 * @returns {Promise<SiteInputs>}
 * @throws {UserError} on an unreadable or invalid input file
 */
export async function readSiteInputs(sources) {
  const [baselines, issues, { products, references, thresholds }, partitions, noise, deletedTags, tools, legAttempts, refs] = await Promise.all([
    readBaselines(sources.baselines),
    sources.issues ? readIssueList(sources.issues) : Promise.resolve([]),
    readProductInfo(sources.configRoot),
    listPartitions(sources.store),
    sources.noiseSummary ? readNoiseSummary(sources.noiseSummary) : Promise.resolve(null),
    sources.deletedTags ? readDeletedTags(sources.deletedTags) : Promise.resolve(null),
    readToolVersions(),
    readLegAttempts(sources.store).then(summarizeLegAttempts),
    readRefRuns(sources.store, sources.linked),
  ]);
  const calibrations = new Map(await Promise.all(Object.keys(references).map(async (host) =>
    /** @type {const} */ ([host, hostCalibration(await readCalibrationReport(sources.configRoot, host))]))));
  const hosts = [...new Set([...Object.keys(references), ...partitions.map((p) => p.hostClass)])];
  const storedCalibrations = new Map(await Promise.all(hosts.map(async (host) =>
    /** @type {const} */ ([host, await readCalibrations(join(sources.configRoot, 'bench'), host)]))));
  const calibrationReports = await readCalibrationReports(sources.configRoot, [...storedCalibrations.values()].flat());
  return { baselines, issues, products, references, thresholds, partitions, noise, deletedTags, calibrations, storedCalibrations, calibrationReports, tools, legAttempts, refs };
}

/**
 * The Markdown report of each stored calibration, for the host page to link: a calibration's
 * source is its report's JSON in bench/ (`tagbench calibrate --report`), the .md written beside it.
 * @param {string} root folder holding bench/
 * @param {import('../types.js').Calibration[]} calibrations
 * @returns {Promise<Map<string, {path: string, text: string}>>} source -> the report's site path
 *   and text; a source outside bench/, or without a report beside it, is left out (the page names
 *   the source as text)
 * @throws {UserError} a report that exists but cannot be read
 */
async function readCalibrationReports(root, calibrations) {
  const sources = [...new Set(calibrations.map((c) => c.source))].filter((s) => /^bench\/[\w.+-]+\.json$/.test(s));
  /** @type {Map<string, {path: string, text: string}>} */
  const reports = new Map();
  await Promise.all(sources.map(async (source) => {
    const file = join(root, source.replace(/\.json$/, '.md'));
    try {
      reports.set(source, { path: dataPaths.calibrationReport(source), text: await readFile(file, 'utf8') });
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return;
      throw new UserError(`calibration report ${file}: cannot read it (${/** @type {Error} */ (err).message}); it is the Markdown beside ${source}`, { cause: err });
    }
  }));
  return reports;
}

/**
 * @param {string} store
 * @param {boolean} linked no copies of the records are made
 * @returns {Promise<RefRuns>}
 * @throws {UserError} an unreadable ref run record or comparison
 */
async function readRefRuns(store, linked) {
  const [records, comparisons, copies] = await Promise.all([
    readRecords(store, { refs: true, samples: false }),
    readComparisons(store, { refs: true }).then((list) => list.map(({ id, ...comparison }) => ({ id, comparison }))),
    // Copies carry their samples inline like the releases' (readRecords puts them back).
    linked ? Promise.resolve([]) : readRecords(store, { refs: true }),
  ]);
  return { records, comparisons, copies };
}

/** @returns {Promise<{tagbench: string, echarts: string}>} the versions the footer names */
async function readToolVersions() {
  return {
    tagbench: JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')).version,
    echarts: JSON.parse(await readFile(join(ECHARTS_DIR, 'package.json'), 'utf8')).version,
  };
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
