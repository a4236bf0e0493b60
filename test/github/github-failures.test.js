/**
 * GitHub saying no, replayed on the fake (fake-github-nock.js, a stand-in that enforces label
 * uniqueness and token authorship) through the production client: Octokit with the retry and
 * throttling plugins, as `tagbench report` builds it. Each test reproduces one failure seen in
 * real runs and checks that nothing is lost (every verdict in the summary, the issue exists)
 * and nothing is duplicated (one issue per fingerprint, one label per name).
 * GitHub's advice (retry-after, x-ratelimit-reset) is followed at 1 ms per advised second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportCommand } from '../../scripts/github/report-command.js';
import { githubSettings } from '../support/github-settings.js';
import { createGitHubClient, describeGitHubError } from '../../scripts/github/github-client.js';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { FIXTURE_STORE, loadFixtures } from './fixture-store.js';
import { FAKE_API, useFakeGitHubPerTest } from './fake-github-nock.js';

const github = useFakeGitHubPerTest();
/** @type {ReturnType<typeof github.start>|null} */
let fake = null;

const settings = githubSettings({ token: 'ghs_test', repository: 'acme/bench', apiUrl: FAKE_API });
const timing = { retryAfterBaseMs: 1, recheckDelayMs: 0 };
const TRIAGE_LABELS = ['tagbench:confirmed-bug', 'tagbench:expected-change', 'tagbench:noise'];
const LABELS = ['tagbench-regression', 'host:local', 'product:mariadb-10.11', ...TRIAGE_LABELS];
const issuesPath = /^\/repos\/acme\/bench\/issues$/;
const SECONDARY = { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' };

/** @param {Record<string, any>} [extra] */
async function report(extra = {}) {
  const dir = await github.tempDir('tagbench-gh-failures-');
  const summaryFile = join(dir, 'summary.md');
  const run = reportCommand({ store: FIXTURE_STORE, version: '10.11.19', summaryFile, timing, ...extra }, settings);
  return { run, summary: async () => readFile(summaryFile, 'utf8') };
}

test('label race: another job creates a label between our listing and our create; GitHub\'s 422 already_exists is success', async () => {
  fake = github.start({ labels: [] });
  const f = fake;
  // The listing is stale: the other job's label is already there when our create arrives.
  f.fail({ method: 'GET', path: /\/labels$/, status: 200, body: [], afterApply: true, before: () => f.labels.push('host:local') });
  const { run } = await report();
  assert.equal(await run, 0);
  const refused = f.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/labels') && r.status === 422);
  assert.deepEqual(refused.map((r) => r.body.name), ['host:local'], 'GitHub refused the label another job had created');
  assert.equal(f.labels.filter((l) => l === 'host:local').length, 1);
  assert.equal(f.issues.length, 1, 'the issue is created despite the race');
  assert.deepEqual([...f.labels].sort(), ['host:local', 'product:mariadb-10.11', 'tagbench-regression', ...TRIAGE_LABELS].sort(), 'each label once, the triage answers included');
});

test('secondary rate limit three times on create: retried after GitHub\'s retry-after, one issue', async () => {
  fake = github.start({ labels: LABELS });
  for (let i = 0; i < 3; i++) fake.fail({ method: 'POST', path: issuesPath, status: 403, headers: { 'retry-after': '2' }, body: SECONDARY });
  const { run } = await report();
  assert.equal(await run, 0);
  const creates = fake.requests.filter((r) => r.method === 'POST' && issuesPath.test(r.path));
  assert.deepEqual(creates.map((r) => r.status), [403, 403, 403, 201], 'three refusals, then created (the old client gave up after two)');
  assert.equal(fake.issues.length, 1);
});

test('502 on create after GitHub created the issue: found again by fingerprint, never created twice', async () => {
  fake = github.start({ labels: LABELS });
  fake.fail({ method: 'POST', path: issuesPath, status: 502, afterApply: true, body: { message: 'Server Error' } });
  const { run, summary } = await report();
  assert.equal(await run, 0);
  assert.equal(fake.issues.length, 1, 'exactly one issue');
  assert.equal(fake.requests.filter((r) => r.method === 'POST' && issuesPath.test(r.path)).length, 1, 'the POST was not repeated');
  assert.match(await summary(), /\[#1\]/);
  // A rerun of the report finds it too.
  const again = await report();
  assert.equal(await again.run, 0);
  assert.equal(fake.issues.length, 1);
});

test('502 on create that did not go through: looked up again, then created once', async () => {
  fake = github.start({ labels: LABELS });
  fake.fail({ method: 'POST', path: issuesPath, status: 502, body: { message: 'Server Error' } });
  const { run } = await report();
  assert.equal(await run, 0);
  assert.deepEqual(fake.requests.filter((r) => r.method === 'POST' && issuesPath.test(r.path)).map((r) => r.status), [502, 201]);
  assert.equal(fake.issues.length, 1);
});

test('502 on a recovery comment that went through: read back, not posted twice', async () => {
  const { c19, records } = await loadFixtures();
  const plan = renderIssue(c19, records, { siteUrl: null, runUrl: null, label: 'tagbench-regression' });
  assert.ok(plan);
  fake = github.start({ issues: [{ number: 1, title: plan.title, body: plan.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u1' }], labels: LABELS });
  fake.fail({ method: 'POST', path: /\/issues\/1\/comments$/, status: 502, afterApply: true });
  const { run } = await report({ version: undefined });
  assert.equal(await run, 0);
  assert.equal(fake.comments.length, 1, 'one recovery comment');
  assert.match(fake.comments[0].body, /^<!-- tagbench-recovery \{"v":1,"version":"10\.11\.20"\} -->/);
  assert.equal(fake.issues.length, 1);
});

test('the hazard avoided: a plain create with the retry plugin duplicates the issue after a 502', async () => {
  fake = github.start();
  fake.fail({ method: 'POST', path: issuesPath, status: 502, afterApply: true });
  const octokit = createGitHubClient({ token: 't', baseUrl: FAKE_API, log: () => {}, throttle: false, retryAfterBaseMs: 1 });
  await octokit.rest.issues.create({ owner: 'acme', repo: 'bench', title: 'x', body: 'y' });
  assert.equal(fake.issues.length, 2, 'the retried POST made a second issue: why createIssueOnce sends it without retries');
});

test('primary rate limit exhausted: reported as a rate limit with its reset, not as a permission problem; the summary is still written', async () => {
  fake = github.start({ labels: LABELS });
  const reset = String(Math.floor(Date.now() / 1000) + 3600);
  fake.fail({ method: 'POST', path: issuesPath, status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '1000', 'x-ratelimit-reset': reset }, body: { message: 'API rate limit exceeded for installation ID 1.' } });
  const { run, summary } = await report();
  await assert.rejects(run, (err) => {
    const message = /** @type {Error} */ (err).message;
    assert.equal(/** @type {Error} */ (err).name, 'UserError');
    assert.match(message, /rate limit/);
    assert.match(message, new RegExp(new Date(Number(reset) * 1000).toISOString().slice(0, 16)));
    assert.doesNotMatch(message, /may write issues|permission issues/);
    return true;
  });
  const text = await summary();
  assert.match(text, /point-query \| throughput \| 🔴 regression \(confirmed/, 'the verdicts are in the summary');
  assert.match(text, /failed: Performance regression: .* — .*rate limit/);
  assert.match(text, /published regardless/);
  assert.equal(fake.issues.length, 0);
});

test('a real permission refusal is reported as one', async () => {
  fake = github.start();
  fake.fail({ method: 'GET', path: /\/issues$/, status: 403, body: { message: 'Resource not accessible by integration' } });
  const { run } = await report();
  await assert.rejects(run, /issues: write/);
});

test('describeGitHubError tells a 429 and a secondary limit from a permission 403', () => {
  /** @param {number} status @param {string} message @param {Record<string, string>} headers */
  const err = (status, message, headers = {}) => Object.assign(new Error(message), { status, response: { headers } });
  assert.equal(describeGitHubError(err(429, 'Too Many Requests', { 'retry-after': '30' })).kind, 'rate-limit');
  assert.equal(describeGitHubError(err(403, SECONDARY.message)).kind, 'rate-limit');
  assert.equal(describeGitHubError(err(403, 'Resource not accessible by integration')).kind, 'permission');
  assert.equal(describeGitHubError(err(502, 'Bad Gateway')).kind, 'server');
});
