/**
 * Read one slice of the store for the site: its run records a release at a time and its
 * comparisons, change points and bisects. What is copied as it is read (a record's download and
 * per-second series, a comparison's download) is written here, so that what the slice is
 * computed from can be slimmed of samples and evidence and a large store never sits in memory.
 */
import { readRecords, readComparisons, readChangePoints, readBisectReports } from '../store/index.js';
import { describeHowSure, computeRunDesigns, findSuspects } from '../compare/index.js';
import { slimVerdict } from './build-release-data.js';
import { buildSeries, slimRecord } from './build-series.js';
import { detailVersions } from './store-links.js';
import { dataPaths } from '../../site/js/paths.js';

/** @import { SiteWriter } from './site-folder.js' */
/** @import { SiteInputs } from './read-site-inputs.js' */
/** @import { SiteInput, RunRecord, StoredComparison } from './types.js' */
/** @typedef {SiteInputs['partitions'][number]} StoreSlice */

/**
 * A slice as computeSlice takes it, its downloads and per-second series written as read.
 * @param {string} store results store directory
 * @param {StoreSlice} slice
 * @param {SiteInputs} inputs what the site read beside the slices
 * @param {{detailReleases: number|null, linked: boolean}} detail --detail-releases, and whether
 *   downloads link to the results branch (no copies)
 * @param {SiteWriter} writer
 * @returns {Promise<{input: SiteInput, seriesPaths: Set<string>}>}
 * @throws {UserError} an unreadable record or comparison
 */
export async function readSlice(store, slice, inputs, detail, writer) {
  const { products } = inputs;
  const withDetail = detailVersions(slice.versions, detail.detailReleases, Object.values(products[slice.product]?.baseVersions ?? {}));
  const { records, seriesPaths } = await readSliceRecords(store, slice, { withDetail, linked: detail.linked }, writer);
  const verdicts = await readSliceVerdicts(store, slice, { linked: detail.linked, calibrations: inputs.storedCalibrations.get(slice.hostClass) ?? [] }, writer);
  return {
    input: {
      records, ...verdicts, baselines: inputs.baselines, issues: inputs.issues, products,
      calibration: inputs.calibrations.get(slice.hostClass) ?? null, detailVersions: withDetail, deletedTags: inputs.deletedTags,
    },
    seriesPaths,
  };
}

/**
 * A slice's run records, a release at a time: write their downloads and per-second series,
 * keep the records without their samples (see build-series.js).
 * @param {string} store
 * @param {StoreSlice} slice
 * @param {{withDetail: Set<string>, linked: boolean}} detail releases whose samples the site shows;
 *   whether downloads link to the results branch
 * @param {SiteWriter} writer
 * @returns {Promise<{records: RunRecord[], seriesPaths: Set<string>}>}
 */
async function readSliceRecords(store, slice, { withDetail, linked }, writer) {
  /** @type {RunRecord[]} */
  const records = [];
  /** @type {Set<string>} */
  const seriesPaths = new Set();
  for (const version of slice.versions) {
    // Samples only where the site shows them (the rest of the build works from summaries).
    const full = await readRecords(store, { hostClass: slice.hostClass, product: slice.product, suite: slice.suite, version, samples: withDetail.has(version) || !linked });
    /** @type {[string, string][]} */
    const writes = [];
    for (const record of full) {
      // The copy is self-contained: its samples inline, no samples file to look for.
      if (!linked) writes.push([recordDownload(record), JSON.stringify({ ...record, samples: undefined })]);
      if (withDetail.has(version)) for (const [path, data] of buildSeries(record)) {
        writes.push([path, JSON.stringify(data)]);
        seriesPaths.add(path);
      }
      records.push(slimRecord(record));
    }
    await writer.write(writes);
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
 * @returns {Promise<Pick<SiteInput, 'comparisons'|'changePoints'|'bisects'>>}
 */
async function readSliceVerdicts(store, slice, { linked, calibrations }, writer) {
  const filter = { hostClass: slice.hostClass, product: slice.product, suite: slice.suite };
  /** @type {StoredComparison[]} */
  const full = (await readComparisons(store, filter)).map(({ id, ...comparison }) => ({ id, comparison }));
  if (!linked) await writer.write(full.map((c) => [comparisonDownload(c), JSON.stringify(c.comparison)]));
  const comparisons = full.map((c) => ({
    id: c.id, suspects: findSuspects(/** @type {any} */ (c.comparison)),
    // Worded from the full verdicts (their issue-level detectable changes and designs), once for
    // the release page and home, as the reports word it.
    howSure: describeHowSure(c.comparison, calibrations),
    // Each meter's design, which the slim verdicts below no longer tell (the host page's citation).
    runDesigns: computeRunDesigns(c.comparison.tests),
    comparison: { ...c.comparison, tests: c.comparison.tests.map(slimVerdict) },
  }));
  return { comparisons, changePoints: await readChangePoints(store, filter), bisects: await readBisectReports(store, filter) };
}

/**
 * @param {RunRecord} record
 * @returns {string} site path of its download copy
 */
function recordDownload(record) {
  return dataPaths.runRecord({ host: record.host.class, product: record.release.product, version: record.release.version, suite: record.config.suite, id: record.id });
}

/**
 * @param {StoredComparison} s
 * @returns {string} site path of its download copy
 */
function comparisonDownload(s) {
  const c = s.comparison;
  return dataPaths.comparison({ host: c.hostClass, product: c.product, version: c.candidate.version, suite: c.suite, id: s.id });
}
