/**
 * A labelled pull request of a code repository, benchmarked and answered on its commit, under
 * act, in both halves as GitHub runs them, with the safeguards of issue 34:
 *   1. the code repository's request workflow (setup/code-repository/tagbench-request.yml) on
 *      `pull_request_target`: labelled `tagbench` by a writer (its permission read from the API),
 *      it reads the pull request and sends a repository_dispatch naming the head and who asked;
 *      a push removes the label and sends nothing; labelled again, it asks for the new head;
 *   2. the service's pull-request.yml on that dispatch. Runs that must not build stop before any
 *      code of the pull request is fetched, and their check is completed as neutral with the
 *      reason: the approval environment has no reviewers (plan refuses), nobody approved the
 *      run, or the approval names another commit (check-approval refuses). An approved run builds
 *      the head and its merge base with the source provider, runs, compares, confirms, and the
 *      hosted job posts the verdict (the same check run completed; one comment on the pull
 *      request) after checking the artifact; publish --refs-only puts refs/ on the results branch.
 * GitHub's API is the STAND-IN of test/github/fake-github-nock.js (state and GitHub's rules for
 * check runs, comments, pull requests, labels, permissions, environments, a run's reviews and
 * dispatches), behind Prism as a validating proxy of GitHub's published OpenAPI description:
 * every request both workflows make, and every answer, must be one the description allows. The
 * pull request the API returns is GitHub's own example from that description, with this test's
 * numbers. The code repository is a local repository of test/fixtures/install/source-shim-server
 * (a real MariaDB server behind a small cmake project), with refs/pull/1/head as GitHub keeps it.
 * Small on purpose: point-query only, 2 repeats on 2 instances.
 *
 * The second push is HOSTILE (test/support/hostile-tree.js): its CMake configure and build read
 * the runner's credentials file, write the install cache's .git-refs, a release build and the
 * ccache, read the environment of every process of the job, leave a process running, and plant
 * three leg attempts with a `javascript:` run URL and a change point in the results the job
 * hands back. Checked here: no process of the bench job holds a secret (it has none to leak);
 * publish --refs-only refuses the planted files, says why and writes nothing, so the results
 * branch holds only the refs of the first run; the hosted job still posts the verdict.
 * NOT checked here, because act runs every job as one OS user (root on this machine): that the
 * reads and writes on the host are denied and the process left behind is killed. On GitHub
 * those are the separate OS user's (setup/runner.sh --pull-requests --pr-user, checked by
 * test/setup/runner-pr-user.test.js): its build cannot read the runner's folder, write a cache
 * or outlive the job (kill -KILL -1 as that user). Under act they succeed, and the test records
 * that they ran (so the checks above saw a real attack), then ends the process itself.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeFailure, ROOT, runAct, STUB_MARK } from './run-act.js';
import { serveFakeGitHub } from './fake-github-server.js';
import { fakeApproval, fakeEnvironment, startFakeGitHub } from '../github/fake-github-nock.js';
import { ensureGitHubSpec, usePrismForFile } from '../github/prism-harness.js';
import { commitShim, git, privateInstallCache } from '../support/shim-repository.js';
import { commitHostileShim, readHostileReport } from '../support/hostile-tree.js';
import { linksAndMentions } from '../support/markdown-syntax.js';

const execFileP = promisify(execFile);
const PORT_BASE = 23540;
const VERSION = '10.11.19';
const CACHE = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');

/** @type {{url: string, close: () => Promise<void>}|null} */
let bridge = null;
// Prism loads GitHub's whole description before it listens: minutes on a loaded host.
const ctx = usePrismForFile({ upstream: async () => (bridge = await serveFakeGitHub()).url, timeoutS: 280 });
after(async () => { await bridge?.close(); });

const ENV = 'tagbench-pull-requests';

