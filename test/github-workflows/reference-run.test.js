/**
 * benchmark.yml's bench job reruns the host class's reference release every cycle (issue 13:
 * the host is watched too): its steps run only when the plan says the run does not measure the
 * reference already, come after the run and before compare, and call tagbench with the
 * reference and the host class's settings (never the request's my.cnf). The steps' scripts are
 * run by bash as the runner would, with a STAND-IN for `node` that records its arguments
 * instead of installing and benchmarking; it enforces what it stands in for by refusing any
 * option the real command does not declare.
 * (The benchmark-act tests run the workflow for real, where the reference is the base.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { commandSpecs } from '../../scripts/command-list.js';
import { evaluateCondition } from './expressions.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function benchSteps() {
  const workflow = parse(await readFile(join(ROOT, '.github/workflows/benchmark.yml'), 'utf8'));
  return { steps: /** @type {any[]} */ (workflow.jobs.bench.steps), plan: workflow.jobs.plan };
}

/**
 * Run a step's script with the stand-in node; return the arguments it was called with.
 * @param {string} script
 * @param {Record<string, string>} env
 * @param {string} dir scratch folder
 * @returns {Promise<string[]>}
 */
async function recordNodeCall(script, env, dir) {
  const argsFile = join(dir, 'args');
  await writeFile(join(dir, 'node'), `#!/bin/sh\n# STAND-IN for node: records its arguments\nprintf '%s\\n' "$@" > "${argsFile}"\n`);
  await chmod(join(dir, 'node'), 0o755);
  await run('bash', ['-e', '-c', script], { env: { PATH: `${dir}:${process.env.PATH}`, ...env } });
  return (await readFile(argsFile, 'utf8')).split('\n').slice(0, -1);
}

/**
 * The stand-in's rule: every option given must be one the real command declares.
 * @param {string[]} args `scripts/cli.js <command> ...`
 */
function assertDeclaredOptions(args) {
  assert.equal(args[0], 'scripts/cli.js');
  const spec = commandSpecs.find((c) => c.name === args[1]);
  assert.ok(spec, `tagbench has a command '${args[1]}'`);
  const declared = new Set((spec.options ?? []).map((o) => o.flags.split(/[ ,]+/).find((f) => f.startsWith('--'))));
  for (const a of args.filter((x) => x.startsWith('--'))) assert.ok(declared.has(a), `tagbench ${args[1]} declares ${a}`);
}

test('the reference runs only when the plan asks, after the run and before compare', async () => {
  const { steps, plan } = await benchSteps();
  assert.equal(plan.outputs['reference-run'], '${{ steps.plan.outputs.reference-run }}');
  const reference = steps.filter((s) => /reference-run/.test(String(s.if ?? '')));
  assert.deepEqual(reference.map((s) => s.name), ["install the host class's reference release", "tagbench run (the host class's reference release)", "upload the reference's record (checkpoint)"]);
  for (const s of reference) {
    const context = (/** @type {string} */ value) => ({ needs: { plan: { outputs: { 'reference-run': value } } }, github: {}, inputs: {}, vars: {}, steps: { name: { outputs: { artifact: 'results-x-a1' } } } });
    assert.equal(evaluateCondition(s.if, context('true')), true);
    assert.equal(evaluateCondition(s.if, context('false')), false);
    if (s.uses) continue;
    // From the plan's estimate of the leg (test/run/estimate.test.js).
    assert.match(String(s['timeout-minutes']), /^\$\{\{ fromJSON\(needs\.plan\.outputs\.(install|reference)-timeout-minutes\) \}\}$/, `${s.name} has its own timeout`);
  }
  const at = (/** @type {(s: any) => boolean} */ f) => steps.findIndex(f);
  const mainRun = at((s) => s.name === 'tagbench run');
  assert.ok(mainRun >= 0 && mainRun < at((s) => s === reference[0]), 'after the run: its cache and ports are free again');
  assert.ok(at((s) => s === reference[1]) < at((s) => s.id === 'compare'), 'before compare, whose host check includes this cycle');
});

