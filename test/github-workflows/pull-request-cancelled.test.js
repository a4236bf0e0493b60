/**
 * A pull-request run cancelled mid-build completes its check as neutral, with the run's link
 * (issue 34): the hosted job `post` of pull-request.yml, taken as GitHub would run it after the
 * bench job was cancelled, and its last step run for real against the GitHub stand-in
 * (test/github/fake-github-nock.js, served over HTTP by fake-github-server.js).
 *
 * Not under act, because act cannot produce this input: act 0.2.89 cancels on SIGINT (nektos/act
 * pull request 2714), but then reports the interrupted job's result as `failure`, never
 * `cancelled`, and skips every step without a status function in the jobs that still run (tried
 * with a two-job workflow: the dependent `if: always()` job started, its plain step was skipped,
 * `needs.a.result` was `failure`). So the conditions are evaluated here with the cancelled
 * conclusion as input, under act's stricter rule for steps (the run counts as cancelled in every
 * step: a step runs only if its own condition says so), and the step that posts is run as a
 * process with the environment its `env:` gives it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { evaluateCondition, interpolate } from './expressions.js';
import { serveFakeGitHub } from './fake-github-server.js';
import { startFakeGitHub } from '../github/fake-github-nock.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHA = 'a'.repeat(40);
const RUN_URL = 'https://github.com/acme/tagbench/actions/runs/4242';

/**
 * The expression context of the run after its bench job was cancelled mid-build.
 * @param {string} benchResult
 */
function contextAfter(benchResult) {
  return {
    github: { server_url: 'https://github.com', repository: 'acme/tagbench', run_id: '4242', event_name: 'repository_dispatch' },
    needs: {
      plan: {
        result: 'success',
        outputs: { commit: SHA, product: 'mariadb', suite: 'ref-quick', 'host-class': 'local', repository: 'acme/bench', 'code-owner': 'acme', 'code-name': 'bench', pull: '1', ref: 'pull/1/head', repo: 'https://github.com/acme/bench.git', refused: '' },
      },
      bench: { result: benchResult, outputs: { artifact: 'results-pr-1-a1', refused: '' } },
    },
    // The App token step ran (GitHub): its token and slug; npm ci succeeded, and so did the
    // step that posts (the job's last step, for a post that failed, then has nothing to do).
    steps: { app: { outputs: { token: 'ghs_minted_for_this_run', 'app-slug': 'tagbench' } }, deps: { outcome: 'success' }, verdict: { outcome: 'success' } },
    env: { STORE_DIR: 'results', OUT_DIR: 'out' },
    vars: {},
    secrets: {},
  };
}

/** @returns {Promise<any>} pull-request.yml */
const workflow = async () => parse(await readFile(join(ROOT, '.github/workflows/pull-request.yml'), 'utf8'));

test('a cancelled bench job: post runs every step it needs (no download, no fallback), publish does not', async () => {
  const yaml = await workflow();
  const ctx = contextAfter('cancelled');
  const cancelled = { cancelled: true };
  assert.equal(evaluateCondition(yaml.jobs.post.if, ctx, cancelled), true, 'post runs after a cancel');
  assert.equal(evaluateCondition(yaml.jobs.publish.if, ctx, cancelled), false, 'nothing of a cancelled run is published');
  const ran = yaml.jobs.post.steps.filter((/** @type {any} */ s) => evaluateCondition(s.if, ctx, cancelled)).map((/** @type {any} */ s) => s.name ?? s.uses ?? s.run);
  const all = yaml.jobs.post.steps.map((/** @type {any} */ s) => s.name ?? s.uses ?? s.run);
  const download = all.find((/** @type {string} */ n) => /download the results/.test(n));
  const fallback = all.find((/** @type {string} */ n) => /^no verdict posted/.test(n));
  assert.ok(fallback, 'the posting job ends with a step for a post that could not run');
  assert.deepEqual(ran, all.filter((/** @type {string} */ n) => n !== download && n !== fallback),
    'every step but the download of results the cancelled job never uploaded, and the fallback of a verdict step that did not post');
});

test('the posting step after a cancel completes the check as neutral, saying so, with the run\'s link', async () => {
  const yaml = await workflow();
  const ctx = contextAfter('cancelled');
  const post = yaml.jobs.post;
  const step = post.steps.find((/** @type {any} */ s) => s.id === 'verdict');
  assert.match(String(step.name), /neutral check/);
  /** @type {Record<string, string>} */
  const env = {};
  for (const [k, v] of Object.entries({ ...yaml.env, ...post.env, ...step.env })) env[k] = String(interpolate(v, ctx) ?? '');
  assert.equal(env.BENCH_RESULT, 'cancelled');
  assert.equal(env.RUN_URL, RUN_URL);

  const fake = startFakeGitHub({ commits: [SHA] });
  fake.allowLoopback();
  const bridge = await serveFakeGitHub();
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-pr-cancelled-'));
  try {
    const res = await new Promise((resolve) => {
      execFile('bash', ['-e', '-o', 'pipefail', '-c', step.run], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: dir, ...env, GITHUB_API_URL: bridge.url } },
        (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
    });
    const r = /** @type {{code: number, stdout: string, stderr: string}} */ (res);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake.checkRuns.length, 1, r.stderr);
    const [run] = fake.checkRuns;
    assert.deepEqual([run.head_sha, run.status, run.conclusion, run.name], [SHA, 'completed', 'neutral', 'tagbench: ref-quick on local']);
    assert.match(run.output.summary ?? '', /the bench job ended cancelled/);
    assert.ok((run.output.summary ?? '').includes(RUN_URL) || run.details_url === RUN_URL, `the run's link: ${JSON.stringify(run)}`);
    assert.equal(fake.comments.length, 0, 'no verdict comment for a run without a verdict');
  } finally {
    await bridge.close();
    fake.done();
    await rm(dir, { recursive: true, force: true });
  }
});
