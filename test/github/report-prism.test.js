/**
 * The report's Octokit calls against GitHub's own OpenAPI description (Prism, see
 * prism-harness.js): every request it sends must be one GitHub documents, with a valid body.
 * Prism is stateless, so the assertions are on the requests sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issuesCommand } from '../../scripts/github/commands.js';
import { reportCommand } from '../../scripts/github/report-command.js';
import { readGitHubSettings } from '../../scripts/github/settings.js';
import { githubSettings } from '../support/github-settings.js';
import { createGitHubClient } from '../../scripts/github/github-client.js';
import { dispatchPromotion } from '../../scripts/github/triage.js';
import { repairSpec, usePrismForFile } from './prism-harness.js';
import { FIXTURE_STORE } from './fixture-store.js';

const ctx = usePrismForFile();

test('a report sends only valid, documented requests: find, labels, create, recovery comment, close', { timeout: 120_000 }, async () => {
  ctx.prism.clear();
  // The settings as the CLI's entry reads them from an Actions environment.
  const settings = readGitHubSettings({ GITHUB_TOKEN: 'ghs_prism', GITHUB_REPOSITORY: 'acme/bench', GITHUB_API_URL: ctx.prism.url, GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '42' });
  const code = await reportCommand({ store: FIXTURE_STORE, closeOnRecovery: true, siteUrl: 'https://acme.example/bench/', summaryFile: join(ctx.dir, 'summary.md') }, settings);
  assert.equal(code, 0);
  const sent = ctx.prism.requests.map((r) => `${r.method} ${r.path}`);
  // The description's example issue (#1347) carries no tagbench marker: a new issue is created.
  // The created issue then recovers in 10.11.20 (the example answer is issue #1347 too).
  assert.deepEqual(sent, [
    'GET /user',
    'GET /repos/acme/bench/issues',
    'GET /repos/acme/bench/labels',
    ...sent.filter((s) => s === 'POST /repos/acme/bench/labels'),
    // Looked up again right before creating: a parallel job or a lost answer may have made it.
    'GET /repos/acme/bench/issues',
    'POST /repos/acme/bench/issues',
    'GET /repos/acme/bench/issues/1347/comments',
    'POST /repos/acme/bench/issues/1347/comments',
    'PATCH /repos/acme/bench/issues/1347',
  ]);
  for (const r of ctx.prism.requests) {
    assert.deepEqual(r.requestViolations, [], `${r.method} ${r.path} violated the description`);
    assert.ok(r.status < 400, `${r.method} ${r.path} got ${r.status}`);
  }
  const list = ctx.prism.requests[1];
  assert.deepEqual({ labels: list.query.labels, state: list.query.state }, { labels: 'tagbench-regression', state: 'all' });
  const labels = ctx.prism.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/labels')).map((r) => r.body.name).sort();
  // The example label list holds only "bug": all of ours are created, the triage answers too.
  assert.deepEqual(labels, ['host:local', 'product:mariadb-10.11', 'tagbench-regression', 'tagbench:confirmed-bug', 'tagbench:expected-change', 'tagbench:noise']);
  const create = ctx.prism.requests.find((r) => r.method === 'POST' && r.path === '/repos/acme/bench/issues');
  assert.match(create?.body.title, /mariadb 10\.11\.19 vs 10\.11\.18 on local \(smoke\): 2 tests/);
  assert.match(create?.body.body, /^<!-- tagbench-issue \{"v":1,"fingerprint":"tagbench-regression\/v1\/mariadb\/10\.11\/10\.11\.19\/local\/smoke"/);
  assert.match(create?.body.body, /https:\/\/github\.example\/acme\/bench\/actions\/runs\/42/);
  const comment = ctx.prism.requests.find((r) => r.method === 'POST' && r.path.endsWith('/comments'));
  assert.match(comment?.body.body, /^<!-- tagbench-recovery \{"v":1,"version":"10\.11\.20"\} -->/);
  const close = ctx.prism.requests.at(-1);
  assert.deepEqual(close?.body, { state: 'closed', state_reason: 'completed' });
  assert.equal(create?.accept, 'application/vnd.github.v3+json', 'the client is unchanged: the proxy rewrites Accept');
});

test('requests that break the description are rejected with 422 and sl-violations', { timeout: 60_000 }, async () => {
  ctx.prism.clear();
  const octokit = createGitHubClient({ token: 't', baseUrl: ctx.prism.url, log: () => {} });
  /** @type {[string, Record<string, unknown>][]} */
  const bad = [
    ['POST /repos/{owner}/{repo}/issues', { body: 'an issue without a title' }],
    // Update issue is one of the bodies Prism would skip without repairSpec.
    ['PATCH /repos/{owner}/{repo}/issues/{issue_number}', { issue_number: 3, state: 'bogus' }],
    ['POST /repos/{owner}/{repo}/labels', { color: 'ffffff' }],
  ];
  for (const [route, params] of bad) {
    await assert.rejects(octokit.request(route, { owner: 'acme', repo: 'bench', ...params }), (err) => {
      assert.equal(/** @type {{status?: number}} */ (err).status, 422, route);
      return true;
    });
  }
  assert.equal(ctx.prism.requests.length, bad.length, 'a 422 is not retried');
  for (const r of ctx.prism.requests) assert.ok(r.requestViolations.length > 0, `${r.method} ${r.path}: ${r.violations}`);
});

