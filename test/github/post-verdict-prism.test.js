/**
 * The verdict on a commit, posted by the production client (Octokit with retry and throttling, as
 * `tagbench post-verdict` builds it) through Prism running as a validating proxy of GitHub's own
 * OpenAPI description (prism-harness.js): every request must be one GitHub documents, with a
 * valid body, and every answer must have the shape the description gives. Behind Prism is the
 * STAND-IN for GitHub's state (fake-github-nock.js, served over HTTP by fake-github-server.js):
 * it keeps check runs, statuses and comments and enforces the rules of GitHub the poster depends
 * on (only a GitHub App's token may create check runs; output sizes in bytes; comment size;
 * commits the repository has; the newest check run of a name). Prism is needed here because
 * stateless examples cannot show "created, then updated, never twice".
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { postVerdictCommand } from '../../scripts/github/verdict-command.js';
import { githubSettings } from '../support/github-settings.js';
import { createGitHubClient } from '../../scripts/github/github-client.js';
import { GITHUB_LIMITS, parseVerdictMarker, renderVerdict } from '../../scripts/github/render-verdict.js';
import { postVerdict } from '../../scripts/github/post-verdict.js';
import { serveFakeGitHub } from '../github-workflows/fake-github-server.js';
import { useFakeGitHubPerTest } from './fake-github-nock.js';
import { usePrismForFile } from './prism-harness.js';
import { FIXTURE_STORE, loadFixtures } from './fixture-store.js';

/** @type {{url: string, close: () => Promise<void>}|null} */
let bridge = null;
const ctx = usePrismForFile({ upstream: async () => (bridge = await serveFakeGitHub()).url });
after(async () => { await bridge?.close(); });

const github = useFakeGitHubPerTest();

const SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const NEXT_SHA = 'beef0000beef0000beef0000beef0000beef0000';
const REPORT = 'https://github.example/acme/tagbench/actions/runs/99';
const timing = { throttle: false, retryAfterBaseMs: 1, recheckDelayMs: 0 };

/** @param {Parameters<typeof github.start>[0]} seed */
function start(seed) {
  const fake = github.start({ commits: [SHA, NEXT_SHA], ...seed });
  fake.allowLoopback();
  ctx.prism.clear();
  return fake;
}

/** The fixture store's comparison file of a release (10.11.19: regressions; 10.11.20: recovered). */
async function comparisonFile(/** @type {string} */ version) {
  const dir = join(FIXTURE_STORE, 'verdicts/local/mariadb', version, 'smoke');
  const [file] = await readdir(dir);
  return join(dir, file);
}

/** @param {Record<string, any>} options */
function post(options) {
  return postVerdictCommand({ repo: 'acme/bench', reportUrl: REPORT, timing, ...options }, githubSettings({ token: 'ghs_app', apiUrl: ctx.prism.url }));
}

function assertValid() {
  for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path} (HTTP ${r.status}) broke GitHub's description`);
}

