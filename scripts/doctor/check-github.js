/**
 * Doctor checks of what GitHub's API can tell about self-hosted runner safety: can a pull request
 * from a fork reach one of this repository's self-hosted runners (where it would run with the
 * host's access and could poison the install cache or the results)? GitHub cannot forbid that
 * per workflow; repository visibility, the fork pull request approval settings and the runner
 * groups' "allow public repositories" decide it. Each check is ok, fail, warn or unknown
 * ("cannot tell": the token may not read that setting), with the setting to change.
 *
 * The checks take an already-built client (anything with Octokit's `request(route, params)`),
 * so the same code runs against GitHub, the OpenAPI stand-in of the tests, or a fake.
 */

/** @typedef {import('./commands.js').CheckResult} CheckResult */

/**
 * @typedef {object} GitHubReader the part of an Octokit client the checks use
 * @property {(route: string, params?: Record<string, unknown>) => Promise<{data: any}>} request
 */

/**
 * @typedef {object} GitHubTarget
 * @property {string} owner
 * @property {string} repo
 * @property {{name: string, labels: string[]}[]} hostClasses configs/hosts: runner labels per host class
 */

/**
 * @typedef {{ok: true, data: any} | {ok: false, why: string}} Answer an API answer, or why
 *   there is none (a status GitHub gave, a rate limit)
 */

const SETTINGS = 'Settings → Actions → General';
const APPROVE_ALL = `${SETTINGS} → "Approval for running fork pull request workflows from contributors" → "Require approval for all external contributors"`;

/**
 * @param {GitHubReader} client
 * @param {string} route
 * @param {Record<string, unknown>} params
 * @returns {Promise<Answer>}
 * @throws {Error} errors that are not HTTP answers (a bug, not a setting)
 */