/**
 * GitHub's example pull request, as this repository's pull request #1 at the given head, labelled `tagbench`.
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
  pr.labels = [{ ...pr.labels[0], name: 'tagbench' }];
  return pr;
}

test('act: a labelled pull request runs only once another person approved its commit; refused runs stop before the code is fetched and complete their check as neutral; a push drops the label; the verdict is posted by the hosted job', { timeout: 40 * 60_000 }, async (t) => {
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
  const fake = startFakeGitHub({ commits: [first], pulls: { 1: pullRequest(example, first, code) }, permissions: { maintainer: 'write' } });
  fake.allowLoopback();
  t.after(() => fake.done());

  // Builds of the shim go to this test's own install cache (beside links to the shared Debian
  // installs they wrap): in the shared one they would stand for MariaDB's own source builds.
  const cache = await privateInstallCache(join(dir, 'installs'), CACHE, [VERSION]);
  const resultsRepo = join(dir, 'results.git');
  await execFileP('git', ['init', '-q', '--bare', resultsRepo]);
  // publish --refs-only comes with the validated publish of pull requests' artifacts (worktree
  // wt-publish); until it is merged here the publish job is not run.
  const refsOnly = (await execFileP('node', [join(ROOT, 'scripts/cli.js'), 'publish', '--help'])).stdout.includes('--refs-only');

  /**
   * The code repository's request workflow on a pull_request_target event, sent by `maintainer`.
   * @param {string} name scratch folder
   * @param {'labeled'|'synchronize'} action
   * @param {string} head
   */
  const request = async (name, action, head) => {
    const result = await runAct({
      workflow: 'setup/code-repository/tagbench-request.yml',
      dir: join(dir, name),
      eventName: 'pull_request_target',
      event: { action, ...(action === 'labeled' ? { label: { name: 'tagbench' } } : {}), number: 1, pull_request: { number: 1, labels: [{ name: 'tagbench' }], head: { sha: head }, base: { ref: 'main' } }, repository: { full_name: 'acme/bench' }, sender: { login: 'maintainer' } },
      vars: { TAGBENCH_SERVICE_REPO: 'acme/tagbench' },
      env: { GITHUB_API_URL: ctx.prism.url, GITHUB_REPOSITORY: 'acme/bench' },
      secrets: { GITHUB_TOKEN: 'ghs_code_repository_token', TAGBENCH_SERVICE_TOKEN: 'github_pat_service_dispatch' },
    });
    assert.equal(result.code, 0, `${describeFailure(result)}\nGitHub saw: ${JSON.stringify(ctx.prism.requests.map((r) => [r.method, r.path, r.status, r.errorViolations]))}`);
    assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
    return fake.repositoryDispatches.at(-1);
  };

  /**
   * The service's pull-request.yml on the dispatch the request sent, as workflow run `runId`.
   * @param {string} name scratch folder
   * @param {{event_type: string, client_payload: Record<string, unknown>}} dispatch
   * @param {string} runId github.run_id: the run the stand-in's reviews are for
   * @param {boolean|'publish-refused'} built whether the run must build (else it must be refused);
   *   publish-refused: built and posted, then its publish refused the artifact
   */
  const service = async (name, dispatch, runId, built) => {
    const result = await runAct({
      workflow: '.github/workflows/pull-request.yml',
      dir: join(dir, name),
      eventName: 'repository_dispatch',
      event: { action: dispatch.event_type, client_payload: dispatch.client_payload, repository: { full_name: 'acme/tagbench', default_branch: 'main' } },
      vars: {
        ...(refsOnly ? { TAGBENCH_RESULTS_REPO: resultsRepo } : {}),
        TAGBENCH_PR_HOST_CLASS: 'local',
        // The allow-list: plan reads the pull request from the stand-in and fetches it from the
        // clone URL GitHub reports (the local code repository), not the payload's.
        TAGBENCH_PR_CODE_REPOS: 'acme/bench',
        // Counted under callgrind (ref-smoke): a change's cost is exact here, so the second
        // push's added instructions are a confirmed regression in a named function.
        TAGBENCH_PR_SUITE: 'ref-smoke',
        TAGBENCH_PR_ONLY: 'point-query',
      },
      env: {
        GITHUB_API_URL: ctx.prism.url,
        GITHUB_REPOSITORY: 'acme/tagbench',
        GITHUB_RUN_ID: runId,
        TAGBENCH_CACHE: cache,
        TAGBENCH_PORT_BASE: String(PORT_BASE),
        TAGBENCH_WORK_DIR: join(dir, name, 'w'),
      },
      // The service's own token; the App token act stands in for (no App to mint one offline).
      secrets: { GITHUB_TOKEN: 'ghs_service_token', TAGBENCH_ACT_APP_TOKEN: 'ghs_code_repository_app_token' },
    });
    assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
    if (built === 'publish-refused') {
      assert.notEqual(result.code, 0, 'the publish job fails');
      assert.match(result.log, /Run Main tagbench publish --refs-only/, describeFailure(result));
    } else if (built) assert.equal(result.code, 0, describeFailure(result));
    else {
      assert.notEqual(result.code, 0, 'a refused run fails');
      // Before any code of the pull request is fetched: the build step never started, nothing
      // of the pull request reached the install cache or the run's work folder.
      assert.doesNotMatch(result.log, /Run Main build, run, compare and confirm the pull request/);
      assert.deepEqual(await listCache(), cacheBefore, 'the install cache is as it was');
      await assert.rejects(readFile(join(dir, name, 'w')), /ENOENT/, 'no work folder: nothing was fetched or built');
    }
    return result;
  };
  const lsBranch = async () => (await execFileP('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', 'bench-data'])).stdout.split('\n').filter(Boolean).sort();
  /**
   * What the hostile build tried, and what came of it.
   * @param {string} log the act run's log
   * @param {string} report the hostile build's report folder
   */
  const assertHostileRefused = async (log, report) => {
    const build = await readHostileReport(report, 'build');
    const lingering = await readFile(join(report, 'lingering.pid'), 'utf8').catch(() => '');
    // Ends the process left behind (act cannot: see the module comment). It is this test's own.
    if (/^\d+\s*$/.test(lingering)) { try { process.kill(Number(lingering)); } catch { /* already gone */ } }
    assert.ok(build.log.includes('credentials read') && lingering !== '', `the attack ran (act: one OS user): ${build.log.join(' | ')}`);
    // No process of the bench job holds a secret: the step's shell, tagbench, cmake and the build.
    const secrets = ['ghs_service_token', 'ghs_code_repository_app_token'];
    assert.ok(build.environments.some((e) => e.comm === 'node') && build.environments.some((e) => e.comm === 'bash'), `the job's processes were read: ${build.environments.map((e) => e.comm).join(', ')}`);
    for (const e of build.environments) {
      for (const secret of secrets) assert.ok(!e.text.includes(secret), `process ${e.pid} (${e.comm}) of the bench job holds the secret ${secret.slice(0, 8)}…`);
    }
    // The planted attempts and change point: refused by publish, which says why and writes nothing.
    assert.ok(build.log.some((l) => l.startsWith('planted ')), `planted in the results handed back: ${build.log.join(' | ')}`);
    assert.match(log, /refs\/attempts\/local\/mariadb\/10\.11\.99\/attempt-1\.json[^\n]*outside refs\/runs\/ and refs\/verdicts\//, 'publish names the planted file and the rule');
    // The first run's records, replayed (another commit) and re-labelled (another pull request),
    // where the ref run's own records go: refused, each with the field that gave it away.
    for (const { relPath, why } of plantedRecords) {
      assert.match(log, new RegExp(`refs/${relPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not of the planned pull request run: [^\n]*${why}`), `publish refuses the planted ${relPath} naming ${why}`);
    }
    if (refsOnly) {
      assert.deepEqual(await lsBranch(), branchAfterFirst, 'the results branch holds only the refs of the first run: nothing of the refused artifact');
      assert.ok(!branchAfterFirst.some((p) => /\t(runs|changepoints|attempts|logs)\//.test(p) || /\trefs\/(?!runs\/|verdicts\/)/.test(p)), 'refs/runs and refs/verdicts only');
    }
  };
  const listCache = async () => (await execFileP('find', [cache, '-maxdepth', '2'])).stdout.split('\n').sort();
  const cacheBefore = await listCache();
  const assertValid = () => {
    for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path} (HTTP ${r.status}) broke GitHub's description`);
  };
  const ours = () => fake.comments.filter((c) => c.issue === 1 && c.login === 'github-actions[bot]');
  /** @param {string} sha */
  const checkOf = (sha) => fake.checkRuns.filter((r) => r.head_sha === sha);

  // Labelled by a writer: the request reaches the service with the head, base and who asked.
  ctx.prism.clear();
  const dispatch1 = /** @type {any} */ (await request('label', 'labeled', first));
  assert.deepEqual(fake.repositoryDispatches.map((d) => [d.repo, d.event_type]), [['acme/tagbench', 'tagbench-pull-request']]);
  // No clone_url: the service takes where to fetch from GitHub's report, and refuses a payload with one.
  assert.deepEqual(dispatch1?.client_payload, { repository: 'acme/bench', pull: '1', sha: first, base_ref: 'main', requested_by: 'maintainer' });
  assert.ok(ctx.prism.requests.some((r) => r.path === '/repos/acme/bench/collaborators/maintainer/permission'), 'the labeller\'s permission was read');
  assertValid();

  // Refused: the approval environment has no reviewers (plan), nobody approved the run, an
  // approval of another commit (check-approval). Each completes the check as neutral, saying why.
  const refusals = /** @type {const} */ ([
    ['no-reviewers', '901', /has no required reviewers/],
    ['unapproved', '902', /nobody approved this run/],
    ['other-commit', '903', new RegExp(`alice approved commit ${'0'.repeat(12)}, not ${first}`)],
  ]);
  for (const [name, runId, reason] of refusals) {
    fake.environments = { [ENV]: fakeEnvironment(ENV, name === 'no-reviewers' ? { reviewers: [] } : {}) };
    fake.branchPolicies = { [ENV]: [{ name: 'main' }] };
    fake.approvals = { 901: [], 902: [], 903: [fakeApproval('alice', `read ${'0'.repeat(12)}`)] };
    ctx.prism.clear();
    await service(`refused-${name}`, dispatch1, runId, false);
    assertValid();
    const [run] = checkOf(first);
    assert.deepEqual([checkOf(first).length, run.status, run.conclusion], [1, 'completed', 'neutral'], name);
    assert.match(run.output.summary ?? '', reason, name);
    assert.match(run.output.summary ?? '', new RegExp(`actions/runs/${runId}`), `${name}: the run's link`);
  }
  assert.equal(ours().length, 0, 'no verdict comment for a run that did not run');

  // Approved by alice, naming the commit: built, measured, posted by the hosted job.
  fake.approvals = { 904: [fakeApproval('alice', `read ${first.slice(0, 12)}, ok`)] };
  ctx.prism.clear();
  await service('bench-1', dispatch1, '904', true);
  assertValid();
  assert.equal(fake.checkRuns.length, 1, 'the neutral check of the refused runs, completed again by the verdict');
  assert.deepEqual([fake.checkRuns[0].head_sha, fake.checkRuns[0].status, fake.checkRuns[0].name], [first, 'completed', 'tagbench: ref-smoke on local']);
  assert.equal(fake.checkRuns[0].conclusion, 'success', `a comment-only change counts the same instructions: ${fake.checkRuns[0].output.title}`);
  assert.equal(ours().length, 1);
  assert.ok(ours()[0].body.includes(`commit \`${first}\``), ours()[0].body.slice(0, 400));
  assert.ok(ctx.prism.requests.some((r) => r.path.endsWith('/actions/runs/904/approvals') && r.status === 200), 'the approval was read');
  if (refsOnly) {
    const published = (await execFileP('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', '--name-only', 'bench-data'])).stdout.split('\n');
    assert.ok(published.some((p) => p.startsWith('refs/runs/local/mariadb/') && p.endsWith('.json')), `the ref run's records on the results branch:\n${published.join('\n')}`);
    assert.ok(!published.some((p) => /^(runs|changepoints|attempts|logs)\//.test(p)), 'refs/ only');
  }

  const branchAfterFirst = refsOnly ? await lsBranch() : [];
  // The hostile push carries the first run's records: the candidate's as it is (a valid record of
  // another commit), the base side's claiming pull request 2.
  /** @type {{relPath: string, text: string, why: string}[]} */
  const plantedRecords = [];
  if (refsOnly) {
    const paths = branchAfterFirst.map((l) => l.split('\t')[1]).filter((p) => p.startsWith('refs/runs/') && p.endsWith('.json'));
    for (const path of paths) {
      const record = JSON.parse((await execFileP('git', ['--git-dir', resultsRepo, 'show', `bench-data:${path}`])).stdout);
      const base = record.release.ref.role === 'base';
      if (base) Object.assign(record.release.ref, { pullRequest: 2, name: 'pull/2/head' });
      plantedRecords.push({ relPath: path.slice('refs/'.length), text: `${JSON.stringify(record, null, 2)}\n`, why: base ? 'ref.pullRequest is 2, the plan says 1' : `ref.commit is "${first}"` });
    }
    const kinds = new Set(plantedRecords.map((p) => p.why.slice(0, 14)));
    assert.equal(kinds.size, 2, `the first run published records of both sides: ${paths.join(', ')}`);
  }
  // A plug-in's file name is its author's: a Markdown link and a mention in the profile's object name.
  const hostileLibrary = 'lib[pay here](https:evil.example) @octocat.so';

  // A second push: the label goes, nothing is sent. Labelled again: the new head, approved by
  // alice naming it, costs 20,000 instructions more per query answer in fixture_answer_cost,
  // and is hostile (the targets are stand-ins this test made, never the shared install cache).
  const targets = {
    report: join(dir, 'hostile-report'), credentials: join(dir, 'runner', '.credentials'),
    releaseBuild: join(cache, 'release-build-stand-in'), gitRefs: join(cache, '.git-refs'), ccache: join(dir, 'ccache'), stopPid: process.pid,
  };
  await mkdir(join(dir, 'runner'), { recursive: true });
  await writeFile(targets.credentials, '{"scheme": "OAuth", "data": {"clientId": "stand-in"}}\n', { mode: 0o600 });
  await mkdir(targets.releaseBuild, { recursive: true });
  await mkdir(targets.ccache, { recursive: true });
  const second = await commitHostileShim(work, { version: VERSION, cacheDir: CACHE, message: 'a slower answer', addedInstructions: 20_000, targets, planted: plantedRecords, libraryName: hostileLibrary });
  await execFileP('git', ['-C', work, 'push', '-q', code, 'feature']);
  await git(code, 'update-ref', 'refs/pull/1/head', second);
  fake.pulls[1] = pullRequest(example, second, code);
  fake.addCommit(second);
  ctx.prism.clear();
  await request('push', 'synchronize', second);
  assert.equal(fake.repositoryDispatches.length, 1, 'a push sends nothing');
  assert.deepEqual(fake.removedLabels, [{ issue: 1, name: 'tagbench' }], 'a push removes the label');
  fake.pulls[1] = pullRequest(example, second, code);
  const dispatch2 = /** @type {any} */ (await request('relabel', 'labeled', second));
  assert.equal(dispatch2?.client_payload.sha, second);
  assertValid();
  fake.approvals = { 905: [fakeApproval('alice', `ok ${second}`)] };
  ctx.prism.clear();
  const bench2 = await service('bench-2', dispatch2, '905', refsOnly ? 'publish-refused' : true);
  assertValid();
  await assertHostileRefused(bench2.log, targets.report);
  assert.deepEqual(fake.checkRuns.map((r) => [r.head_sha, r.status, r.conclusion]), [[first, 'completed', 'success'], [second, 'completed', 'failure']]);
  const verdict = fake.checkRuns[1].output;
  // 20,000 more of about 65,000 instructions per point select: about +31 % (the query path's
  // count and the whole process's).
  assert.match(verdict.title ?? '', /^\d regressions?: point-query \+3\d(\.\d)? % \(instructionsPerOp\)/, String(verdict.title));
  assert.equal(/the function that moved most\*\* is `([^`]+)`/.exec(verdict.text ?? '')?.[1], 'fixture_answer_cost', (verdict.text ?? '').slice(0, 600));
  assert.match(ours()[0].body, /fixture_answer_cost/, 'the comment says where the instructions went too');
  assert.equal(ours().length, 1, 'one comment, edited in place');
  assert.ok(ours()[0].body.includes(`commit \`${second}\``));
  // The plug-in's name reached the texts (the profile names the function's object by it), as
  // inert text: no line that carries it renders a link or a mention.
  const named = [verdict.text ?? '', ours()[0].body].flatMap((md) => md.split('\n')).filter((l) => l.includes('octocat'));
  assert.ok(named.length > 0, `the hostile library's name is in the check or the comment:\n${(verdict.text ?? '').slice(0, 1500)}`);
  for (const line of named) assert.deepEqual(linksAndMentions(line), [], `rendered as link or mention: ${line}`);
  assert.ok(ctx.prism.requests.some((r) => r.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(r.path) && r.status === 200), 'the comment was edited (PATCH), not posted again');
  passed = true;
});
