/**
 * Bring GitHub's issues in line with the rendered plans, idempotently: find tagbench's issues
 * by their hidden marker, create the missing labels, then per plan create, update, comment or
 * leave alone; and note recoveries on open issues of earlier releases.
 */
import { parseMarker, parseRecoveryMarker } from './issue-marker.js';
import { renderRecovery } from './render-recovery.js';
import { isAlreadyExists, isUncertainWriteError } from './github-client.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
/** @typedef {import('./types.js').IssuePlan} IssuePlan */
/** @typedef {import('./types.js').ExistingIssue} ExistingIssue */
/** @typedef {import('./types.js').IssueOutcome} IssueOutcome */
/** @typedef {import('../types.js').Comparison} Comparison */

const LABEL_COLORS = Object.freeze({ index: 'b60205', other: 'c5def5' });

/**
 * The login GitHub gives the workflow token (GITHUB_TOKEN) as author of what it writes. That
 * token cannot read GET /user, so it is trusted by default; a personal or app token's own login
 * is added by resolveTrustedLogins.
 */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/**
 * The logins whose markers are trusted: the configured bot logins and the authenticated login
 * when the token may read it (a GitHub App installation token, such as GITHUB_TOKEN, may not:
 * 403, which is expected and not an error).
 * @param {GitHubClient} octokit
 * @param {string[]} configured bot logins (--bot-login / TAGBENCH_BOT_LOGINS)
 * @param {(line: string) => void} log
 * @returns {Promise<Set<string>>} lower-case logins
 */
export async function resolveTrustedLogins(octokit, configured, log) {
  const logins = new Set(configured.map((l) => l.toLowerCase()));
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    if (data?.login) logins.add(data.login.toLowerCase());
  } catch (err) {
    const status = /** @type {{status?: number}} */ (err).status;
    if (status !== 403 && status !== 404 && status !== 401) throw err;
    log(`the token cannot read its own login (HTTP ${status}): trusting markers of ${[...logins].join(', ')}`);
  }
  return logins;
}

/**
 * Every issue carrying the index label, open and closed, with its marker. A marker counts only
 * in an issue opened by a trusted login: anyone may open an issue with a copied marker and the
 * index label, and the report would then rewrite or close it.
 * Listing by label rather than the search API: search is eventually consistent, so an issue
 * created a minute ago may be missing from it and a quick rerun would open a duplicate.
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {string} label
 * @param {ReadonlySet<string>} trustedLogins lower-case logins whose markers count
 * @returns {Promise<ExistingIssue[]>}
 */
export async function fetchTagbenchIssues(octokit, repo, label, trustedLogins) {
  const items = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, labels: label, state: 'all', per_page: 100 });
  return items
    .filter((i) => !i.pull_request)
    .map((i) => {
      const author = i.user?.login ?? null;
      const trusted = author !== null && trustedLogins.has(author.toLowerCase());
      const marker = parseMarker(i.body);
      return {
        number: i.number,
        state: i.state === 'closed' ? 'closed' : 'open',
        title: i.title,
        body: i.body ?? '',
        url: i.html_url,
        author,
        labels: (i.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name ?? '')).filter(Boolean),
        marker: trusted ? marker : null,
        untrustedMarker: !trusted && marker !== null,
      };
    });
}

/**
 * Create the labels the plans use that the repository does not have yet. Parallel matrix legs
 * race for the same labels: GitHub's 422 "already_exists" means another job won, which is
 * what this function wanted, so it is success.
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {string[]} wanted
 * @param {string} indexLabel gets a stronger colour and a description
 * @param {(line: string) => void} [log]
 * @returns {Promise<string[]>} labels created by this call
 */
export async function ensureLabels(octokit, repo, wanted, indexLabel, log = () => {}) {
  const existing = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, { ...repo, per_page: 100 });
  const have = new Set(existing.map((l) => l.name.toLowerCase()));
  const created = [];
  for (const name of [...new Set(wanted)]) {
    if (have.has(name.toLowerCase())) continue;
    const index = name === indexLabel;
    try {
      await octokit.rest.issues.createLabel({
        ...repo,
        name,
        color: index ? LABEL_COLORS.index : LABEL_COLORS.other,
        description: index ? 'Confirmed performance regression found by tagbench (tagbench finds its issues by this label)' : 'tagbench',
      });
      created.push(name);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      log(`label ${name} was created meanwhile by another job: fine`);
    }
    have.add(name.toLowerCase());
  }
  return created;
}

