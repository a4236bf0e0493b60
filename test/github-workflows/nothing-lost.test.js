/**
 * The workflows' side of "nothing lost", checked against the workflow files themselves:
 * - a confirmation that failed, timed out or was cancelled is a failed confirmation: report and
 *   publish never run on its unconfirmed verdicts (their `if:` evaluated for every outcome);
 * - publish runs whether or not the report job (issues) succeeded;
 * - watch.yml's discover job stops when it cannot read the results branch, and only a branch
 *   that does not exist yet means "nothing benchmarked" (its script run against local
 *   repositories: unreadable, no branch, branch without index, branch with index).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { evaluateCondition, interpolate } from './expressions.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** @param {string} file */
async function loadWorkflow(file) {
  return parse(await readFile(join(ROOT, file), 'utf8'));
}

/**
 * Whether a job of benchmark.yml runs, given the results of the jobs it needs.
 * @param {any} job
 * @param {Record<string, string>} results job id -> success | failure | cancelled | skipped
 * @param {{dryRun?: boolean, runCancelled?: boolean}} [options]
 */
function runs(job, results, { dryRun = false, runCancelled = false } = {}) {
  const needs = Object.fromEntries(Object.entries(results).map(([id, result]) => [id, { result, outputs: id === 'plan' ? { 'dry-run': String(dryRun) } : {} }]));
  const failed = Object.values(results).some((r) => r === 'failure' || r === 'cancelled');
  return evaluateCondition(job.if, { needs, github: { event_name: 'workflow_call' }, inputs: {}, vars: {} }, { failed, cancelled: runCancelled });
}

test('a failed, timed-out or cancelled confirmation is never reported or published as unconfirmed', async () => {
  const { jobs } = await loadWorkflow('.github/workflows/benchmark.yml');
  // The confirmation is a step of the bench job: its failure or timeout fails the job, and a
  // job that hits its own timeout or is cancelled ends cancelled.
  const confirm = jobs.bench.steps.find((/** @type {any} */ s) => s.id === 'confirm');
  assert.ok(confirm, 'benchmark.yml bench job has a step with id confirm');
  // Its own timeout (a timed-out step fails): the plan's estimate of rerunning every test, unless
  // a test installation's repository variable says otherwise (benchmark-act.test.js times a
  // confirmation out with it).
  const needs = { plan: { outputs: { 'confirm-timeout-minutes': '395' } } };
  const timeout = (/** @type {Record<string, string>} */ vars) => interpolate(confirm['timeout-minutes'], { vars, needs, github: {}, inputs: {} }, {});
  assert.equal(timeout({}), 395, 'the confirm step has the timeout the plan gives it');
  assert.equal(timeout({ TAGBENCH_CONFIRM_TIMEOUT_MINUTES: '1' }), 1);
  assert.ok(!confirm['continue-on-error'], 'a failed confirm step must fail the bench job');
  for (const bench of ['failure', 'cancelled', 'skipped']) {
    assert.equal(runs(jobs.report, { plan: 'success', bench }), false, `report runs after a bench job that ended ${bench}`);
    assert.equal(runs(jobs.publish, { plan: 'success', bench, report: 'skipped' }), false, `publish runs after a bench job that ended ${bench}`);
  }
  assert.equal(runs(jobs.report, { plan: 'success', bench: 'success' }), true);
  assert.equal(runs(jobs.report, { plan: 'success', bench: 'success' }, { runCancelled: true }), false, 'nothing reports in a cancelled run');
});

test('publish runs whether or not the report job succeeded; never on a dry run', async () => {
  const { jobs } = await loadWorkflow('.github/workflows/benchmark.yml');
  for (const report of ['success', 'failure', 'cancelled']) {
    assert.equal(runs(jobs.publish, { plan: 'success', bench: 'success', report }), true, `publish must run when report ended ${report}`);
  }
  assert.equal(runs(jobs.publish, { plan: 'success', bench: 'success', report: 'success' }, { dryRun: true }), false);
  // The artifact with the measurements is uploaded even when the job fails or is cancelled.
  const upload = jobs.bench.steps.find((/** @type {any} */ s) => /^actions\/upload-artifact@/.test(s.uses ?? ''));
  assert.match(String(upload.if), /always\(\)/);
});

