/**
 * The decisions of `doctor --github` (check-github.js) for the repository settings GitHub can
 * report. The client here is a stand-in for Octokit's `request`: it answers only the routes
 * GitHub documents for these settings (check-github-prism.test.js sends the same requests to
 * GitHub's own OpenAPI description) and fails like Octokit does (an error with `status` and
 * `response.headers`); any other route fails the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkGitHub } from '../../scripts/doctor/check-github.js';
import { renderDoctor } from '../../scripts/doctor/commands.js';

/** Routes of GitHub's REST API the checks may call (each is in the OpenAPI description). */
const DOCUMENTED = new Set([
  'GET /repos/{owner}/{repo}',
  'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval',
  'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-workflows-private-repos',
  'GET /repos/{owner}/{repo}/actions/runners',
  'GET /orgs/{org}/actions/runners',
  'GET /orgs/{org}/actions/runner-groups',
  'GET /repos/{owner}/{repo}/environments/{environment_name}',
  'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies',
  'GET /repos/{owner}/{repo}/actions/variables/{name}',
  'GET /repos/{owner}/{repo}/actions/organization-variables',
]);

/**
 * @param {Record<string, any>} answers route -> data, or {status, headers} for an error answer
 * @returns {{request: (route: string, params?: Record<string, unknown>) => Promise<{data: any}>, calls: string[]}}
 */
function fakeClient(answers) {
  /** @type {string[]} */
  const calls = [];
  return {
    calls,
    async request(route, params = {}) {
      assert.ok(DOCUMENTED.has(route), `the checks called ${route}, which is not in the list of documented routes`);
      calls.push(route);
      // Another repository than the one checked (a code repository of TAGBENCH_PR_CODE_REPOS) is
      // answered under its owner/name.
      const other = route === 'GET /repos/{owner}/{repo}' && `${params.owner}/${params.repo}` !== 'acme/bench' ? `${params.owner}/${params.repo}` : null;
      const a = other ? answers[other] : answers[route];
      if (a === undefined) throw Object.assign(new Error('Not Found'), { status: 404, response: { headers: {} } });
      if (a.status) throw Object.assign(new Error(`HTTP ${a.status}`), { status: a.status, response: { headers: a.headers ?? {} } });
      return { data: a };
    },
  };
}

/** @param {string} name @param {string[]} labels @param {number} [group] */
const runner = (name, labels, group = 1) => ({ id: 1, name, status: 'online', runner_group_id: group, labels: labels.map((l) => ({ name: l })) });
const HOSTS = [{ name: 'local', labels: [] }, { name: 'small-server', labels: ['tagbench-small'] }, { name: 'medium-server', labels: ['tagbench-medium'] }];
const TARGET = { owner: 'acme', repo: 'bench', hostClasses: HOSTS };

/** @param {import('../../scripts/doctor/commands.js').CheckResult[]} checks */
const byId = (checks) => Object.fromEntries(checks.map((c) => [c.id, c]));

test('public organisation repository: unapproved fork PRs, runners on the repository and a group open to public repositories all fail, each with its setting', async () => {
  const client = fakeClient({
    'GET /repos/{owner}/{repo}': { visibility: 'public', private: false, owner: { type: 'Organization' } },
    'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval': { approval_policy: 'first_time_contributors' },
    'GET /repos/{owner}/{repo}/actions/runners': { total_count: 1, runners: [runner('bench-1', ['self-hosted', 'tagbench-small'])] },
    'GET /orgs/{org}/actions/runners': { total_count: 1, runners: [runner('bench-2', ['self-hosted', 'Linux'], 7)] },
    'GET /orgs/{org}/actions/runner-groups': { total_count: 2, runner_groups: [
      { id: 7, name: 'bench', visibility: 'all', allows_public_repositories: true, restricted_to_workflows: false },
      { id: 8, name: 'empty', visibility: 'all', allows_public_repositories: true, restricted_to_workflows: false },
    ] },
  });
  const c = byId(await checkGitHub(client, TARGET));
  assert.equal(c['github-visibility'].status, 'warn');
  assert.equal(c['github-fork-pr-approval'].status, 'fail');
  assert.match(c['github-fork-pr-approval'].fix ?? '', /Require approval for all external contributors/);
  assert.equal(c['github-repo-runners'].status, 'fail');
  assert.match(c['github-repo-runners'].detail, /bench-1 \(online; labels self-hosted, tagbench-small\)/);
  assert.equal(c['github-runner-groups-7'].status, 'fail');
  assert.match(c['github-runner-groups-7'].fix ?? '', /Runner groups → bench: untick "Allow public repositories"/);
  assert.equal(c['github-runner-groups-8'], undefined, 'a group without runners does not matter');
  assert.equal(c['github-host-small-server'].status, 'ok');
  assert.equal(c['github-host-medium-server'].status, 'fail');
  assert.match(c['github-host-medium-server'].detail, /no self-hosted runner carries self-hosted, tagbench-medium/);
  assert.equal(c['github-host-local'].status, 'info');
  // The approval environment does not exist (404): its branch policies are not asked for.
  assert.deepEqual(client.calls, [...DOCUMENTED].filter((r) => !r.endsWith('private-repos') && !r.endsWith('deployment-branch-policies')));
  assert.equal(c['github-pr-environment'].status, 'fail');
  assert.match(c['github-pr-environment'].detail, /does not exist: GitHub would create it with no protection/);
});

