/**
 * Post each stored bisect report as a comment on its bad release's regression issue, once: the
 * comment's marker names the report, so a rerun leaves it alone (or edits it when the rendering
 * changed). Without a token or repository: a dry run that writes the comments to files.
 */
import { join } from 'node:path';
import { replaceFileAtomic } from '../store/index.js';
import { createGitHubClient, describeGitHubError, parseRepo } from './github-client.js';
import { ACTIONS_BOT_LOGIN, commentOnce, fetchTagbenchIssues, resolveTrustedLogins } from './sync-issues.js';
import { findBisectIssue, planBisectComment, renderBisectComment } from './render-bisect-comment.js';

/** @typedef {import('./render-bisect-comment.js').StoredBisectReport} StoredBisectReport */

/**
 * @typedef {object} BisectCommentOutcome
 * @property {'commented'|'edited'|'unchanged'|'no-issue'|'dry-run'|'failed'} action
 *   no-issue: the bad release has no official tagbench issue (never reported, an ad-hoc run's
 *   only, or a labelled install): nothing is posted
 * @property {string} reportId
 * @property {string} title e.g. `mariadb 10.11.18 .. 10.11.22 on local (smoke)`
 * @property {number|null} number issue number
 * @property {string|null} url issue URL
 * @property {string} [file] dry run: the Markdown written
 * @property {string} [detail]
 */

/**
 * @param {StoredBisectReport[]} reports
 * @param {{repo: string|null, token: string|null, apiUrl: string, dryRunDir: string, label: string,
 *   botLogins?: string[], log: (line: string) => void, timing?: {retryAfterBaseMs?: number, recheckDelayMs?: number, throttle?: boolean}}} options
 * @returns {Promise<{outcomes: BisectCommentOutcome[], failures: string[], summary: string}>}
 *   failures: one sentence per GitHub request that failed (the other reports were still posted)
 * @throws {UserError} when the repository name is malformed
 */
export async function reportBisects(reports, options) {
  /** @type {BisectCommentOutcome[]} */
  const outcomes = [];
  /** @type {string[]} */
  const failures = [];
  if (reports.length > 0 && (!options.token || !options.repo)) {
    for (const report of reports) {
      const file = join(options.dryRunDir, `${report.id}.md`);
      await replaceFileAtomic(file, renderBisectComment(report));
      options.log(`dry run: bisect comment ${report.id} written to ${file}`);
      outcomes.push({ action: 'dry-run', reportId: report.id, title: titleOf(report), number: null, url: null, file });
    }
  } else if (reports.length > 0) {
    await postComments(reports, /** @type {{repo: string, token: string} & typeof options} */ (options), outcomes, failures);
  }
  return { outcomes, failures, summary: renderBisectSummary(outcomes) };
}

/**
 * @param {StoredBisectReport[]} reports
 * @param {Parameters<typeof reportBisects>[1] & {repo: string, token: string}} options
 * @param {BisectCommentOutcome[]} outcomes filled in
 * @param {string[]} failures filled in
 */
