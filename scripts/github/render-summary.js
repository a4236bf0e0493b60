/**
 * The job summary: one comparison table per comparison (every test, not only regressions) and
 * what the report did with issues. Pure: data in, Markdown out.
 */
import { formatDetectable, formatInterval, formatStats } from '../format-number.js';
import { describeOverrides } from './render-issue.js';
import { describeHowSure, describeVerdict, findVerdictPolicy, computeShownRatio, formatShownRatio, isCountedVerdict, renderUntrustedText } from '../compare/index.js';

/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('./types.js').IssueOutcome} IssueOutcome */

/** Marks that let a reader scan a long table; the word is always there too. */
const MARK = Object.freeze({ regression: '🔴', improvement: '🟢', unchanged: '⚪', inconclusive: '🟡', failed: '⚫' });

/**
 * @param {Comparison[]} comparisons
 * @param {IssueOutcome[]} outcomes
 * @param {{dryRun: boolean, adHoc?: import('./types.js').AdHocOverrides|null, storedCalibrations?: Map<string, import('../types.js').Calibration[]>}} mode
 *   storedCalibrations: each host class's stored calibrations, for the "how sure" sentence
 * @returns {string} Markdown
 */
export function renderSummary(comparisons, outcomes, mode) {
  const out = ['## tagbench report', ''];
  if (comparisons.length === 0) out.push('No comparison to report.', '');
  for (const c of comparisons) {
    // Every name here comes from the records, which a pull request's run hands back: inert text.
    out.push(`### ${asText(`${c.product} ${c.candidate.version} vs ${c.base.version} — ${c.hostClass}, suite ${c.suite}`)}`, '');
    // How sure first: every count below is read by it.
    out.push(`**How sure:** ${describeHowSure(c, mode.storedCalibrations?.get(c.hostClass) ?? [])}`, '');
    out.push(`${Object.entries(c.summary).map(([k, v]) => `${v} ${k}`).join(' · ')} (comparison of ${c.createdAt})`, '');
    out.push(...VERDICT_TABLE_HEAD);
    for (const t of /** @type {import('./types.js').ReportedVerdict[]} */ (c.tests)) out.push(renderVerdictRow(t, c.thresholds));
    out.push('');
  }
  out.push('### Issues', '');
  if (outcomes.length === 0) out.push('No confirmed regression: no issue opened or updated.');
  for (const o of outcomes) {
    const where = o.url ? `[#${o.number}](${o.url})` : o.file ? `\`${o.file}\`` : '';
    out.push(`- ${o.action}: ${o.title} ${where}${o.detail ? ` — ${o.detail}` : ''}`);
  }
  if (mode.adHoc) out.push('', `Ad-hoc run (${describeOverrides(mode.adHoc)}): the official issue of the release is never touched by a run with overrides.`);
  if (outcomes.some((o) => o.action === 'failed')) out.push('', 'Some GitHub requests failed (see above). The results are published regardless; rerun `tagbench report` to finish the issues: it never duplicates them.');
  if (mode.dryRun && !outcomes.some((o) => o.action === 'summary-only')) out.push('', 'Dry run: no GitHub token or repository, so issue bodies were written to files instead.');
  out.push('');
  return out.join('\n');
}

/**
 * Text from a record as inert Markdown (compare/markdown-text.js), escaped rather than spanned.
 * @param {string} text
 * @returns {string}
 */
function asText(text) {
  return renderUntrustedText(text, { span: false });
}

/** The head of the verdict table (job summary, check run, pull-request comment). */
export const VERDICT_TABLE_HEAD = Object.freeze(['| test | metric | verdict | ratio | CI | smallest detectable | baseline | candidate |', '|---|---|---|---:|---:|---:|---:|---:|']);

/**
 * One verdict as a row of the verdict table: its mark and word, for a regression whether a
 * rerun confirmed it and whether its policy lets it open an issue, then its numbers.
 * @param {import('./types.js').ReportedVerdict} t
 * @param {Comparison['thresholds']} thresholds the comparison's (the policy of older verdicts)
 * @returns {string}
 */
export function renderVerdictRow(t, thresholds) {
  const level = t.level ? `, ${t.level}` : '';
  const policy = findVerdictPolicy(t, thresholds);
  const confirmed = t.verdict === 'regression' ? (t.confirmed ? ` (confirmed${level})` : ` (not confirmed${level})`) + (policy === 'open' ? '' : ` (policy: ${policy}, no issue)`) : '';
  // A pull request's run names its tests (its records are data it hands back): a name must not
  // become a link, a mention, HTML or a second row of the table. Escaped rather than a code span,
  // so that a plain name reads as before.
  return `| ${asText(t.test)} | ${asText(t.metric)} | ${MARK[t.verdict] ?? ''} ${describeVerdict(t)}${confirmed} | ${formatShownRatio(computeShownRatio({ verdict: t, counted: isCountedVerdict(t) }))} | ${formatInterval(t.ci)} | ${formatDetectable(t, t.mde)} | ${formatStats(t.base, { count: true })} | ${formatStats(t.candidate, { count: true })} |`;
}
