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
  root, selfHosted: true, product: 'mariadb', version: '', hostClass: 'local', suite: 'smoke', ref: 'pull/7/head', baseRef: 'main', repo: 'https://github.com/acme/bench.git', commit: SHA,
  environment: ENV, defaultBranch: 'main', pull: '7', codeRepo: 'acme/bench', requestedBy: 'mallory', timing: { throttle: false, retries: 0 },
};

/** @param {Parameters<typeof planCommand>[1]} settings */
async function plan(settings) {
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    return await planCommand(options, settings);
  } finally {
    process.stdout.write = write;
  }
}

test('plan refuses a pull request\'s run when the approval environment is missing or unprotected, and without a token', async () => {
  const f = github.start({});
  const settings = githubSettings({ token: 'ghs', apiUrl: FAKE_API, repository: 'acme/tagbench' });
  await assert.rejects(plan(settings), /environment tagbench-pull-requests does not exist in acme\/tagbench/);
  f.environments = { [ENV]: fakeEnvironment(ENV, { reviewers: [], adminsBypass: true, branchPolicy: null }) };
  const output = join(await github.tempDir('tagbench-plan-pr-'), 'output');
  await assert.rejects(plan({ ...settings, output }), /not safe \(3 problems\):\n {2}- .*no required reviewers[^]*administrators bypass[^]*every branch/);
  // The plan's outputs are written first, then why it refused: the posting job says it on the check.
  const written = await readFile(output, 'utf8');
  assert.match(written, /^commit=a{40}$/m);
  assert.match(written, /\nrefused=environment tagbench-pull-requests has no required reviewers[^\n]*; [^\n]*administrators[^\n]*\n$/);
  await assert.rejects(plan(githubSettings({ apiUrl: FAKE_API, repository: 'acme/tagbench' })), /no token in \$GITHUB_TOKEN .* not planned unchecked/);
});

test('a pull request\'s plan: runner labels of pull requests only, and the summary the reviewer reads', async () => {
  const f = github.start({ environments: { [ENV]: fakeEnvironment(ENV) }, branchPolicies: { [ENV]: [{ name: 'main' }] } });
  const dir = await github.tempDir('tagbench-plan-pr-');
  const [output, summary] = [join(dir, 'output'), join(dir, 'summary')];
  await writeFile(output, '');
  assert.equal(await plan(githubSettings({ token: 'ghs', apiUrl: FAKE_API, repository: 'acme/tagbench', output, stepSummary: summary })), 0);
  assert.deepEqual(f.requests.map((r) => `${r.method} ${r.path}`), ['GET /repos/acme/tagbench/environments/tagbench-pull-requests', 'GET /repos/acme/tagbench/environments/tagbench-pull-requests/deployment-branch-policies']);
  const runsOn = /^runs-on=(.*)$/m.exec(await readFile(output, 'utf8'))?.[1];
  assert.deepEqual(JSON.parse(runsOn ?? 'null'), ['self-hosted', 'tagbench-pull-request', 'tagbench-pr-local']);
  const text = await readFile(summary, 'utf8');
  assert.match(text, /## Pull request acme\/bench#7 at `a{40}`/);
  assert.ok(text.includes(`https://github.com/acme/bench/compare/main...${SHA}`));
  assert.match(text, /comment naming `a{12}`/);
});
