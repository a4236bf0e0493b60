/**
 * Turn the site's input into every generated file: JSON data under data/, CSVs and the feed.
 * Pure (no fs): the builder writes what this returns.
 */
import { groupTables } from './group-tables.js';
import { buildTableData } from './build-table-data.js';
import { buildReleaseData } from './build-release-data.js';
import { buildManifest, buildRegressions } from './build-manifest.js';
import { renderCsv } from './render-csv.js';
import { renderFeed } from './render-feed.js';
import { dataPaths } from '../../site/js/paths.js';

/** @import { SiteInput, RunRecord, StoredComparison } from './types.js' */

/**
 * @typedef {object} SiteFiles
 * @property {Map<string, unknown>} json site path -> data written as JSON
 * @property {Map<string, string>} text site path -> text (CSV, Atom)
 * @property {Map<string, RunRecord>} records site path -> run record offered as a download
 * @property {Map<string, StoredComparison>} comparisons site path -> comparison offered as a download
 */

/**
 * @param {SiteInput} input
 * @param {Record<string, string>} tools versions for the footer
 * @returns {SiteFiles}
 */
export function computeSite(input, tools) {
  /** @type {SiteFiles} */
  const out = { json: new Map(), text: new Map(), records: new Map(), comparisons: new Map() };
  const groups = groupTables(input);
  const tables = [];
  for (const group of groups) {
    const { table, files } = buildTableData(group);
    out.json.set(dataPaths.table(group.key), table);
    for (const [path, data] of files) out.json.set(path, data);
    for (const rel of group.releases) {
      const { path, data } = buildReleaseData(group, rel);
      out.json.set(path, data);
    }
    out.text.set(table.csv, renderCsv(table));
    tables.push({ group, data: table });
  }
  for (const r of input.records) {
    out.records.set(dataPaths.runRecord({ host: r.host.class, product: r.release.product, version: r.release.version, suite: r.config.suite, id: r.id }), r);
  }
  for (const s of input.comparisons) {
    const c = s.comparison;
    out.comparisons.set(dataPaths.comparison({ host: c.hostClass, product: c.product, version: c.candidate.version, suite: c.suite, id: s.id }), s);
  }
  out.json.set(dataPaths.manifest(), buildManifest(input, tables, tools));
  out.json.set(dataPaths.regressions(), buildRegressions(input, groups));
  out.text.set(dataPaths.feed(), renderFeed({ comparisons: input.comparisons, title: input.title, siteUrl: input.siteUrl, generatedAt: input.generatedAt }));
  return out;
}
