/**
 * Post the verdict on a commit: a check run (created once, then updated in place: found again by
 * its name and external id among the commit's check runs), or a commit status when the token may
 * not create check runs; and for a pull request one comment, found again by its hidden marker and
 * edited in place. Also the dry run's account of the requests it would make.
 */
import { UserError } from '../errors.js';
import { describeGitHubError, isRateLimitError, isUncertainWriteError } from './github-client.js';
import { commentOnce } from './sync-issues.js';
import { editComment } from './report-bisects.js';
import { parseVerdictMarker } from './render-verdict.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
/** @typedef {import('./render-verdict.js').RenderedVerdict} RenderedVerdict */

/**
 * @typedef {object} VerdictTarget
 * @property {string} owner
 * @property {string} repo
 * @property {string} sha 40 hex, lower case
 * @property {number|null} pull pull-request number, null for a commit without one
 */

/**
 * @typedef {object} PostContext
 * @property {GitHubClient} octokit
 * @property {ReadonlySet<string>} trustedLogins lower-case logins whose comments may carry our marker
 * @property {(line: string) => void} log
 * @property {number} [recheckDelayMs] wait before looking again after an uncertain create
 * @property {number} [createAttempts] create attempts after uncertain failures (default 3)
 */

/**
 * @typedef {object} PostOutcome
 * @property {'created'|'updated'|'status'|'failed'} check what became of the check run:
 *   status = a commit status was posted instead (the token may not create check runs)
 * @property {number|null} checkRunId
 * @property {string|null} checkUrl the check run's page, or the status's target URL
 * @property {'created'|'updated'|'unchanged'|'failed'|'none'} comment none = not a pull request
 * @property {number|null} commentId
 * @property {string|null} commentUrl
 * @property {string[]} notes one line each for the log and the job summary
 * @property {string[]} failures one sentence per part GitHub refused (the other part was still posted)
 */

/**
 * @param {RenderedVerdict} verdict
 * @param {VerdictTarget} target
 * @param {PostContext} ctx
 * @returns {Promise<PostOutcome>}
 */
export async function postVerdict(verdict, target, ctx) {
  /** @type {PostOutcome} */
  const out = { check: 'failed', checkRunId: null, checkUrl: null, comment: 'none', commentId: null, commentUrl: null, notes: [], failures: [] };
  const repo = { owner: target.owner, repo: target.repo };
  try {
    const run = await syncCheckRun(ctx, repo, target.sha, {
      name: verdict.name, externalId: verdict.externalId,
      fields: { status: 'completed', conclusion: verdict.conclusion, output: verdict.output, ...(verdict.detailsUrl ? { details_url: verdict.detailsUrl } : {}) },
    });
    Object.assign(out, { check: run.action, checkRunId: run.id, checkUrl: run.url });
    out.notes.push(`check run "${verdict.name}" ${run.action} (${verdict.conclusion}): ${run.url}`);
  } catch (err) {
    if (!isChecksRefusal(err)) {
      out.failures.push(explain(err, `the check run "${verdict.name}" on ${target.sha}`, 'checks: write (the workflow\'s GITHUB_TOKEN or a GitHub App)'));
    } else {
      const why = `the token may not create check runs (HTTP 403: ${messageOf(err)}); only a GitHub App's token, such as a workflow's GITHUB_TOKEN with checks: write, can`;
      try {
        await ctx.octokit.rest.repos.createCommitStatus({ ...repo, sha: target.sha, ...verdict.status });
        Object.assign(out, { check: 'status', checkUrl: verdict.status.target_url ?? null });
        out.notes.push(`posted as a commit status "${verdict.status.context}" (${verdict.status.state}) instead of a check run: ${why}`);
      } catch (statusErr) {
        out.failures.push(`${why}; the commit status instead: ${explain(statusErr, `the commit status on ${target.sha}`, 'statuses: write')}`);
      }
    }
  }
  if (target.pull === null) return out;
  const note = out.check === 'status'
    ? '\n> The token given may not create check runs, so this verdict is on the commit as a commit status, not a check run (a GitHub App token or the workflow\'s GITHUB_TOKEN with `checks: write` can create one).\n'
    : '';
  const body = note ? verdict.comment.replace(/\n<sub>/, `${note}\n<sub>`) : verdict.comment;
  try {
    const comment = await syncVerdictComment(ctx, repo, target.pull, verdict.externalId, body);
    Object.assign(out, { comment: comment.action, commentId: comment.id, commentUrl: comment.url });
    out.notes.push(`pull request #${target.pull}: comment ${comment.action}${comment.url ? ` (${comment.url})` : ''}`);
  } catch (err) {
    out.comment = 'failed';
    out.failures.push(explain(err, `the comment on pull request #${target.pull}`, 'pull-requests: write (or issues: write)'));
  }
  return out;
}

