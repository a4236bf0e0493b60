// Issue 34: the plan of a pull request's run (pull-request.yml's first job) reads the approval
// environment and refuses one that would let the run through without a person; without a token
// it refuses too (never an unchecked plan). A pull request's leg gets runner labels no release leg
// asks for, and the job summary shows the reviewer the pull request, its commit and a compare link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { planCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { FAKE_API, fakeEnvironment, useFakeGitHubPerTest } from '../github/fake-github-nock.js';

const root = new URL('../..', import.meta.url).pathname;
const github = useFakeGitHubPerTest();
const ENV = 'tagbench-pull-requests';
const SHA = 'a'.repeat(40);
const options = {
  // local has no runner labels: a release leg on it is refused with --self-hosted, a pull request's is not.
  root, selfHosted: true, product: 'mariadb', version: '', hostClass: 'local', suite: 'smoke', ref: 'pull/7/head', commit: SHA,
  environment: ENV, defaultBranch: 'main', pull: '7', codeRepo: 'acme/bench', codeRepos: 'acme/bench', requestedBy: 'mallory', timing: { throttle: false, retries: 0 },
};

const CLONE_URL = 'https://github.com/acme/bench.git';
/** The pull request as GitHub reports it (the fields plan reads). @param {string} head @param {string} [state] */
const pull = (head, state = 'open') => ({ number: 7, state, head: { sha: head }, base: { ref: 'main', repo: { full_name: 'acme/bench', clone_url: CLONE_URL } } });

/** @param {Parameters<typeof planCommand>[1]} settings @param {Record<string, any>} [more] options beside the usual */
async function plan(settings, more = {}) {
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    return await planCommand({ ...options, ...more }, settings);
  } finally {
    process.stdout.write = write;
  }
}

test('plan refuses a pull request\'s run when the approval environment is missing or unprotected, and without a token', async () => {
  const f = github.start({ pulls: { 7: pull(SHA) } });
  const settings = githubSettings({ token: 'ghs', apiUrl: FAKE_API, repository: 'acme/tagbench' });
  await assert.rejects(plan(settings), /environment tagbench-pull-requests does not exist in acme\/tagbench/);
  f.environments = { [ENV]: fakeEnvironment(ENV, { reviewers: [], adminsBypass: true, branchPolicy: null }) };
  const output = join(await github.tempDir('tagbench-plan-pr-'), 'output');
  await assert.rejects(plan({ ...settings, output }), /not safe \(3 problems\):\n {2}- .*no required reviewers[^]*administrators bypass[^]*every branch/);
  // The plan's outputs are written first, then why it refused: the posting job says it on the check.
  const written = await readFile(output, 'utf8');
  assert.match(written, /^commit=a{40}$/m);
  assert.match(written, /\nrefused=environment tagbench-pull-requests has no required reviewers[^\n]*; [^\n]*administrators[^\n]*\n$/);
  await assert.rejects(plan(githubSettings({ apiUrl: FAKE_API, repository: 'acme/tagbench' })), /no token in \$GITHUB_TOKEN to read the pull request; it is not planned unread/);
});

test('a pull request\'s plan: runner labels of pull requests only, and the summary the reviewer reads', async () => {
  const f = github.start({ environments: { [ENV]: fakeEnvironment(ENV) }, branchPolicies: { [ENV]: [{ name: 'main' }] }, pulls: { 7: pull(SHA) } });
  const dir = await github.tempDir('tagbench-plan-pr-');
  const [output, summary] = [join(dir, 'output'), join(dir, 'summary')];
  await writeFile(output, '');
  assert.equal(await plan(githubSettings({ token: 'ghs', apiUrl: FAKE_API, repository: 'acme/tagbench', output, stepSummary: summary })), 0);
  assert.deepEqual(f.requests.map((r) => `${r.method} ${r.path}`), ['GET /repos/acme/bench/pulls/7', 'GET /repos/acme/tagbench/environments/tagbench-pull-requests', 'GET /repos/acme/tagbench/environments/tagbench-pull-requests/deployment-branch-policies']);
  const runsOn = /^runs-on=(.*)$/m.exec(await readFile(output, 'utf8'))?.[1];
  assert.deepEqual(JSON.parse(runsOn ?? 'null'), ['self-hosted', 'tagbench-pull-request', 'tagbench-pr-local']);
  const text = await readFile(summary, 'utf8');
  assert.match(text, /## Pull request acme\/bench#7 at `a{40}`/);
  assert.ok(text.includes(`https://github.com/acme/bench/compare/main...${SHA}`));
  assert.match(text, /comment naming `a{12}`/);
});

test('a pull request is fetched from where GitHub reports it, for allowed code repositories only; never from the request', async () => {
  const f = github.start({ environments: { [ENV]: fakeEnvironment(ENV) }, branchPolicies: { [ENV]: [{ name: 'main' }] }, pulls: { 7: pull(SHA) } });
  const dir = await github.tempDir('tagbench-plan-pr-');
  const settings = githubSettings({ token: 'ghs', apiUrl: FAKE_API, repository: 'acme/tagbench', output: join(dir, 'output') });
  // The request's clone URL or base branch is not taken at all.
  await assert.rejects(plan(settings, { repo: 'https://evil.example/bench.git' }), /--pull takes no --repo or --base-ref: both come from GitHub's report/);
  await assert.rejects(plan(settings, { codeRepos: 'acme/other' }), /'acme\/bench' is not in TAGBENCH_PR_CODE_REPOS/);
  await assert.rejects(plan(settings, { codeRepos: '' }), /no code repository is allowed/);
  assert.equal(f.requests.length, 0, 'a repository off the allow-list is not even read');
  f.pulls[7].base.repo.clone_url = 'https://github.com/acme/bench-renamed.git';
  f.pulls[7].base.ref = '10.11';
  assert.equal(await plan(settings), 0);
  const written = await readFile(join(dir, 'output'), 'utf8');
  assert.match(written, /^repo=https:\/\/github\.com\/acme\/bench-renamed\.git$/m, 'GitHub\'s clone URL');
  assert.match(written, /^base-ref=10\.11$/m, 'GitHub\'s base branch');
  // Moved on or closed since the request: the outputs are written, then the refusal for the check.
  f.pulls[7] = pull('b'.repeat(40));
  await writeFile(join(dir, 'output'), '');
  await assert.rejects(plan(settings), /not planned: superseded: pull request #7 has moved on to b{40}/);
  assert.match(await readFile(join(dir, 'output'), 'utf8'), /^commit=a{40}$[^]*\nrefused=the pull request is not planned: superseded[^\n]*\n$/m);
  f.pulls[7] = pull(SHA, 'closed');
  await assert.rejects(plan(settings), /pull request #7 is closed/);
});
