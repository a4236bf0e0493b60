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
 *      the head with the source provider (its merge base, at the release tag, is the release
 *      build the runner's install cache holds, linked into the pull requests' user's own cache,
 *      read-only), runs, compares, confirms, and the hosted job posts the verdict (the same check
 *      run completed; one comment on the pull request) after checking the artifact; publish
 *      --refs-only puts refs/ on the results branch.
 * GitHub's API is the STAND-IN of test/github/fake-github-nock.js (state and GitHub's rules for
 * check runs, comments, pull requests, labels, permissions, environments, a run's reviews and
 * dispatches), behind Prism as a validating proxy of GitHub's published OpenAPI description:
 * every request both workflows make, and every answer, must be one the description allows. The
 * pull request the API returns is GitHub's own example from that description, with this test's
 * numbers. The code repository is a local repository of test/fixtures/install/source-shim-server
 * (a real MariaDB server behind a small cmake project), with refs/pull/1/head as GitHub keeps it.
 * Small on purpose: point-query only, 2 repeats on 2 instances.
 *
 * This host is set up as a runner of pull requests by setup/runner.sh itself (--pr-user-only, in
 * pull-request-host.js): act runs every job as root, the runner's user here, and the bench job
 * builds and runs the pull request as the second OS user, through sudo, as on GitHub (act gets
 * TAGBENCH_PR_USER in the runner's environment). The second push is HOSTILE
 * (test/support/hostile-tree.js): its CMake configure and build try to read the runner's
 * credentials file (0600, root's, in the runner's folder), write the release build of the
 * runner's install cache (its folder and its server binary), the cache's .git-refs and the
 * runner's ccache, read the environment of every process of the job up to act, leave a process
 * running, and plant three leg attempts with a `javascript:` run URL and a change point, and
 * release records of another commit or pull request, in the results the job hands back. Checked
 * here, each as a fact of the host: the build ran as that user; the credentials were refused and
 * no copy exists; every write was refused and the runner's install cache (release build,
 * .git-refs, ccache) has the same checksums and times as before the first run; a release leg of
 * the merge base's release, run by the release service (root, `tagbench run` from that cache:
 * point-query, one repeat, wall only) before the first run and again after the hostile one,
 * installs and builds nothing the second time and writes a record equal to the first in all that
 * says what ran (release and its provenance, host, config, steps and their params; timings and
 * measured figures differ from run to run, so they are left out: whatWasRun); the environment
 * of every process not the user's (the step's shell, sudo, act) was refused, and no process the
 * build could read holds a secret; the process left behind was ended by the job (kill -KILL -1 as
 * that user): its pid is gone and it stopped writing. publish --refs-only refuses the planted
 * files, says why and writes nothing; the hosted job still posts the verdict.
 * The second test runs the posting job's last step as GitHub would after its npm ci failed (npm
 * ci run for real, made to fail): the check is still completed as neutral with the run's link,
 * with neither the checkout nor node_modules.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, chown, copyFile, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { describeFailure, ROOT, runAct, STUB_MARK } from './run-act.js';
import { serveFakeGitHub } from './fake-github-server.js';
import { fakeApproval, fakeEnvironment, startFakeGitHub } from '../github/fake-github-nock.js';
import { ensureGitHubSpec, usePrismForFile } from '../github/prism-harness.js';
import { commitShim, git } from '../support/shim-repository.js';
import { commitHostileShim, readHostileReport } from '../support/hostile-tree.js';
import { linksAndMentions } from '../support/markdown-syntax.js';
import { evaluateCondition, interpolate } from './expressions.js';
import { fingerprintTree, processEnded, setUpPullRequestUser } from './pull-request-host.js';
import { readRecords } from '../../scripts/store/index.js';

const execFileP = promisify(execFile);
const PORT_BASE = 23540;
// The release legs' server: apart from the act runs' (PORT_BASE and up) and every other test's.
const LEG_PORT_BASE = 23560;
const SUITE = 'ref-smoke';
const ONLY = 'point-query';
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