test('the reference steps install and run the reference with the request\'s trims but not its my.cnf', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-reference-step-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { steps } = await benchSteps();
  const env = {
    REF_PRODUCT: 'mariadb', REF_VERSION: '10.11.18', SUITE: 'smoke', HOST_CLASS: 'local', STORE_DIR: 'results',
    MYCNF: 'innodb-small', REPEATS: '', INSTANCES: '2', ONLY: 'point-query',
    RUNNER_TOOL_CACHE: '/opt/tool-cache', RUNNER_TEMP: '/tmp/runner', TAGBENCH_PORT_BASE: '23700',
  };
  const install = await recordNodeCall(steps.find((s) => s.name === "install the host class's reference release").run, env, dir);
  assert.deepEqual(install, ['scripts/cli.js', 'install', 'mariadb', '10.11.18', '--provider', 'deb', '--cache-dir', '/opt/tool-cache/tagbench-installs']);
  assertDeclaredOptions(install);

  const runArgs = await recordNodeCall(steps.find((s) => s.name === "tagbench run (the host class's reference release)").run, env, dir);
  assertDeclaredOptions(runArgs);
  const value = (/** @type {string} */ flag) => runArgs[runArgs.indexOf(flag) + 1];
  assert.equal(runArgs[1], 'run');
  assert.equal(value('--releases'), 'mariadb@10.11.18:deb');
  assert.equal(value('--suite'), 'smoke');
  assert.equal(value('--host-class'), 'local');
  assert.equal(value('--instances'), '2');
  assert.equal(value('--only'), 'point-query');
  assert.equal(value('--store'), 'results');
  assert.equal(value('--port-base'), '23700');
  assert.ok(!runArgs.includes('--mycnf'), 'the host class\'s my.cnf: a request\'s template would start a new host series');
  assert.ok(!runArgs.includes('--repeats'), 'an empty input gives no option');
  assert.ok(!runArgs.includes('--resume-from'), 'no resume given, none passed on');
  // A resumed leg: the reference's run skips a reference record it fetched.
  const resumed = await recordNodeCall(steps.find((s) => s.name === "tagbench run (the host class's reference release)").run, { ...env, RESUME: 'a-1,b-2' }, dir);
  assert.equal(resumed[resumed.indexOf('--resume-from') + 1], 'a-1,b-2');
  const main = await recordNodeCall(steps.find((s) => s.name === 'tagbench run').run, { ...env, RELEASES: 'mariadb@10.11.18:deb,mariadb@10.11.19:deb', RESUME: 'a-1,b-2' }, dir);
  assertDeclaredOptions(main);
  assert.equal(main[main.indexOf('--resume-from') + 1], 'a-1,b-2');
});

test('our source build of the reference\'s version: the reference runs labelled, and the candidate\'s run is the unlabelled record beside it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-reference-label-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { steps, plan } = await benchSteps();
  assert.equal(plan.outputs['reference-label'], '${{ steps.plan.outputs.reference-label }}');
  const env = { REF_PRODUCT: 'mariadb', REF_VERSION: '10.11.18', REF_LABEL: '#reference', SUITE: 'smoke', HOST_CLASS: 'local', STORE_DIR: join(dir, 'results') };
  const runArgs = await recordNodeCall(steps.find((s) => s.name === "tagbench run (the host class's reference release)").run, env, dir);
  assert.equal(runArgs[runArgs.indexOf('--releases') + 1], 'mariadb@10.11.18#reference:deb');

  // The folder of 10.11.18 holds both builds' records; the step picks the candidate's.
  const folder = join(dir, 'results/runs/local/mariadb/10.11.18/smoke');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(folder, { recursive: true });
  for (const id of ['20261127T080000Z-local-mariadb-10.11.18-smoke-aaaaaa', '20261127T090000Z-local-mariadb-10.11.18-reference-smoke-bbbbbb']) {
    await writeFile(join(folder, `${id}.json`), '{}');
    await writeFile(join(folder, `${id}.samples.json.gz`), '');
  }
  const note = steps.find((s) => s.id === 'candidate').run;
  const output = join(dir, 'github_output');
  await writeFile(output, '');
  const noteEnv = { PATH: process.env.PATH ?? '', STORE_DIR: join(dir, 'results'), HOST_CLASS: 'local', PRODUCT: 'mariadb', VERSION: '10.11.18', SUITE: 'smoke', GITHUB_OUTPUT: output };
  await run('bash', ['-e', '-c', note], { env: noteEnv });
  assert.equal(await readFile(output, 'utf8'), 'run-id=20261127T080000Z-local-mariadb-10.11.18-smoke-aaaaaa\n');

  // Two unlabelled records (two runs of one build) are still refused, by name.
  await writeFile(join(folder, '20261127T100000Z-local-mariadb-10.11.18-smoke-cccccc.json'), '{}');
  await assert.rejects(run('bash', ['-e', '-c', note], { env: noteEnv }), (err) => /expected one run record of mariadb 10\.11\.18/.test(String(/** @type {any} */ (err).stdout)));
});