/**
 * @typedef {object} SyncContext
 * @property {GitHubClient} octokit
 * @property {{owner: string, repo: string}} repo
 * @property {string} label the index label
 * @property {ReadonlySet<string>} trustedLogins
 * @property {(line: string) => void} log
 * @property {number} [recheckDelayMs] wait before looking the fingerprint up again after an
 *   uncertain create (GitHub may need a moment to list an issue it just made)
 * @property {number} [createAttempts] create attempts after uncertain failures (default 3)
 */

/**
 * Create an issue at most once, even when GitHub's answer is lost. The retry plugin would
 * repeat a POST that got a 502 although GitHub had already created the issue: a duplicate. So
 * the create is sent without automatic retries, and before each attempt (the first included,
 * for a parallel job or an earlier run that just created it) the fingerprint is looked up again.
 * @param {SyncContext} ctx
 * @param {IssuePlan} plan
 * @returns {Promise<{created: boolean, issue: ExistingIssue}>}
 */
export async function createIssueOnce(ctx, plan) {
  const attempts = ctx.createAttempts ?? 3;
  const fingerprint = plan.marker.fingerprint;
  for (let attempt = 1; ; attempt++) {
    const fresh = await fetchTagbenchIssues(ctx.octokit, ctx.repo, ctx.label, ctx.trustedLogins);
    const found = oldestWithFingerprint(fresh, fingerprint);
    if (found) return { created: false, issue: found };
    try {
      const { data } = await ctx.octokit.rest.issues.create({ ...ctx.repo, title: plan.title, body: plan.body, labels: plan.labels, request: { retries: 0 } });
      return { created: true, issue: { number: data.number, state: 'open', title: plan.title, body: plan.body, url: data.html_url, author: data.user?.login ?? null, labels: plan.labels, marker: plan.marker, untrustedMarker: false } };
    } catch (err) {
      if (!isUncertainWriteError(err) || attempt >= attempts) throw err;
      const status = /** @type {{status?: number}} */ (err).status;
      ctx.log(`creating "${plan.title}" failed with ${status ?? 'a network error'}; GitHub may have created it anyway: looking the fingerprint up again (attempt ${attempt + 1} of ${attempts})`);
      await new Promise((resolve) => setTimeout(resolve, (ctx.recheckDelayMs ?? 2000) * attempt));
    }
  }
}

/**
 * Post a comment at most once, for the same reason as createIssueOnce: a comment POST retried
 * after a lost answer (502) would appear twice. Sent without automatic retries; after an
 * uncertain failure the issue's comments are read back and a comment of a trusted login with
 * exactly this body counts as posted.
 * @param {Pick<SyncContext, 'octokit'|'repo'|'trustedLogins'|'log'|'recheckDelayMs'|'createAttempts'>} ctx
 * @param {number} issueNumber
 * @param {string} body
 * @returns {Promise<{id: number, html_url: string}>} the comment posted (or found posted)
 */
export async function commentOnce(ctx, issueNumber, body) {
  const attempts = ctx.createAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await ctx.octokit.rest.issues.createComment({ ...ctx.repo, issue_number: issueNumber, body, request: { retries: 0 } });
      return { id: data.id, html_url: data.html_url };
    } catch (err) {
      if (!isUncertainWriteError(err) || attempt >= attempts) throw err;
      ctx.log(`commenting on #${issueNumber} failed with ${/** @type {{status?: number}} */ (err).status ?? 'a network error'}; reading the comments back before trying again`);
      await new Promise((resolve) => setTimeout(resolve, (ctx.recheckDelayMs ?? 2000) * attempt));
      const comments = await ctx.octokit.paginate(ctx.octokit.rest.issues.listComments, { ...ctx.repo, issue_number: issueNumber, per_page: 100 });
      const posted = comments.find((c) => c.body === body && c.user?.login && ctx.trustedLogins.has(c.user.login.toLowerCase()));
      if (posted) return { id: posted.id, html_url: posted.html_url };
    }
  }
}

/**
 * @param {ExistingIssue[]} issues
 * @param {string} fingerprint
 * @returns {ExistingIssue|undefined} the oldest: if duplicates exist (made by hand or before
 *   this code), keep using the first
 */
function oldestWithFingerprint(issues, fingerprint) {
  return issues.filter((i) => i.marker?.fingerprint === fingerprint).sort((a, b) => a.number - b.number)[0];
}

