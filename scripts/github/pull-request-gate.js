/**
 * The gate in front of a pull request's benchmark (issue 34): the code of a stranger runs only
 * after a person other than the one who asked has approved this workflow run, for the environment
 * `tagbench-pull-requests`, naming the very commit that will be built; and that environment must
 * really hold the run until then. GitHub creates an environment a job names on first use, with no
 * protection rule at all, so an environment that is missing, has no required reviewer, lets
 * administrators bypass its rules or lets another branch deploy to it is refused here instead of
 * being trusted (fail closed). Each check returns the problems it found (empty = pass), so the
 * caller lists them all at once; an answer GitHub refuses is a problem too, never a pass.
 */
import { describeGitHubError } from './github-client.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
/** @typedef {{owner: string, repo: string}} RepoName */

/**
 * The shortest prefix of the commit an approval's comment may name it by: run-name shows 12 hex
 * digits, and 12 (48 bits) are far from any accidental or crafted collision within one pull request.
 */
export const APPROVAL_SHA_PREFIX = 12;

/**
 * What an environment's settings allow (GET /repos/{owner}/{repo}/environments/{name} and, when
 * it limits branches by name, its deployment branch policies). Pure.
 * @param {any} environment the API's answer (protection_rules, can_admins_bypass, deployment_branch_policy)
 * @param {{name?: string, type?: string}[]|null} branchPolicies the custom branch policies, null when not custom
 * @param {string} defaultBranch the service repository's default branch, the only one that may deploy
 * @returns {string[]} one sentence per setting that lets a run through without a person, with the setting to change
 */
export function validateEnvironment(environment, branchPolicies, defaultBranch) {
  const name = String(environment?.name ?? '?');
  const where = `Settings → Environments → ${name}`;
  /** @type {string[]} */
  const problems = [];
  const rules = Array.isArray(environment?.protection_rules) ? environment.protection_rules : [];
  const reviewers = rules.find((/** @type {any} */ r) => r?.type === 'required_reviewers');
  if (!reviewers || !Array.isArray(reviewers.reviewers) || reviewers.reviewers.length === 0) {
    problems.push(`environment ${name} has no required reviewers, so a run would start without anyone's approval (${where} → "Required reviewers": add the people who approve pull-request runs; private repositories need GitHub Enterprise for this rule)`);
  } else if (reviewers.prevent_self_review !== true) {
    problems.push(`environment ${name} lets the person who started a run approve it (${where} → "Prevent self-review": turn it on)`);
  }
  // GitHub's answer carries can_admins_bypass; an answer without it cannot show that they may not.
  if (environment?.can_admins_bypass !== false) {
    problems.push(`environment ${name} ${environment?.can_admins_bypass === true ? 'lets administrators bypass its protection rules' : 'does not say whether administrators may bypass its rules (no can_admins_bypass in GitHub\'s answer)'} (${where} → "Allow administrators to bypass configured protection rules": turn it off)`);
  }
  const policy = environment?.deployment_branch_policy;
  const names = (branchPolicies ?? []).map((p) => `${p.type ?? 'branch'} ${p.name}`);
  if (!policy || policy.custom_branch_policies !== true || names.length !== 1 || names[0] !== `branch ${defaultBranch}`) {
    const now = !policy ? 'every branch' : policy.protected_branches ? 'every protected branch' : names.join(', ') || 'no branch listed';
    problems.push(`environment ${name} may be used from ${now}, not only from the default branch ${defaultBranch} (${where} → "Deployment branches and tags": "Selected branches and tags" with the one rule ${defaultBranch})`);
  }
  return problems;
}

/**
 * Read an environment of the service repository and check it (validateEnvironment).
 * @param {GitHubClient} octokit a token with actions: read on the repository
 * @param {RepoName} repo
 * @param {string} name
 * @param {string} defaultBranch
 * @returns {Promise<string[]>} problems; an environment GitHub does not show is one
 */
