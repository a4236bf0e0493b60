/**
 * The manifest (what tables exist, their newest release and its verdict summary: all the home
 * page needs) and the regressions list (regression verdicts plus the issues about them). Pure.
 */
import { dataPaths } from '../../site/js/paths.js';
import { SCHEMA_VERSION } from './build-table-data.js';

/** @import { SiteInput, TableData, IssueRef } from './types.js' */
/** @import { TableGroup } from './group-tables.js' */

/**
 * @param {IssueRef} issue
 * @param {{product: string, line: string, host: string, suite: string}} key
 */
function issueFits(issue, key) {
  return issue.product === key.product && issue.line === key.line && issue.hostClass === key.host && issue.suite === key.suite;
}

/**
 * @param {SiteInput} input
 * @param {{group: TableGroup, data: TableData}[]} tables
 * @param {Record<string, string>} tools versions shown in the footer (tagbench, echarts)
 * @returns {unknown} data/manifest.json
 */
export function buildManifest(input, tables, tools) {
  return {
    schemaVersion: SCHEMA_VERSION,
    title: input.title,
    generatedAt: input.generatedAt,
    tools,
    counts: {
      runs: input.records.length,
      comparisons: input.comparisons.length,
      tables: tables.length,
      releases: tables.reduce((n, t) => n + t.data.releases.length, 0),
    },
    tables: tables.map(({ group, data }) => {
      const latest = data.releases.at(-1);
      return {
        product: data.product, productName: data.productName, line: data.line, host: data.host, suite: data.suite,
        releaseCount: data.releases.length,
        defaultBase: data.defaultBase,
        latest: latest ? {
          version: latest.version,
          date: latest.date,
          runs: latest.runs.length,
          comparison: latest.comparison ? { baseVersion: latest.comparison.baseVersion, summary: latest.comparison.summary, createdAt: latest.comparison.createdAt } : null,
        } : null,
        openIssues: input.issues.filter((i) => i.state === 'open' && issueFits(i, group.key))
          .map((i) => ({ number: i.number, url: i.url, title: i.title, version: i.version })),
        files: { table: dataPaths.table(group.key), csv: data.csv },
      };
    }),
    files: { regressions: dataPaths.regressions(), feed: dataPaths.feed() },
  };
}

/**
 * Every regression: each regression verdict of each release's newest comparison, joined with
 * the issue filed about it (same product line, release, host class, suite), plus the issues
 * that match no stored verdict (e.g. filed from another store).
 * @param {SiteInput} input
 * @param {TableGroup[]} groups
 * @returns {unknown} data/regressions.json
 */
export function buildRegressions(input, groups) {
  const used = new Set();
  const rows = [];
  for (const g of groups) {
    for (const rel of g.releases) {
      const c = rel.comparison?.comparison;
      if (!c) continue;
      const issues = input.issues.filter((i) => issueFits(i, g.key) && i.version === rel.version);
      for (const i of issues) used.add(i);
      for (const v of c.tests.filter((t) => t.verdict === 'regression')) {
        const issue = issues.find((i) => i.title.includes(v.test)) ?? issues[0] ?? null;
        rows.push({
          product: g.key.product, productName: g.productName, line: g.key.line, host: g.key.host, suite: g.key.suite,
          version: rel.version, baseVersion: c.base.version, createdAt: c.createdAt,
          test: v.test, group: v.group, metric: v.metric, ratio: v.ratio, ci: v.ci, mde: v.mde,
          confirmed: v.confirmed ?? false, reason: v.reason,
          state: issue ? issue.state : 'no issue',
          issue: issue ? { number: issue.number, url: issue.url, title: issue.title, state: issue.state } : null,
        });
      }
    }
  }
  rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    schemaVersion: SCHEMA_VERSION,
    regressions: rows,
    otherIssues: input.issues.filter((i) => !used.has(i)),
  };
}