/**
 * What a run record says was run: the whole record without what was measured, so that a field
 * added to the record later is compared too unless it is named here. Removed, as measured or
 * named after the run: the run's id and its start and finish times; every step's timed repeats
 * (start times, durations, throughputs, latencies, per-operation figures, memory) and counted
 * repeats (`meters`); the database's sizes after the load and at the end (`dbSize`); where the
 * per-second samples are stored (`samples`: a file named after the id, how many samples, their
 * digest). The record has no field of the host's load. Kept: the status, the release (product,
 * version, tag, commit, provider, build profile and flags, the server's sha256 and version string,
 * packages), the host, the config (suite, scale, engine, my.cnf, tool versions, repeats,
 * instances, tests, meters) and each step's name, kind, group, metric, params and status.
 * @param {import('../../scripts/types.js').RunRecord} record
 * @returns {object}
 */
function whatWasRun(record) {
  const { id, startedAt, finishedAt, dbSize, samples, steps, ...rest } = record;
  return { ...rest, steps: steps.map(({ repeats, meters, ...step }) => step) };
}

/**
 * A step's `run:` under bash as the runner gives it, with the environment its `env:` makes.
 * @param {string} script
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @returns {Promise<{code: number, stdout: string, stderr: string}>}
 */
function runStep(script, cwd, env) {
  return new Promise((resolve) => {
    execFile('bash', ['-e', '-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

test('the posting job after its npm ci failed: the last step completes the check as neutral with the run\'s link, with neither the checkout nor node_modules', async (t) => {
  const yaml = parse(await readFile(join(ROOT, '.github/workflows/pull-request.yml'), 'utf8'));
  const post = yaml.jobs.post;
  const scratch = await mkdtemp(join(tmpdir(), 'tagbench-pr-post-'));
  t.after(() => rm(scratch, { recursive: true, force: true }));

  // The job's own npm ci, for real, made to fail as a registry that cannot be reached makes it:
  // offline with an empty npm cache, in a folder holding only the manifest and the lock file.
  const deps = post.steps.find((/** @type {any} */ s) => s.id === 'deps');
  await mkdir(join(scratch, 'checkout'));
  for (const f of ['package.json', 'package-lock.json']) await copyFile(join(ROOT, f), join(scratch, 'checkout', f));
  const npm = await runStep(deps.run, join(scratch, 'checkout'), { npm_config_offline: 'true', npm_config_cache: join(scratch, 'npm-cache') });
  assert.notEqual(npm.code, 0, `npm ci failed: ${npm.stdout}${npm.stderr}`);

  // The run as GitHub sees it then: the plan and bench jobs succeeded, npm ci failed, the App's
  // token was minted. The steps that run are those whose condition says so.
  const sha = 'b'.repeat(40);
  const other = 'c'.repeat(40);
  const contextFor = (/** @type {string} */ commit, /** @type {string} */ runId) => ({
    github: { server_url: 'https://github.com', repository: 'acme/tagbench', run_id: runId, event_name: 'repository_dispatch' },
    needs: {
      plan: { result: 'success', outputs: { commit, product: 'mariadb', suite: 'ref-quick', 'host-class': 'local', repository: 'acme/bench', 'code-owner': 'acme', 'code-name': 'bench', pull: '1', ref: 'pull/1/head', repo: 'https://github.com/acme/bench.git', refused: '' } },
      bench: { result: 'success', outputs: { artifact: 'results-pr-1-a1', refused: '' } },
    },
    steps: { deps: { outcome: 'failure' }, app: { outcome: 'success', outputs: { token: 'ghs_minted_for_this_run', 'app-slug': 'tagbench' } } },
    env: { ...yaml.env }, vars: {}, secrets: {},
  });
  const failed = { failed: true };
  const verdictStep = post.steps.find((/** @type {any} */ s) => s.id === 'verdict');
  const last = post.steps.at(-1);
  const ctx0 = contextFor(sha, '4300');
  assert.equal(evaluateCondition(verdictStep.if, ctx0, failed), false, 'tagbench\'s step needs node_modules: skipped');
  const ctx1 = { ...ctx0, steps: { ...ctx0.steps, verdict: { outcome: 'skipped' } } };
  assert.equal(evaluateCondition(last.if, ctx1, failed), true, 'the last step runs');
  assert.equal(evaluateCondition(last.if, { ...ctx1, steps: { ...ctx1.steps, verdict: { outcome: 'success' } } }, {}), false, 'and not after a posted verdict');

  const fake = startFakeGitHub({ commits: [sha, other] });
  fake.allowLoopback();
  t.after(() => fake.done());
  /** @param {string} commit @param {string} runId */
  const fallback = async (commit, runId) => {
    const c = contextFor(commit, runId);
    /** @type {Record<string, string>} */
    const env = {};
    for (const [k, v] of Object.entries({ ...yaml.env, ...post.env, ...last.env })) env[k] = String(interpolate(v, { ...c, steps: { ...c.steps, verdict: { outcome: 'skipped' } } }) ?? '');
    // An empty folder: no checkout, no node_modules.
    const empty = await mkdtemp(join(scratch, 'job-'));
    return runStep(last.run, empty, { ...env, GITHUB_API_URL: ctx.prism.url });
  };
  ctx.prism.clear();
  // An earlier run of this commit completed the check as neutral (post-verdict --neutral): this
  // run's last step completes that check again, with its own link, and adds none.
  const earlier = await execFileP('node', [join(ROOT, 'scripts/cli.js'), 'post-verdict', '--neutral', 'nobody approved this run', '--product', 'mariadb', '--host-class', 'local', '--suite', 'ref-quick',
    '--repo', 'acme/bench', '--sha', sha, '--run-url', 'https://github.com/acme/tagbench/actions/runs/4299', '--token-env', 'POST_TOKEN'], { env: { ...process.env, POST_TOKEN: 'ghs_earlier_run', GITHUB_API_URL: ctx.prism.url } });
  assert.match(earlier.stderr, /completed as neutral/);
  const res = await fallback(sha, '4300');
  assert.equal(res.code, 0, res.stderr);
  const runUrl = 'https://github.com/acme/tagbench/actions/runs/4300';
  assert.deepEqual(fake.checkRuns.map((r) => [r.head_sha, r.name, r.status, r.conclusion, r.details_url]), [[sha, 'tagbench: ref-quick on local', 'completed', 'neutral', runUrl]], 'one check, the same post-verdict made, completed by this run');
  assert.ok((fake.checkRuns[0].output.summary ?? '').includes(runUrl), fake.checkRuns[0].output.summary ?? '');
  assert.match(fake.checkRuns[0].output.summary ?? '', /could not post a verdict/);
  // Run again (a rerun of the job): this run's completed check is left as it is.
  const writes = fake.writes().length;
  assert.equal((await fallback(sha, '4300')).code, 0);
  assert.equal(fake.writes().length, writes, 'nothing written over a check this run completed');
  // A commit without a check yet: one is created, completed.
  assert.equal((await fallback(other, '4301')).code, 0);
  assert.deepEqual(fake.checkRuns.filter((r) => r.head_sha === other).map((r) => [r.status, r.conclusion, r.external_id]), [['completed', 'neutral', 'tagbench/v1/mariadb/local/ref-quick']]);
  for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path} (HTTP ${r.status}) broke GitHub's description`);
  assert.ok(ctx.prism.requests.every((r) => !JSON.stringify(r.query).includes('ghs_')), 'no token in a URL');
});

test('act: a labelled pull request runs only once another person approved its commit, as its own OS user; refused runs stop before the code is fetched and complete their check as neutral; a push drops the label; a hostile push gets nothing of the host; the verdict is posted by the hosted job', { timeout: 40 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-pr-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  // The pull requests' user reaches the code repository, the runner's install cache and the
  // hostile build's report through this folder; each act run's own folder (the runner's work
  // folder, its secrets file) is closed to it (service() below).
  await chmod(dir, 0o755);

  // The code repository: main carries the release tag; the pull request's head is refs/pull/1/head.
  const work = join(dir, 'work');
  await execFileP('git', ['init', '-q', '-b', 'main', work]);
  await commitShim(work, { version: VERSION, cacheDir: CACHE, message: `release ${VERSION}` });
  await git(work, 'tag', '-a', `mariadb-${VERSION}`, '-m', `MariaDB ${VERSION}`);
  const release = await git(work, 'rev-parse', 'HEAD');
  await git(work, 'checkout', '-q', '-b', 'feature');
  const first = await commitShim(work, { version: VERSION, cacheDir: CACHE, message: 'a change under review', note: 'first push' });
  const code = join(dir, 'code.git');
  await execFileP('git', ['clone', '-q', '--bare', work, code]);
  await git(code, 'update-ref', 'refs/pull/1/head', first);

  // The runner's install cache, as a release host of the class has it: the release build of
  // the tag the pull request branches from (built here by the release service, root), the
  // cache's bare repositories and the runner's ccache. Builds of the shim stand for MariaDB's
  // own, so they go to this cache of the test's, never the machine's shared one.
  const shared = join(dir, 'runner-installs');
  const installRelease = async () => /** @type {{status: string, prefix: string, provenance: {serverSha256: string}}} */ (JSON.parse((await execFileP('node',
    [join(ROOT, 'scripts/cli.js'), 'install', 'mariadb', VERSION, '--provider', 'source', '--path', code, '--commit', release, '--cache-dir', shared, '--json'])).stdout));
  const built = await installRelease();
  // The cache's folder of that build (the install's prefix is in it).
  const releaseBuild = join(shared, relative(shared, built.prefix).split('/')[0]);
  await execFileP('git', ['init', '-q', '--bare', join(shared, '.git-refs', 'mariadb.git')]);
  await mkdir(join(shared, '.ccache'), { recursive: true });
  // A release leg of that release on this host, as the release service runs one: the production
  // CLI, as the runner's user, from the runner's install cache, its record in a store of its own
  // (a folder closed to the pull requests' user). Small: point-query, one repeat, timed by wall
  // only (the suite counts under callgrind otherwise: minutes).
  /** @param {string} name @returns {Promise<{record: import('../../scripts/types.js').RunRecord, log: string}>} */
  const releaseLeg = async (name) => {
    const legDir = join(dir, name);
    await mkdir(legDir, { mode: 0o700 });
    const { stderr } = await execFileP('node', [join(ROOT, 'scripts/cli.js'), 'run', '--releases', `mariadb@${VERSION}:source@${release}`,
      '--suite', SUITE, '--only', ONLY, '--repeats', '1', '--instances', '1', '--meter', 'wall', '--host-class', 'local',
      '--store', join(legDir, 'store'), '--cache-dir', shared, '--work-dir', join(legDir, 'work'), '--port-base', String(LEG_PORT_BASE)]);
    const records = await readRecords(join(legDir, 'store'));
    assert.deepEqual(records.map((r) => [r.status, r.release.version]), [['ok', VERSION]], `${name}: one finished record:\n${stderr}`);
    return { record: records[0], log: stderr };
  };
  const legBefore = await releaseLeg('release-leg-before');
  assert.deepEqual([legBefore.record.release.provider, legBefore.record.release.commit, legBefore.record.release.binarySha256], ['source', release, built.provenance.serverSha256],
    'the leg ran the release build of the cache');
  // The runner's folder with its credentials file (the runner's user's, 0600), as config.sh leaves it.
  const runnerDir = join(dir, 'runner');
  await mkdir(runnerDir);
  await writeFile(join(runnerDir, '.credentials'), '{"scheme": "OAuth", "data": {"clientId": "stand-in"}}\n', { mode: 0o600 });
  const prUser = await setUpPullRequestUser({ runnerDir, sharedCache: shared, codeRepository: code });
  // The user's job folder holds the servers' datadirs: kept, with the test's folder, only to read a failure.
  t.after(async () => {
    if (passed) for (const sub of ['job', 'installs', 'ccache']) await rm(join(prUser.home, sub), { recursive: true, force: true });
  });
  const prCache = join(prUser.home, 'installs');
  const sharedBefore = await fingerprintTree(shared);
  const linked = await readlink(join(prCache, basename(releaseBuild)));
  assert.equal(linked, releaseBuild, 'runner.sh linked the release build into the user\'s own install cache');

  const spec = JSON.parse(await readFile(await ensureGitHubSpec(), 'utf8'));
  const example = spec.components.examples['pull-request'].value;
  const fake = startFakeGitHub({ commits: [first], pulls: { 1: pullRequest(example, first, code) }, permissions: { maintainer: 'write' } });
  fake.allowLoopback();
  t.after(() => fake.done());

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

  const listPrCache = async () => (await execFileP('find', [prCache, '-maxdepth', '2'])).stdout.split('\n').sort();
  const prCacheBefore = await listPrCache();
  /**
   * The service's pull-request.yml on the dispatch the request sent, as workflow run `runId`.
   * @param {string} name scratch folder
   * @param {{event_type: string, client_payload: Record<string, unknown>}} dispatch
   * @param {string} runId github.run_id: the run the stand-in's reviews are for
   * @param {boolean|'publish-refused'} builds whether the run must build (else it must be refused);
   *   publish-refused: built and posted, then its publish refused the artifact
   */
  const service = async (name, dispatch, runId, builds) => {
    // The runner's work folder: closed to the pull requests' user, as the runner's folder is.
    await mkdir(join(dir, name), { mode: 0o700 });
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
        TAGBENCH_PR_SUITE: SUITE,
        TAGBENCH_PR_ONLY: ONLY,
      },
      env: {
        GITHUB_API_URL: ctx.prism.url,
        GITHUB_REPOSITORY: 'acme/tagbench',
        GITHUB_RUN_ID: runId,
        // The runner's environment, as setup/runner.sh --pull-requests writes it into .env.
        TAGBENCH_PR_USER: prUser.name,
        TAGBENCH_CACHE: shared,
        TAGBENCH_PORT_BASE: String(PORT_BASE),
      },
      // The service's own token; the App token act stands in for (no App to mint one offline).
      secrets: { GITHUB_TOKEN: 'ghs_service_token', TAGBENCH_ACT_APP_TOKEN: 'ghs_code_repository_app_token' },
    });
    assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
    assert.doesNotMatch(result.log, /Run Main no verdict posted/, 'tagbench posted: the posting job\'s fallback did not run');
    if (builds === 'publish-refused') {
      assert.notEqual(result.code, 0, 'the publish job fails');
      assert.match(result.log, /Run Main tagbench publish --refs-only/, describeFailure(result));
    } else if (builds) assert.equal(result.code, 0, describeFailure(result));
    else {
      assert.notEqual(result.code, 0, 'a refused run fails');
      // Before any code of the pull request is fetched: the build step never started, nothing
      // of the pull request reached the user's install cache or its job folder.
      assert.doesNotMatch(result.log, /Run Main build, run, compare and confirm the pull request/);
      assert.deepEqual(await listPrCache(), prCacheBefore, 'the user\'s install cache is as it was');
      await assert.rejects(lstat(join(prUser.home, 'job')), /ENOENT/, 'no job folder: nothing was fetched or built');
    }
    return result;
  };
  const lsBranch = async () => (await execFileP('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', 'bench-data'])).stdout.split('\n').filter(Boolean).sort();
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
  const bench1 = await service('bench-1', dispatch1, '904', true);
  assertValid();
  assert.equal(fake.checkRuns.length, 1, 'the neutral check of the refused runs, completed again by the verdict');
  assert.deepEqual([fake.checkRuns[0].head_sha, fake.checkRuns[0].status, fake.checkRuns[0].name], [first, 'completed', 'tagbench: ref-smoke on local']);
  assert.equal(fake.checkRuns[0].conclusion, 'success', `a comment-only change counts the same instructions: ${fake.checkRuns[0].output.title}`);
  assert.equal(ours().length, 1);
  assert.ok(ours()[0].body.includes(`commit \`${first}\``), ours()[0].body.slice(0, 400));
  assert.ok(ctx.prism.requests.some((r) => r.path.endsWith('/actions/runs/904/approvals') && r.status === 200), 'the approval was read');
  // The merge base was the linked release build, reused as it is (no build of the tag by the
  // user: the link is still a link); the head was built into the user's own cache.
  assert.equal(await readlink(join(prCache, basename(releaseBuild))), releaseBuild, 'the release build is still linked, not rebuilt');
  assert.doesNotMatch(bench1.log, new RegExp(`building mariadb-${VERSION.replace(/\./g, '\\.')} from`), 'the tag was not built again');
  assert.ok((await readdir(prCache)).some((n) => n.includes(`+ref-${first}`)), `the head's build is in the user's cache: ${(await readdir(prCache)).join(', ')}`);
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
  // and is hostile: its targets are the runner's (this test's stand-ins), its report folder the
  // user's to write.
  const report = join(dir, 'hostile-report');
  await mkdir(report);
  await chown(report, prUser.uid, prUser.gid);
  const targets = { report, credentials: join(runnerDir, '.credentials'), releaseBuild, gitRefs: join(shared, '.git-refs'), ccache: join(shared, '.ccache'), stopPid: process.pid };
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

  // What the hostile build tried on the host, each refused.
  const lingering = Number((await readFile(join(report, 'lingering.pid'), 'utf8').catch(() => '')).trim());
  try {
    for (const phase of /** @type {const} */ (['configure', 'build'])) {
      const r = await readHostileReport(report, phase);
      const said = r.log.join(' | ');
      assert.ok(r.log.includes(`as uid ${prUser.uid}`), `${phase}: ran as ${prUser.name}: ${said}`);
      assert.ok(r.log.includes('credentials denied') && !r.files.includes('credentials'), `${phase}: the runner's credentials were not read: ${said}`);
      for (const target of [join(releaseBuild, 'HOSTILE'), join(releaseBuild, 'usr/sbin/mariadbd'), join(targets.gitRefs, 'HOSTILE'), join(targets.ccache, 'HOSTILE')]) {
        assert.ok(r.log.includes(`denied ${target}`), `${phase}: the write of ${target} was refused: ${said}`);
      }
      // The environments of the job's processes: its user's own readable (and holding no
      // secret: there is none in the bench job), every other one refused, act's included.
      const others = r.processes.filter((p) => p.uid !== String(prUser.uid));
      assert.ok(others.some((p) => p.comm === 'act') && others.some((p) => p.comm === 'bash'), `${phase}: the walk reached the step's shell and act: ${said}`);
      for (const p of others) assert.equal(p.read, false, `${phase}: the environment of ${p.comm} (${p.pid}, uid ${p.uid}) was read`);
      assert.ok(r.processes.some((p) => p.uid === String(prUser.uid) && p.read && p.comm === 'node'), `${phase}: its own tagbench was read (the walk works): ${said}`);
      for (const e of r.environments) {
        for (const secret of ['ghs_service_token', 'ghs_code_repository_app_token']) assert.ok(!e.text.includes(secret), `process ${e.pid} (${e.comm}) holds the secret ${secret.slice(0, 8)}…`);
      }
    }
    assert.deepEqual(await fingerprintTree(shared), sharedBefore, 'the runner\'s install cache (release build, .git-refs, ccache) is as it was before the first run');
    // The next release leg on this host: the same release leg again, into a store of its own.
    // It reuses the build as it is (installed nothing, built nothing: the cache is still as it
    // was) and its record says it ran the same as the leg before the pull request's runs.
    const legAfter = await releaseLeg('release-leg-after');
    assert.match(legAfter.log, new RegExp(`install mariadb ${VERSION.replace(/\./g, '\\.')} \\(source, already in the cache\\)`), legAfter.log);
    assert.doesNotMatch(legAfter.log, /building |fetching /, 'nothing built or fetched');
    assert.deepEqual(await fingerprintTree(shared), sharedBefore, 'the release leg changed nothing in the runner\'s install cache');
    assert.deepEqual(whatWasRun(legAfter.record), whatWasRun(legBefore.record), 'the release leg after the hostile run ran what the one before it ran');
    // The process left behind: ended by the job's kill -KILL -1 as the user, not by this test.
    assert.ok(lingering > 0, 'the build left a process running');
    const alive = await readFile(join(report, 'lingering.alive'), 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(await readFile(join(report, 'lingering.alive'), 'utf8'), alive, 'the process left behind stopped writing');
    assert.ok(await processEnded(lingering), `the process left behind (${lingering}) is gone`);
  } finally {
    // Only when the job failed to end it (the assertions above say so): never outlive the test.
    if (lingering > 0 && !(await processEnded(lingering))) { try { process.kill(lingering, 'SIGKILL'); } catch { /* gone */ } }
  }
  // The planted attempts and change point: refused by publish, which says why and writes nothing.
  const build = await readHostileReport(report, 'build');
  assert.ok(build.log.some((l) => l.startsWith('planted ')), `planted in the results handed back: ${build.log.join(' | ')}`);
  assert.match(bench2.log, /refs\/attempts\/local\/mariadb\/10\.11\.99\/attempt-1\.json[^\n]*outside refs\/runs\/ and refs\/verdicts\//, 'publish names the planted file and the rule');
  // The first run's records, replayed (another commit) and re-labelled (another pull request),
  // where the ref run's own records go: refused, each with the field that gave it away.
  for (const { relPath, why } of plantedRecords) {
    assert.match(bench2.log, new RegExp(`refs/${relPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not of the planned pull request run: [^\n]*${why}`), `publish refuses the planted ${relPath} naming ${why}`);
  }
  if (refsOnly) {
    assert.deepEqual(await lsBranch(), branchAfterFirst, 'the results branch holds only the refs of the first run: nothing of the refused artifact');
    assert.ok(!branchAfterFirst.some((p) => /\t(runs|changepoints|attempts|logs)\//.test(p) || /\trefs\/(?!runs\/|verdicts\/)/.test(p)), 'refs/runs and refs/verdicts only');
  }

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
