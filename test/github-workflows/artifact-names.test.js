/**
 * Artifact names are unique in a workflow run, and watch.yml's matrix legs (calls of
 * benchmark.yml) and its pages call all share one run: a name two legs or two jobs could both
 * upload makes the second upload fail with 409 Conflict on GitHub (after hours of benchmark).
 * This test expands watch.yml's matrix over legs that differ in one field at a time, expands
 * every reusable-workflow call, resolves each leg's plan with the real `tagbench plan` logic,
 * evaluates every artifact upload's name (running the step that computes it), and fails on any
 * name two uploads share; a download must take its own leg's artifact by name. It also reruns
 * the check on a copy of benchmark.yml with a fixed artifact name, to show it catches one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { loadConfig } from '../../scripts/config/index.js';
import { resolveBenchmarkRequest } from '../../scripts/workflow/resolve-benchmark-request.js';
import { renderPlanOutputs } from '../../scripts/workflow/benchmark-plan.js';

/** The leg's time outputs do not name artifacts: any values do here. */
const PLAN_TIME = { estimateMinutes: 60, timeouts: { install: 20, run: 100, reference: 60, confirm: 100, job: 300 } };
import { interpolate } from './expressions.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST_LABELS = JSON.stringify({ local: ['tagbench-act'] });
const UPLOADS = /^actions\/upload(-pages)?-artifact@/;
const DOWNLOADS = /^actions\/download-artifact@/;

/** @param {string} file */
async function loadWorkflow(file) {
  return parse(await readFile(join(ROOT, file), 'utf8'));
}

/**
 * Run a step's script the way the runner would (bash, its env) and return its step outputs.
 * Only for the side-effect-free steps an artifact name depends on.
 * @param {string} script
 * @param {Record<string, string>} env
 */