/**
 * Create the plan's issue, or update the one with the same fingerprint.
 * Same digest: nothing to do. Different numbers on an open issue: rewrite the body and add a
 * comment (an edit alone notifies nobody). A closed issue is not reopened (someone decided);
 * new numbers are added as a comment.
 * @param {SyncContext} ctx
 * @param {IssuePlan} plan
 * @param {ExistingIssue[]} issues from fetchTagbenchIssues (a created issue is appended)
 * @returns {Promise<IssueOutcome>}
 */
export async function syncIssue(ctx, plan, issues) {
  const { octokit, repo } = ctx;
  const fingerprint = plan.marker.fingerprint;
  let found = oldestWithFingerprint(issues, fingerprint);
  if (!found) {
    const { created, issue } = await createIssueOnce(ctx, plan);
    issues.push(issue);
    if (created) return { action: 'created', fingerprint, title: plan.title, number: issue.number, url: issue.url };
    ctx.log(`issue #${issue.number} with this fingerprint appeared meanwhile: updating it instead of creating another`);
    found = issue;
  }
  const base = { fingerprint, title: plan.title, number: found.number, url: found.url };
  if (found.marker?.digest === plan.marker.digest) {
    return { ...base, action: 'unchanged', detail: 'same regressions and numbers as already reported' };
  }
  if (found.state === 'closed') {
    await commentOnce(ctx, found.number, `${plan.updateNote}\n\nThis issue is closed, so it was not reopened or rewritten; the new numbers are:\n\n${stripMarker(plan.body)}`);
    return { ...base, action: 'commented', detail: 'issue is closed: new numbers added as a comment' };
  }
  // Labels are left alone: people add their own (triage, owners) and a rewrite would drop them.
  await octokit.rest.issues.update({ ...repo, issue_number: found.number, title: plan.title, body: plan.body });
  await commentOnce(ctx, found.number, plan.updateNote);
  found.body = plan.body;
  found.marker = plan.marker;
  return { ...base, action: 'updated', detail: 'new numbers: body rewritten, comment added' };
}

/**
 * Note on each open issue of an earlier release of the same line, host class and suite which
 * of its tests this comparison shows recovered; close it when all did and closing is on.
 * Each recovering release is commented once (recovery marker in the comment).
 * Only official issues (default runs) are considered: an ad-hoc issue's overrides make its
 * numbers incomparable with a default run's. Callers do not call this for ad-hoc runs.
 * @param {SyncContext} ctx
 * @param {Comparison} comparison
 * @param {ExistingIssue[]} issues
 * @param {{runUrl: string|null, siteUrl: string|null, closeOnRecovery: boolean}} options
 * @returns {Promise<IssueOutcome[]>}
 */
export async function syncRecoveries(ctx, comparison, issues, options) {
  const { octokit, repo } = ctx;
  /** @type {IssueOutcome[]} */
  const outcomes = [];
  for (const issue of issues) {
    if (issue.state !== 'open' || !issue.marker || issue.marker.key.adHoc) continue;
    const recovery = renderRecovery(issue.marker, comparison, options);
    if (!recovery) continue;
    const base = { fingerprint: issue.marker.fingerprint, title: issue.title, number: issue.number, url: issue.url };
    const version = comparison.candidate.version;
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: issue.number, per_page: 100 });
    // Only the bot's own recovery comments count: a copied marker must not silence a recovery.
    const ours = comments.filter((c) => c.user?.login && ctx.trustedLogins.has(c.user.login.toLowerCase()));
    if (ours.some((c) => parseRecoveryMarker(c.body) === version)) {
      outcomes.push({ ...base, action: 'recovery-known', detail: `recovery in ${version} already noted` });
      continue;
    }
    await commentOnce(ctx, issue.number, recovery.body);
    if (recovery.complete && options.closeOnRecovery) {
      await octokit.rest.issues.update({ ...repo, issue_number: issue.number, state: 'closed', state_reason: 'completed' });
      issue.state = 'closed';
      outcomes.push({ ...base, action: 'recovery-closed', detail: `every listed test recovered in ${version}: closed` });
    } else {
      outcomes.push({ ...base, action: 'recovery-commented', detail: `${recovery.recovered.length} of ${issue.marker.tests.length} tests recovered in ${version}` });
    }
  }
  return outcomes;
}

/** @param {string} body */
function stripMarker(body) {
  return body.replace(/^<!-- tagbench-issue .*? -->\n/, '');
}
