// Issue 13, "the host is watched too": `tagbench plan` names the host class's reference release
// and says whether the bench job must run it on its own this cycle (not when the run measures it
// anyway, as the line's base), so the host series gets a point every benchmark cycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { planCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { resolveBenchmarkRequest } from '../../scripts/workflow/resolve-benchmark-request.js';
import { applyAcceptedBaseline, needsReferenceRun, referenceLabel } from '../../scripts/workflow/benchmark-plan.js';

const root = new URL('../..', import.meta.url).pathname;
const request = { product: 'mariadb', version: '10.11.19', hostClass: 'local', suite: 'smoke' };

/** @param {Record<string, string>} extra planCommand options */
async function planOutputs(extra) {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-plan-ref-'));
  const out = join(dir, 'github_output');
  await writeFile(out, '');
  const write = process.stdout.write;
  process.stdout.write = () => true; // read back from GITHUB_OUTPUT
  try {
    await planCommand({ root, baselines: join(dir, 'no-baselines'), ...request, ...extra }, githubSettings({ output: out }));
  } finally {
    process.stdout.write = write;
  }
  return Object.fromEntries((await readFile(out, 'utf8')).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

test('the reference is the line\'s base: the run measures it already, no run of its own', async () => {
  const o = await planOutputs({});
  assert.equal(o.releases, 'mariadb@10.11.18:deb,mariadb@10.11.19:deb');
  assert.equal(o['reference-product'], 'mariadb');
  assert.equal(o['reference-version'], '10.11.18');
  assert.equal(o['reference-run'], 'false');
});

test('another base (an override or an accepted baseline): the reference gets a run of its own', async () => {
  // An older base of the line than the deb list holds: built from source, like the candidate.
  const override = await planOutputs({ baseline: '10.11.17', provider: 'source' });
  assert.equal(override.releases, 'mariadb@10.11.17:source,mariadb@10.11.19:source');
  assert.equal(override['reference-run'], 'true');
  assert.equal(override['reference-label'], '', 'no other build of 10.11.18 in this leg: the reference run keeps its plain name');
  assert.equal(override['reference-version'], '10.11.18');

  const dir = await mkdtemp(join(tmpdir(), 'tagbench-baselines-'));
  await mkdir(join(dir, 'local/mariadb/10.11'), { recursive: true });
  await writeFile(join(dir, 'local/mariadb/10.11/smoke.yml'), [
    'schemaVersion: 1', 'hostClass: local', 'product: mariadb', 'line: "10.11"', 'suite: smoke',
    'version: "10.11.17"', 'runIds: [r-1]', 'promotedAt: "2026-11-01T00:00:00Z"', '',
  ].join('\n'));
  const accepted = await planOutputs({ baselines: dir });
  assert.equal(accepted.base, '10.11.17');
  assert.equal(accepted['reference-run'], 'true', 'decided after the accepted baseline replaced the base');
});

test('benchmarking the reference itself, or a class without reference: no extra run', async () => {
  const config = await loadConfig(root);
  const itself = resolveBenchmarkRequest(config, { ...request, version: '10.11.18' });
  assert.ok(itself.plan, itself.errors.join('\n'));
  assert.equal(itself.plan.releases, 'mariadb@10.11.18:deb');
  assert.equal(needsReferenceRun(itself.plan), false);
  // Our source build of the reference's version is another build: the host series needs Debian's.
  const built = resolveBenchmarkRequest(config, { ...request, version: '10.11.18', provider: 'source' });
  assert.ok(built.plan, built.errors.join('\n'));
  assert.equal(built.plan.releases, 'mariadb@10.11.18:source');
  assert.equal(needsReferenceRun(built.plan), true);
  assert.equal(referenceLabel(built.plan), '#reference', 'its run is labelled: two builds of 10.11.18 land in one folder');
  assert.equal(referenceLabel(itself.plan), '', 'no run of its own, no label');

  const other = resolveBenchmarkRequest(config, { ...request, product: 'mysql', version: '9.7.4' });
  assert.ok(other.plan, other.errors.join('\n'));
  assert.equal(needsReferenceRun(other.plan), true, 'a mysql run does not measure the mariadb reference');

  const noReference = structuredClone(config);
  delete noReference.hosts.local.reference;
  const none = resolveBenchmarkRequest(noReference, request);
  assert.ok(none.plan);
  assert.equal(none.plan.reference, null);
  assert.equal(needsReferenceRun(applyAcceptedBaseline(none.plan, { version: '10.11.17' })), false);
});

test('a reference the deb provider cannot install is refused, naming the host file', async () => {
  const config = structuredClone(await loadConfig(root));
  config.hosts.local.reference = { product: 'mariadb', version: '10.11.99' };
  const r = resolveBenchmarkRequest(config, request);
  assert.equal(r.plan, null);
  assert.match(r.errors.join('\n'), /configs\/hosts\/local\.yml reference is mariadb 10\.11\.99, which the deb provider cannot install; configs\/products\/mariadb\.yml deb: lists .*10\.11\.18/);
  config.hosts.local.reference = { product: 'postgres', version: '16' };
  assert.match(resolveBenchmarkRequest(config, request).errors.join('\n'), /configs\/hosts\/local\.yml reference names product 'postgres'; known products: mariadb/);
});

test('a baseline override from another line, or one the deb provider cannot install, is refused before anything runs', async () => {
  const config = await loadConfig(root);
  const cross = resolveBenchmarkRequest(config, { ...request, baseline: '10.5.23' });
  assert.equal(cross.plan, null);
  assert.deepEqual(cross.errors, ["input baseline '10.5.23' is of line 10.5, the version '10.11.19' of line 10.11; verdicts compare within a line: give a 10.11.x baseline, "
    + 'or compare across lines afterwards with tagbench compare --releases (a view without verdicts)']);
  const uninstallable = resolveBenchmarkRequest(config, { ...request, baseline: '10.11.17' });
  assert.equal(uninstallable.plan, null);
  assert.match(uninstallable.errors.join('\n'), /^input baseline '10\.11\.17' cannot be installed by the deb provider; configs\/products\/mariadb\.yml deb: lists .*10\.11\.18/);
  const lineless = resolveBenchmarkRequest(config, { ...request, baseline: '9.1.1' });
  assert.equal(lineless.plan, null);
  assert.match(lineless.errors.join('\n'), /^input baseline: version 9\.1\.1 belongs to no release line of mariadb; lines: /);
});
