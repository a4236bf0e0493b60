/**
 * Triage: the engineer's answer (label or command) on the nock fake (fake-github-nock.js, a
 * stand-in that enforces authorship and author_association), acted on once; false alarms
 * counted per metric for the site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { triageCommand } from '../../scripts/github/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { readTriageAnswer } from '../../scripts/github/triage-answers.js';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { loadFixtures } from './fixture-store.js';
import { FAKE_API, useFakeGitHubPerTest } from './fake-github-nock.js';

const github = useFakeGitHubPerTest();
/** @type {ReturnType<typeof github.start>|null} */
let fake = null;

const settings = githubSettings({ token: 'ghs_test', repository: 'acme/bench', apiUrl: FAKE_API, refName: 'main' });
const timing = { retryAfterBaseMs: 1 };

/**
 * Issues as the report opens them: #1 10.11.19 (two throughput tests), #2 the same with a
 * latency test added (another release), #3 an ad-hoc run's issue.
 */
async function seedIssues() {
  const { c19, records } = await loadFixtures();
  const context = { siteUrl: null, runUrl: null, label: 'tagbench-regression' };
  const plan = renderIssue(c19, records, context);
  const c21 = structuredClone(c19);
  c21.candidate.version = '10.11.21';
  c21.tests[0].metric = 'latencyP95Ms';
  const plan21 = renderIssue(c21, records, context);
  const adHoc = renderIssue(c19, records, { ...context, adHoc: { base: null, mycnf: 'small', only: [] } });
  assert.ok(plan && plan21 && adHoc);
  return [
    { number: 1, title: plan.title, body: plan.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u1' },
    { number: 2, title: plan21.title, body: plan21.body, state: 'open', labels: ['tagbench-regression'], html_url: 'u2' },
    { number: 3, title: adHoc.title, body: adHoc.body, state: 'open', labels: ['tagbench-regression', 'tagbench:noise'], html_url: 'u3' },
  ];
}

async function run(/** @type {Record<string, any>} */ extra = {}) {
  const dir = await github.tempDir('tagbench-triage-');
  const out = join(dir, 'noise.json');
  const code = await triageCommand({ out, timing, ...extra }, settings);
  return { code, summary: JSON.parse(await readFile(out, 'utf8')) };
}

test('answers by label and by command: noise counted per metric, expected change dispatches the promotion once', async () => {
  const issues = await seedIssues();
  issues[0].labels.push('tagbench:noise');
  fake = github.start({
    issues,
    comments: [
      { issue: 2, body: '/tagbench expected-change', login: 'alice', association: 'MEMBER', createdAt: '2026-01-02T00:00:00Z' },
      { issue: 2, body: '/tagbench noise', login: 'mallory', association: 'NONE', createdAt: '2026-01-03T00:00:00Z' },
    ],
  });
  const first = await run();
  assert.equal(first.code, 0);
  assert.equal(first.summary.issues, 2, 'the ad-hoc issue is no verdict on a release: left out');
  assert.deepEqual(first.summary.answers, { 'confirmed-bug': 0, 'expected-change': 1, noise: 1, unanswered: 0 });
  assert.deepEqual(first.summary.metrics, {
    latencyP95Ms: { issues: 1, noise: 0, confirmedBug: 0, expectedChange: 1, unanswered: 0 },
    throughput: { issues: 2, noise: 1, confirmedBug: 0, expectedChange: 1, unanswered: 0 },
  });
  assert.deepEqual(first.summary.noise.map((/** @type {any} */ n) => [n.number, n.version, n.tests]), [[1, '10.11.19', ['point-query:throughput', 'update-index:throughput']]]);
  assert.deepEqual(fake.dispatches, [{ workflow: 'promote-baseline.yml', ref: 'main', inputs: { product: 'mariadb', line: '10.11', version: '10.11.21', host_class: 'local', suite: 'smoke', note: 'Expected change, answered on #2' } }]);
  assert.deepEqual(fake.comments.filter((c) => c.login === 'github-actions[bot]').map((c) => c.issue).sort(), [1, 2], 'each answer acknowledged');

  // A second scheduled run acts on nothing again.
  const writes = fake.writes().length;
  const second = await run();
  assert.deepEqual(second.summary.answers, first.summary.answers);
  assert.equal(fake.writes().length, writes, 'no second dispatch, no second acknowledgement');
  assert.equal(fake.dispatches.length, 1);
});

test('a changed answer is acted on again; --read-only writes nothing', async () => {
  const issues = await seedIssues();
  issues[0].labels.push('tagbench:noise');
  fake = github.start({ issues: issues.slice(0, 1) });
  await run();
  fake.issues[0].labels = ['tagbench-regression', 'tagbench:confirmed-bug'];
  const before = fake.writes().length;
  const ro = await run({ readOnly: true });
  assert.deepEqual(ro.summary.answers, { 'confirmed-bug': 1, 'expected-change': 0, noise: 0, unanswered: 0 });
  assert.equal(fake.writes().length, before);
  await run();
  assert.match(fake.comments.at(-1)?.body ?? '', /^<!-- tagbench-triage \{"v":1,"answer":"confirmed-bug"\} -->/);
});

test('a failed dispatch is reported and retried by the next run; the counts are still written', async () => {
  const issues = await seedIssues();
  issues[0].labels.push('tagbench:expected-change');
  fake = github.start({ issues: issues.slice(0, 1) });
  fake.fail({ method: 'POST', path: /\/dispatches$/, status: 403, body: { message: 'Resource not accessible by integration' } });
  const dir = await github.tempDir('tagbench-triage-');
  const out = join(dir, 'noise.json');
  await assert.rejects(triageCommand({ out, timing }, settings), /#1 failed .*HTTP 403/);
  assert.equal(JSON.parse(await readFile(out, 'utf8')).answers['expected-change'], 1);
  assert.equal(fake.comments.length, 0, 'no acknowledgement of what was not done');
  await triageCommand({ out, timing }, settings);
  assert.equal(fake.dispatches.length, 1);
});

test('readTriageAnswer: labels win, contradicting labels count as none, commands only from members', () => {
  const c = (/** @type {string} */ body, /** @type {string} */ association, /** @type {string} */ at) => ({ body, login: 'x', authorAssociation: association, createdAt: at });
  assert.equal(readTriageAnswer(['tagbench:noise'], [c('/tagbench confirmed-bug', 'OWNER', '1')]).answer, 'noise');
  const both = readTriageAnswer(['tagbench:noise', 'tagbench:confirmed-bug'], []);
  assert.equal(both.answer, null);
  assert.match(both.problem ?? '', /contradictory/);
  assert.equal(readTriageAnswer([], [c('/tagbench noise', 'COLLABORATOR', '1'), c('/tagbench confirmed-bug', 'MEMBER', '2')]).answer, 'confirmed-bug');
  const outsider = readTriageAnswer([], [c('/tagbench noise', 'CONTRIBUTOR', '1')]);
  assert.equal(outsider.answer, null);
  assert.match(outsider.problem ?? '', /not owners, members or collaborators/);
  assert.equal(readTriageAnswer([], [c('I think /tagbench noise maybe', 'OWNER', '1')]).answer, null, 'a command is a line of its own');
});
