/**
 * The gate in front of a pull request's benchmark (scripts/github/pull-request-gate.js and
 * `tagbench check-approval`), through Prism validating every request and answer against GitHub's
 * OpenAPI description, with the STAND-IN of fake-github-nock.js behind it keeping environments,
 * their branch policies, a run's deployment reviews and the pull request. Each case is one way
 * a run could start without a person's approval of its commit; each must be refused, with why.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGitHubClient } from '../../scripts/github/github-client.js';
import { checkCodeRepository, fetchApprovalProblems, fetchEnvironmentProblems, fetchHeadProblems, readPullRequestSource } from '../../scripts/github/pull-request-gate.js';
import { checkApprovalCommand } from '../../scripts/github/gate-command.js';
import { serveFakeGitHub } from '../github-workflows/fake-github-server.js';
import { fakeApproval, fakeEnvironment, useFakeGitHubPerTest } from './fake-github-nock.js';
import { ensureGitHubSpec, usePrismForFile } from './prism-harness.js';
import { githubSettings } from '../support/github-settings.js';

/** @type {{url: string, close: () => Promise<void>}|null} */
let bridge = null;
const ctx = usePrismForFile({ upstream: async () => (bridge = await serveFakeGitHub()).url });
after(async () => { await bridge?.close(); });
const github = useFakeGitHubPerTest();

const ENV = 'tagbench-pull-requests';
const SERVICE = { owner: 'acme', repo: 'tagbench' };
const CODE = { owner: 'acme', repo: 'bench' };
const SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const OTHER = 'beef0000beef0000beef0000beef0000beef0000';
const CLONE_URL = 'https://github.com/acme/bench.git';
const expect = { environment: ENV, commit: SHA, notApprovers: ['mallory', 'maintainer-bot'] };

/** @param {Parameters<typeof github.start>[0]} seed */
function start(seed) {
  const fake = github.start(seed);
  fake.allowLoopback();
  ctx.prism.clear();
  return fake;
}

/** GitHub's example pull request (from its description) as #1 of the code repository, at a head and state. */
async function examplePull() {
  const example = JSON.parse(await readFile(await ensureGitHubSpec(), 'utf8')).components.examples['pull-request'].value;
  return (/** @type {string} */ head, state = 'open') => {
    const pr = structuredClone(example);
    // The example's one requested team lacks `type`, which its own schema requires.
    pr.requested_teams = [];
    Object.assign(pr, { number: 1, state });
    pr.head.sha = head;
    // A pull request of the code repository: GitHub reports it there, with that clone URL.
    Object.assign(pr.base.repo, { full_name: 'acme/bench', clone_url: CLONE_URL });
    return pr;
  };
}

const client = () => createGitHubClient({ token: 'ghs_service', baseUrl: ctx.prism.url, log: () => {}, throttle: false, retries: 0 });

function assertValid() {
  for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path} (HTTP ${r.status}) broke GitHub's description`);
}

test('the environment: missing, without reviewers, with self-review, bypassable by admins, or open to other branches is refused; protected as documented it passes', { timeout: 300_000 }, async () => {
  const cases = /** @type {const} */ ([
    ['missing', null, null, /does not exist .*create it first with required reviewers/],
    ['no reviewers', fakeEnvironment(ENV, { reviewers: [] }), [{ name: 'main' }], /no required reviewers/],
    ['self-review', fakeEnvironment(ENV, { preventSelfReview: false }), [{ name: 'main' }], /Prevent self-review/],
    ['admins bypass', fakeEnvironment(ENV, { adminsBypass: true }), [{ name: 'main' }], /lets administrators bypass/],
    ['every branch', fakeEnvironment(ENV, { branchPolicy: null }), null, /may be used from every branch, not only from the default branch main/],
    ['protected branches', fakeEnvironment(ENV, { branchPolicy: { protected_branches: true, custom_branch_policies: false } }), null, /every protected branch/],
    ['another branch too', fakeEnvironment(ENV), [{ name: 'main' }, { name: 'dev' }], /branch main, branch dev/],
  ]);
  // One stand-in per test (its routes persist); each case sets its state.
  const f = start({});
  for (const [what, environment, policies, message] of cases) {
    Object.assign(f, { environments: environment ? { [ENV]: environment } : {}, branchPolicies: policies ? { [ENV]: policies } : {} });
    const problems = await fetchEnvironmentProblems(client(), SERVICE, ENV, 'main');
    assert.equal(problems.length, 1, `${what}: ${problems.join(' | ')}`);
    assert.match(problems[0], message, what);
    assertValid();
  }
  Object.assign(f, { environments: { [ENV]: fakeEnvironment(ENV) }, branchPolicies: { [ENV]: [{ name: 'main' }] } });
  assert.deepEqual(await fetchEnvironmentProblems(client(), SERVICE, ENV, 'main'), []);
  assertValid();
});