test('the approval environment of pull-request runs: unprotected fails naming each setting; protected as documented passes (issue 34)', async () => {
  const repo = { visibility: 'private', private: true, owner: { type: 'User' }, default_branch: 'trunk' };
  const reviewers = { id: 1, node_id: 'x', type: 'required_reviewers', prevent_self_review: true, reviewers: [{ type: 'User', reviewer: { login: 'alice' } }] };
  const open = byId(await checkGitHub(fakeClient({
    'GET /repos/{owner}/{repo}': repo,
    'GET /repos/{owner}/{repo}/environments/{environment_name}': { name: 'tagbench-pull-requests', can_admins_bypass: true, protection_rules: [], deployment_branch_policy: null },
  }), TARGET))['github-pr-environment'];
  assert.equal(open.status, 'fail');
  assert.match(open.detail, /no required reviewers .*; administrators may bypass .*; usable from every branch, not only trunk/);
  const good = byId(await checkGitHub(fakeClient({
    'GET /repos/{owner}/{repo}': repo,
    'GET /repos/{owner}/{repo}/environments/{environment_name}': { name: 'tagbench-pull-requests', can_admins_bypass: false, protection_rules: [reviewers], deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
    'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies': { total_count: 1, branch_policies: [{ id: 1, node_id: 'y', name: 'trunk', type: 'branch' }] },
  }), TARGET))['github-pr-environment'];
  assert.equal(good.status, 'ok', good.detail);
  const tooMany = byId(await checkGitHub(fakeClient({
    'GET /repos/{owner}/{repo}': repo,
    'GET /repos/{owner}/{repo}/environments/{environment_name}': { name: 'tagbench-pull-requests', can_admins_bypass: false, protection_rules: [{ ...reviewers, prevent_self_review: false }], deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
    'GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies': { total_count: 2, branch_policies: [{ name: 'trunk', type: 'branch' }, { name: 'dev', type: 'branch' }] },
  }), TARGET))['github-pr-environment'];
  assert.equal(tooMany.status, 'fail');
  assert.match(tooMany.detail, /self-review allowed .*; usable from branch trunk, branch dev, not only trunk/);
});

test('public repository holding every fork PR for approval and a group closed to public repositories: runners on the repository only warn', async () => {
  const client = fakeClient({
    'GET /repos/{owner}/{repo}': { visibility: 'public', owner: { type: 'Organization' } },
    'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval': { approval_policy: 'all_external_contributors' },
    'GET /repos/{owner}/{repo}/actions/runners': { total_count: 1, runners: [runner('bench-1', ['self-hosted', 'tagbench-small'])] },
    'GET /orgs/{org}/actions/runners': { total_count: 1, runners: [runner('bench-2', ['self-hosted', 'tagbench-medium'], 7)] },
    'GET /orgs/{org}/actions/runner-groups': { total_count: 1, runner_groups: [{ id: 7, name: 'bench', visibility: 'selected', allows_public_repositories: false, restricted_to_workflows: true, selected_workflows: ['acme/bench/.github/workflows/benchmark.yml@refs/heads/main'] }] },
  });
  const c = byId(await checkGitHub(client, TARGET));
  assert.equal(c['github-fork-pr-approval'].status, 'ok');
  assert.equal(c['github-repo-runners'].status, 'warn');
  assert.equal(c['github-runner-groups-7'].status, 'ok');
  assert.match(c['github-runner-groups-7'].detail, /only workflows acme\/bench\/\.github\/workflows\/benchmark\.yml@refs\/heads\/main/);
  assert.equal(c['github-host-medium-server'].status, 'ok', 'organisation runners count for host classes');
});

test('private user repository: fork PR settings decide; what the token cannot read is "cannot tell", not ok', async () => {
  const client = fakeClient({
    'GET /repos/{owner}/{repo}': { visibility: 'private', private: true, owner: { type: 'User' } },
    'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-workflows-private-repos': {
      run_workflows_from_fork_pull_requests: true, require_approval_for_fork_pr_workflows: false, send_secrets_and_variables: true, send_write_tokens_to_workflows: false,
    },
    'GET /repos/{owner}/{repo}/actions/runners': { status: 403 },
  });
  const checks = await checkGitHub(client, TARGET);
  const c = byId(checks);
  assert.equal(c['github-visibility'].status, 'ok');
  assert.equal(c['github-fork-pr-private'].status, 'fail');
  assert.match(c['github-fork-pr-private'].detail, /"Require approval for fork pull request workflows" is off, "Send secrets and variables to workflows from fork pull requests" is on/);
  assert.equal(c['github-repo-runners'].status, 'unknown');
  assert.match(c['github-repo-runners'].detail, /HTTP 403/);
  assert.equal(c['github-runner-groups'].status, 'info', 'a user account has no runner groups');
  assert.equal(c['github-host-small-server'].status, 'unknown');
  assert.ok(!client.calls.some((r) => r.startsWith('GET /orgs/')), 'no organisation routes for a user account');
  for (const check of checks.filter((x) => x.status === 'fail' || x.status === 'unknown')) assert.ok(check.fix, `${check.id} says what to do`);
});

test('private repository that runs no fork PR workflows passes that check', async () => {
  const client = fakeClient({
    'GET /repos/{owner}/{repo}': { visibility: 'internal', owner: { type: 'Organization' } },
    'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-workflows-private-repos': {
      run_workflows_from_fork_pull_requests: false, require_approval_for_fork_pr_workflows: false, send_secrets_and_variables: true, send_write_tokens_to_workflows: true,
    },
    'GET /repos/{owner}/{repo}/actions/runners': { total_count: 0, runners: [] },
    'GET /orgs/{org}/actions/runners': { status: 403 },
    'GET /orgs/{org}/actions/runner-groups': { status: 403 },
  });
  const c = byId(await checkGitHub(client, TARGET));
  assert.equal(c['github-fork-pr-private'].status, 'ok');
  assert.equal(c['github-repo-runners'].status, 'ok');
  assert.equal(c['github-runner-groups'].status, 'unknown');
  assert.match(c['github-runner-groups'].fix ?? '', /admin:org/);
  assert.equal(c['github-host-small-server'].status, 'fail', 'the repository\'s runner list was readable and holds none');
});

test('a repository the token cannot see, and a rate limit, are "cannot tell" with what to do', async () => {
  const hidden = await checkGitHub(fakeClient({}), TARGET);
  assert.deepEqual(hidden.map((c) => [c.id, c.status]), [['github-repository', 'unknown']]);
  assert.match(hidden[0].detail, /acme\/bench: GET \/repos\/\{owner\}\/\{repo\} answered HTTP 404/);

  const limited = byId(await checkGitHub(fakeClient({
    'GET /repos/{owner}/{repo}': { visibility: 'public', owner: { type: 'User' } },
    'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval': { status: 403, headers: { 'x-ratelimit-remaining': '0' } },
    'GET /repos/{owner}/{repo}/actions/runners': { total_count: 0, runners: [] },
  }), TARGET));
  assert.equal(limited['github-fork-pr-approval'].status, 'unknown');
  assert.match(limited['github-fork-pr-approval'].detail, /rate limited \(HTTP 403\); run doctor again later/);
});

test('an error that is no HTTP answer is a bug and is thrown, not reported as a setting', async () => {
  const client = { request: async () => { throw new TypeError('boom'); } };
  await assert.rejects(checkGitHub(client, TARGET), TypeError);
});

test('renderDoctor for --github: "?" marks what cannot be told, and the summary speaks of fork pull requests', () => {
  const text = renderDoctor({
    schemaVersion: 1, ok: true, subject: 'github', checks: [
      { id: 'github-visibility', title: 'visibility', required: true, status: 'ok', detail: 'private', fix: null },
      { id: 'github-repo-runners', title: 'repository runners', required: true, status: 'unknown', detail: 'HTTP 403', fix: 'use an admin token' },
    ],
  });
  assert.match(text, /^\? repository runners  HTTP 403\n +fix: use an admin token$/m);
  assert.match(text, /no setting found that lets pull requests from forks reach self-hosted runners \(0 optional missing, 0 warnings, 1 cannot tell\)\n$/);
  const failed = renderDoctor({ schemaVersion: 1, ok: false, subject: 'github', checks: [{ id: 'x', title: 'x', required: true, status: 'fail', detail: 'd', fix: 'f' }] });
  assert.match(failed, /1 required check failed: pull requests from forks may reach self-hosted runners/);
});

test('TAGBENCH_PR_CODE_REPOS: unset refuses every code repository; a malformed entry is named; each listed repository is looked up (issue 34)', async () => {
  const repo = { visibility: 'private', private: true, owner: { type: 'Organization' }, default_branch: 'main' };
  const variable = 'GET /repos/{owner}/{repo}/actions/variables/{name}';
  const shared = 'GET /repos/{owner}/{repo}/actions/organization-variables';
  /** @param {Record<string, any>} answers */
  const run = async (answers) => {
    const client = fakeClient({ 'GET /repos/{owner}/{repo}': repo, ...answers });
    const checks = await checkGitHub(client, TARGET);
    return { c: byId(checks), ids: checks.map((x) => x.id).filter((i) => i.startsWith('github-pr-code')), calls: client.calls };
  };

  // Unset: neither a repository variable nor an organisation variable shared with the repository.
  const unset = await run({ [shared]: { total_count: 1, variables: [{ name: 'OTHER', value: 'x' }] } });
  assert.equal(unset.c['github-pr-code-repos'].status, 'info');
  assert.match(unset.c['github-pr-code-repos'].detail, /TAGBENCH_PR_CODE_REPOS is not set: plan refuses the pull requests of every code repository/);
  assert.ok(unset.calls.includes(variable) && unset.calls.includes(shared), 'both places a variable can come from were read');

  // Shared by the organisation: found there, and its repositories looked up.
  const fromOrg = await run({ [shared]: { total_count: 1, variables: [{ name: 'TAGBENCH_PR_CODE_REPOS', value: 'acme/server' }] }, 'acme/server': { full_name: 'acme/server', visibility: 'public', private: false } });
  assert.equal(fromOrg.c['github-pr-code-repos'].status, 'ok', fromOrg.c['github-pr-code-repos'].detail);
  assert.equal(fromOrg.c['github-pr-code-repo-acme/server'].status, 'ok');

  // A repository variable: one malformed entry (a URL), one unknown repository, one renamed, one good.
  const listed = await run({
    [variable]: { name: 'TAGBENCH_PR_CODE_REPOS', value: 'acme/server, https://github.com/acme/fork\nacme/gone Acme/Old' },
    'acme/server': { full_name: 'acme/server', visibility: 'private', private: true },
    'Acme/Old': { full_name: 'acme/new-name', visibility: 'public', private: false },
  });
  assert.ok(!listed.calls.includes(shared), 'a repository variable is not looked for among the organisation\'s');
  const list = listed.c['github-pr-code-repos'];
  assert.equal(list.status, 'warn');
  assert.match(list.detail, /^'https:\/\/github\.com\/acme\/fork' is not owner\/name: plan never matches it/);
  assert.match(list.fix ?? '', /owner\/name, separated by commas or spaces/);
  assert.deepEqual(listed.ids, ['github-pr-code-repos', 'github-pr-code-repo-acme/server', 'github-pr-code-repo-acme/gone', 'github-pr-code-repo-acme/old']);
  assert.equal(listed.c['github-pr-code-repo-acme/server'].status, 'ok');
  assert.match(listed.c['github-pr-code-repo-acme/server'].detail, /acme\/server exists \(private\): plan and the bench job need a credential that reads it/);
  assert.equal(listed.c['github-pr-code-repo-acme/gone'].status, 'warn');
  assert.match(listed.c['github-pr-code-repo-acme/gone'].detail, /HTTP 404 .*plan cannot read its pull requests and refuses them/);
  assert.equal(listed.c['github-pr-code-repo-acme/old'].status, 'warn');
  assert.match(listed.c['github-pr-code-repo-acme/old'].detail, /GitHub answers with acme\/new-name \(renamed or moved\)/);

  // A token that may not read variables: cannot tell, never "unset".
  const hidden = await run({ [variable]: { status: 403 } });
  assert.equal(hidden.c['github-pr-code-repos'].status, 'unknown');
  assert.match(hidden.c['github-pr-code-repos'].fix ?? '', /Variables read/);
});
