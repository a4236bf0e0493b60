/**
 * The trust model of pull-request benchmarks (issue 34, docs/github-service.md "Trust model"), read
 * off the workflows themselves: what actionlint and zizmor cannot see. The bench job checks the
 * run's approval before any code of the pull request is fetched; no self-hosted job holds a
 * secret; the check and comment are posted by a hosted job with a token minted per run from a
 * GitHub App; a newer push never cancels a run waiting for approval; the code repository's
 * request workflow drops the label on every push, answers only an exact `/tagbench run <sha>`, and
 * passes tokens through the environment or stdin, never argv. The request's `if:` is evaluated
 * with the expression evaluator of these tests on the events that matter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { evaluateCondition, interpolate } from './expressions.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PR = 'tagbench-pull-requests';

/** @param {string} file relative to the project root */
async function load(file) {
  const text = await readFile(`${ROOT}${file}`, 'utf8');
  return { text, yaml: /** @type {any} */ (parse(text)) };
}

/** @param {any} job */
const isHosted = (job) => typeof job['runs-on'] === 'string' && /^(ubuntu|windows|macos)-/.test(job['runs-on']);

test('pull-request.yml: the bench job\'s first tagbench step is check-approval, with the run\'s commit and requester; no tagbench step before it', async () => {
  const { yaml } = await load('.github/workflows/pull-request.yml');
  const bench = yaml.jobs.bench;
  assert.equal(bench.environment, PR);
  assert.equal(bench.permissions?.actions, 'read', 'the approvals route needs actions: read');
  const steps = bench.steps.map((/** @type {any} */ s) => String(s.run ?? s.uses ?? ''));
  const first = steps.findIndex((/** @type {string} */ s) => /scripts\/cli\.js|git |pull\//.test(s));
  assert.match(steps[first], /cli\.js check-approval .*--commit "\$COMMIT".*--requested-by/s, 'the first step that runs tagbench or git checks the approval');
  for (const s of steps.slice(0, first)) assert.match(s, /^(actions\/checkout@|actions\/setup-node@|npm ci )/, `before the approval only our own checkout and tools: ${s}`);
});

test('pull-request.yml: a newer push never cancels a run waiting for approval; run-name shows the pull request, the commit and a compare link', async () => {
  const { yaml } = await load('.github/workflows/pull-request.yml');
  for (const [name, c] of [['workflow', yaml.concurrency], ...Object.entries(yaml.jobs).map(([k, j]) => [k, /** @type {any} */ (j).concurrency])]) {
    if (c && typeof c === 'object') assert.notEqual(c['cancel-in-progress'], true, `${name}: cancel-in-progress would swap the pending run for a newer commit`);
  }
  assert.match(String(yaml['run-name']), /client_payload\.pull/);
  assert.match(String(yaml['run-name']), /client_payload\.sha/);
  assert.match(String(yaml['run-name']), /compare/);
});

test('no self-hosted job holds a secret or the code repository\'s token, in any workflow; every hosted job has a timeout', async () => {
  const dir = `${ROOT}.github/workflows/`;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.yml'))) {
    const { yaml } = await load(`.github/workflows/${file}`);
    for (const [name, job] of Object.entries(yaml.jobs ?? {})) {
      const j = /** @type {any} */ (job);
      if (j.uses) continue;
      if (isHosted(j)) assert.ok(j['timeout-minutes'] !== undefined, `${file} job ${name}: a hosted job without timeout-minutes runs up to 6 hours`);
      if (file === 'pull-request.yml' && !isHosted(j)) {
        const text = JSON.stringify(j);
        assert.doesNotMatch(text, /secrets\.|TAGBENCH_CODE_TOKEN/, `${file} job ${name} runs a pull request's code: it may hold no secret`);
      }
    }
  }
});

