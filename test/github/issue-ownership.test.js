/**
 * Which issue a report may touch: only default runs the release's official issue, ad-hoc runs
 * (base, my.cnf or test-subset overrides) the job summary or an issue of their own; markers only
 * from the bot that writes them; the per-test policy (open / note / ignore). On the nock fake
 * (fake-github-nock.js, a stand-in that enforces authorship by the token's login).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issuesCommand } from '../../scripts/github/commands.js';
import { parseOverrides, reportCommand } from '../../scripts/github/report-command.js';
import { githubSettings } from '../support/github-settings.js';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { computeFingerprint, parseMarker } from '../../scripts/github/issue-marker.js';
import { loadFixtures, FIXTURE_STORE } from './fixture-store.js';
import { FAKE_API, useFakeGitHubPerTest } from './fake-github-nock.js';

const github = useFakeGitHubPerTest();
/** @type {ReturnType<typeof github.start>|null} */
let fake = null;
const tempDir = () => github.tempDir('tagbench-ownership-');

const settings = githubSettings({ token: 'ghs_test', repository: 'acme/bench', apiUrl: FAKE_API });
const timing = { retryAfterBaseMs: 1, recheckDelayMs: 0 };
const context = { siteUrl: null, runUrl: null, label: 'tagbench-regression' };
const LABELS = ['tagbench-regression', 'host:local', 'product:mariadb-10.11', 'tagbench:ad-hoc', 'tagbench:confirmed-bug', 'tagbench:expected-change', 'tagbench:noise'];

