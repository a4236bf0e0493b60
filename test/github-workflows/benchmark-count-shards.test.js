/**
 * Issue 33 item 4, a counted leg split over runners: the planner makes the count jobs' matrix
 * from the host class's `counting.shards` (pure), and benchmark.yml runs one count job per shard
 * (`run --meter <counting meters> --count-shard k/n`), uploads each shard's records under a name of
 * its own per shard and attempt (GitHub refuses a duplicate name), and the bench job times only,
 * waits for the shards and merges their records into its store before compare.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { planCountShards, renderPlanOutputs } from '../../scripts/workflow/benchmark-plan.js';
import { loadConfig } from '../../scripts/config/index.js';
import { resolveBenchmarkRequest } from '../../scripts/workflow/resolve-benchmark-request.js';
import { estimateLeg, legTimeoutsMinutes } from '../../scripts/run/estimate-leg.js';
import { UserError } from '../../scripts/errors.js';
import { interpolate, evaluateCondition } from './expressions.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const workflow = parse(await readFile(join(ROOT, '.github/workflows/benchmark.yml'), 'utf8'));
const config = await loadConfig(ROOT);
const DEMO_METERS = [{ name: 'wall', kind: /** @type {const} */ ('timed') }, { name: 'instructions', kind: /** @type {const} */ ('counted') }, { name: 'work', kind: /** @type {const} */ ('counted') }];

test('the planner: n count jobs for n > 1 and a counting meter, the bench job timing only; none otherwise', () => {
  assert.deepEqual(planCountShards(3, DEMO_METERS, 'counting.shards'), { shards: 3, matrix: [1, 2, 3], countMeters: 'instructions,work', timedMeters: 'wall' });
  // One shard, or nothing counted: the bench job does it all, and the count job's matrix is [0]
  // (GitHub refuses an empty one even for a job its if skips).
  assert.deepEqual(planCountShards(1, DEMO_METERS, 'x'), { shards: 0, matrix: [0], countMeters: '', timedMeters: '' });
  assert.deepEqual(planCountShards(4, [DEMO_METERS[0]], 'x'), { shards: 0, matrix: [0], countMeters: '', timedMeters: '' });
  assert.throws(() => planCountShards(2, DEMO_METERS.slice(1), 'counting.shards of configs/hosts/local.yml'),
    (/** @type {any} */ e) => e instanceof UserError && /counting\.shards of configs\/hosts\/local\.yml = 2 .*no timed one/.test(e.message));
});