async function read(client, route, params) {
  try {
    return { ok: true, data: (await client.request(route, params)).data };
  } catch (err) {
    const e = /** @type {{status?: number, message?: string, response?: {headers?: Record<string, string>}}} */ (err);
    if (typeof e.status !== 'number') throw err;
    const headers = e.response?.headers ?? {};
    if ((e.status === 403 || e.status === 429) && (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'])) {
      return { ok: false, why: `${route} was rate limited (HTTP ${e.status}); run doctor again later` };
    }
    const hint = e.status === 401 ? 'the token is not valid'
      : e.status === 403 || e.status === 404 ? 'the token may not read this (GitHub answers 404 for settings it hides)'
        : 'GitHub did not answer';
    return { ok: false, why: `${route} answered HTTP ${e.status} (${hint})` };
  }
}

/**
 * @param {string} id
 * @param {string} title
 * @param {import('./commands.js').CheckStatus} status
 * @param {string} detail
 * @param {string|null} fix
 * @returns {CheckResult}
 */
function result(id, title, status, detail, fix) {
  return { id, title, required: true, status, detail, fix };
}

/**
 * Run every GitHub check for one repository.
 * @param {GitHubReader} client
 * @param {GitHubTarget} target
 * @returns {Promise<CheckResult[]>} repository visibility, fork pull request settings, self-hosted
 *   runners of the repository (and of its organisation), runner groups, one line per labelled host
 *   class, the approval environment of pull-request runs, and the code repositories whose pull
 *   requests plan accepts (TAGBENCH_PR_CODE_REPOS)
 */
export async function checkGitHub(client, { owner, repo, hostClasses }) {
  const repoAnswer = await read(client, 'GET /repos/{owner}/{repo}', { owner, repo });
  if (!repoAnswer.ok) {
    return [result('github-repository', 'repository', 'unknown', `${owner}/${repo}: ${repoAnswer.why}`,
      'check --repo (or GITHUB_REPOSITORY) and give a token that can read the repository in GITHUB_TOKEN')];
  }
  const visibility = repoAnswer.data.visibility ?? (repoAnswer.data.private ? 'private' : 'public');
  const isPublic = visibility === 'public';
  const isOrg = repoAnswer.data.owner?.type === 'Organization';

  /** @type {CheckResult[]} */
  const out = [checkVisibility(`${owner}/${repo}`, visibility)];
  const approval = isPublic
    ? await read(client, 'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval', { owner, repo })
    : await read(client, 'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-workflows-private-repos', { owner, repo });
  out.push(isPublic ? checkPublicApproval(approval) : checkPrivateForkSettings(approval));
  const approvesAll = isPublic && approval.ok && approval.data.approval_policy === 'all_external_contributors';

  const repoRunners = await read(client, 'GET /repos/{owner}/{repo}/actions/runners', { owner, repo, per_page: 100 });
  out.push(checkRepoRunners(repoRunners, isPublic, approvesAll));
  /** @type {Answer|null} */
  let orgRunners = null;
  if (isOrg) {
    orgRunners = await read(client, 'GET /orgs/{org}/actions/runners', { org: owner, per_page: 100 });
    const groups = await read(client, 'GET /orgs/{org}/actions/runner-groups', { org: owner, visible_to_repository: repo, per_page: 100 });
    out.push(...checkRunnerGroups(groups, orgRunners, isPublic, `${owner}/${repo}`));
  } else {
    out.push(result('github-runner-groups', 'runner groups', 'info',
      `${owner} is a user account: runner groups (and their "allow public repositories" switch) exist only for organisations`,
      isPublic ? 'for a public repository, keep the self-hosted runners in an organisation runner group that does not allow public repositories, or make the repository private' : null));
  }
  out.push(...checkHostClasses(hostClasses, repoRunners, orgRunners));
  out.push(await checkPullRequestEnvironment(client, owner, repo, String(repoAnswer.data.default_branch ?? 'main')));
  out.push(...await checkCodeRepositories(client, owner, repo, isOrg));
  return out;
}

/** The variable listing the code repositories whose pull requests plan accepts (pull-request.yml). */
const CODE_REPOS_VARIABLE = 'TAGBENCH_PR_CODE_REPOS';

/**
 * The allow-list of code repositories, as plan reads it (github/pull-request-gate.js
 * checkCodeRepository: owner/name entries separated by commas or white space, unset = none):
 * whether it is set (a repository variable, else an organisation variable shared with the
 * repository), every entry that is not owner/name (plan compares entries as they are, so such an
 * entry never matches), and each listed repository looked up (plan reads its pull requests).
 * @param {GitHubReader} client
 * @param {string} owner
 * @param {string} repo
 * @param {boolean} isOrg an organisation's repository (organisation variables exist)
 * @returns {Promise<CheckResult[]>} the list's check, then one per well-formed entry
 */
async function checkCodeRepositories(client, owner, repo, isOrg) {
  const id = 'github-pr-code-repos';
  const title = `${CODE_REPOS_VARIABLE} (code repositories)`;
  const where = 'Settings → Secrets and variables → Actions → Variables';
  const unreadable = 'give a token that may read the repository\'s Actions variables (fine-grained: Variables read)';
  let answer = await read(client, 'GET /repos/{owner}/{repo}/actions/variables/{name}', { owner, repo, name: CODE_REPOS_VARIABLE });
  let value = answer.ok ? String(answer.data.value ?? '') : null;
  if (!answer.ok && /HTTP 404/.test(answer.why) && isOrg) {
    answer = await read(client, 'GET /repos/{owner}/{repo}/actions/organization-variables', { owner, repo, per_page: 30 });
    /** @type {any[]} */
    const variables = answer.ok ? answer.data.variables ?? [] : [];
    const shared = variables.find((v) => v?.name === CODE_REPOS_VARIABLE);
    value = shared ? String(shared.value ?? '') : null;
    // One page (GitHub's most is 30): past it, "not shared" cannot be told from "on a later page".
    if (answer.ok && !shared && Number(answer.data.total_count) > variables.length) {
      return [result(id, title, 'unknown', `not a repository variable, and ${answer.data.total_count} organisation variables are shared with ${owner}/${repo}: more than one page, so whether it is one of them was not read`, `set ${CODE_REPOS_VARIABLE} as a repository variable (${where})`)];
    }
  }
  if (!answer.ok && !/HTTP 404/.test(answer.why)) return [result(id, title, 'unknown', answer.why, unreadable)];
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) {
    return [result(id, title, 'info', `${CODE_REPOS_VARIABLE} is ${value === null ? 'not set' : 'empty'}: plan refuses the pull requests of every code repository`,
      `to benchmark pull requests, set the variable to the owner/name of each code repository (${where})`)];
  }
  const malformed = entries.filter((e) => !OWNER_NAME.test(e));
  const listed = entries.filter((e) => OWNER_NAME.test(e));
  const checks = [malformed.length > 0
    ? result(id, title, 'warn', `${malformed.map((e) => `'${e}'`).join(', ')} ${malformed.length === 1 ? 'is' : 'are'} not owner/name: plan never matches ${malformed.length === 1 ? 'it' : 'them'}, so ${malformed.length === 1 ? 'its' : 'their'} pull requests are refused`,
      `write each code repository as owner/name, separated by commas or spaces (${where} → ${CODE_REPOS_VARIABLE})`)
    : result(id, title, 'ok', `${listed.length} code repositor${listed.length === 1 ? 'y' : 'ies'}: ${listed.join(', ')}`, null)];
  for (const entry of listed) checks.push(await checkCodeRepository(client, entry));
  return checks;
}