test('issues lists only issues carrying a tagbench marker', { timeout: 60_000 }, async () => {
  ctx.prism.clear();
  const out = join(ctx.dir, 'issues.json');
  assert.equal(await issuesCommand({ out }, githubSettings({ token: 't', repository: 'acme/bench', apiUrl: ctx.prism.url })), 0);
  // The description's example issue has no marker (and is a pull request): nothing to list.
  assert.deepEqual(JSON.parse(await readFile(out, 'utf8')), []);
  assert.deepEqual(ctx.prism.requests.map((r) => [r.method, r.path, r.query.labels, r.requestViolations]), [['GET', '/user', undefined, []], ['GET', '/repos/acme/bench/issues', 'tagbench-regression', []]]);
});

test('the triage\'s promotion dispatch is a valid workflow_dispatch request', { timeout: 60_000 }, async () => {
  ctx.prism.clear();
  const octokit = createGitHubClient({ token: 't', baseUrl: ctx.prism.url, log: () => {} });
  const key = { product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'local', suite: 'smoke' };
  await dispatchPromotion(octokit, { owner: 'acme', repo: 'bench' }, { workflow: 'promote-baseline.yml', ref: 'main', key, issueNumber: 7 });
  const [sent] = ctx.prism.requests;
  assert.equal(`${sent.method} ${sent.path}`, 'POST /repos/acme/bench/actions/workflows/promote-baseline.yml/dispatches');
  assert.deepEqual(sent.requestViolations, []);
  assert.ok(sent.status < 400, `got ${sent.status}`);
  assert.deepEqual(sent.body, { ref: 'main', inputs: { product: 'mariadb', line: '10.11', version: '10.11.19', host_class: 'local', suite: 'smoke', note: 'Expected change, answered on #7' } });
});

test('repairSpec turns a nullable schema without type into "schema or null"', () => {
  const spec = {
    a: { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
    b: { allOf: [{ type: 'object' }], nullable: true, description: 'd' },
    c: { type: 'string', nullable: true },
    d: { description: 'any', nullable: true },
  };
  assert.equal(repairSpec(spec), 3);
  assert.deepEqual(spec.a, { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] });
  assert.deepEqual(spec.b, { description: 'd', anyOf: [{ allOf: [{ type: 'object' }] }, { type: 'null' }] });
  assert.deepEqual(spec.c, { type: 'string', nullable: true }, 'nullable next to a type is valid OpenAPI 3.0: kept');
  assert.deepEqual(spec.d, { description: 'any' });
});