/**
 * The discover job's results-branch step, run as the runner would run it.
 * @param {string} cwd
 * @param {string} resultsRepo
 */
async function readResultsBranch(cwd, resultsRepo) {
  const { jobs } = await loadWorkflow('.github/workflows/watch.yml');
  const step = jobs.discover.steps.find((/** @type {any} */ s) => /results branch/.test(s.name ?? ''));
  assert.ok(step?.run, 'watch.yml discover has a step reading the results branch');
  assert.ok(!step['continue-on-error'], 'the results-branch step must not hide its failure');
  try {
    const { stdout, stderr } = await run('bash', ['-eo', 'pipefail', '-c', step.run], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', RESULTS_REPO: resultsRepo } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = /** @type {{code: number, stdout: string, stderr: string}} */ (err);
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/**
 * @param {string} dir
 * @param {Record<string, string>} files on the bench-data branch (none: no branch)
 */
async function resultsRepo(dir, files) {
  const bare = join(dir, 'results.git');
  await run('git', ['init', '--quiet', '--bare', bare]);
  if (Object.keys(files).length === 0) return bare;
  const work = join(dir, 'work');
  await run('git', ['init', '--quiet', '-b', 'bench-data', work]);
  for (const [name, text] of Object.entries(files)) await writeFile(join(work, name), text);
  await run('git', ['-C', work, 'add', '.']);
  await run('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '--quiet', '-m', 'results']);
  await run('git', ['-C', work, 'push', '--quiet', bare, 'bench-data']);
  return bare;
}

test('watch fails loudly when it cannot read the results branch; a branch not there yet means nothing benchmarked', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-watch-branch-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  /** @param {string} name */
  const job = async (name) => {
    const cwd = join(dir, name);
    await mkdir(cwd);
    return cwd;
  };

  const unreadable = await readResultsBranch(await job('unreadable'), join(dir, 'no-such-repository.git'));
  assert.notEqual(unreadable.code, 0, 'an unreadable results repository must fail the step');
  assert.match(unreadable.out, /::error::cannot read the results branch bench-data/);

  const empty = await job('empty');
  const noBranch = await readResultsBranch(empty, await resultsRepo(join(dir, 'r1'), {}));
  assert.equal(noBranch.code, 0, noBranch.out);
  assert.match(noBranch.out, /no bench-data branch yet/);
  assert.deepEqual(await readdir(join(empty, 'data')), []);

  await mkdir(join(dir, 'r2'));
  const noIndex = await readResultsBranch(await job('no-index'), await resultsRepo(join(dir, 'r2'), { 'README.md': 'x' }));
  assert.notEqual(noIndex.code, 0);
  assert.match(noIndex.out, /has no index\.json/);

  await mkdir(join(dir, 'r3'));
  const good = await job('good');
  const read = await readResultsBranch(good, await resultsRepo(join(dir, 'r3'), { 'index.json': '{"runs":[]}' }));
  assert.equal(read.code, 0, read.out);
  assert.equal(await readFile(join(good, 'results-index.json'), 'utf8'), '{"runs":[]}', 'index.json alone, for tagbench watch --index');
  assert.deepEqual(await readdir(join(good, 'data')), ['.git'], 'no file of the branch is checked out: the records are not needed to plan');
});

test('a leg whose bench job failed, timed out or was cancelled is remembered on the results branch; a good leg, a dry run or a refused plan is not', async () => {
  const { jobs } = await loadWorkflow('.github/workflows/benchmark.yml');
  const job = jobs['remember-failure'];
  assert.ok(job, 'benchmark.yml has a remember-failure job');
  // The count jobs (count shards) come first when a leg has them; skipped when it has none.
  assert.deepEqual(job.needs, ['plan', 'count', 'bench']);
  for (const bench of ['failure', 'cancelled']) {
    assert.equal(runs(job, { plan: 'success', count: 'skipped', bench }), true, `remembered after a bench job that ended ${bench}`);
    // Even when the whole run was cancelled (a timeout or a person): the attempt still counts.
    assert.equal(runs(job, { plan: 'success', count: 'success', bench }, { runCancelled: true }), true, `remembered in a cancelled run (${bench})`);
    assert.equal(runs(job, { plan: 'success', count: 'skipped', bench }, { dryRun: true }), false, 'a dry run leaves nothing');
    // A failed count shard skips the bench job: the leg failed, and what the shards counted is kept.
    assert.equal(runs(job, { plan: 'success', count: bench, bench: 'skipped' }), true, `remembered after a count job that ended ${bench}`);
  }
  for (const bench of ['success', 'skipped']) assert.equal(runs(job, { plan: 'success', count: 'skipped', bench }), false, `not after a bench job that ended ${bench}`);
  assert.equal(runs(job, { plan: 'failure', count: 'skipped', bench: 'skipped' }), false, 'a refused plan is not a failed leg');
  const steps = job.steps.map((/** @type {any} */ s) => String(s.run ?? ''));
  assert.ok(steps.some((/** @type {string} */ r) => /scripts\/cli\.js store attempt .*--outcome "\$BENCH_RESULT"/s.test(r)), 'it writes the attempt');
  assert.ok(steps.some((/** @type {string} */ r) => /scripts\/cli\.js publish --store "\$STORE_DIR" --logs --branch bench-data/.test(r)), 'and publishes it, with the records it got');
  assert.deepEqual(job.permissions, { contents: 'write' });
  // What it publishes besides the attempt: the bench job's checkpoints of this attempt, never
  // the final artifact (an unconfirmed comparison) and never another attempt's.
  const download = job.steps.findIndex((/** @type {any} */ s) => /^actions\/download-artifact@/.test(s.uses ?? ''));
  assert.ok(download >= 0 && download < job.steps.findIndex((/** @type {any} */ s) => /cli\.js publish/.test(String(s.run ?? ''))), 'it downloads the checkpoints before publishing');
  const context = { needs: { plan: { outputs: { leg: 'local_mariadb_10.11.19_smoke' } } }, github: { run_attempt: '2' }, inputs: {}, vars: {} };
  assert.equal(interpolate(job.steps[download].with.pattern, context, {}), 'results-local_mariadb_10.11.19_smoke-a2-*');
  assert.equal(job.steps[download].with['merge-multiple'], true);
});

test('the bench job uploads a checkpoint after each step that adds run records, whatever happened', async () => {
  const { jobs } = await loadWorkflow('.github/workflows/benchmark.yml');
  const steps = jobs.bench.steps;
  const at = (/** @type {(s: any) => boolean} */ f) => steps.findIndex(f);
  for (const [run, suffix] of [['tagbench run', '-run'], ["tagbench run (the host class's reference release)", '-reference']]) {
    const i = at((s) => s.name === run);
    const upload = steps[i + 1];
    assert.match(String(upload?.uses), /^actions\/upload-artifact@[0-9a-f]{40}$/, `right after ${run}`);
    assert.match(String(upload.if), /always\(\)/, `the checkpoint after ${run} is uploaded after a failure, a timeout or a cancel too`);
    assert.equal(upload.with.name, `\${{ steps.name.outputs.artifact }}${suffix}`);
    assert.equal(upload.with['if-no-files-found'], 'ignore', 'a job that died before its run has nothing to upload');
  }
  // A resumed leg fetches its finished records before it runs.
  const fetch = at((s) => /store fetch/.test(String(s.run ?? '')));
  assert.ok(fetch >= 0 && fetch < at((s) => s.name === 'tagbench run'));
  assert.equal(evaluateCondition(steps[fetch].if, { needs: { plan: { outputs: { resume: '' } } }, github: {}, inputs: {}, vars: {} }), false);
  assert.equal(evaluateCondition(steps[fetch].if, { needs: { plan: { outputs: { resume: 'a-1' } } }, github: {}, inputs: {}, vars: {} }), true);
});