test('check run created, then updated on the same commit (never a second); one comment created, then edited in place; a new push gets its own check run', { timeout: 300_000 }, async () => {
  const f = start({
    // Someone copied our marker into a comment of theirs: it is neither edited nor taken for ours.
    comments: [{ issue: 12, login: 'mallory', body: '<!-- tagbench-verdict {"v":1,"id":"tagbench/v1/mariadb/local/smoke"} -->\nfake verdict' }],
  });
  assert.equal(await post({ comparison: await comparisonFile('10.11.19'), sha: SHA, pull: '12' }), 0);
  // GET /user: which logins' comments are ours (a workflow token may not read it: 403, expected).
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path} ${r.status}`), [
    'GET /user 403',
    `GET /repos/acme/bench/commits/${SHA}/check-runs 200`,
    'POST /repos/acme/bench/check-runs 201',
    'GET /repos/acme/bench/issues/12/comments 200',
    'POST /repos/acme/bench/issues/12/comments 201',
  ]);
  assertValid();
  assert.equal(f.checkRuns.length, 1);
  const [run] = f.checkRuns;
  assert.deepEqual({ name: run.name, sha: run.head_sha, conclusion: run.conclusion, status: run.status, details: run.details_url, ext: run.external_id },
    { name: 'tagbench: smoke on local', sha: SHA, conclusion: 'failure', status: 'completed', details: REPORT, ext: 'tagbench/v1/mariadb/local/smoke' });
  assert.match(run.output.title ?? '', /^2 regressions: point-query /);
  const ours = () => f.comments.filter((c) => c.issue === 12 && c.login === 'github-actions[bot]');
  assert.equal(ours().length, 1);
  assert.match(ours()[0].body, /^<!-- tagbench-verdict .*\n## ❌ tagbench: smoke on local — 2 regressions/);
  assert.equal(f.comments.find((c) => c.login === 'mallory')?.body.endsWith('fake verdict'), true);

  // The same commit measured again (the recovered numbers): the check run and the comment change in place.
  ctx.prism.clear();
  assert.equal(await post({ comparison: await comparisonFile('10.11.20'), sha: SHA, pull: '12' }), 0);
  assert.deepEqual(ctx.prism.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`), [
    `PATCH /repos/acme/bench/check-runs/${run.id} 200`,
    `PATCH /repos/acme/bench/issues/comments/${f.comments.indexOf(ours()[0]) + 1} 200`,
  ]);
  assertValid();
  assert.equal(f.checkRuns.length, 1, 'updated, not a second check run');
  assert.equal(f.checkRuns[0].conclusion, 'success');
  assert.match(f.checkRuns[0].output.title ?? '', /^No regression/);
  assert.equal(ours().length, 1, 'exactly one verdict comment');
  assert.match(ours()[0].body, /## ✅ tagbench: smoke on local — No regression/);

  // A new push: a check run of its own on the new commit; still the one comment, now about it.
  ctx.prism.clear();
  assert.equal(await post({ comparison: await comparisonFile('10.11.19'), sha: NEXT_SHA, pull: '12' }), 0);
  assertValid();
  assert.deepEqual(f.checkRuns.map((r) => [r.head_sha, r.conclusion]), [[SHA, 'success'], [NEXT_SHA, 'failure']]);
  assert.equal(ours().length, 1);
  assert.ok(ours()[0].body.includes(`commit \`${NEXT_SHA}\``));
  assert.equal(parseVerdictMarker(ours()[0].body), f.checkRuns[0].external_id);
});

