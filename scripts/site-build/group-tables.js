/**
 * Group run records and comparisons into the site's tables: one per product line × host class
 * × suite, each with its releases in version order, the newest comparison per release, the
 * series' change points, and the default base release for ratios.
 */
import { compareVersions } from '../version-order.js';
import { tableId } from '../../site/js/paths.js';
import { splitSuperseded } from '../compare/index.js';

/** @import { RunRecord, StoredComparison, Baseline, SiteInput, ChangePoints } from './types.js' */
/** @typedef {import('../../site/js/paths.js').TableKey} TableKey */

/**
 * @typedef {object} ReleaseGroup
 * @property {string} version
 * @property {RunRecord[]} records oldest run first: the runs its numbers come from
 * @property {RunRecord[]} superseded runs of a commit the release's tag no longer points at
 *   (compare's splitSuperseded): listed on the release page, never in its numbers
 * @property {StoredComparison|null} comparison newest comparison whose candidate is this release
 */

/**
 * @typedef {object} TableGroup
 * @property {string} id tableId(key)
 * @property {TableKey} key
 * @property {string} productName
 * @property {ReleaseGroup[]} releases version order, oldest first
 * @property {string|null} defaultBase
 * @property {'baseline'|'config'|'oldest'} defaultBaseSource
 * @property {Baseline|null} baseline the accepted baseline of this table, when one is stored
 * @property {ChangePoints|null} changePoints the stored change points of this series, if any
 * @property {{name: string, group: string, metric: string}[]} tests reported tests in suite order
 */

/**
 * @param {SiteInput} input
 * @returns {TableGroup[]} sorted by product, line (version order), host, suite
 */
export function groupTables(input) {
  /** @type {Map<string, {key: TableKey, byVersion: Map<string, ReleaseGroup>}>} */
  const tables = new Map();
  /** @param {TableKey} key */
  const tableFor = (key) => {
    const id = tableId(key);
    let t = tables.get(id);
    if (!t) tables.set(id, (t = { key, byVersion: new Map() }));
    return t;
  };
  for (const record of input.records) {
    const key = { product: record.release.product, line: record.release.line, host: record.host.class, suite: record.config.suite };
    const t = tableFor(key);
    let rel = t.byVersion.get(record.release.version);
    if (!rel) t.byVersion.set(record.release.version, (rel = { version: record.release.version, records: [], superseded: [], comparison: null }));
    rel.records.push(record);
  }
  for (const stored of input.comparisons) {
    const c = stored.comparison;
    const t = tables.get(tableId({ product: c.product, line: c.line, host: c.hostClass, suite: c.suite }));
    const rel = t?.byVersion.get(c.candidate.version);
    // A comparison for a release with no stored record can't be shown next to numbers; it
    // still reaches the downloads and the feed.
    if (!rel) continue;
    if (!rel.comparison || rel.comparison.comparison.createdAt < c.createdAt) rel.comparison = stored;
  }
  /** @type {TableGroup[]} */
  const out = [];
  for (const [id, t] of tables) {
    const releases = [...t.byVersion.values()].sort((a, b) => compareVersions(a.version, b.version));
    for (const r of releases) {
      r.records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
      Object.assign(r, splitSuperseded(r.records));
    }
    const versions = new Set(releases.map((r) => r.version));
    const baseline = findBaseline(input.baselines, t.key);
    const configured = input.products[t.key.product]?.baseVersions?.[t.key.line];
    /** @type {TableGroup['defaultBaseSource']} */
    let defaultBaseSource = 'oldest';
    let defaultBase = releases[0]?.version ?? null;
    if (baseline && versions.has(baseline.version)) {
      defaultBase = baseline.version;
      defaultBaseSource = 'baseline';
    } else if (configured && versions.has(configured)) {
      defaultBase = configured;
      defaultBaseSource = 'config';
    }
    out.push({
      id,
      key: t.key,
      productName: input.products[t.key.product]?.displayName ?? t.key.product,
      releases,
      defaultBase,
      defaultBaseSource,
      baseline,
      changePoints: (input.changePoints ?? []).find((c) => tableId({ product: c.product, line: c.line, host: c.hostClass, suite: c.suite }) === id) ?? null,
      tests: collectTests(releases),
    });
  }
  return out.sort((a, b) =>
    a.key.product.localeCompare(b.key.product) || compareVersions(a.key.line, b.key.line) ||
    a.key.host.localeCompare(b.key.host) || a.key.suite.localeCompare(b.key.suite));
}

/**
 * The accepted baseline of a table: the one promoted for its host class, product, line and
 * suite (there is at most one: it is the file baselines/<host>/<product>/<line>/<suite>.yml).
 * @param {Baseline[]} baselines
 * @param {TableKey} key
 * @returns {Baseline|null}
 */
function findBaseline(baselines, key) {
  return baselines.find((b) => b.hostClass === key.host && b.product === key.product && b.line === key.line && b.suite === key.suite) ?? null;
}

/**
 * Reported tests in suite order. Releases may run different test lists (an `only:` suite, a
 * test added later): merge them, keeping each list's order, newest release's order first.
 * @param {ReleaseGroup[]} releases
 * @returns {{name: string, group: string, metric: string}[]}
 */
function collectTests(releases) {
  /** @type {Map<string, {name: string, group: string, metric: string}>} */
  const seen = new Map();
  /** @type {string[]} */
  const order = [];
  for (const rel of [...releases].reverse()) {
    for (const record of rel.records) {
      let prev = -1;
      for (const step of record.steps) {
        if (!step.reported) continue;
        const at = order.indexOf(step.name);
        if (at === -1) {
          order.splice(prev + 1, 0, step.name);
          seen.set(step.name, { name: step.name, group: step.group, metric: step.metric });
          prev += 1;
        } else {
          prev = at;
        }
      }
    }
  }
  return order.map((name) => /** @type {{name: string, group: string, metric: string}} */ (seen.get(name)));
}
