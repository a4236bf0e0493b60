/**
 * triage.yml, dispatched and run by act on this host against the nock fake of GitHub's API,
 * served over HTTP to act's step (fake-github-server.js; the fake enforces who may write what,
 * authorship and author_association). The workflow's own steps run for real: npm ci, tagbench
 * triage with the job's token, the artifact stand-in (run-act.js). A first run acts on the
 * answers (acknowledges both, dispatches the promotion for the expected change); then one
 * answer changes, and a read-only dispatch counts the new answer but writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { loadFixtures } from '../github/fixture-store.js';
import { startFakeGitHub } from '../github/fake-github-nock.js';
import { serveFakeGitHub } from './fake-github-server.js';
import { describeFailure, runAct, STUB_MARK } from './run-act.js';

/** Two official issues as the report opens them: #1 answered noise by label, #2 expected change by a member's command. */
async function seedIssues() {
  const { c19, records } = await loadFixtures();
  const context = { siteUrl: null, runUrl: null, label: 'tagbench-regression' };
  const plan19 = renderIssue(c19, records, context);
  const c21 = structuredClone(c19);
  c21.candidate.version = '10.11.21';
  const plan21 = renderIssue(c21, records, context);
  assert.ok(plan19 && plan21);
  return [
    { number: 1, title: plan19.title, body: plan19.body, state: 'open', labels: ['tagbench-regression', 'tagbench:noise'], html_url: 'u1' },
    { number: 2, title: plan21.title, body: plan21.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u2' },
  ];
}

/**
 * @param {string} dir
 * @param {string} apiUrl
 * @param {Record<string, unknown>} inputs
 */
function dispatch(dir, apiUrl, inputs) {
  return runAct({
    workflow: '.github/workflows/triage.yml',
    dir,
    event: { inputs },
    env: { GITHUB_API_URL: apiUrl, GITHUB_REPOSITORY: 'acme/bench', GITHUB_REF_NAME: 'main' },
    secrets: { GITHUB_TOKEN: 'ghs_fake_token_for_act' },
  });
}

test('act runs triage.yml: answers acted on once, promotion dispatched, false alarms counted; read-only writes nothing', { timeout: 15 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-triage-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  const fake = startFakeGitHub({
    issues: await seedIssues(),
    comments: [{ issue: 2, body: '/tagbench expected-change', login: 'alice', association: 'MEMBER', createdAt: '2026-01-02T00:00:00Z' }],
  });
  const server = await serveFakeGitHub();
  t.after(async () => {
    await server.close();
    fake.done();
  });

  const first = await dispatch(join(dir, 'first'), server.url, {});
  assert.equal(first.code, 0, describeFailure(first));
  assert.doesNotMatch(first.log, new RegExp(STUB_MARK), 'a remote action step was not skipped under act');
  assert.deepEqual(fake.dispatches, [{ workflow: 'promote-baseline.yml', ref: 'main', inputs: { product: 'mariadb', line: '10.11', version: '10.11.21', host_class: 'local', suite: 'smoke', note: 'Expected change, answered on #2' } }]);
  const acknowledged = fake.comments.filter((c) => c.login === 'github-actions[bot]');
  assert.deepEqual(acknowledged.map((c) => c.issue).sort(), [1, 2], 'each answer acknowledged once');

  // The summary the job uploaded (the artifact stand-in's copy).
  const runs = await readdir(first.artifacts);
  const summary = JSON.parse(await readFile(join(first.artifacts, runs[0], 'noise-summary-a1', 'files', 'noise-summary.json'), 'utf8'));
  assert.equal(summary.repo, 'acme/bench');
  assert.deepEqual(summary.answers, { 'confirmed-bug': 0, 'expected-change': 1, noise: 1, unanswered: 0 });
  assert.equal(summary.metrics.throughput.noise, 1);
  assert.deepEqual(summary.noise.map((/** @type {any} */ n) => n.number), [1]);

  // A changed answer, which a run that acts would acknowledge: the read-only run counts it and writes nothing.
  fake.issues[0].labels = ['tagbench-regression', 'tagbench:confirmed-bug'];
  const writes = fake.writes().length;
  // A string, as in GitHub's workflow_dispatch payload (act reads a JSON true there as false).
  const second = await dispatch(join(dir, 'second'), server.url, { read_only: 'true' });
  assert.equal(second.code, 0, describeFailure(second));
  assert.equal(fake.writes().length, writes, 'a read-only run writes nothing');
  const again = JSON.parse(await readFile(join(second.artifacts, (await readdir(second.artifacts))[0], 'noise-summary-a1', 'files', 'noise-summary.json'), 'utf8'));
  assert.deepEqual(again.answers, { 'confirmed-bug': 1, 'expected-change': 1, noise: 0, unanswered: 0 });
  passed = true;
});