test('the run\'s approval: none, a rejection, the requester\'s own, one naming no commit or another commit, or for another environment is refused; another person naming this commit passes', { timeout: 300_000 }, async () => {
  const cases = [
    ['not reviewed', [], /nobody approved this run/],
    ['rejected', [fakeApproval('alice', 'no', { state: 'rejected' })], /alice rejected this run/],
    ['self-approved', [fakeApproval('mallory', `ok ${SHA.slice(0, 12)}`)], /mallory approved the run they asked for themselves/],
    ['the dispatcher', [fakeApproval('Maintainer-Bot', `ok ${SHA}`)], /approved the run they asked for themselves/],
    ['no commit named', [fakeApproval('alice', 'LGTM')], /names no commit; the comment must name c0ffee00c0ff/],
    ['another commit', [fakeApproval('alice', `read ${OTHER.slice(0, 12)}`)], /alice approved commit beef0000beef, not c0ffee00/],
    ['too short a prefix', [fakeApproval('alice', `ok ${SHA.slice(0, 7)}`)], /approved commit c0ffee0, not/],
    ['another environment', [fakeApproval('alice', `ok ${SHA}`, { environment: 'production' })], /nobody approved this run for environment tagbench-pull-requests/],
  ];
  const f = start({});
  for (const [what, approvals, message] of /** @type {[string, any[], RegExp][]} */ (cases)) {
    f.approvals = { 77: approvals };
    const problems = await fetchApprovalProblems(client(), SERVICE, 77, expect);
    assert.ok(problems.length > 0, `${what}: refused`);
    assert.match(problems.join(' | '), message, what);
    assertValid();
  }
  f.approvals = { 77: [fakeApproval('mallory', `ok ${SHA}`), fakeApproval('alice', `read ${SHA.slice(0, 12)}, ok`)] };
  assert.deepEqual(await fetchApprovalProblems(client(), SERVICE, 77, expect), []);
  f.approvals = {};
  assert.match((await fetchApprovalProblems(client(), SERVICE, 78, expect)).join(), /approvals of run 78 could not be read: GitHub answered 404/);
  assertValid();
});

