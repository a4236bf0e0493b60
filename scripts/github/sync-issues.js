/**
 * Bring GitHub's issues in line with the rendered plans, idempotently: find tagbench's issues
 * by their hidden marker, create the missing labels, then per plan create, update, comment or
 * leave alone; and note recoveries on open issues of earlier releases.
 */
import { parseMarker, parseRecoveryMarker } from './issue-marker.js';
import { renderRecovery } from './render-recovery.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
/** @typedef {import('./types.js').IssuePlan} IssuePlan */
/** @typedef {import('./types.js').ExistingIssue} ExistingIssue */
/** @typedef {import('./types.js').IssueOutcome} IssueOutcome */
/** @typedef {import('../types.js').Comparison} Comparison */

const LABEL_COLORS = Object.freeze({ index: 'b60205', other: 'c5def5' });

/**
 * Every issue carrying the index label, open and closed, with its marker.
 * Listing by label rather than the search API: search is eventually consistent, so an issue
 * created a minute ago may be missing from it and a quick rerun would open a duplicate.
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {string} label
 * @returns {Promise<ExistingIssue[]>}
 */
export async function fetchTagbenchIssues(octokit, repo, label) {
  const items = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, labels: label, state: 'all', per_page: 100 });
  return items
    .filter((i) => !i.pull_request)
    .map((i) => ({
      number: i.number,
      state: i.state === 'closed' ? 'closed' : 'open',
      title: i.title,
      body: i.body ?? '',
      url: i.html_url,
      marker: parseMarker(i.body),
    }));
}

/**
 * Create the labels the plans use that the repository does not have yet.
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {string[]} wanted
 * @param {string} indexLabel gets a stronger colour and a description
 * @returns {Promise<string[]>} labels created
 */
export async function ensureLabels(octokit, repo, wanted, indexLabel) {
  const existing = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, { ...repo, per_page: 100 });
  const have = new Set(existing.map((l) => l.name.toLowerCase()));
  const created = [];
  for (const name of [...new Set(wanted)]) {
    if (have.has(name.toLowerCase())) continue;
    const index = name === indexLabel;
    await octokit.rest.issues.createLabel({
      ...repo,
      name,
      color: index ? LABEL_COLORS.index : LABEL_COLORS.other,
      description: index ? 'Confirmed performance regression found by tagbench (tagbench finds its issues by this label)' : 'tagbench',
    });
    created.push(name);
  }
  return created;
}

/**
 * Create the plan's issue, or update the one with the same fingerprint.
 * Same digest: nothing to do. Different numbers on an open issue: rewrite the body and add a
 * comment (an edit alone notifies nobody). A closed issue is not reopened (someone decided);
 * new numbers are added as a comment.
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {IssuePlan} plan
 * @param {ExistingIssue[]} issues from fetchTagbenchIssues (a created issue is appended)
 * @returns {Promise<IssueOutcome>}
 */
export async function syncIssue(octokit, repo, plan, issues) {
  const fingerprint = plan.marker.fingerprint;
  const matches = issues.filter((i) => i.marker?.fingerprint === fingerprint);
  // Oldest first: if duplicates exist (made by hand or before this code), keep using the first.
  const found = matches.sort((a, b) => a.number - b.number)[0];
  if (!found) {
    const { data } = await octokit.rest.issues.create({ ...repo, title: plan.title, body: plan.body, labels: plan.labels });
    issues.push({ number: data.number, state: 'open', title: plan.title, body: plan.body, url: data.html_url, marker: plan.marker });
    return { action: 'created', fingerprint, title: plan.title, number: data.number, url: data.html_url };
  }
  const base = { fingerprint, title: plan.title, number: found.number, url: found.url };
  if (found.marker?.digest === plan.marker.digest) {
    return { ...base, action: 'unchanged', detail: 'same regressions and numbers as already reported' };
  }
  if (found.state === 'closed') {
    await octokit.rest.issues.createComment({ ...repo, issue_number: found.number, body: `${plan.updateNote}\n\nThis issue is closed, so it was not reopened or rewritten; the new numbers are:\n\n${stripMarker(plan.body)}` });
    return { ...base, action: 'commented', detail: 'issue is closed: new numbers added as a comment' };
  }
  // Labels are left alone: people add their own (triage, owners) and a rewrite would drop them.
  await octokit.rest.issues.update({ ...repo, issue_number: found.number, title: plan.title, body: plan.body });
  await octokit.rest.issues.createComment({ ...repo, issue_number: found.number, body: plan.updateNote });
  found.body = plan.body;
  found.marker = plan.marker;
  return { ...base, action: 'updated', detail: 'new numbers: body rewritten, comment added' };
}

/**
 * Note on each open issue of an earlier release of the same line, host class and suite which
 * of its tests this comparison shows recovered; close it when all did and closing is on.
 * Each recovering release is commented once (recovery marker in the comment).
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {Comparison} comparison
 * @param {ExistingIssue[]} issues
 * @param {{runUrl: string|null, siteUrl: string|null, closeOnRecovery: boolean}} options
 * @returns {Promise<IssueOutcome[]>}
 */
export async function syncRecoveries(octokit, repo, comparison, issues, options) {
  /** @type {IssueOutcome[]} */
  const outcomes = [];
  for (const issue of issues) {
    if (issue.state !== 'open' || !issue.marker) continue;
    const recovery = renderRecovery(issue.marker, comparison, options);
    if (!recovery) continue;
    const base = { fingerprint: issue.marker.fingerprint, title: issue.title, number: issue.number, url: issue.url };
    const version = comparison.candidate.version;
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: issue.number, per_page: 100 });
    if (comments.some((c) => parseRecoveryMarker(c.body) === version)) {
      outcomes.push({ ...base, action: 'recovery-known', detail: `recovery in ${version} already noted` });
      continue;
    }
    await octokit.rest.issues.createComment({ ...repo, issue_number: issue.number, body: recovery.body });
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