test('pull-request.yml: the check and comment are posted by a hosted job after the bench job, always, with a token minted from a GitHub App pinned by commit', async () => {
  const { yaml } = await load('.github/workflows/pull-request.yml');
  const [name, post] = /** @type {[string, any]} */ (Object.entries(yaml.jobs).find(([, j]) => JSON.stringify(j).includes('post-verdict')) ?? ['', null]);
  assert.ok(post, 'a job posts the verdict');
  assert.ok(isHosted(post), `${name} runs on a GitHub-hosted runner`);
  assert.ok([post.needs].flat().includes('bench'));
  assert.match(String(post.if), /always\(\)/);
  const mint = post.steps.find((/** @type {any} */ s) => String(s.uses ?? '').startsWith('actions/create-github-app-token@'));
  assert.match(String(mint?.uses), /^actions\/create-github-app-token@[0-9a-f]{40}$/);
  assert.doesNotMatch(JSON.stringify(post), /secrets\.TAGBENCH_CODE_TOKEN/, 'never a maintainer\'s personal token');
  const publish = JSON.stringify(yaml.jobs.publish ?? {});
  assert.match(publish, /--refs-only/, 'the publish of a pull request writes refs/ only');
});

test('no token in a command line: tokens reach programs through the environment or stdin', async () => {
  for (const file of ['.github/workflows/pull-request.yml', '.github/workflows/benchmark.yml', 'setup/code-repository/tagbench-request.yml']) {
    const { yaml } = await load(file);
    for (const [name, job] of Object.entries(yaml.jobs)) {
      for (const step of /** @type {any} */ (job).steps ?? []) {
        const script = String(step.run ?? '');
        // Shell builtins (printf, echo) do not appear in /proc/<pid>/cmdline; a program's argv does.
        const argv = script.replace(/\bprintf\b[^|\n]*\|/g, '').split('\n').filter((l) => !/^\s*(printf|echo)\b/.test(l)).join('\n');
        assert.doesNotMatch(argv, /\$\{?(GITHUB_TOKEN|SERVICE_TOKEN|[A-Z_]*_TOKEN)\b(?!_ENV)/, `${file} job ${name} step "${step.name ?? ''}" puts a token in argv`);
      }
    }
  }
});

test('the request workflow: the label is dropped on every push; only an exact /tagbench run <sha> from an owner or a writer asks; its concurrency is per job', async () => {
  const { yaml } = await load('setup/code-repository/tagbench-request.yml');
  assert.equal(yaml.concurrency, undefined, 'a workflow-level group lets any comment cancel a request being sent');
  const jobs = /** @type {[string, any][]} */ (Object.entries(yaml.jobs));
  const disarm = jobs.find(([, j]) => JSON.stringify(j.steps).includes('labels/'));
  assert.ok(disarm, 'a job removes the label');
  const request = jobs.find(([, j]) => JSON.stringify(j.steps).includes('/dispatches'));
  assert.ok(request);
  const [, req] = /** @type {[string, any]} */ (request);
  const [, dis] = /** @type {[string, any]} */ (disarm);
  const pr = (/** @type {string} */ action, label = 'tagbench') => ({ github: { event_name: 'pull_request_target', event: { action, label: { name: label }, pull_request: { labels: [{ name: 'tagbench' }] } } } });
  assert.equal(evaluateCondition(dis.if, pr('synchronize')), true, 'a push drops the label');
  assert.equal(evaluateCondition(req.if, pr('synchronize')), false, 'a push never asks on its own');
  assert.equal(evaluateCondition(req.if, pr('labeled')), true);
  assert.equal(evaluateCondition(req.if, pr('labeled', 'documentation')), false, 'another label added to a labelled pull request does not ask');
  const comment = (/** @type {string} */ body, association = 'OWNER') => ({ github: { event_name: 'issue_comment', event: { issue: { pull_request: { url: 'x' } }, comment: { body, author_association: association } } } });
  assert.equal(evaluateCondition(req.if, comment(`/tagbench run ${'a'.repeat(40)}`)), true);
  assert.equal(evaluateCondition(req.if, comment('/tagbench running')), false);
  assert.equal(evaluateCondition(req.if, comment('/tagbench runs a')), false);
  assert.equal(evaluateCondition(req.if, comment(`/tagbench run ${'a'.repeat(40)}`, 'CONTRIBUTOR')), false);
  for (const [, j] of jobs) assert.equal(j.concurrency?.['cancel-in-progress'] === true && JSON.stringify(j.concurrency.group).includes('comment'), false);
  // A member or collaborator may be anyone with triage: their permission is read from the API.
  assert.match(JSON.stringify(req.steps), /collaborators\/.*\/permission/);
});

test('a request carrying clone_url (a copy of the request workflow older than the rule) is refused, saying what to do; the request workflow sends none', async () => {
  const { yaml } = await load('.github/workflows/pull-request.yml');
  const step = yaml.jobs.plan.steps.find((/** @type {any} */ s) => s.id === 'request');
  const payload = { repository: 'acme/bench', pull: '1', sha: 'a'.repeat(40), base_ref: 'main', requested_by: 'maintainer' };
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-pr-request-'));
  /** @param {Record<string, unknown>} clientPayload */
  const runStep = async (clientPayload) => {
    /** @type {Record<string, string>} */
    const env = {};
    for (const [k, v] of Object.entries(step.env)) env[k] = String(interpolate(v, { github: { event: { client_payload: clientPayload } } }) ?? '');
    const output = join(dir, `output-${Object.keys(clientPayload).length}`);
    const res = await new Promise((resolve) => {
      execFile('bash', ['-e', '-c', step.run], { env: { PATH: process.env.PATH ?? '', ...env, GITHUB_OUTPUT: output } }, (err, stdout) => resolve({ code: err ? err.code : 0, stdout }));
    });
    return { .../** @type {{code: number, stdout: string}} */ (res), output: await readFile(output, 'utf8').catch(() => '') };
  };
  try {
    const current = await runStep(payload);
    assert.equal(current.code, 0, current.stdout);
    assert.match(current.output, /^repository=acme\/bench$/m);
    const stale = await runStep({ ...payload, clone_url: 'https://evil.example/acme/bench.git' });
    assert.equal(stale.code, 1);
    assert.match(stale.stdout, /::error::the request carries clone_url, which this service no longer takes: copy the current setup\/code-repository\/tagbench-request\.yml into acme\/bench's \.github\/workflows\//);
    assert.equal(stale.output, '', 'nothing of a refused request reaches the plan');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const { text } = await load('setup/code-repository/tagbench-request.yml');
  const code = text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
  assert.doesNotMatch(code, /clone_url/, 'the request workflow sends no clone_url');
});

test('the bench job builds nothing without the pull requests\' OS user, under act too: no TAGBENCH_PR_USER, or one that is no user of the host, stops the step before anything runs', async () => {
  const { yaml } = await load('.github/workflows/pull-request.yml');
  const step = yaml.jobs.bench.steps.find((/** @type {any} */ s) => /as its own OS user/.test(String(s.name)));
  assert.ok(step, 'the build step');
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-pr-user-'));
  /** @param {Record<string, string>} env */
  const runStep = (env) => new Promise((resolve) => {
    execFile('bash', ['-e', '-c', step.run], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, out: stdout + stderr }));
  });
  try {
    // ACT=true as act sets it: no escape for a developer's machine any more.
    const unset = /** @type {{code: number, out: string}} */ (await runStep({ ACT: 'true' }));
    assert.equal(unset.code, 1);
    assert.match(unset.out, /::error::TAGBENCH_PR_USER is not set on this runner: a pull request is built and run only as its own OS user/);
    const unknown = /** @type {{code: number, out: string}} */ (await runStep({ ACT: 'true', TAGBENCH_PR_USER: 'no-such-user-tagbench' }));
    assert.equal(unknown.code, 1);
    assert.match(unknown.out, /::error::TAGBENCH_PR_USER 'no-such-user-tagbench' is not a user of this host/);
    assert.deepEqual(await readdir(dir), [], 'nothing was made or run');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