export async function fetchEnvironmentProblems(octokit, repo, name, defaultBranch) {
  let environment;
  try {
    ({ data: environment } = await octokit.request('GET /repos/{owner}/{repo}/environments/{environment_name}', { ...repo, environment_name: name }));
  } catch (err) {
    const status = /** @type {{status?: number}} */ (err).status;
    if (status === 404) return [`environment ${name} does not exist in ${repo.owner}/${repo.repo}; GitHub would create it with no protection at the first run: create it first with required reviewers (docs/github-service.md, "Trust model")`];
    return [`environment ${name} of ${repo.owner}/${repo.repo} could not be read: ${describeGitHubError(err).message} (the token needs actions: read)`];
  }
  let policies = null;
  if (environment?.deployment_branch_policy?.custom_branch_policies === true) {
    try {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies', { ...repo, environment_name: name, per_page: 100 });
      policies = data.branch_policies ?? [];
    } catch (err) {
      return [`the deployment branch policies of environment ${name} could not be read: ${describeGitHubError(err).message}`];
    }
  }
  return validateEnvironment(environment, policies, defaultBranch);
}

/**
 * @typedef {object} ApprovalExpectation
 * @property {string} environment the environment the approval must be for
 * @property {string} commit the full SHA the run builds
 * @property {string[]} notApprovers logins that may not approve: whoever asked for the run (the
 *   label's or comment's author) and the dispatch's actor
 */

/**
 * Whether this run's reviews approve it. Pure. Every review must be an approval (one rejection
 * refuses), and at least one approval must be for the environment, by someone allowed, with a
 * comment naming the commit (its first APPROVAL_SHA_PREFIX hex digits or more): a reviewer who
 * read another commit names that one and is refused.
 * @param {any[]} approvals GET /repos/{owner}/{repo}/actions/runs/{run_id}/approvals
 * @param {ApprovalExpectation} expect
 * @returns {string[]} problems (empty: approved)
 */
export function validateApprovals(approvals, expect) {
  const commit = expect.commit.toLowerCase();
  const refused = new Set(expect.notApprovers.filter(Boolean).map((l) => l.toLowerCase()));
  const forEnv = (approvals ?? []).filter((a) => (a?.environments ?? []).some((/** @type {any} */ e) => e?.name === expect.environment));
  const rejected = forEnv.find((a) => a.state === 'rejected');
  if (rejected) return [`${rejected.user?.login ?? 'a reviewer'} rejected this run for ${expect.environment}`];
  const approved = forEnv.filter((a) => a.state === 'approved');
  if (approved.length === 0) return [`nobody approved this run for environment ${expect.environment}: it must not run unapproved`];
  /** @type {string[]} */
  const why = [];
  for (const a of approved) {
    const login = String(a.user?.login ?? '');
    const named = [...String(a.comment ?? '').toLowerCase().matchAll(/\b[0-9a-f]{7,40}\b/g)].map((m) => m[0]);
    if (refused.has(login.toLowerCase())) why.push(`${login} approved the run they asked for themselves; another person must`);
    else if (!named.some((n) => n.length >= APPROVAL_SHA_PREFIX && commit.startsWith(n))) {
      why.push(named.length > 0
        ? `${login} approved commit ${named.join(', ')}, not ${commit}: the approval is for the commit the reviewer read`
        : `${login}'s approval names no commit; the comment must name ${commit.slice(0, APPROVAL_SHA_PREFIX)} (the commit in the run's name), so the approval is for that commit only`);
    } else return [];
  }
  return why;
}

/**
 * Read this run's reviews and check them (validateApprovals).
 * @param {GitHubClient} octokit a token with actions: read on the service repository
 * @param {RepoName} repo the service repository
 * @param {number} runId
 * @param {ApprovalExpectation} expect
 * @returns {Promise<string[]>} problems; a refused read is one
 */
export async function fetchApprovalProblems(octokit, repo, runId, expect) {
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/approvals', { ...repo, run_id: runId });
    return validateApprovals(data, expect);
  } catch (err) {
    return [`the approvals of run ${runId} could not be read: ${describeGitHubError(err).message} (the job needs actions: read)`];
  }
}

