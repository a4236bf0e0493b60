/**
 * How a big store fits GitHub Pages (1 GB): the site of a small store carries copies of its run
 * records and comparisons (`downloads/runs/…`, `downloads/verdicts/…`) and the per-second series
 * of every run; a store of years cannot (10,000 records are gigabytes). With a records URL the
 * download links point at the same files on the results branch instead of copies (the site's
 * download paths mirror the store's layout: store names are already file-safe), and per-second
 * series and "where the instructions went" tables are written for the newest releases of each
 * series only; older runs' samples stay in their samples files, and older function tables in
 * their comparisons, on the results branch.
 */
import { UserError } from '../errors.js';
import { compareVersions } from '../version-order.js';

/**
 * @param {string|null|undefined} recordsUrl base URL of the results branch's files, e.g.
 *   `https://github.com/<owner>/<repo>/blob/bench-data`; null = copy the files into the site
 * @returns {((jsonText: string) => string)|null} rewrites the download links of one site data
 *   file; null when the site carries copies
 * @throws {UserError} when recordsUrl is not an http(s) URL
 */
export function storeLinker(recordsUrl) {
  if (!recordsUrl) return null;
  let url;
  try {
    url = new URL(recordsUrl);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || /["\\\s]/.test(recordsUrl)) {
    throw new UserError(`--records-url ${JSON.stringify(recordsUrl)}: expected an http(s) URL of the results branch's files, e.g. https://github.com/<owner>/<repo>/blob/bench-data`);
  }
  const base = recordsUrl.replace(/\/+$/, '');
  // Whole JSON string values only (the opening quote): a link is a value of its own.
  // The ad-hoc ref runs' files too, under refs/ on the branch as in the site.
  return (text) => text.replace(/"downloads\/((?:refs\/)?(?:runs|verdicts))\//g, `"${base}/$1/`);
}

/**
 * The versions of one (host class, product, suite) slice that get per-second series and function
 * table files.
 * @param {string[]} versions the slice's versions
 * @param {number|null} newest how many of the newest releases (null = all)
 * @param {string[]} keep versions kept whatever their age (the lines' base releases)
 * @returns {Set<string>}
 */
export function detailVersions(versions, newest, keep) {
  if (newest === null) return new Set(versions);
  const sorted = [...versions].sort((a, b) => compareVersions(b, a));
  return new Set([...sorted.slice(0, newest), ...keep.filter((v) => versions.includes(v))]);
}