/** An owner/name as GitHub allows them (an owner: letters, digits, hyphens). */
const OWNER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;

/**
 * One code repository of the allow-list, looked up as plan will (its pull requests are read).
 * @param {GitHubReader} client
 * @param {string} entry owner/name
 * @returns {Promise<CheckResult>}
 */
async function checkCodeRepository(client, entry) {
  const [codeOwner, codeRepo] = entry.split('/');
  const id = `github-pr-code-repo-${entry.toLowerCase()}`;
  const title = `code repository ${entry}`;
  const answer = await read(client, 'GET /repos/{owner}/{repo}', { owner: codeOwner, repo: codeRepo });
  if (answer.ok) {
    const d = answer.data;
    const visibility = d.visibility ?? (d.private ? 'private' : 'public');
    const renamed = typeof d.full_name === 'string' && d.full_name.toLowerCase() !== entry.toLowerCase();
    return renamed
      ? result(id, title, 'warn', `GitHub answers with ${d.full_name} (renamed or moved): plan compares the request's repository with ${entry} and refuses ${d.full_name}'s requests`, `write ${d.full_name} in ${CODE_REPOS_VARIABLE}`)
      : result(id, title, 'ok', `${entry} exists (${visibility})${d.private ? ': plan and the bench job need a credential that reads it' : ''}`, null);
  }
  return /HTTP 404/.test(answer.why)
    ? result(id, title, 'warn', `${entry}: ${answer.why}: no such repository, or the token may not read it; plan cannot read its pull requests and refuses them`, `correct ${entry} in ${CODE_REPOS_VARIABLE}, or check with a token that reads it`)
    : result(id, title, 'unknown', `${entry}: ${answer.why}`, 'run doctor again with a token that reads the code repository');
}

/** The environment whose reviewers approve each pull request's run (pull-request.yml). */
const PR_ENVIRONMENT = 'tagbench-pull-requests';

/**
 * The approval environment of pull-request runs, as plan checks it before every run (github/
 * pull-request-gate.js, which doctor may not import): required reviewers, self-review prevented,
 * no administrator bypass, and the default branch alone may use it. A missing environment fails:
 * GitHub would create it unprotected at the first run.
 * @param {GitHubReader} client
 * @param {string} owner
 * @param {string} repo
 * @param {string} defaultBranch
 * @returns {Promise<CheckResult>}
 */
async function checkPullRequestEnvironment(client, owner, repo, defaultBranch) {
  const id = 'github-pr-environment';
  const title = `environment ${PR_ENVIRONMENT} (approval of pull-request runs)`;
  const where = `Settings → Environments → ${PR_ENVIRONMENT}`;
  const env = await read(client, 'GET /repos/{owner}/{repo}/environments/{environment_name}', { owner, repo, environment_name: PR_ENVIRONMENT });
  if (!env.ok) {
    return /HTTP 404/.test(env.why)
      ? result(id, title, 'fail', `${PR_ENVIRONMENT} does not exist: GitHub would create it with no protection at the first pull-request run (plan refuses that run)`, `create it: ${where}, with required reviewers (docs/github-service.md "Trust model")`)
      : result(id, title, 'unknown', env.why, 'give a token with actions: read on the repository');
  }
  const e = env.data;
  const reviewers = (e.protection_rules ?? []).find((/** @type {any} */ r) => r?.type === 'required_reviewers');
  const policy = e.deployment_branch_policy;
  let branches = policy ? (policy.protected_branches ? ['every protected branch'] : []) : ['every branch'];
  if (policy?.custom_branch_policies) {
    const list = await read(client, 'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies', { owner, repo, environment_name: PR_ENVIRONMENT, per_page: 100 });
    if (!list.ok) return result(id, title, 'unknown', list.why, 'give a token with actions: read on the repository');
    branches = (list.data.branch_policies ?? []).map((/** @type {any} */ b) => `${b.type ?? 'branch'} ${b.name}`);
  }
  const wrong = [
    ...(!reviewers?.reviewers?.length ? ['no required reviewers ("Required reviewers"; private repositories need GitHub Enterprise)'] : []),
    ...(reviewers?.reviewers?.length && reviewers.prevent_self_review !== true ? ['self-review allowed ("Prevent self-review" off)'] : []),
    ...(e.can_admins_bypass !== false ? ['administrators may bypass ("Allow administrators to bypass configured protection rules" on, or not reported)'] : []),
    ...(branches.length !== 1 || branches[0] !== `branch ${defaultBranch}` ? [`usable from ${branches.join(', ') || 'no branch'}, not only ${defaultBranch} ("Deployment branches and tags")`] : []),
  ];
  return wrong.length > 0
    ? result(id, title, 'fail', `${PR_ENVIRONMENT}: ${wrong.join('; ')}: plan refuses every pull-request run`, `${where}: required reviewers, "Prevent self-review" on, administrator bypass off, "Selected branches and tags" with the one rule ${defaultBranch}`)
    : result(id, title, 'ok', `${PR_ENVIRONMENT}: ${reviewers.reviewers.length} required reviewer(s), self-review prevented, no administrator bypass, ${defaultBranch} only`, null);
}

