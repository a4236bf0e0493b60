/**
 * A bisect report as a comment on the bad release's regression issue: which issue it belongs
 * on, the comment's hidden marker (the report's id, so a rerun edits the comment instead of
 * adding another), and whether an existing comment needs writing. Pure.
 */
import { renderBisectReport } from '../compare/index.js';

/** @typedef {import('../store/index.js').BisectReport & {id: string}} StoredBisectReport */
/** @typedef {import('./types.js').ExistingIssue} ExistingIssue */

const PREFIX = '<!-- tagbench-bisect ';
const SUFFIX = ' -->';

/**
 * @param {StoredBisectReport} report
 * @returns {string} comment Markdown, starting with the marker
 */
export function renderBisectComment(report) {
  // The id holds only [A-Za-z0-9-] (store/bisect-report.js), so it cannot end the HTML comment.
  return `${PREFIX}${JSON.stringify({ v: 1, id: report.id })}${SUFFIX}\n${renderBisectReport(report)}`;
}

/**
 * @param {string|null|undefined} body comment body
 * @returns {string|null} the bisect report id named by the comment's marker, if any
 */
export function parseBisectMarker(body) {
  if (!body) return null;
  const start = body.indexOf(PREFIX);
  if (start < 0) return null;
  const end = body.indexOf(SUFFIX, start + PREFIX.length);
  if (end < 0) return null;
  try {
    const m = JSON.parse(body.slice(start + PREFIX.length, end));
    return m && m.v === 1 && typeof m.id === 'string' ? m.id : null;
  } catch {
    return null;
  }
}

/**
 * The official regression issue of the report's bad release (same product, version, host class
 * and suite; trusted marker; not an ad-hoc run's), the oldest if people made duplicates.
 * A labelled bad release (an install on disk) has no issue: it was never compared and reported.
 * @param {StoredBisectReport} report
 * @param {ExistingIssue[]} issues from fetchTagbenchIssues (markers already checked for trust)
 * @returns {ExistingIssue|null}
 */
export function findBisectIssue(report, issues) {
  if (report.bad.label) return null;
  const matches = issues.filter((i) => {
    const k = i.marker?.key;
    return k && !k.adHoc && k.product === report.product && k.version === report.bad.version && k.hostClass === report.hostClass && k.suite === report.suite;
  });
  return matches.sort((a, b) => a.number - b.number)[0] ?? null;
}

/**
 * @typedef {{action: 'create'} | {action: 'update', commentId: number} | {action: 'unchanged', commentId: number}} BisectCommentPlan
 */

/**
 * What to do on an issue: create the comment, edit ours (the rendering changed since it was
 * posted), or leave it. Only comments by trusted logins count: a copied marker in someone
 * else's comment must neither silence nor be edited.
 * @param {{id: number, body?: string|null, user?: {login?: string}|null}[]} comments the issue's comments
 * @param {string} reportId
 * @param {string} body the comment as rendered now
 * @param {ReadonlySet<string>} trustedLogins lower-case
 * @returns {BisectCommentPlan}
 */
export function planBisectComment(comments, reportId, body, trustedLogins) {
  const ours = comments.find((c) => c.user?.login && trustedLogins.has(c.user.login.toLowerCase()) && parseBisectMarker(c.body) === reportId);
  if (!ours) return { action: 'create' };
  return ours.body === body ? { action: 'unchanged', commentId: ours.id } : { action: 'update', commentId: ours.id };
}
