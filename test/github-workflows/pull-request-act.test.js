/**
 * A labelled pull request of a code repository, benchmarked and answered on its commit, under
 * act, in both halves as GitHub runs them:
 *   1. the code repository's request workflow (setup/code-repository/tagbench-request.yml) on
 *      `pull_request_target` (labelled `tagbench`, then a push): it reads the pull request from
 *      the API and sends a repository_dispatch to the service repository;
 *   2. the service's pull-request.yml on that repository_dispatch, with the payload the first
 *      half sent: plan, then build the pull request's head and its merge base with the source
 *      provider, run, compare, post the verdict (a check run started in progress, then
 *      completed; one comment on the pull request), publish to refs/ on the results branch.
 * GitHub's API is the STAND-IN of test/github/fake-github-nock.js (state and GitHub's rules for
 * check runs, statuses, comments, pull requests and dispatches), behind Prism as a validating
 * proxy of GitHub's published OpenAPI description: every request both workflows make, and every
 * answer, must be one the description allows. The pull request the API returns is GitHub's own
 * example from that description, with this test's numbers.
 * The code repository is a local repository of test/fixtures/install/source-shim-server (a real
 * MariaDB server behind a small cmake project), with refs/pull/1/head as GitHub keeps it; the
 * second push changes a comment only: what is proven is the path, not a regression.
 * Small on purpose: point-query only, 2 repeats on 2 instances.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeFailure, ROOT, runAct, STUB_MARK } from './run-act.js';
import { serveFakeGitHub } from './fake-github-server.js';
import { startFakeGitHub } from '../github/fake-github-nock.js';
import { ensureGitHubSpec, usePrismForFile } from '../github/prism-harness.js';
import { commitShim, git, privateInstallCache } from '../support/shim-repository.js';

const execFileP = promisify(execFile);
const PORT_BASE = 23540;
const VERSION = '10.11.19';
const CACHE = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');

/** @type {{url: string, close: () => Promise<void>}|null} */
let bridge = null;
const ctx = usePrismForFile({ upstream: async () => (bridge = await serveFakeGitHub()).url });
after(async () => { await bridge?.close(); });

/**
 * GitHub's example pull request, as this repository's pull request #1 at the given head.
 * @param {any} example
 * @param {string} head
 * @param {string} cloneUrl
 */
function pullRequest(example, head, cloneUrl) {
  const pr = structuredClone(example);
  // The example's one requested team lacks `type`, which its own schema requires (Prism says so).
  pr.requested_teams = [];
  pr.number = 1;
  pr.head.sha = head;
  pr.base.ref = 'main';
  pr.base.repo.clone_url = cloneUrl;
  pr.base.repo.full_name = 'acme/bench';
  return pr;
}