async function stepOutputs(script, env) {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-step-'));
  try {
    const output = join(dir, 'output');
    await writeFile(output, '');
    await run('bash', ['-eo', 'pipefail', '-c', script], { env: { PATH: process.env.PATH ?? '', ...env, GITHUB_OUTPUT: output } });
    return Object.fromEntries((await readFile(output, 'utf8')).split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Whether an artifact name of the workflow reads a step's outputs, directly in its job or
 * through one of the job's outputs.
 * @param {any} workflow
 * @param {any} job
 * @param {string} stepId
 */
function namesReadStep(workflow, job, stepId) {
  const names = Object.values(workflow.jobs).flatMap((/** @type {any} */ j) => (j.steps ?? [])
    .filter((/** @type {any} */ s) => UPLOADS.test(s.uses ?? '') || DOWNLOADS.test(s.uses ?? ''))
    .map((/** @type {any} */ s) => String(s.with?.name ?? ''))).join('\n');
  const read = [names, ...Object.entries(job.outputs ?? {}).filter(([key]) => names.includes(`outputs.${key}`)).map(([, value]) => String(value))];
  return read.some((text) => text.includes(`steps.${stepId}.outputs.`));
}

/**
 * Every artifact upload and download of one called workflow, for one set of inputs.
 * @param {any} workflow parsed workflow
 * @param {Record<string, any>} base contexts shared by every job (inputs, vars, github, matrix)
 * @param {Record<string, Record<string, string>>} knownJobOutputs outputs of jobs not expanded here (plan)
 */
async function expandJobs(workflow, base, knownJobOutputs) {
  /** @type {Record<string, {outputs: Record<string, string>}>} */
  const needs = Object.fromEntries(Object.entries(knownJobOutputs).map(([job, outputs]) => [job, { outputs }]));
  /** @type {{job: string, step: string, name: string}[]} */
  const uploads = [];
  /** @type {{job: string, step: string, name: string, pattern: string}[]} */
  const downloads = [];
  // Jobs in the order their needs allow.
  const pending = Object.keys(workflow.jobs).filter((j) => !(j in needs));
  while (pending.length > 0) {
    const index = pending.findIndex((j) => [workflow.jobs[j].needs ?? []].flat().every((n) => n in needs));
    assert.ok(index >= 0, `cannot order jobs ${pending.join(', ')}`);
    const [jobId] = pending.splice(index, 1);
    const job = workflow.jobs[jobId];
    /** @type {Record<string, {outputs: Record<string, string>}>} */
    const steps = {};
    const context = { ...base, needs, steps, env: {} };
    /** @type {Record<string, string>} */
    const env = {};
    for (const scope of [workflow.env ?? {}, job.env ?? {}]) {
      for (const [k, v] of Object.entries(scope)) env[k] = String(interpolate(v, { ...context, env }));
    }
    context.env = env;
    for (const [i, step] of (job.steps ?? []).entries()) {
      const label = step.name ?? step.uses ?? step.run ?? String(i);
      if (typeof step.uses === 'string' && UPLOADS.test(step.uses)) {
        const name = String(interpolate(step.with?.name ?? (step.uses.includes('pages') ? 'github-pages' : 'artifact'), context));
        uploads.push({ job: jobId, step: label, name });
      }
      if (typeof step.uses === 'string' && DOWNLOADS.test(step.uses)) {
        downloads.push({ job: jobId, step: label, name: String(interpolate(step.with?.name ?? '', context)), pattern: String(interpolate(step.with?.pattern ?? '', context)) });
      }
      // An artifact name may read this step's outputs (directly, or through a job output):
      // run the step then; such steps only write outputs.
      if (step.id && typeof step.run === 'string' && namesReadStep(workflow, job, step.id)) {
        /** @type {Record<string, string>} */
        const stepEnv = { ...env };
        for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = String(interpolate(v, context));
        steps[step.id] = { outputs: await stepOutputs(step.run, stepEnv) };
      }
    }
    needs[jobId] = { outputs: Object.fromEntries(Object.entries(job.outputs ?? {}).map(([k, v]) => [k, String(interpolate(v, context) ?? '')])) };
  }
  return { uploads, downloads };
}

/**
 * Expand watch.yml for the given matrix legs and run attempt.
 * @param {{benchmark: any}} overrides workflows to use instead of the files (by job of watch.yml)
 * @param {Record<string, string>[]} legs watch.yml matrix entries
 * @param {string} attempt github.run_attempt
 */
async function expandWatch(overrides, legs, attempt) {
  const watch = await loadWorkflow('.github/workflows/watch.yml');
  const config = await loadConfig(ROOT);
  const vars = { TAGBENCH_HOST_LABELS: HOST_LABELS };
  const github = { run_attempt: attempt, run_id: '4242', event_name: 'schedule', token: 'token' };
  /** @type {{leg: string, job: string, step: string, name: string}[]} */
  const uploads = [];
  /** @type {{leg: string, job: string, step: string, name: string, pattern: string}[]} */
  const downloads = [];
  for (const [callerJob, job] of Object.entries(/** @type {Record<string, any>} */ (watch.jobs))) {
    if (typeof job.uses !== 'string') continue;
    assert.match(job.uses, /^\.\/\.github\/workflows\//, `watch.yml job ${callerJob} calls ${job.uses}: this test expands local calls only`);
    const called = callerJob === 'benchmark' ? overrides.benchmark ?? await loadWorkflow(job.uses) : await loadWorkflow(job.uses);
    const matrixLegs = job.strategy?.matrix ? legs : [{}];
    for (const matrix of matrixLegs) {
      const legName = `${callerJob}${Object.keys(matrix).length ? ` ${JSON.stringify(matrix)}` : ''}`;
      const inputs = Object.fromEntries(Object.entries(job.with ?? {}).map(([k, v]) => [k, interpolate(v, { matrix, vars, github, inputs: {} })]));
      /** @type {Record<string, Record<string, string>>} */
      const known = {};
      if (called.jobs.plan) {
        const { plan, errors } = resolveBenchmarkRequest(config, {
          product: String(inputs.product), version: String(inputs.version), provider: String(inputs.provider ?? ''),
          suite: String(inputs.suite ?? ''), hostClass: String(inputs.host_class), mycnf: '', repeats: String(inputs.repeats ?? ''),
          only: String(inputs.only ?? ''), baseline: '', dryRun: String(inputs.dry_run ?? 'false'),
        }, { selfHosted: true, hostLabels: HOST_LABELS });
        assert.ok(plan, `leg ${legName}: the plan refuses it: ${errors.join('; ')}`);
        known.plan = Object.fromEntries(renderPlanOutputs(plan, PLAN_TIME).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      }
      const expanded = await expandJobs(called, { inputs, vars, github, matrix: {} }, known);
      uploads.push(...expanded.uploads.map((u) => ({ leg: legName, ...u })));
      downloads.push(...expanded.downloads.map((d) => ({ leg: legName, ...d })));
    }
  }
  return { uploads, downloads };
}

/**
 * @param {{leg: string, job: string, step: string, name: string}[]} uploads
 * @returns {string[]} every name two uploads share, with who uploads it
 */
function sharedNames(uploads) {
  /** @type {Map<string, string[]>} */
  const byName = new Map();
  for (const u of uploads) byName.set(u.name, [...(byName.get(u.name) ?? []), `${u.leg} / ${u.job} / ${u.step}`]);
  return [...byName].filter(([, who]) => who.length > 1).map(([name, who]) => `${name}: ${who.join(' and ')}`);
}

/**
 * Matrix legs as `tagbench watch` emits them, each pair differing in one field only.
 * @returns {Record<string, string>[]}
 */
function legsDifferingInOneField() {
  const leg = { product: 'mariadb', line: '10.11', version: '10.11.19', tag: 'mariadb-10.11.19', commit: 'a'.repeat(40), hostClass: 'local', suite: 'smoke' };
  return [
    leg,
    { ...leg, version: '10.11.20', tag: 'mariadb-10.11.20' },
    { ...leg, hostClass: 'small-server' },
    { ...leg, suite: 'small' },
    { ...leg, product: 'mysql', line: '9', version: '9.7.5', tag: 'mysql-9.7.5' },
  ];
}

test('no two legs or jobs of a watch.yml run upload an artifact of the same name; downloads take their own leg\'s by name, or its checkpoints by a pattern that matches no other', async (t) => {
  const legs = legsDifferingInOneField();
  const { uploads, downloads } = await expandWatch({ benchmark: null }, legs, '1');
  t.diagnostic(`uploads: ${uploads.map((u) => u.name).join(', ')}`);
  assert.ok(uploads.filter((u) => u.leg.startsWith('benchmark')).length >= 2 * legs.length, `expected at least two uploads per leg, got ${JSON.stringify(uploads)}`);
  assert.ok(uploads.some((u) => u.name === 'github-pages-a1'), 'the pages call uploads the site artifact');
  assert.deepEqual(sharedNames(uploads), []);
  assert.ok(downloads.length > 0, 'benchmark.yml downloads its results in later jobs');
  for (const d of downloads) {
    const own = uploads.filter((u) => u.leg === d.leg).map((u) => u.name);
    if (d.pattern) {
      // remember-failure takes the bench job's checkpoints by pattern (a runner that died
      // uploaded some of them only): every name it matches must be its own leg's checkpoint.
      const glob = new RegExp(`^${d.pattern.replace(/[.+^$()|\\[\]{}]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
      const matched = uploads.filter((u) => glob.test(u.name));
      assert.ok(matched.length > 0, `${d.leg} / ${d.job} / ${d.step}: pattern ${d.pattern} matches no upload`);
      assert.deepEqual(matched.filter((u) => u.leg !== d.leg || !/-(run|reference)$/.test(u.name)).map((u) => `${u.leg} / ${u.job} / ${u.step}: ${u.name}`), [],
        `${d.leg} / ${d.job} / ${d.step}: pattern ${d.pattern} takes artifacts other than its own leg's checkpoints`);
      continue;
    }
    assert.ok(own.includes(d.name), `${d.leg} / ${d.job} / ${d.step} downloads ${JSON.stringify(d.name)}, which its own leg does not upload (${own.join(', ')})`);
  }
});

test('a re-run attempt never meets the names an earlier attempt uploaded', async () => {
  const legs = legsDifferingInOneField().slice(0, 2);
  const first = await expandWatch({ benchmark: null }, legs, '1');
  const second = await expandWatch({ benchmark: null }, legs, '2');
  // Every upload of the run, the pages call's site included (a re-run of a watch run used to
  // fail on a second github-pages artifact).
  const names = (/** @type {{leg: string, name: string}[]} */ u) => u.map((x) => x.name);
  assert.ok(names(second.uploads).some((n) => n.startsWith('github-pages')), 'the pages call is in the expansion');
  const again = names(second.uploads).filter((n) => names(first.uploads).includes(n));
  assert.deepEqual(again, []);
});

test('the check catches a fixed artifact name (benchmark.yml as it was before leg names)', async () => {
  const benchmark = await loadWorkflow('.github/workflows/benchmark.yml');
  const upload = benchmark.jobs.bench.steps.find((/** @type {any} */ s) => UPLOADS.test(s.uses ?? ''));
  upload.with.name = 'results-run';
  const { uploads } = await expandWatch({ benchmark }, legsDifferingInOneField().slice(0, 2), '1');
  const shared = sharedNames(uploads);
  assert.equal(shared.length, 1, JSON.stringify(shared));
  assert.match(shared[0], /^results-run: benchmark .* and benchmark /);
});

test('leg names tell every two requests apart: no host class, product or suite name holds the separator', async () => {
  const config = await loadConfig(ROOT);
  for (const names of [Object.keys(config.hosts), Object.keys(config.products), Object.keys(config.suites)]) {
    for (const name of names) assert.doesNotMatch(name, /_/, `${name}: '_' separates the parts of a leg name`);
  }
});
