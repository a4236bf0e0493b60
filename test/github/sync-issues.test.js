import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createGitHubClient } from '../../scripts/github/github-client.js';
import { ensureLabels, fetchTagbenchIssues, syncIssue, syncRecoveries } from '../../scripts/github/sync-issues.js';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { loadFixtures } from './fixture-store.js';
import { FAKE_API, startFakeGitHub } from './fake-github-nock.js';

const repo = { owner: 'acme', repo: 'bench' };
const context = { siteUrl: null, runUrl: 'https://github.example/acme/bench/actions/runs/1', label: 'tagbench-regression' };
const links = { siteUrl: null, runUrl: context.runUrl };
// Throttling off here: these tests check decisions, not request spacing (see github-client.js).
const client = () => createGitHubClient({ token: 't', baseUrl: FAKE_API, log: () => {}, throttle: false, retries: 0 });
const trusted = new Set(['github-actions[bot]']);
/** @param {ReturnType<typeof client>} octokit */
const syncContext = (octokit) => ({ octokit, repo, label: context.label, trustedLogins: trusted, log: () => {}, recheckDelayMs: 0 });

/** @type {ReturnType<typeof startFakeGitHub>|null} */
let fake = null;
afterEach(() => fake?.done());

async function plan19() {
  const { c19, records } = await loadFixtures();
  const plan = renderIssue(c19, records, context);
  assert.ok(plan);
  return plan;
}

test('no issue with the fingerprint yet: creates one (and only the missing labels)', async () => {
  const plan = await plan19();
  fake = startFakeGitHub({ labels: ['bug', 'host:local'] });
  const octokit = client();
  const issues = await fetchTagbenchIssues(octokit, repo, context.label, trusted);
  const created = await ensureLabels(octokit, repo, plan.labels, context.label);
  const outcome = await syncIssue(syncContext(octokit), plan, issues);
  assert.deepEqual(created.sort(), ['product:mariadb-10.11', 'tagbench-regression']);
  assert.equal(outcome.action, 'created');
  assert.equal(fake.issues.length, 1);
  assert.ok(fake.issues[0].body.startsWith('<!-- tagbench-issue '));
  assert.deepEqual(fake.issues[0].labels, plan.labels);
});

test('an issue with the same fingerprint and numbers: nothing is written', async () => {
  const plan = await plan19();
  fake = startFakeGitHub({ issues: [{ number: 4, title: 'renamed by a person', body: plan.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u4' }] });
  const octokit = client();
  const outcome = await syncIssue(syncContext(octokit), plan, await fetchTagbenchIssues(octokit, repo, context.label, trusted));
  assert.equal(outcome.action, 'unchanged');
  assert.equal(outcome.number, 4);
  assert.deepEqual(fake.writes(), []);
});

test('same fingerprint, new numbers: the open issue is rewritten and a comment says so', async () => {
  const old = await plan19();
  const { c19, records } = await loadFixtures();
  const changed = structuredClone(c19);
  changed.tests[0].candidate = { median: 25000, min: 24800, max: 25300, n: 3 };
  const plan = renderIssue(changed, records, context);
  assert.ok(plan);
  fake = startFakeGitHub({ issues: [
    { number: 1, title: 'other', body: 'no marker here', state: 'open', labels: ['tagbench-regression'], html_url: 'u1' },
    { number: 2, title: old.title, body: old.body, state: 'open', labels: ['tagbench-regression', 'triaged'], html_url: 'u2' },
  ] });
  const octokit = client();
  const outcome = await syncIssue(syncContext(octokit), plan, await fetchTagbenchIssues(octokit, repo, context.label, trusted));
  assert.equal(outcome.action, 'updated');
  assert.deepEqual(fake.writes().map((w) => `${w.method} ${w.path}`), ['PATCH /repos/acme/bench/issues/2', 'POST /repos/acme/bench/issues/2/comments']);
  assert.match(fake.issues[1].body, /25000 \(24800–25300, n=3\)/);
  assert.deepEqual(fake.issues[1].labels, ['tagbench-regression', 'triaged'], 'labels people added are kept');
  assert.equal(fake.issues[0].body, 'no marker here');
});

test('same fingerprint on a closed issue: a comment, no reopening', async () => {
  const old = await plan19();
  const { c19, records } = await loadFixtures();
  const changed = structuredClone(c19);
  changed.tests[1].candidate = { median: 8000, min: 7900, max: 8100, n: 3 };
  const plan = renderIssue(changed, records, context);
  assert.ok(plan);
  fake = startFakeGitHub({ issues: [{ number: 1, title: old.title, body: old.body, state: 'closed', labels: ['tagbench-regression'], html_url: 'u1' }] });
  const octokit = client();
  const outcome = await syncIssue(syncContext(octokit), plan, await fetchTagbenchIssues(octokit, repo, context.label, trusted));
  assert.equal(outcome.action, 'commented');
  assert.deepEqual(fake.writes().map((w) => `${w.method} ${w.path}`), ['POST /repos/acme/bench/issues/1/comments']);
  assert.equal(fake.issues[0].state, 'closed');
});

test('a later release that recovers: one comment, closed only when configured, never twice', async () => {
  const old = await plan19();
  const { c20 } = await loadFixtures();
  const seed = { issues: [{ number: 3, title: old.title, body: old.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u3' }] };

  fake = startFakeGitHub(seed);
  let octokit = client();
  let outcomes = await syncRecoveries(syncContext(octokit), c20, await fetchTagbenchIssues(octokit, repo, context.label, trusted), { ...links, closeOnRecovery: false });
  assert.deepEqual(outcomes.map((o) => o.action), ['recovery-commented']);
  assert.match(fake.comments[0].body, /Recovered in `mariadb 10\.11\.20`/);
  assert.match(fake.comments[0].body, /\| update-index:throughput \| improvement \|/);
  assert.equal(fake.issues[0].state, 'open');
  // Reporting 10.11.20 again must not repeat the comment.
  outcomes = await syncRecoveries(syncContext(octokit), c20, await fetchTagbenchIssues(octokit, repo, context.label, trusted), { ...links, closeOnRecovery: false });
  assert.deepEqual(outcomes.map((o) => o.action), ['recovery-known']);
  assert.equal(fake.comments.length, 1);
  fake.done();

  fake = startFakeGitHub(seed);
  octokit = client();
  outcomes = await syncRecoveries(syncContext(octokit), c20, await fetchTagbenchIssues(octokit, repo, context.label, trusted), { ...links, closeOnRecovery: true });
  assert.deepEqual(outcomes.map((o) => o.action), ['recovery-closed']);
  assert.equal(fake.issues[0].state, 'closed');
});

test('a comparison of the same or an earlier release is no recovery', async () => {
  const old = await plan19();
  const { c19 } = await loadFixtures();
  const earlier = { ...structuredClone(c19), candidate: { version: '10.11.17', runIds: [] } };
  for (const t of earlier.tests) t.verdict = 'unchanged';
  fake = startFakeGitHub({ issues: [{ number: 3, title: old.title, body: old.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u3' }] });
  const octokit = client();
  const issues = await fetchTagbenchIssues(octokit, repo, context.label, trusted);
  assert.deepEqual(await syncRecoveries(syncContext(octokit), earlier, issues, { ...links, closeOnRecovery: true }), []);
  assert.deepEqual(await syncRecoveries(syncContext(octokit), c19, issues, { ...links, closeOnRecovery: true }), []);
  assert.deepEqual(fake.writes(), []);
});