test('act: a labelled pull request is benchmarked by the service on its head commit; the check run is started then completed, and a second push edits the one comment in place', { timeout: 40 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-pr-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));

  // The code repository: main carries the release tag; the pull request's head is refs/pull/1/head.
  const work = join(dir, 'work');
  await execFileP('git', ['init', '-q', '-b', 'main', work]);
  await commitShim(work, { version: VERSION, cacheDir: CACHE, message: `release ${VERSION}` });
  await git(work, 'tag', '-a', `mariadb-${VERSION}`, '-m', `MariaDB ${VERSION}`);
  await git(work, 'checkout', '-q', '-b', 'feature');
  const first = await commitShim(work, { version: VERSION, cacheDir: CACHE, message: 'a change under review', note: 'first push' });
  const code = join(dir, 'code.git');
  await execFileP('git', ['clone', '-q', '--bare', work, code]);
  await git(code, 'update-ref', 'refs/pull/1/head', first);

  const spec = JSON.parse(await readFile(await ensureGitHubSpec(), 'utf8'));
  const example = spec.components.examples['pull-request'].value;
  const fake = startFakeGitHub({ commits: [first], pulls: { 1: pullRequest(example, first, code) } });
  fake.allowLoopback();
  t.after(() => fake.done());

  // Builds of the shim go to this test's own install cache (beside links to the shared Debian
  // installs they wrap): in the shared one they would stand for MariaDB's own source builds.
  const cache = await privateInstallCache(join(dir, 'installs'), CACHE, [VERSION]);
  const resultsRepo = join(dir, 'results.git');
  await execFileP('git', ['init', '-q', '--bare', resultsRepo]);

  /**
   * The code repository's request workflow on a pull_request_target event.
   * @param {string} name scratch folder
   * @param {'labeled'|'synchronize'} action
   * @param {string} head
   */
  const request = async (name, action, head) => {
    const result = await runAct({
      workflow: 'setup/code-repository/tagbench-request.yml',
      dir: join(dir, name),
      eventName: 'pull_request_target',
      event: { action, ...(action === 'labeled' ? { label: { name: 'tagbench' } } : {}), number: 1, pull_request: { number: 1, labels: [{ name: 'tagbench' }], head: { sha: head }, base: { ref: 'main' } }, repository: { full_name: 'acme/bench' } },
      vars: { TAGBENCH_SERVICE_REPO: 'acme/tagbench' },
      env: { GITHUB_API_URL: ctx.prism.url, GITHUB_REPOSITORY: 'acme/bench' },
      secrets: { GITHUB_TOKEN: 'ghs_code_repository_token', TAGBENCH_SERVICE_TOKEN: 'github_pat_service_dispatch' },
    });
    assert.equal(result.code, 0, `${describeFailure(result)}\nGitHub saw: ${JSON.stringify(ctx.prism.requests.map((r) => [r.method, r.path, r.status, r.errorViolations]))}`);
    assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
    return fake.repositoryDispatches.at(-1);
  };

  /**
   * The service's pull-request.yml on the dispatch the request sent.
   * @param {string} name scratch folder
   * @param {{event_type: string, client_payload: Record<string, unknown>}} dispatch
   */
  const service = async (name, dispatch) => {
    const result = await runAct({
      workflow: '.github/workflows/pull-request.yml',
      dir: join(dir, name),
      eventName: 'repository_dispatch',
      event: { action: dispatch.event_type, client_payload: dispatch.client_payload, repository: { full_name: 'acme/tagbench' } },
      vars: {
        TAGBENCH_HOST_LABELS: JSON.stringify({ local: ['tagbench-act'] }),
        TAGBENCH_RESULTS_REPO: resultsRepo,
        TAGBENCH_PR_HOST_CLASS: 'local',
        // Counted under callgrind (ref-smoke): a change's cost is exact here, so the second
        // push's added instructions are a confirmed regression in a named function.
        TAGBENCH_PR_SUITE: 'ref-smoke',
        TAGBENCH_PR_ONLY: 'point-query',
      },
      env: {
        GITHUB_API_URL: ctx.prism.url,
        TAGBENCH_CACHE: cache,
        TAGBENCH_PORT_BASE: String(PORT_BASE),
        TAGBENCH_WORK_DIR: join(dir, name, 'w'),
      },
      // An app installation token of the code repository (a GitHub App's may create check runs).
      secrets: { GITHUB_TOKEN: 'ghs_service_token', TAGBENCH_CODE_TOKEN: 'ghs_code_repository_app_token' },
    });
    assert.equal(result.code, 0, describeFailure(result));
    assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
    return result;
  };
  const assertValid = () => {
    for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path} (HTTP ${r.status}) broke GitHub's description`);
  };
  const ours = () => fake.comments.filter((c) => c.issue === 1 && c.login === 'github-actions[bot]');

  // Labelled: the request reaches the service with the pull request's head and base.
  ctx.prism.clear();
  const dispatch1 = await request('label', 'labeled', first);
  assert.deepEqual(fake.repositoryDispatches.map((d) => [d.repo, d.event_type]), [['acme/tagbench', 'tagbench-pull-request']]);
  assert.deepEqual(dispatch1?.client_payload, { repository: 'acme/bench', clone_url: code, pull: '1', sha: first, base_ref: 'main' });
  await service('bench-1', /** @type {any} */ (dispatch1));
  assertValid();
  const writes1 = ctx.prism.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/\d+$/, 'N')} ${r.status}`);
  assert.deepEqual(writes1, ['POST /repos/acme/tagbench/dispatches 204', 'POST /repos/acme/bench/check-runs 201', 'PATCH /repos/acme/bench/check-runs/N 200', 'POST /repos/acme/bench/issues/1/comments 201'],
    'the request dispatched; the check run was created in progress and completed by the verdict; one comment');
  assert.equal(fake.checkRuns.length, 1);
  assert.deepEqual([fake.checkRuns[0].head_sha, fake.checkRuns[0].status, fake.checkRuns[0].name], [first, 'completed', 'tagbench: ref-smoke on local']);
  assert.equal(fake.checkRuns[0].conclusion, 'success', `a comment-only change counts the same instructions: ${fake.checkRuns[0].output.title}`);
  assert.equal(ours().length, 1);
  assert.ok(ours()[0].body.includes(`commit \`${first}\``), ours()[0].body.slice(0, 400));
  const published = (await execFileP('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', '--name-only', 'bench-data'])).stdout.split('\n');
  assert.ok(published.some((p) => p.startsWith('refs/runs/local/mariadb/') && p.endsWith('.json')), `the ref run's records on the results branch:\n${published.join('\n')}`);
  assert.ok(published.some((p) => p.startsWith('refs/verdicts/local/mariadb/')), 'its comparison too');
  assert.ok(!published.some((p) => p.startsWith('runs/')), 'nothing in the release series');

  // A second push: the same label, a new head that costs 20,000 instructions more per query
  // answer in fixture_answer_cost. Its own check run, failed, naming that function first; the
  // same comment, edited.
  const second = await commitShim(work, { version: VERSION, cacheDir: CACHE, message: 'a slower answer', addedInstructions: 20_000 });
  await execFileP('git', ['-C', work, 'push', '-q', code, 'feature']);
  await git(code, 'update-ref', 'refs/pull/1/head', second);
  fake.pulls[1] = pullRequest(example, second, code);
  fake.addCommit(second);
  ctx.prism.clear();
  const dispatch2 = await request('push', 'synchronize', second);
  assert.equal(dispatch2?.client_payload.sha, second);
  await service('bench-2', /** @type {any} */ (dispatch2));
  assertValid();
  assert.deepEqual(fake.checkRuns.map((r) => [r.head_sha, r.status, r.conclusion]), [[first, 'completed', 'success'], [second, 'completed', 'failure']]);
  const verdict = fake.checkRuns[1].output;
  // 20,000 more of about 65,000 instructions per point select: about +31 % (the query path's
  // count and the whole process's).
  assert.match(verdict.title ?? '', /^\d regressions?: point-query \+3\d(\.\d)? % \(instructionsPerOp\)/, String(verdict.title));
  assert.equal(/the function that moved most\*\* is `([^`]+)`/.exec(verdict.text ?? '')?.[1], 'fixture_answer_cost', (verdict.text ?? '').slice(0, 600));
  assert.match(ours()[0].body, /fixture_answer_cost/, 'the comment says where the instructions went too');
  assert.equal(ours().length, 1, 'one comment, edited in place');
  assert.ok(ours()[0].body.includes(`commit \`${second}\``));
  assert.ok(ctx.prism.requests.some((r) => r.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(r.path) && r.status === 200), 'the comment was edited (PATCH), not posted again');
  passed = true;
});