/**
 * @param {string} name owner/repo
 * @param {string} visibility public, private or internal
 * @returns {CheckResult}
 */
function checkVisibility(name, visibility) {
  if (visibility !== 'public') {
    return result('github-visibility', 'visibility', 'ok', `${name} is ${visibility}: only people with access can open pull requests from forks`, null);
  }
  return result('github-visibility', 'visibility', 'warn',
    `${name} is public: anyone can fork it and open a pull request whose workflow files are the fork's, and may ask for runs-on: self-hosted`,
    'GitHub advises self-hosted runners only for private repositories; otherwise the fork pull request approval and runner group checks below must pass '
    + '(or make it private: Settings → General → Danger Zone → Change repository visibility)');
}

/**
 * @param {Answer} answer fork-pr-contributor-approval
 * @returns {CheckResult}
 */
function checkPublicApproval(answer) {
  const id = 'github-fork-pr-approval';
  const title = 'fork PR approval';
  if (!answer.ok) return result(id, title, 'unknown', answer.why, `give a token with repository Administration read access, or check by hand: ${APPROVE_ALL}`);
  const policy = answer.data.approval_policy;
  if (policy === 'all_external_contributors') {
    return result(id, title, 'ok', 'workflows of every fork pull request from an outside contributor wait for a maintainer\'s approval', null);
  }
  return result(id, title, 'fail', `approval policy is ${policy}: pull requests from forks of contributors GitHub already knows run workflows without anyone approving them`, APPROVE_ALL);
}

/**
 * @param {Answer} answer fork-pr-workflows-private-repos
 * @returns {CheckResult}
 */
function checkPrivateForkSettings(answer) {
  const id = 'github-fork-pr-private';
  const title = 'fork PR workflows';
  const where = `${SETTINGS} → "Fork pull request workflows in private repositories"`;
  if (!answer.ok) return result(id, title, 'unknown', answer.why, `give a token with repository Administration read access, or check by hand: ${where}`);
  const s = answer.data;
  if (!s.run_workflows_from_fork_pull_requests) return result(id, title, 'ok', 'workflows of fork pull requests do not run', null);
  /** @type {string[]} */
  const wrong = [];
  if (!s.require_approval_for_fork_pr_workflows) wrong.push('"Require approval for fork pull request workflows" is off');
  if (s.send_secrets_and_variables) wrong.push('"Send secrets and variables to workflows from fork pull requests" is on');
  if (s.send_write_tokens_to_workflows) wrong.push('"Send write tokens to workflows from fork pull requests" is on');
  if (wrong.length) return result(id, title, 'fail', `fork pull requests run workflows and ${wrong.join(', ')}`, `${where}: turn off "Run workflows from fork pull requests", or fix: ${wrong.join('; ')}`);
  return result(id, title, 'ok', 'fork pull requests run workflows only after approval, without secrets or write tokens', null);
}

/**
 * @param {Answer} answer runners of the repository
 * @param {boolean} isPublic
 * @param {boolean} approvesAll every outside contributor's fork pull request waits for approval
 * @returns {CheckResult}
 */
function checkRepoRunners(answer, isPublic, approvesAll) {
  const id = 'github-repo-runners';
  const title = 'repository runners';
  if (!answer.ok) return result(id, title, 'unknown', answer.why, 'listing self-hosted runners needs a token of a repository admin (fine-grained: Administration read)');
  const runners = /** @type {any[]} */ (answer.data.runners ?? []);
  const list = runners.map(describeRunner).join('; ');
  if (runners.length === 0) return result(id, title, 'ok', 'no self-hosted runner is registered to the repository itself', null);
  if (!isPublic) return result(id, title, 'ok', `${runners.length} registered to this private repository: ${list}`, null);
  const fix = 'register them in an organisation runner group that does not allow public repositories (Organisation settings → Actions → Runner groups), or make the repository private';
  return approvesAll
    ? result(id, title, 'warn', `${runners.length} registered to this public repository (${list}): only a maintainer's approval stands between a fork's workflow and them`, fix)
    : result(id, title, 'fail', `${runners.length} registered to this public repository (${list}) and fork pull requests are not all held for approval`, fix);
}