test('a run starts its check in progress (no comment yet), and its verdict completes that same check run', { timeout: 120_000 }, async () => {
  const f = start({});
  assert.equal(await post({ started: true, product: 'mariadb', hostClass: 'local', suite: 'smoke', about: 'pull/12/head against main', sha: SHA }), 0);
  assertValid();
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path} ${r.status}`), [
    `GET /repos/acme/bench/commits/${SHA}/check-runs 200`,
    'POST /repos/acme/bench/check-runs 201',
  ]);
  assert.equal(f.checkRuns.length, 1);
  assert.deepEqual([f.checkRuns[0].status, f.checkRuns[0].conclusion ?? null, f.checkRuns[0].name], ['in_progress', null, 'tagbench: smoke on local']);
  assert.match(f.checkRuns[0].output.summary ?? '', /pull\/12\/head against main/);
  assert.equal(f.comments.length, 0, 'the comment waits for the verdict');

  ctx.prism.clear();
  assert.equal(await post({ comparison: await comparisonFile('10.11.19'), sha: SHA, pull: '12' }), 0);
  assertValid();
  assert.equal(f.checkRuns.length, 1, 'the verdict completed the started check run, not a second one');
  assert.deepEqual([f.checkRuns[0].status, f.checkRuns[0].conclusion], ['completed', 'failure']);
});

test('a start with a personal token is a pending commit status; a start without its check\'s names is refused', { timeout: 120_000 }, async () => {
  const g = start({ personalToken: true });
  assert.equal(await post({ started: true, product: 'mariadb', hostClass: 'local', suite: 'smoke', sha: NEXT_SHA }), 0);
  assertValid();
  assert.deepEqual(g.statuses?.map((st) => [st.sha, st.state, st.context]), [[NEXT_SHA, 'pending', 'tagbench: smoke on local']]);
  await assert.rejects(post({ started: true, product: 'mariadb', hostClass: 'local', sha: SHA }), /--suite/);
});

test('a personal token may not create check runs: 403, then a commit status, and the comment says so', { timeout: 120_000 }, async () => {
  const f = start({ personalToken: true, authLogin: 'alice' });
  assert.equal(await post({ comparison: await comparisonFile('10.11.19'), sha: SHA, pull: '3' }), 0);
  assertValid();
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path} ${r.status}`), [
    'GET /user 200',
    `GET /repos/acme/bench/commits/${SHA}/check-runs 200`,
    'POST /repos/acme/bench/check-runs 403',
    `POST /repos/acme/bench/statuses/${SHA} 201`,
    'GET /repos/acme/bench/issues/3/comments 200',
    'POST /repos/acme/bench/issues/3/comments 201',
  ]);
  assert.equal(f.checkRuns.length, 0);
  assert.equal(f.statuses.length, 1);
  const [status] = f.statuses;
  assert.deepEqual({ state: status.state, context: status.context, target: status.target_url }, { state: 'failure', context: 'tagbench: smoke on local', target: REPORT });
  assert.ok((status.description ?? '').length <= GITHUB_LIMITS.statusDescription);
  assert.match(status.description ?? '', /^2 regressions: point-query/);
  assert.equal(f.comments.length, 1);
  assert.equal(f.comments[0].login, 'alice');
  assert.match(f.comments[0].body, /may not create check runs, so this verdict is on the commit as a commit status/);
  // Posted again: the status is posted again (its context shows the latest), the comment is left alone.
  ctx.prism.clear();
  assert.equal(await post({ comparison: await comparisonFile('10.11.19'), sha: SHA, pull: '3' }), 0);
  assert.equal(f.comments.length, 1);
  assert.equal(ctx.prism.requests.filter((r) => r.path.endsWith('/comments') && r.method !== 'GET').length, 0, 'same body: no edit');
});

test('5xx: a lost answer to the create is found again (one check run), a failed listing is retried', { timeout: 120_000 }, async () => {
  const f = start({});
  // GitHub created the check run but the answer was lost; then the listing fails once.
  f.fail({ method: 'POST', path: /\/check-runs$/, status: 502, afterApply: true, body: { message: 'Server Error' } });
  const { c19 } = await loadFixtures();
  const verdict = renderVerdict(c19, { sha: SHA, reportUrl: REPORT });
  const octokit = createGitHubClient({ token: 'ghs_app', baseUrl: ctx.prism.url, log: () => {}, ...timing });
  const logs = /** @type {string[]} */ ([]);
  let listed = 0;
  f.fail({ method: 'GET', path: /\/check-runs$/, status: 500, before: () => { listed += 1; }, body: { message: 'Server Error' } });
  const out = await postVerdict(verdict, { owner: 'acme', repo: 'bench', sha: SHA, pull: null }, { octokit, trustedLogins: new Set(), log: (l) => logs.push(l), recheckDelayMs: 0 });
  assert.deepEqual(out.failures, []);
  assert.equal(listed, 1);
  assert.deepEqual(ctx.prism.requests.map((r) => `${r.method} ${r.path.replace(SHA, '<sha>')} ${r.status}`), [
    'GET /repos/acme/bench/commits/<sha>/check-runs 500',
    'GET /repos/acme/bench/commits/<sha>/check-runs 200',
    'POST /repos/acme/bench/check-runs 502',
    'GET /repos/acme/bench/commits/<sha>/check-runs 200',
    `PATCH /repos/acme/bench/check-runs/${f.checkRuns[0].id} 200`,
  ]);
  assert.equal(f.checkRuns.length, 1, 'the POST was not repeated');
  assert.equal(out.check, 'created');
  assert.match(logs.join('\n'), /GitHub may have created it anyway/);
});