/**
 * @typedef {object} CheckRunWrite
 * @property {string} name
 * @property {string} externalId
 * @property {{status: 'in_progress'} | {status: 'completed', conclusion: 'failure'|'neutral'|'success'}} fields
 *   what the check run says, with its output and details URL
 */

/**
 * The check run: the newest of the commit's check runs with this name and external id is
 * updated (the in-progress one a run started with, or an earlier verdict); none, and one is
 * created, at most once even when GitHub's answer is lost (the create is sent without automatic
 * retries and the commit's check runs are looked at again before each attempt, as
 * createIssueOnce does for issues).
 * @param {PostContext} ctx
 * @param {{owner: string, repo: string}} repo
 * @param {string} sha
 * @param {CheckRunWrite & {fields: {output: {title: string, summary: string, text?: string}, details_url?: string}}} check
 * @returns {Promise<{action: 'created'|'updated', id: number, url: string}>}
 */
export async function syncCheckRun(ctx, repo, sha, check) {
  const fields = { name: check.name, external_id: check.externalId, ...check.fields };
  const attempts = ctx.createAttempts ?? 3;
  let created = false;
  for (let attempt = 1; ; attempt++) {
    const found = await findCheckRun(ctx.octokit, repo, sha, check);
    if (found) {
      const { data } = await ctx.octokit.rest.checks.update({ ...repo, check_run_id: found.id, ...fields });
      return { action: created ? 'created' : 'updated', id: data.id, url: data.html_url ?? found.html_url ?? '' };
    }
    try {
      const { data } = await ctx.octokit.rest.checks.create({ ...repo, head_sha: sha, ...fields, request: { retries: 0 } });
      return { action: 'created', id: data.id, url: data.html_url ?? '' };
    } catch (err) {
      if (!isUncertainWriteError(err) || attempt >= attempts) throw err;
      // It may have been created: the next round finds it and writes the same output over it.
      created = true;
      ctx.log(`creating the check run "${check.name}" failed with ${/** @type {{status?: number}} */ (err).status ?? 'a network error'}; GitHub may have created it anyway: looking again (attempt ${attempt + 1} of ${attempts})`);
      await new Promise((resolve) => setTimeout(resolve, (ctx.recheckDelayMs ?? 2000) * attempt));
    }
  }
}

/**
 * The check as the benchmark starts: an in-progress check run (or a pending commit status when
 * the token may not create check runs); no comment, which waits for the verdict.
 * @param {ReturnType<typeof import('./render-verdict.js').renderStartedCheck>} started
 * @param {VerdictTarget} target
 * @param {PostContext} ctx
 * @returns {Promise<{check: 'created'|'updated'|'status', url: string|null}>}
 * @throws {import('../errors.js').UserError} GitHub refused both
 */
export async function postStartedCheck(started, target, ctx) {
  const repo = { owner: target.owner, repo: target.repo };
  try {
    const run = await syncCheckRun(ctx, repo, target.sha, {
      name: started.name, externalId: started.externalId,
      fields: { status: 'in_progress', output: started.output, ...(started.detailsUrl ? { details_url: started.detailsUrl } : {}) },
    });
    return { check: run.action, url: run.url };
  } catch (err) {
    if (!isChecksRefusal(err)) throw new UserError(explain(err, `the check run "${started.name}" on ${target.sha}`, 'checks: write (the workflow\'s GITHUB_TOKEN or a GitHub App)'));
    try {
      await ctx.octokit.rest.repos.createCommitStatus({ ...repo, sha: target.sha, ...started.status });
    } catch (statusErr) {
      throw new UserError(explain(statusErr, `the pending commit status on ${target.sha}`, 'statuses: write'));
    }
    return { check: 'status', url: started.status.target_url ?? null };
  }
}

/**
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {string} sha
 * @param {{name: string, externalId: string}} verdict
 * @returns {Promise<{id: number, html_url: string|null}|null>} the newest check run of the commit
 *   with the verdict's name and external id (filter all: an older run of the same check too)
 */
