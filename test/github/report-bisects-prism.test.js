/**
 * The requests of tagbench report --bisects against GitHub's own OpenAPI description (Prism,
 * see prism-harness.js): finding the issue, reading its comments, posting the comment and
 * editing it must all be documented requests with valid bodies. Prism is stateless (its
 * answers are the description's examples), so the assertions are on the requests sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { reportCommand } from '../../scripts/github/report-command.js';
import { githubSettings } from '../support/github-settings.js';
import { createGitHubClient } from '../../scripts/github/github-client.js';
import { editComment, syncBisectComment } from '../../scripts/github/report-bisects.js';
import { parseBisectMarker } from '../../scripts/github/render-bisect-comment.js';
import { writeBisectReport } from '../../scripts/store/index.js';
import { makeBisectReport } from '../support/bisect-report.js';
import { usePrismForFile } from './prism-harness.js';

const ctx = usePrismForFile();

test('report --bisects looks the issue up with documented requests; no issue of the release: nothing posted', { timeout: 300_000 }, async () => {
  ctx.prism.clear();
  const store = join(ctx.dir, 'store');
  await writeBisectReport(store, makeBisectReport());
  const settings = githubSettings({ token: 'ghs_prism', repository: 'acme/bench', apiUrl: ctx.prism.url });
  assert.equal(await reportCommand({ store, bisects: true, summaryFile: join(ctx.dir, 'summary.md') }, settings), 0);
  // The comparisons' part and the bisects' part each read the issues; the example issue has no marker.
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path}`), ['GET /user', 'GET /repos/acme/bench/issues', 'GET /user', 'GET /repos/acme/bench/issues']);
  for (const r of ctx.prism.requests) {
    assert.deepEqual(r.requestViolations, [], `${r.method} ${r.path} violated the description`);
    assert.ok(r.status < 400, `${r.method} ${r.path} got ${r.status}`);
  }
  assert.equal(ctx.prism.requests[3].query.labels, 'tagbench-regression');
});

test('posting and editing the bisect comment are valid requests', { timeout: 120_000 }, async () => {
  ctx.prism.clear();
  const octokit = createGitHubClient({ token: 't', baseUrl: ctx.prism.url, log: () => {} });
  const report = { ...makeBisectReport(), id: 'bisect-20261122T230000Z-aaaabbbb' };
  const comment = { octokit, repo: { owner: 'acme', repo: 'bench' }, trustedLogins: new Set(['github-actions[bot]']), log: () => {}, recheckDelayMs: 0 };
  const outcome = await syncBisectComment(comment, report, { number: 1347, url: 'https://github.example/acme/bench/issues/1347' });
  // The example comments carry no bisect marker: a new comment.
  assert.equal(outcome.action, 'commented');
  await editComment(comment, 42, 'edited body');
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path}`), ['GET /repos/acme/bench/issues/1347/comments', 'POST /repos/acme/bench/issues/1347/comments', 'PATCH /repos/acme/bench/issues/comments/42']);
  for (const r of ctx.prism.requests) {
    assert.deepEqual(r.requestViolations, [], `${r.method} ${r.path} violated the description`);
    assert.ok(r.status < 400, `${r.method} ${r.path} got ${r.status}`);
  }
  assert.equal(parseBisectMarker(ctx.prism.requests[1].body.body), report.id);
  assert.deepEqual(ctx.prism.requests[2].body, { body: 'edited body' });
});