test('a secondary rate limit on the create is waited out, not taken for a token that may not create check runs', { timeout: 120_000 }, async () => {
  const f = start({});
  f.fail({ method: 'POST', path: /\/check-runs$/, status: 403, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' } });
  const { c19 } = await loadFixtures();
  const octokit = createGitHubClient({ token: 'ghs_app', baseUrl: ctx.prism.url, log: () => {}, retryAfterBaseMs: 1 });
  const out = await postVerdict(renderVerdict(c19, { sha: SHA }), { owner: 'acme', repo: 'bench', sha: SHA, pull: null }, { octokit, trustedLogins: new Set(), log: () => {}, recheckDelayMs: 0 });
  assert.equal(out.check, 'created');
  assert.equal(f.statuses.length, 0);
  assert.equal(f.checkRuns.length, 1);
});

test('422: a commit the repository does not have is a clear error naming it; the comment is still posted', { timeout: 120_000 }, async () => {
  const f = start({});
  const unknown = 'dead'.repeat(10);
  await assert.rejects(post({ comparison: await comparisonFile('10.11.19'), sha: unknown, pull: '5' }), (err) => {
    const e = /** @type {Error} */ (err);
    assert.equal(e.name, 'UserError');
    assert.match(e.message, new RegExp(`^post-verdict: the check run "tagbench: smoke on local" on ${unknown}: GitHub rejected the request \\(HTTP 422: No commit found for SHA: ${unknown}`));
    return true;
  });
  assert.equal(ctx.prism.requests.filter((r) => r.status === 422).length, 1, 'a 422 is not retried');
  assertValid();
  assert.equal(f.checkRuns.length, 0);
  assert.equal(f.comments.length, 1, 'the pull request still gets its comment');
  // The create itself refused: 422 with GitHub's message.
  const octokit = createGitHubClient({ token: 'ghs_app', baseUrl: ctx.prism.url, log: () => {}, ...timing });
  await assert.rejects(octokit.rest.checks.create({ owner: 'acme', repo: 'bench', name: 'x', head_sha: unknown, status: 'completed', conclusion: 'success' }), /No commit found for SHA/);
  await assert.rejects(octokit.rest.repos.createCommitStatus({ owner: 'acme', repo: 'bench', sha: SHA, state: 'success', description: 'x'.repeat(141) }), /description is too long/);
});

test('2,000 verdicts: the capped check output and comment are accepted; one byte over is refused', { timeout: 120_000 }, async () => {
  const f = start({});
  const { c19 } = await loadFixtures();
  const big = structuredClone(c19);
  big.tests = Array.from({ length: 2000 }, (_, i) => ({ ...structuredClone(c19.tests[0]), test: `größe-µ-${String(i).padStart(4, '0')}-${'x'.repeat(40)}`, ratio: 0.7 + i / 10_000, confirmed: true }));
  const verdict = renderVerdict(big, { sha: SHA, reportUrl: REPORT });
  const octokit = createGitHubClient({ token: 'ghs_app', baseUrl: ctx.prism.url, log: () => {}, ...timing });
  const out = await postVerdict(verdict, { owner: 'acme', repo: 'bench', sha: SHA, pull: 8 }, { octokit, trustedLogins: new Set(['github-actions[bot]']), log: () => {}, recheckDelayMs: 0 });
  assert.deepEqual(out.failures, []);
  assertValid();
  assert.equal(f.checkRuns[0].output.summary, verdict.output.summary);
  assert.equal(f.comments[0].body, verdict.comment);
  // The stand-in holds GitHub's line: a summary one byte over the limit is refused.
  const over = 'é'.repeat(Math.ceil((GITHUB_LIMITS.checkOutput + 1) / 2));
  assert.equal(Buffer.byteLength(over), GITHUB_LIMITS.checkOutput + 1);
  await assert.rejects(octokit.rest.checks.update({ owner: 'acme', repo: 'bench', check_run_id: f.checkRuns[0].id, output: { title: 't', summary: over } }), /summary exceeds a maximum bytesize of 65535/);
});
