/**
 * One benchmark per host: benchmark.yml's self-hosted job runs on the runner labels `tagbench
 * plan --self-hosted` resolves. A host class without labels (configs/hosts/local.yml has
 * `labels: []`) would give `runs-on: [self-hosted]`, any runner at all, so the plan refuses it
 * unless the repository variable TAGBENCH_HOST_LABELS names the runner that serves the class.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadConfig } from '../../scripts/config/index.js';
import { resolveBenchmarkRequest } from '../../scripts/workflow/resolve-benchmark-request.js';
import { planCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { UserError } from '../../scripts/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const request = { product: 'mariadb', version: '10.11.19', hostClass: 'local', suite: 'smoke' };

test('a host class without runner labels is refused for self-hosted jobs, naming the file and the fix', async () => {
  const config = await loadConfig(ROOT);
  assert.deepEqual(config.hosts.local.labels, [], 'this test relies on configs/hosts/local.yml having no labels');
  const { plan, errors } = resolveBenchmarkRequest(config, request, { selfHosted: true });
  assert.equal(plan, null);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /host class 'local' has no runner labels \(configs\/hosts\/local\.yml labels: \[\]\)/);
  assert.match(errors[0], /TAGBENCH_HOST_LABELS, e\.g\. \{"local": \["tagbench-laptop"\]\}/);
  await assert.rejects(planCommand({ root: ROOT, ...request, selfHosted: true }, githubSettings()), (err) => err instanceof UserError && /no runner labels/.test(err.message));
});

test('TAGBENCH_HOST_LABELS gives a class its runner; classes with labels keep theirs', async () => {
  const config = await loadConfig(ROOT);
  const local = resolveBenchmarkRequest(config, request, { selfHosted: true, hostLabels: '{"local": ["tagbench-laptop"]}' });
  assert.deepEqual(local.plan?.runsOn, ['self-hosted', 'tagbench-laptop']);
  assert.equal(local.plan?.leg, 'local_mariadb_10.11.19_smoke');
  const small = resolveBenchmarkRequest(config, { ...request, hostClass: 'small-server', suite: '' }, { selfHosted: true });
  assert.deepEqual(small.plan?.runsOn, ['self-hosted', ...config.hosts['small-server'].labels]);
  assert.ok(config.hosts['small-server'].labels.length > 0);
});

test('a bad TAGBENCH_HOST_LABELS is refused with what is wrong', async () => {
  const config = await loadConfig(ROOT);
  for (const [value, message] of [
    ['{local: x}', /is not JSON/],
    ['["x"]', /expected an object of host class -> list of runner labels/],
    ['{"nowhere": ["x"]}', /names host class 'nowhere'; known host classes: .*local/],
    ['{"local": "x"}', /gives host class 'local' "x"; expected a list of runner labels/],
    ['{"local": ["a b"]}', /expected a list of runner labels/],
  ]) {
    const { plan, errors } = resolveBenchmarkRequest(config, request, { selfHosted: true, hostLabels: String(value) });
    assert.equal(plan, null, String(value));
    assert.ok(errors.some((e) => /** @type {RegExp} */ (message).test(e)), `${value}: ${errors.join('; ')}`);
  }
});

test('benchmark.yml plans with --self-hosted and the TAGBENCH_HOST_LABELS variable, and its self-hosted job runs on the plan\'s labels', async () => {
  const workflow = parse(await readFile(`${ROOT}.github/workflows/benchmark.yml`, 'utf8'));
  const step = workflow.jobs.plan.steps.find((/** @type {any} */ s) => s.id === 'plan');
  assert.match(step.run, /cli\.js plan --self-hosted /);
  assert.equal(step.env.TAGBENCH_HOST_LABELS, '${{ vars.TAGBENCH_HOST_LABELS }}');
  const selfHosted = Object.entries(workflow.jobs).filter(([, job]) => /fromJSON/.test(String(/** @type {any} */ (job)['runs-on'])));
  // The count shards (benchmark-count-shards.test.js) run on the class's runners too.
  assert.deepEqual(selfHosted.map(([id]) => id), ['count', 'bench'], 'install, run, compare and confirm share one self-hosted job; the count shards have their own');
  for (const [, job] of selfHosted) assert.equal(/** @type {any} */ (job)['runs-on'], '${{ fromJSON(needs.plan.outputs.runs-on) }}');
});