/**
 * The code repositories whose pull requests may be benchmarked here, as a list of owner/name
 * (the repository variable TAGBENCH_PR_CODE_REPOS). Fail closed: an empty list allows none.
 * Pure.
 * @param {string} codeRepo owner/name of the pull request's repository, from the request
 * @param {string} allowList owner/name entries separated by commas or white space
 * @returns {string[]} problems (empty = allowed)
 */
export function checkCodeRepository(codeRepo, allowList) {
  const allowed = String(allowList ?? '').split(/[\s,]+/).filter(Boolean).map((r) => r.toLowerCase());
  if (allowed.length === 0) return ['no code repository is allowed: set the repository variable TAGBENCH_PR_CODE_REPOS to the owner/name of each code repository whose pull requests may be benchmarked'];
  // GitHub's owner and repository names are case-insensitive.
  if (!allowed.includes(codeRepo.toLowerCase())) return [`code repository '${codeRepo}' is not in TAGBENCH_PR_CODE_REPOS (${allowed.join(', ')}): its pull requests are not benchmarked here`];
  return [];
}

/**
 * The pull request as GitHub reports it now: where its head is fetched from, its base branch,
 * and why it may not be built (closed, moved on, or not a pull request of that repository).
 * The clone URL is the repository GitHub reports as the pull request's base, which keeps the
 * head as pull/N/head (a fork's own URL may be gone or renamed): never a URL from the request's
 * payload, which the code repository's workflow wrote.
 * @param {GitHubClient} octokit
 * @param {RepoName} codeRepo
 * @param {number} pull
 * @param {string} commit the full SHA the run is for
 * @returns {Promise<{problems: string[], cloneUrl: string|null, baseRef: string|null}>} cloneUrl and baseRef null when unread
 */
export async function readPullRequestSource(octokit, codeRepo, pull, commit) {
  const name = `${codeRepo.owner}/${codeRepo.repo}`;
  let data;
  try {
    ({ data } = await octokit.rest.pulls.get({ ...codeRepo, pull_number: pull }));
  } catch (err) {
    return { problems: [`pull request #${pull} of ${name} could not be read: ${describeGitHubError(err).message}`], cloneUrl: null, baseRef: null };
  }
  const base = data.base?.repo;
  if (typeof base?.full_name !== 'string' || base.full_name.toLowerCase() !== name.toLowerCase() || typeof base.clone_url !== 'string' || base.clone_url === '') {
    return { problems: [`pull request #${pull} of ${name}: GitHub reports it in '${base?.full_name ?? 'no repository'}', not ${name}: nothing to fetch`], cloneUrl: null, baseRef: null };
  }
  const problems = [];
  if (data.state !== 'open') problems.push(`pull request #${pull} is ${data.state}: nothing to benchmark`);
  else if (String(data.head?.sha).toLowerCase() !== commit.toLowerCase()) problems.push(`superseded: pull request #${pull} has moved on to ${data.head?.sha}; this run was for ${commit}, and the new head needs its own approval`);
  return { problems, cloneUrl: base.clone_url, baseRef: String(data.base?.ref ?? '') };
}

/**
 * Whether the pull request still has the commit as its head and is fetched from where the plan
 * said: a newer push supersedes this run (the approval was for the older commit; the newer one
 * waits for its own). Read again right before the build, closing the window between the plan,
 * the approval and the fetch.
 * @param {GitHubClient} octokit
 * @param {RepoName} codeRepo
 * @param {number} pull
 * @param {string} commit
 * @param {string} [cloneUrl] the plan's clone URL (GitHub's report when the run was planned): the same now, or refused
 * @returns {Promise<string[]>} problems: superseded, closed, elsewhere, or unreadable
 */
export async function fetchHeadProblems(octokit, codeRepo, pull, commit, cloneUrl) {
  const now = await readPullRequestSource(octokit, codeRepo, pull, commit);
  if (now.cloneUrl !== null && cloneUrl !== undefined && now.cloneUrl !== cloneUrl) {
    return [...now.problems, `pull request #${pull} is now fetched from ${now.cloneUrl}, not ${cloneUrl} as planned`];
  }
  return now.problems;
}