async function findCheckRun(octokit, repo, sha, verdict) {
  const runs = await octokit.paginate(octokit.rest.checks.listForRef, { ...repo, ref: sha, check_name: verdict.name, filter: 'all', per_page: 100 });
  const ours = runs.filter((r) => r.name === verdict.name && r.external_id === verdict.externalId).sort((a, b) => b.id - a.id);
  return ours[0] ?? null;
}

/**
 * The pull request's verdict comment: the oldest comment of a trusted login whose marker names
 * this check is edited when its body differs; none, and one is posted (commentOnce: never twice).
 * @param {PostContext} ctx
 * @param {{owner: string, repo: string}} repo
 * @param {number} pull
 * @param {string} externalId
 * @param {string} body
 * @returns {Promise<{action: 'created'|'updated'|'unchanged', id: number, url: string}>}
 */
export async function syncVerdictComment(ctx, repo, pull, externalId, body) {
  const comments = await ctx.octokit.paginate(ctx.octokit.rest.issues.listComments, { ...repo, issue_number: pull, per_page: 100 });
  const ours = comments
    .filter((c) => c.user?.login && ctx.trustedLogins.has(c.user.login.toLowerCase()) && parseVerdictMarker(c.body) === externalId)
    .sort((a, b) => a.id - b.id)[0];
  if (!ours) {
    const posted = await commentOnce({ ...ctx, repo }, pull, body);
    return { action: 'created', id: posted.id, url: posted.html_url };
  }
  if (ours.body === body) return { action: 'unchanged', id: ours.id, url: ours.html_url };
  await editComment({ octokit: ctx.octokit, repo }, ours.id, body);
  return { action: 'updated', id: ours.id, url: ours.html_url };
}

/**
 * The requests a post would make, for a dry run: what is sent, and when.
 * @param {RenderedVerdict} verdict
 * @param {VerdictTarget} target
 * @returns {{method: string, path: string, query?: Record<string, string>, body?: unknown, when: string}[]}
 */
export function planVerdictRequests(verdict, target) {
  const repo = `/repos/${target.owner}/${target.repo}`;
  const fields = { name: verdict.name, external_id: verdict.externalId, status: 'completed', conclusion: verdict.conclusion, output: verdict.output, ...(verdict.detailsUrl ? { details_url: verdict.detailsUrl } : {}) };
  return [
    { method: 'GET', path: `${repo}/commits/${target.sha}/check-runs`, query: { check_name: verdict.name, filter: 'all', per_page: '100' }, when: 'always: an earlier post of this check on this commit is updated, not repeated' },
    { method: 'PATCH', path: `${repo}/check-runs/{check_run_id}`, body: fields, when: 'a check run with this name and external_id is on the commit' },
    { method: 'POST', path: `${repo}/check-runs`, body: { ...fields, head_sha: target.sha }, when: 'none is' },
    { method: 'POST', path: `${repo}/statuses/${target.sha}`, body: verdict.status, when: 'GitHub refuses the check run with 403 (a token that is not a GitHub App\'s)' },
    ...(target.pull === null ? [] : [
      { method: 'GET', path: `${repo}/issues/${target.pull}/comments`, query: { per_page: '100' }, when: 'always: the comment carrying this check\'s marker is edited, not repeated' },
      { method: 'PATCH', path: `${repo}/issues/comments/{comment_id}`, body: { body: verdict.comment }, when: 'such a comment exists and its body differs' },
      { method: 'POST', path: `${repo}/issues/${target.pull}/comments`, body: { body: verdict.comment }, when: 'none exists' },
    ]),
  ];
}

/**
 * A 403 that is not a rate limit, on a check-run request: the token is not a GitHub App's (a
 * personal token: "You must authenticate via a GitHub App.") or lacks checks: write.
 * @param {unknown} err
 */
function isChecksRefusal(err) {
  return /** @type {{status?: number}} */ (err).status === 403 && !isRateLimitError(err);
}

/**
 * One sentence for a refused or failed request, with the permission to check when it was one.
 * @param {unknown} err
 * @param {string} what
 * @param {string} permission
 * @returns {string}
 * @throws {unknown} err itself when it is not GitHub's answer (a bug, not a refusal)
 */
function explain(err, what, permission) {
  if (typeof (/** @type {{status?: unknown}} */ (err)).status !== 'number') throw err;
  const info = describeGitHubError(err);
  if (info.kind === 'permission') return `${what}: GitHub refused (HTTP ${info.status}: ${messageOf(err)}); the token needs ${permission} on that repository`;
  return `${what}: ${info.message}`;
}

/** @param {unknown} err */
function messageOf(err) {
  return /** @type {{message?: string}} */ (err).message ?? String(err);
}