test('a pull request whose head moved on since the request is superseded; a closed one is not built', { timeout: 300_000 }, async () => {
  const pull = await examplePull();
  const f = start({ pulls: { 1: pull(OTHER) } });
  assert.match((await fetchHeadProblems(client(), CODE, 1, SHA)).join(), /superseded: pull request #1 has moved on to beef0000/);
  f.pulls[1] = pull(SHA, 'closed');
  assert.match((await fetchHeadProblems(client(), CODE, 1, SHA)).join(), /is closed/);
  f.pulls[1] = pull(SHA);
  assert.deepEqual(await fetchHeadProblems(client(), CODE, 1, SHA, CLONE_URL), []);
  // Read again before the build: the plan's clone URL must still be GitHub's report.
  assert.match((await fetchHeadProblems(client(), CODE, 1, SHA, 'https://evil.example/bench.git')).join(), /now fetched from https:\/\/github\.com\/acme\/bench\.git, not https:\/\/evil\.example\/bench\.git as planned/);
  assertValid();
});

test('where a pull request is fetched from is GitHub\'s report of it, for allowed code repositories only', { timeout: 300_000 }, async () => {
  assert.deepEqual(checkCodeRepository('Acme/Bench', 'acme/bench, acme/other'), [], 'owner/name compared case-insensitively');
  assert.match(checkCodeRepository('mallory/bench', 'acme/bench').join(), /'mallory\/bench' is not in TAGBENCH_PR_CODE_REPOS \(acme\/bench\)/);
  assert.match(checkCodeRepository('acme/bench', ' ').join(), /no code repository is allowed: set the repository variable TAGBENCH_PR_CODE_REPOS/);
  const pull = await examplePull();
  const f = start({ pulls: { 1: pull(SHA) } });
  assert.deepEqual(await readPullRequestSource(client(), CODE, 1, SHA), { problems: [], cloneUrl: CLONE_URL, baseRef: f.pulls[1].base.ref });
  // A pull request GitHub reports in another repository (the example's own) gives nothing to fetch.
  f.pulls[1].base.repo.full_name = 'octocat/Hello-World';
  assert.match((await readPullRequestSource(client(), CODE, 1, SHA)).problems.join(), /GitHub reports it in 'octocat\/Hello-World', not acme\/bench/);
  assertValid();
});

test('check-approval: no token is a failure, never a dry run; a refusal names every reason and writes it as the step output', { timeout: 300_000 }, async () => {
  const dir = await github.tempDir('tagbench-gate-');
  const output = join(dir, 'output');
  const options = { repo: 'acme/tagbench', runId: '77', commit: SHA, requestedBy: 'mallory', actor: 'maintainer-bot', codeRepo: 'acme/bench', pull: '1', cloneUrl: CLONE_URL, timing: { throttle: false, retries: 0 } };
  await assert.rejects(checkApprovalCommand(options, githubSettings({ apiUrl: ctx.prism.url })), /needs a token in \$GITHUB_TOKEN .* the pull request is not built/);
  const pull = await examplePull();
  const f = start({ approvals: { 77: [fakeApproval('alice', `ok ${OTHER}`)] }, pulls: { 1: pull(OTHER) } });
  await assert.rejects(checkApprovalCommand(options, githubSettings({ token: 'ghs', apiUrl: ctx.prism.url, output })), /approved commit beef0000.*superseded/);
  assert.match(await readFile(output, 'utf8'), /^refused=alice approved commit beef0000[^\n]*; superseded: [^\n]*\n$/);
  Object.assign(f, { approvals: { 77: [fakeApproval('alice', `ok ${SHA.slice(0, 12)}`)] }, pulls: { 1: pull(SHA) } });
  assert.equal(await checkApprovalCommand(options, githubSettings({ token: 'ghs', apiUrl: ctx.prism.url, output: join(dir, 'ok') })), 0);
});

test('the stand-in\'s routes the request workflow uses keep GitHub\'s rules and shapes: a writer\'s permission (a triager\'s reads as read), and removing the label once (then 404)', { timeout: 300_000 }, async () => {
  const pull = await examplePull();
  const pr = pull(SHA);
  pr.labels = [{ ...pr.labels[0], name: 'tagbench' }];
  const f = start({ pulls: { 1: pr }, permissions: { maintainer: 'write', helper: 'triage' } });
  const octokit = client();
  assert.equal((await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...CODE, username: 'maintainer' })).data.permission, 'write');
  assert.equal((await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...CODE, username: 'helper' })).data.permission, 'read', 'triage reads as read: it may label, not ask');
  assert.deepEqual((await octokit.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', { ...CODE, issue_number: 1, name: 'tagbench' })).data, []);
  await assert.rejects(octokit.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', { ...CODE, issue_number: 1, name: 'tagbench' }), (err) => /** @type {{status?: number}} */ (err).status === 404);
  assert.deepEqual(f.removedLabels, [{ issue: 1, name: 'tagbench' }]);
  assertValid();
});