/**
 * @param {Answer} groups runner groups visible to the repository
 * @param {Answer|null} orgRunners
 * @param {boolean} isPublic
 * @param {string} name owner/repo
 * @returns {CheckResult[]}
 */
function checkRunnerGroups(groups, orgRunners, isPublic, name) {
  const id = 'github-runner-groups';
  const title = 'runner groups';
  if (!groups.ok) return [result(id, title, 'unknown', groups.why, 'reading runner groups needs an organisation admin\'s token (classic: admin:org; fine-grained: organisation Self-hosted runners read)')];
  const runners = orgRunners?.ok ? /** @type {any[]} */ (orgRunners.data.runners ?? []) : null;
  /** @type {any[]} */
  const visible = groups.data.runner_groups ?? [];
  // Only groups that hold runners matter; when the runners (or their groups) cannot be read,
  // every visible group might.
  const grouped = runners !== null && runners.every((r) => typeof r.runner_group_id === 'number');
  const used = grouped ? visible.filter((g) => runners.some((r) => r.runner_group_id === g.id)) : visible;
  if (used.length === 0) return [result(id, title, 'ok', `no organisation runner group with runners is open to ${name}`, null)];
  return used.map((g) => {
    const gid = `${id}-${g.id}`;
    const gtitle = `group ${g.name}`;
    const scope = `visibility ${g.visibility}${g.restricted_to_workflows ? `, only workflows ${(g.selected_workflows ?? []).join(', ')}` : ', any workflow'}`;
    const fix = `Organisation settings → Actions → Runner groups → ${g.name}: untick "Allow public repositories"`;
    if (isPublic && g.allows_public_repositories) {
      return result(gid, gtitle, 'fail', `open to ${name}, which is public, and allows public repositories (${scope})`, fix);
    }
    if (isPublic) return result(gid, gtitle, 'ok', `does not allow public repositories, so ${name} cannot use it (${scope})`, null);
    const note = g.allows_public_repositories ? 'allows public repositories (not this one: it is private)' : 'does not allow public repositories';
    return result(gid, gtitle, g.allows_public_repositories ? 'warn' : 'ok', `${note} (${scope})`, g.allows_public_repositories ? fix : null);
  });
}

/**
 * @param {{name: string, labels: string[]}[]} hostClasses
 * @param {Answer} repoRunners
 * @param {Answer|null} orgRunners
 * @returns {CheckResult[]} one per host class
 */
function checkHostClasses(hostClasses, repoRunners, orgRunners) {
  /** @type {any[]} */
  const runners = [...(repoRunners.ok ? repoRunners.data.runners ?? [] : []), ...(orgRunners?.ok ? orgRunners.data.runners ?? [] : [])];
  const readable = repoRunners.ok || Boolean(orgRunners?.ok);
  return hostClasses.map(({ name, labels }) => {
    const id = `github-host-${name}`;
    const title = `host class ${name}`;
    const file = `configs/hosts/${name}.yml`;
    if (labels.length === 0) {
      return result(id, title, 'info', 'has no runner labels: it is for local runs; a self-hosted job for it would take any self-hosted runner',
        `give it labels in ${file} before benchmarking it on a self-hosted runner`);
    }
    const wanted = ['self-hosted', ...labels];
    if (!readable) return result(id, title, 'unknown', `cannot list runners, so cannot tell which carry ${wanted.join(', ')}`, 'use a token that can list self-hosted runners (repository admin, or organisation admin)');
    const matching = runners.filter((r) => wanted.every((l) => (r.labels ?? []).some((/** @type {{name: string}} */ x) => x.name === l)));
    if (matching.length === 0) {
      return result(id, title, 'fail', `no self-hosted runner carries ${wanted.join(', ')}`, `register a runner with these labels (config.sh --labels ${labels.join(',')}), or correct labels in ${file}`);
    }
    return result(id, title, 'ok', `${matching.length} runner${matching.length > 1 ? 's' : ''} carry ${wanted.join(', ')}: ${matching.map(describeRunner).join('; ')}`, null);
  });
}

/**
 * @param {any} r a runner from the API
 * @returns {string} `bench-1 (online; labels self-hosted, tagbench-small)`
 */
function describeRunner(r) {
  return `${r.name} (${r.status}; labels ${(r.labels ?? []).map((/** @type {{name: string}} */ l) => l.name).join(', ')})`;
}
