/**
 * `doctor --github` against GitHub's own OpenAPI description (Prism, see
 * test/github/prism-harness.js): every request it sends must be one GitHub documents, with
 * valid parameters, and the checks must read the documented answers. Prism is stateless and
 * answers with the description's examples (a public, user-owned repository; two runners labelled
 * self-hosted/X64/Linux and self-hosted/X64/macOS/no-gpu; policy first_time_contributors).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Octokit } from '@octokit/rest';
import { doctorCommand, runGitHubDoctor } from '../../scripts/doctor/commands.js';
import { checkGitHub } from '../../scripts/doctor/check-github.js';
import { UserError } from '../../scripts/errors.js';
import { usePrismForFile } from '../github/prism-harness.js';

const ctx = usePrismForFile();
const root = new URL('../../', import.meta.url).pathname;

/** Every request since the last clear was documented and answered without an error. */
function assertAllDocumented() {
  assert.ok(ctx.prism.requests.length > 0);
  for (const r of ctx.prism.requests) {
    assert.deepEqual(r.requestViolations, [], `${r.method} ${r.path} violated the description`);
    assert.ok(r.status < 400, `${r.method} ${r.path} got ${r.status}`);
  }
}

test('doctor --github on the description\'s public user repository: documented requests only, and the examples\' settings fail', { timeout: 120_000 }, async () => {
  ctx.prism.clear();
  const report = await runGitHubDoctor({ GITHUB_TOKEN: 'ghs_prism', GITHUB_API_URL: ctx.prism.url }, root, 'acme/bench');
  assertAllDocumented();
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path}`), [
    'GET /repos/acme/bench',
    'GET /repos/acme/bench/actions/permissions/fork-pr-contributor-approval',
    'GET /repos/acme/bench/actions/runners',
    // The approval environment of pull-request runs and its branch policies (issue 34).
    'GET /repos/acme/bench/environments/tagbench-pull-requests',
    'GET /repos/acme/bench/environments/tagbench-pull-requests/deployment-branch-policies',
    // The allow-list of code repositories (issue 34): the example variable's value is 'octocat'.
    'GET /repos/acme/bench/actions/variables/TAGBENCH_PR_CODE_REPOS',
  ]);
  const status = Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
  assert.deepEqual(status, {
    'github-visibility': 'warn',
    'github-fork-pr-approval': 'fail',
    'github-repo-runners': 'fail',
    'github-runner-groups': 'info',
    'github-host-large-server': 'fail',
    'github-host-local': 'info',
    'github-host-medium-server': 'fail',
    'github-host-small-server': 'fail',
    // The description's example environment allows self-review and does not report can_admins_bypass.
    'github-pr-environment': 'fail',
    'github-pr-code-repos': 'warn',
  });
  assert.match(report.checks.find((c) => c.id === 'github-pr-code-repos')?.detail ?? '', /^'octocat' is not owner\/name/);
  assert.match(report.checks.find((c) => c.id === 'github-pr-environment')?.detail ?? '', /self-review allowed .*administrators may bypass/);
  assert.equal(report.ok, false);
  assert.equal(report.subject, 'github');
  assert.match(report.checks.find((c) => c.id === 'github-repo-runners')?.detail ?? '', /linux_runner \(online; labels self-hosted, X64, Linux\)/);
});

/**
 * A client on Prism whose repository answer is changed to another owner type and visibility
 * (the description's example repository is user-owned and public), so the organisation and
 * private-repository requests are checked against the description too; and, given codeRepos,
 * whose TAGBENCH_PR_CODE_REPOS answer holds that value, so the code repositories' lookups are.
 * @param {{type: string, visibility: string, codeRepos?: string}} as
 */
function clientAs(as) {
  const octokit = new Octokit({ auth: 't', baseUrl: ctx.prism.url });
  return {
    /** @param {string} route @param {Record<string, unknown>} [params] */
    async request(route, params) {
      const res = await octokit.request(route, params);
      if (route === 'GET /repos/{owner}/{repo}/actions/variables/{name}' && as.codeRepos !== undefined) return { ...res, data: { ...res.data, value: as.codeRepos } };
      if (route !== 'GET /repos/{owner}/{repo}') return res;
      return { ...res, data: { ...res.data, visibility: as.visibility, private: as.visibility !== 'public', owner: { ...res.data.owner, type: as.type } } };
    },
  };
}

test('organisation and private repositories: the runner group, organisation runner and private fork settings requests are documented too', { timeout: 120_000 }, async () => {
  const hostClasses = [{ name: 'small-server', labels: ['tagbench-small'] }];
  ctx.prism.clear();
  const org = await checkGitHub(clientAs({ type: 'Organization', visibility: 'public' }), { owner: 'acme', repo: 'bench', hostClasses });
  assertAllDocumented();
  const groups = ctx.prism.requests.find((r) => r.path === '/orgs/acme/actions/runner-groups');
  assert.equal(groups?.query.visible_to_repository, 'bench');
  assert.ok(ctx.prism.requests.some((r) => r.path === '/orgs/acme/actions/runners'));
  // The example groups allow public repositories; the example runners carry no runner_group_id,
  // so every visible group might hold them and each is checked.
  const groupChecks = org.filter((c) => c.id.startsWith('github-runner-groups-'));
  assert.deepEqual(groupChecks.map((c) => c.status), ['fail', 'fail', 'fail'], groupChecks.map((c) => `${c.title}: ${c.detail}`).join('\n'));

  ctx.prism.clear();
  const priv = await checkGitHub(clientAs({ type: 'User', visibility: 'private', codeRepos: 'acme/server' }), { owner: 'acme', repo: 'bench', hostClasses });
  assertAllDocumented();
  // The listed code repository is looked up with the documented repository route.
  assert.ok(ctx.prism.requests.some((r) => r.path === '/repos/acme/server'), 'the code repository was looked up');
  assert.ok(priv.some((c) => c.id === 'github-pr-code-repo-acme/server'));
  assert.ok(ctx.prism.requests.some((r) => r.path === '/repos/acme/bench/actions/permissions/fork-pr-workflows-private-repos'));
  // Example: fork PR workflows run, but only after approval and without secrets or write tokens.
  assert.equal(priv.find((c) => c.id === 'github-fork-pr-private')?.status, 'ok');
});

test('doctor --github without a token or a repository says what to set', async () => {
  await assert.rejects(doctorCommand({ github: true, repo: 'acme/bench', env: {} }), (err) => err instanceof UserError && /GITHUB_TOKEN/.test(err.message));
  await assert.rejects(doctorCommand({ github: true, env: { GITHUB_TOKEN: 't' } }), /--repo owner\/name \(or GITHUB_REPOSITORY\)/);
  await assert.rejects(doctorCommand({ github: true, repo: 'not a repo', env: { GITHUB_TOKEN: 't' } }), /'not a repo' but must be owner\/name/);
});