async function postComments(reports, options, outcomes, failures) {
  const repo = parseRepo(options.repo);
  const timing = options.timing ?? {};
  const octokit = createGitHubClient({ token: options.token, baseUrl: options.apiUrl, log: options.log, retryAfterBaseMs: timing.retryAfterBaseMs, throttle: timing.throttle });
  /** @param {StoredBisectReport|null} report @param {unknown} err @param {string} doing */
  const fail = (report, err, doing) => {
    if (typeof (/** @type {{status?: unknown}} */ (err)).status !== 'number') throw err;
    const message = `${doing}: ${describeGitHubError(err).message}`;
    options.log(message);
    failures.push(message);
    if (report) outcomes.push({ action: 'failed', reportId: report.id, title: titleOf(report), number: null, url: null, detail: message });
  };
  let trustedLogins;
  let issues;
  try {
    trustedLogins = await resolveTrustedLogins(octokit, options.botLogins ?? [ACTIONS_BOT_LOGIN], options.log);
    issues = await fetchTagbenchIssues(octokit, repo, options.label, trustedLogins);
  } catch (err) {
    for (const report of reports) fail(report, err, `reading ${options.repo}'s issues for bisect ${report.id}`);
    return;
  }
  const ctx = { octokit, repo, trustedLogins, log: options.log, recheckDelayMs: timing.recheckDelayMs };
  for (const report of reports) {
    const title = titleOf(report);
    const issue = findBisectIssue(report, issues);
    if (!issue) {
      const detail = report.bad.label
        ? `the bad release ${report.bad.name} is an install on disk, which has no regression issue`
        : `no tagbench issue of ${report.product} ${report.bad.version} on ${report.hostClass} (${report.suite}) in ${options.repo}: nothing posted`;
      options.log(`bisect ${report.id}: ${detail}`);
      outcomes.push({ action: 'no-issue', reportId: report.id, title, number: null, url: null, detail });
      continue;
    }
    try {
      const outcome = await syncBisectComment(ctx, report, issue);
      options.log(`bisect ${report.id}: ${outcome.action} on #${issue.number}`);
      outcomes.push(outcome);
    } catch (err) {
      fail(report, err, `bisect ${report.id} on #${issue.number}`);
    }
  }
}

/**
 * @typedef {object} CommentContext
 * @property {import('./github-client.js').GitHubClient} octokit
 * @property {{owner: string, repo: string}} repo
 * @property {ReadonlySet<string>} trustedLogins lower-case
 * @property {(line: string) => void} log
 * @property {number} [recheckDelayMs]
 */

/**
 * Post the report's comment on the issue, or edit ours when its rendering changed.
 * @param {CommentContext} ctx
 * @param {StoredBisectReport} report
 * @param {{number: number, url: string}} issue
 * @returns {Promise<BisectCommentOutcome>}
 */
export async function syncBisectComment(ctx, report, issue) {
  const where = { reportId: report.id, title: titleOf(report), number: issue.number, url: issue.url };
  const body = renderBisectComment(report);
  const comments = await ctx.octokit.paginate(ctx.octokit.rest.issues.listComments, { ...ctx.repo, issue_number: issue.number, per_page: 100 });
  const plan = planBisectComment(comments, report.id, body, ctx.trustedLogins);
  if (plan.action === 'create') {
    await commentOnce(ctx, issue.number, body);
    return { ...where, action: 'commented', detail: outcomeDetail(report) };
  }
  if (plan.action === 'update') {
    await editComment(ctx, plan.commentId, body);
    return { ...where, action: 'edited', detail: 'the comment of this bisect was rendered anew' };
  }
  return { ...where, action: 'unchanged', detail: 'already posted' };
}

/**
 * Rewrite a comment (an edit is idempotent: GitHub's retries are harmless here).
 * @param {Pick<CommentContext, 'octokit'|'repo'>} ctx
 * @param {number} commentId
 * @param {string} body
 */
export async function editComment(ctx, commentId, body) {
  await ctx.octokit.rest.issues.updateComment({ ...ctx.repo, comment_id: commentId, body });
}

/** @param {StoredBisectReport} report */
function titleOf(report) {
  return `${report.product} ${report.good.name} .. ${report.bad.name} on ${report.hostClass} (${report.suite})`;
}

/** @param {StoredBisectReport} report */
function outcomeDetail(report) {
  const o = report.outcome;
  return o.status === 'found' ? `first bad release ${o.firstBad}` : `${o.status}: one of ${o.suspects.join(', ')}`;
}

/**
 * @param {BisectCommentOutcome[]} outcomes
 * @returns {string} Markdown section for the job summary ('' when there was no bisect)
 */
export function renderBisectSummary(outcomes) {
  if (outcomes.length === 0) return '';
  const lines = ['### Bisects', ''];
  for (const o of outcomes) {
    const where = o.url ? ` [#${o.number}](${o.url})` : o.file ? ` \`${o.file}\`` : '';
    lines.push(`- ${o.action}: bisect ${o.title}${where}${o.detail ? ` — ${o.detail}` : ''}`);
  }
  return `${lines.join('\n')}\n\n`;
}