test('a sharded leg: the plan\'s outputs carry the matrix and meters, the estimate the longest shard and a count job\'s timeout', () => {
  const { plan } = resolveBenchmarkRequest(config, { product: 'mariadb', version: '10.11.19', provider: 'deb', suite: 'demo', hostClass: 'local', mycnf: '', repeats: '', only: '', baseline: '', dryRun: 'false' }, { selfHosted: false, hostLabels: '' });
  assert.ok(plan);
  const count = planCountShards(3, DEMO_METERS, 'x');
  const leg = estimateLeg(config, { suite: 'demo', hostClass: 'local', provider: 'deb', releases: 2, reference: false, countShards: 3 });
  const whole = estimateLeg(config, { suite: 'demo', hostClass: 'local', provider: 'deb', releases: 2, reference: false });
  assert.ok(leg.steps.countS > 0 && whole.steps.countS === 0);
  // The bench job's run times only: shorter than the unsharded run by the counted phases.
  assert.ok(leg.steps.runS < whole.steps.runS, `${leg.steps.runS} < ${whole.steps.runS}`);
  const counted = (/** @type {typeof leg} */ l) => l.budgeted.parts.filter((p) => p.name.startsWith('counted phase')).reduce((s, p) => s + p.seconds, 0);
  assert.ok(counted(leg) < counted(whole), 'the longest of 3 shards is shorter than the whole counted phase');
  const timeouts = legTimeoutsMinutes(leg.steps);
  assert.ok(timeouts.count > 0 && legTimeoutsMinutes(whole.steps).count === 0);
  const outputs = Object.fromEntries(renderPlanOutputs(plan, { estimateMinutes: 60, timeouts }, count).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  assert.equal(outputs['count-shards'], '3');
  assert.deepEqual(JSON.parse(outputs['count-matrix']), [1, 2, 3]);
  assert.equal(outputs['count-meters'], 'instructions,work');
  assert.equal(outputs['timed-meters'], 'wall');
  assert.equal(outputs['count-timeout-minutes'], String(timeouts.count));
  for (const key of ['count-shards', 'count-matrix', 'count-meters', 'timed-meters', 'count-timeout-minutes']) {
    assert.equal(workflow.jobs.plan.outputs[key], `\${{ steps.plan.outputs.${key} }}`, `the plan job passes ${key} on`);
  }
});

/**
 * The count job's artifact name for one shard and attempt, by running its naming step as the runner would.
 * @param {number} shard @param {number} of @param {string} attempt
 */
async function shardArtifact(shard, of, attempt) {
  const job = workflow.jobs.count;
  const step = job.steps.find((/** @type {any} */ s) => s.id === 'name');
  const context = { needs: { plan: { outputs: { leg: 'local_mariadb_10.11.19_demo', 'count-shards': String(of) } } }, github: { run_attempt: attempt }, matrix: { shard }, inputs: {}, vars: {}, secrets: {} };
  const env = Object.fromEntries(Object.entries({ ...job.env, ...step.env }).map(([k, v]) => [k, String(interpolate(v, context, {}))]));
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-shard-'));
  try {
    await writeFile(join(dir, 'out'), '');
    await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', step.run], { env: { PATH: process.env.PATH ?? '', ...env, GITHUB_OUTPUT: join(dir, 'out') } });
    return (await readFile(join(dir, 'out'), 'utf8')).trim().replace(/^artifact=/, '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** @param {string} pattern an artifact pattern @returns {RegExp} */
const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+^$()|\\[\]{}]/g, '\\$&').replace(/\*/g, '.*')}$`);

test('benchmark.yml: a count job per shard, each uploading under its own name per shard and attempt; the bench job times only and merges them before compare', async () => {
  const { count, bench } = workflow.jobs;
  assert.equal(count.strategy.matrix.shard, '${{ fromJSON(needs.plan.outputs.count-matrix) }}');
  assert.equal(count.strategy['fail-fast'], false);
  const plan = (/** @type {string} */ shards) => ({ needs: { plan: { outputs: { 'count-shards': shards } } }, github: { event_name: 'workflow_call' }, inputs: {}, vars: {} });
  assert.equal(evaluateCondition(count.if, plan('0')), false, 'no count job without shards');
  assert.equal(evaluateCondition(count.if, plan('3')), true);
  const runStep = count.steps.find((/** @type {any} */ s) => /cli\.js run /.test(String(s.run ?? '')));
  assert.match(runStep.run, /--meter "\$COUNT_METERS" --count-shard "\$SHARD\/\$SHARDS"/);
  assert.equal(count.env.SHARD, '${{ matrix.shard }}');
  for (const job of [count, bench]) for (const s of job.steps) assert.doesNotMatch(String(s.run ?? ''), /\$\{\{/, `no expression in a script: ${s.name ?? s.run}`);
  // Unique names: 3 shards x 2 attempts, and none is the bench job's own checkpoint.
  const names = [];
  for (const attempt of ['1', '2']) for (const k of [1, 2, 3]) names.push(await shardArtifact(k, 3, attempt));
  assert.equal(new Set(names).size, 6, names.join(', '));
  assert.equal(names[0], 'results-local_mariadb_10.11.19_demo-a1-count1-of-3-run');
  const upload = count.steps.find((/** @type {any} */ s) => /^actions\/upload-artifact@[0-9a-f]{40}$/.test(s.uses ?? ''));
  assert.equal(upload.with.name, '${{ steps.name.outputs.artifact }}');
  assert.match(String(upload.if), /always\(\)/, 'what a failed shard counted is uploaded too');
  // The bench job: after the shards, its run with the timed meters only, and their records merged
  // (this attempt's, by pattern) after the candidate's run is noted and before compare.
  assert.deepEqual(bench.needs, ['plan', 'count']);
  const benchIf = (/** @type {string} */ countResult) => evaluateCondition(bench.if, { needs: { plan: { result: 'success', outputs: {} }, count: { result: countResult } }, github: { event_name: 'workflow_call' }, inputs: {}, vars: {} }, { failed: countResult === 'failure' });
  assert.equal(benchIf('skipped'), true, 'a leg without shards runs as before');
  assert.equal(benchIf('success'), true);
  assert.equal(benchIf('failure'), false, 'a failed shard: nothing to compare whole');
  const at = (/** @type {(s: any) => boolean} */ f) => bench.steps.findIndex(f);
  assert.match(bench.steps[at((s) => s.name === 'tagbench run')].run, /\$\{TIMED_METERS:\+--meter "\$TIMED_METERS"\}/);
  assert.equal(bench.env.TIMED_METERS, '${{ needs.plan.outputs.timed-meters }}');
  const download = at((s) => s.name === 'download the count shards\' records');
  assert.ok(download > at((s) => s.id === 'candidate') && download < at((s) => s.id === 'compare'));
  const pattern = String(interpolate(bench.steps[download].with.pattern, { needs: { plan: { outputs: { leg: 'local_mariadb_10.11.19_demo' } } }, github: { run_attempt: '1' }, inputs: {}, vars: {} }, {}));
  assert.deepEqual(names.filter((n) => glob(pattern).test(n)), names.slice(0, 3), 'this attempt\'s shards, not another attempt\'s');
  assert.equal(glob(pattern).test('results-local_mariadb_10.11.19_demo-a1-run'), false, 'not the bench job\'s own checkpoint');
  assert.equal(bench.steps[download].with['merge-multiple'], true);
});
