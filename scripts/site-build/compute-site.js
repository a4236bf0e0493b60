/**
 * Turn the site's input into its generated data files, in two steps so a large store never
 * has to sit in memory whole: computeSlice() per (host class, product, suite) slice of the
 * store groups its runs once and makes every slice page's files from that grouping, plus each
 * site page's small part; finishSite() makes the site pages (manifest, regressions, feed,
 * hosts, cross, views' index, ref runs) from the parts of all slices. Which pages there are is
 * page-kinds.js's list; this file knows no builder. Pure (no fs).
 */
import { groupTables } from './group-tables.js';
import { SLICE_PAGES, SITE_PAGES } from './page-kinds.js';

/** @import { SiteInput } from './types.js' */
/** @import { ComputedSlice, SiteContext, SiteFile } from './page-kinds.js' */

/**
 * @typedef {object} SiteFiles
 * @property {Map<string, unknown>} json site path -> data written as JSON
 * @property {Map<string, string>} text site path -> text (CSV, Atom)
 */

/**
 * @typedef {object} SliceSummary what the build keeps of a slice for the site pages (small)
 * @property {{runs: number, comparisons: number, tables: number}} counts for the build's progress and result
 * @property {Record<string, unknown>} parts each site page's part of the slice, by the page's name
 */

/**
 * @typedef {object} SliceContext what a slice needs of the site beyond its own runs
 * @property {{hostClass: string, product: string, suite: string}} slice which slice it is
 * @property {{product: string, version: string}|null} reference its host class's reference release (configs/)
 * @property {import('../compare/index.js').CompareThresholds|null} thresholds what the reference's drift is judged by
 */

/**
 * Every file of one slice (tables, test histories, release pages, "where the instructions
 * went", CSV, change points, views) and its summary, all from one grouping of its runs. The
 * per-record files (downloads and per-second series) and the comparisons' downloads are the
 * reader's to write as it reads the store (read-slice.js), so that the records and comparisons
 * given here can be slimmed of their samples and evidence.
 * @param {SiteInput} input one slice of the store
 * @param {Set<string>} seriesPaths site paths of the per-second series already written
 * @param {SliceContext} context
 * @returns {{files: SiteFiles, summary: SliceSummary}}
 */
export function computeSlice(input, seriesPaths, context) {
  /** @type {ComputedSlice} */
  const computed = { input, groups: groupTables(input), seriesPaths, ...context };
  return {
    files: siteFiles(SLICE_PAGES.flatMap((page) => page.files(computed))),
    summary: {
      counts: { runs: input.records.length, comparisons: input.comparisons.length, tables: computed.groups.length },
      parts: Object.fromEntries(SITE_PAGES.map((page) => [page.name, page.gather(computed)])),
    },
  };
}

/**
 * The site pages' files from the parts every slice gathered.
 * @param {SiteContext} site
 * @param {SliceSummary[]} summaries every slice's, in build order
 * @returns {SiteFiles}
 */
export function finishSite(site, summaries) {
  return siteFiles(SITE_PAGES.flatMap((page) => page.files(summaries.map((s) => s.parts[page.name]), site)));
}

/**
 * @param {SiteFile[]} list
 * @returns {SiteFiles} a string under a path that is not .json is text; the rest JSON
 */
function siteFiles(list) {
  /** @type {SiteFiles} */
  const files = { json: new Map(), text: new Map() };
  for (const [path, data] of list) {
    if (typeof data === 'string' && !path.endsWith('.json')) files.text.set(path, data);
    else files.json.set(path, data);
  }
  return files;
}