/** The official issue of 10.11.19 as an earlier default run left it. */
async function officialIssue() {
  const { c19, records } = await loadFixtures();
  const plan = renderIssue(c19, records, context);
  assert.ok(plan);
  return { number: 1, title: plan.title, body: plan.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u1' };
}

test('an ad-hoc run (overrides) reports in the job summary only by default: GitHub is not even asked', async () => {
  fake = github.start({ issues: [await officialIssue()], labels: LABELS });
  const dir = await tempDir();
  const code = await reportCommand({ store: FIXTURE_STORE, version: '10.11.19', mycnfOverride: 'small', summaryFile: join(dir, 's.md'), timing }, settings);
  assert.equal(code, 0);
  assert.deepEqual(fake.requests, []);
  const summary = await readFile(join(dir, 's.md'), 'utf8');
  assert.match(summary, /summary-only: .*\[ad-hoc: my\.cnf small\]/);
  assert.match(summary, /official issue of the release is never touched/);
});

test('an ad-hoc run with --ad-hoc-issues issue gets an issue of its own; the official one is untouched; reruns do not duplicate', async () => {
  const official = await officialIssue();
  fake = github.start({ issues: [official], labels: LABELS });
  const dir = await tempDir();
  const adHoc = { store: FIXTURE_STORE, version: '10.11.19', adHocIssues: 'issue', baseOverride: '10.11.17', onlyOverride: 'update-index,point-query', summaryFile: join(dir, 's.md'), timing };
  assert.equal(await reportCommand(adHoc, settings), 0);
  assert.equal(await reportCommand(adHoc, settings), 0);
  assert.equal(await reportCommand({ ...adHoc, onlyOverride: 'point-query' }, settings), 0);
  assert.equal(fake.issues.length, 3, 'the official issue plus one per distinct set of overrides');
  assert.equal(fake.issues[0].body, official.body, 'the official issue was not rewritten');
  assert.equal(fake.requests.filter((r) => r.method !== 'GET' && r.path.endsWith('/issues/1')).length, 0);
  const markers = fake.issues.slice(1).map((i) => parseMarker(i.body));
  assert.deepEqual(markers.map((m) => m?.fingerprint), [
    'tagbench-regression/v1/mariadb/10.11/10.11.19/local/smoke/ad-hoc/base=10.11.17/mycnf=/only=point-query+update-index',
    'tagbench-regression/v1/mariadb/10.11/10.11.19/local/smoke/ad-hoc/base=10.11.17/mycnf=/only=point-query',
  ]);
  assert.ok(fake.issues.slice(1).every((i) => i.labels.includes('tagbench:ad-hoc')));
  // The site's list links releases to their official issues only.
  const out = join(dir, 'issues.json');
  assert.equal(await issuesCommand({ out }, settings), 0);
  assert.deepEqual(JSON.parse(await readFile(out, 'utf8')).map((/** @type {any} */ i) => i.number), [1]);
});

test('a default run never updates an ad-hoc issue, and an ad-hoc run notes no recovery', async () => {
  const { c19, records } = await loadFixtures();
  const adHocPlan = renderIssue(c19, records, { ...context, adHoc: { base: null, mycnf: 'small', only: [] } });
  assert.ok(adHocPlan);
  fake = github.start({ issues: [{ number: 1, title: adHocPlan.title, body: adHocPlan.body, state: 'open', labels: ['tagbench-regression', 'tagbench:ad-hoc'], html_url: 'u1' }], labels: LABELS });
  assert.equal(await reportCommand({ store: FIXTURE_STORE, summaryFile: join(await tempDir(), 's.md'), timing }, settings), 0);
  assert.equal(fake.issues.length, 2, 'the default run opened the official issue beside the ad-hoc one');
  assert.equal(fake.issues[0].body, adHocPlan.body);
  assert.deepEqual(fake.comments.map((c) => c.issue), [2], 'the recovery in 10.11.20 is noted on the official issue only');
});

test('markers count only in issues the bot opened: a copied marker neither redirects nor silences the report', async () => {
  const official = await officialIssue();
  fake = github.start({
    issues: [{ ...official, author: 'mallory', title: 'copied' }],
    comments: [{ issue: 1, body: '<!-- tagbench-recovery {"v":1,"version":"10.11.20"} -->', login: 'mallory' }],
    labels: LABELS,
  });
  assert.equal(await reportCommand({ store: FIXTURE_STORE, closeOnRecovery: true, summaryFile: join(await tempDir(), 's.md'), timing }, settings), 0);
  assert.equal(fake.issues.length, 2, 'a new issue instead of adopting mallory\'s');
  assert.equal(fake.issues[0].title, 'copied');
  assert.equal(fake.issues[0].state, 'open', 'mallory\'s issue is not closed by the recovery');
  assert.equal(fake.issues[1].state, 'closed', 'the bot\'s own issue recovers in 10.11.20');
  assert.equal(fake.requests.filter((r) => r.method !== 'GET' && r.path.includes('/issues/1')).length, 0);
});

test('a configured bot login is trusted; the token\'s own login is trusted when it can read it', async () => {
  const official = await officialIssue();
  fake = github.start({ issues: [{ ...official, author: 'tagbench-app[bot]' }], labels: LABELS, authLogin: 'tagbench-app[bot]' });
  assert.equal(await reportCommand({ store: FIXTURE_STORE, version: '10.11.19', summaryFile: join(await tempDir(), 's.md'), timing }, settings), 0);
  assert.equal(fake.issues.length, 1, 'the token\'s own login (GET /user) is trusted');
  fake.done();
  fake = github.start({ issues: [{ ...official, author: 'release-bot' }], labels: LABELS });
  assert.equal(await reportCommand({ store: FIXTURE_STORE, version: '10.11.19', botLogin: 'release-bot', summaryFile: join(await tempDir(), 's.md'), timing }, settings), 0);
  assert.equal(fake.issues.length, 1, '--bot-login is trusted');
});

test('overrides: empty strings are a default run; a bad value is refused by name', () => {
  assert.equal(parseOverrides({ baseOverride: '', mycnfOverride: '', onlyOverride: '' }), null);
  assert.deepEqual(parseOverrides({ onlyOverride: 'b, a,a' }), { base: null, mycnf: null, only: ['a', 'b'] });
  assert.throws(() => parseOverrides({ mycnfOverride: '../x' }), /--mycnf-override is '\.\.\/x'/);
  const official = computeFingerprint({ product: 'p', line: 'l', version: 'v', hostClass: 'h', suite: 's' });
  assert.equal(official, 'tagbench-regression/v1/p/l/v/h/s', 'the official fingerprint is unchanged (v1), so open issues are found again');
});

test('per-test policy: ignore leaves a test out, note lists it without opening an issue, unknown counts as open', async () => {
  const { c19, records } = await loadFixtures();
  /** @param {Record<string, string>} policies */
  const withPolicies = (policies) => {
    const c = structuredClone(c19);
    const tests = /** @type {Record<string, any>} */ ({ ...(c.thresholds.tests ?? {}) });
    for (const [name, policy] of Object.entries(policies)) tests[name] = { ...(tests[name] ?? {}), policy };
    c.thresholds = { ...c.thresholds, tests };
    return c;
  };
  const ignored = renderIssue(withPolicies({ 'point-query': 'ignore' }), records, context);
  assert.deepEqual(ignored?.marker.tests, ['update-index:throughput']);
  assert.doesNotMatch(ignored?.body ?? '', /point-query/);
  const noted = renderIssue(withPolicies({ 'point-query': 'note' }), records, context);
  assert.deepEqual(noted?.marker.tests, ['update-index:throughput']);
  assert.match(noted?.body ?? '', /noted only .*`point-query:throughput`/);
  assert.equal(renderIssue(withPolicies({ 'point-query': 'note', 'update-index': 'ignore' }), records, context), null, 'no test with policy open: no issue');
  assert.deepEqual(renderIssue(withPolicies({ 'point-query': 'bogus' }), records, context)?.marker.tests, ['point-query:throughput', 'update-index:throughput']);
});
