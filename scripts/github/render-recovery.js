/**
 * Recovery: a later release of the same line, host class and suite no longer shows a regression
 * an open issue lists. Decide which listed tests recovered and render the comment. Pure.
 */
import { renderRecoveryMarker } from './issue-marker.js';
import { formatInterval } from '../format-number.js';
import { testId } from './render-issue.js';
import { compareVersions } from '../version-order.js';
import { computeShownRatio, formatShownRatio, isCountedVerdict } from '../compare/index.js';

/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('./types.js').IssueMarker} IssueMarker */

/** Verdicts that count as "back to normal". Inconclusive and failed prove nothing either way. */
const RECOVERED = new Set(['unchanged', 'improvement']);

/**
 * @typedef {object} Recovery
 * @property {string[]} recovered test ids whose verdict is now unchanged or improvement
 * @property {string[]} pending test ids still regressed, inconclusive, failed or not measured
 * @property {boolean} complete every listed test recovered
 * @property {string} body comment Markdown, starting with the recovery marker
 */

/**
 * @param {IssueMarker} marker the open issue's marker
 * @param {Comparison} comparison a comparison of a later release
 * @param {{runUrl: string|null, siteUrl: string|null}} links
 * @returns {Recovery|null} null when the comparison is not about a later release of the same
 *   line/host class/suite, or when none of the issue's tests recovered
 */
export function renderRecovery(marker, comparison, links) {
  const k = marker.key;
  if (k.product !== comparison.product || k.line !== comparison.line || k.hostClass !== comparison.hostClass || k.suite !== comparison.suite) return null;
  if (compareVersions(comparison.candidate.version, k.version) <= 0) return null;
  const byId = new Map(comparison.tests.map((t) => [testId(t), t]));
  const recovered = marker.tests.filter((id) => RECOVERED.has(byId.get(id)?.verdict ?? ''));
  if (recovered.length === 0) return null;
  const pending = marker.tests.filter((id) => !recovered.includes(id));
  const complete = pending.length === 0;
  const version = comparison.candidate.version;
  const lines = [
    renderRecoveryMarker(version),
    complete
      ? `**Recovered in ${code(`${comparison.product} ${version}`)}**: every test listed here is back within its threshold against ${code(comparison.base.version)} (${comparison.hostClass}, ${comparison.suite}).`
      : `**Partly recovered in ${code(`${comparison.product} ${version}`)}**: ${recovered.length} of ${marker.tests.length} listed tests are back within their threshold against ${code(comparison.base.version)}.`,
    '',
    '| test | verdict in ' + version + ' | ratio | CI |',
    '|---|---|---:|---:|',
  ];
  for (const id of marker.tests) {
    const t = byId.get(id);
    lines.push(`| ${id} | ${t ? t.verdict : 'not measured'} | ${t ? formatShownRatio(computeShownRatio({ verdict: t, counted: isCountedVerdict(t) })) : 'n/a'} | ${formatInterval(t?.ci)} |`);
  }
  lines.push('');
  if (links.runUrl) lines.push(`Run: ${links.runUrl}`);
  if (links.siteUrl) lines.push(`Results: ${links.siteUrl}`);
  return { recovered, pending, complete, body: lines.join('\n').trimEnd() + '\n' };
}

/** @param {string} s */
function code(s) {
  return '`' + s.replace(/`/g, "'") + '`';
}
