/**
 * The manifest (what tables exist, their newest release and its verdict summary: all the home
 * page needs) and the regressions list (regression verdicts plus the issues about them). Pure.
 */
import { dataPaths } from '../../site/js/paths.js';
import { compareVersions } from '../version-order.js';
import { isCountedVerdict } from '../compare/index.js';
import { SCHEMA_VERSION } from './build-table-data.js';
import { meterOf, slimSuspect } from './build-release-data.js';
import { namedFindings } from './build-findings.js';

/** @import { TableData, IssueRef } from './types.js' */
/** @import { TableGroup } from './group-tables.js' */

/**
 * @param {IssueRef} issue
 * @param {{product: string, line: string, host: string, suite: string}} key
 */
function issueFits(issue, key) {
  return issue.product === key.product && issue.line === key.line && issue.hostClass === key.host && issue.suite === key.suite;
}

/**
 * Count verdict classes (the throughput verdicts of one release, for the home page; the
 * comparison's own summary counts every gated metric).
 * @param {(string|null)[]} verdicts
 * @returns {Record<string, number>}
 */
function countVerdicts(verdicts) {
  /** @type {Record<string, number>} */
  const out = { regression: 0, improvement: 0, unchanged: 0, inconclusive: 0, failed: 0 };
  for (const v of verdicts) if (v) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/**
 * @param {TableGroup} group
 * @param {string} version
 * @returns {import('./build-findings.js').NamedFinding[]}
 */
function findingsOf(group, version) {
  const c = group.releases.find((r) => r.version === version)?.comparison;
  return c ? namedFindings(c.comparison, c.suspects ?? []) : [];
}

/**
 * The manifest's line for one table.
 * @param {TableGroup} group
 * @param {TableData} data
 * @param {IssueRef[]} issues
 */
export function manifestEntry(group, data, issues) {
  const latest = data.releases.at(-1);
  return {
    product: data.product, productName: data.productName, line: data.line, host: data.host, suite: data.suite,
    releaseCount: data.releases.length,
    defaultBase: data.defaultBase,
    latest: latest ? {
      version: latest.version,
      date: latest.date,
      runs: latest.runs.length,
      comparison: latest.comparison ? {
        baseVersion: latest.comparison.baseVersion, summary: latest.comparison.summary, createdAt: latest.comparison.createdAt,
        throughputSummary: countVerdicts(data.tests.map((t) => t.verdicts.at(-1) ?? null)),
        // Named, not only counted: home lists every regression and suspect with a link.
        findings: findingsOf(group, latest.version),
        // How sure, worded once (compare/how-sure.js) as in the reports and on the release page.
        howSure: group.releases.find((r) => r.version === latest.version)?.comparison?.howSure ?? null,
      } : null,
    } : null,
    openIssues: issues.filter((i) => i.state === 'open' && issueFits(i, group.key))
      .map((i) => ({ number: i.number, url: i.url, title: i.title, version: i.version })),
    files: { table: dataPaths.table(group.key), csv: data.csv, changePoints: group.changePoints ? dataPaths.changePoints(group.key) : null },
  };
}

/**
 * @param {{title: string, generatedAt: string, tools: Record<string, string>, counts: Record<string, number>, entries: any[],
 *   failedLegs?: import('../store/index.js').LegAttempts[]}} o failedLegs: benchmark legs that
 *   failed and were not benchmarked since (the home page lists them: watch backs off from them)
 * @returns {unknown} data/manifest.json
 */
export function buildManifest({ title, generatedAt, tools, counts, entries, failedLegs = [] }) {
  const tables = [...entries].sort((a, b) => a.product.localeCompare(b.product) || compareVersions(a.line, b.line) ||
    a.host.localeCompare(b.host) || a.suite.localeCompare(b.suite));
  return {
    schemaVersion: SCHEMA_VERSION,
    title,
    generatedAt,
    tools,
    counts,
    tables,
    failedLegs,
    files: { regressions: dataPaths.regressions(), feed: dataPaths.feed() },
  };
}

/**
 * Regression rows of some tables: each regression verdict of each release's newest
 * comparison, joined with the issue filed about it (same product line, release, host class,
 * suite; the one naming the test when there are several).
 * @param {IssueRef[]} issues
 * @param {TableGroup[]} groups
 * @returns {{rows: any[], suspects: any[], used: Set<IssueRef>}} used: the issues that matched a
 *   release here; suspects: each release's inconclusive verdicts that lean the bad way
 */
export function regressionRows(issues, groups) {
  /** @type {Set<IssueRef>} */
  const used = new Set();
  const rows = [];
  const suspects = [];
  for (const g of groups) {
    for (const rel of g.releases) {
      const c = rel.comparison?.comparison;
      if (!c) continue;
      for (const s of rel.comparison?.suspects ?? []) {
        suspects.push({
          product: g.key.product, productName: g.productName, line: g.key.line, host: g.key.host, suite: g.key.suite,
          version: rel.version, baseVersion: c.base.version, createdAt: c.createdAt, meter: meterOf(s), ...slimSuspect(s),
        });
      }
      const fits = issues.filter((i) => issueFits(i, g.key) && i.version === rel.version);
      for (const i of fits) used.add(i);
      for (const v of c.tests.filter((t) => !t.context && t.verdict === 'regression')) {
        const issue = fits.find((i) => i.title.includes(v.test)) ?? fits[0] ?? null;
        rows.push({
          product: g.key.product, productName: g.productName, line: g.key.line, host: g.key.host, suite: g.key.suite,
          version: rel.version, baseVersion: c.base.version, createdAt: c.createdAt,
          test: v.test, group: v.group, metric: v.metric, meter: meterOf(v), counted: isCountedVerdict(v), higherIsBetter: v.higherIsBetter, ratio: v.ratio, ci: v.ci, mde: v.mde,
          confirmed: v.confirmed ?? false, reason: v.reason,
          state: issue ? issue.state : 'no issue',
          issue: issue ? { number: issue.number, url: issue.url, title: issue.title, state: issue.state } : null,
        });
      }
    }
  }
  return { rows, suspects, used };
}

/**
 * @param {any[]} rows regression rows of every table
 * @param {IssueRef[]} otherIssues issues that match no stored verdict (e.g. filed from another store)
 * @param {any[]} [suspects] suspect rows of every table (regressionRows)
 * @returns {unknown} data/regressions.json
 */
export function buildRegressions(rows, otherIssues, suspects = []) {
  return {
    schemaVersion: SCHEMA_VERSION,
    regressions: [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    suspects: [...suspects].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.badShare - a.badShare),
    otherIssues,
  };
}
