/**
 * benchmark.yml, dispatched and run on this machine by act in host mode: our own steps run end
 * to end (plan, install, run, compare, confirm, report) on real servers and real sysbench, and
 * produce a run record per release, a comparison, a confirmed regression and an issue body
 * (dry run: act has no GitHub token).
 *
 * To get a regression to confirm out of two releases that perform alike, the candidate's
 * servers get a CPU quota (throttle-server.js): a real slowdown, not a fake result.
 * Results travel between jobs as artifacts through a STAND-IN for the artifact actions that
 * keeps their rules (run-act.js); publish pushes to a local bare repository. Other remote
 * actions (setup-node, github-action-benchmark) are replaced by a stub that fails if it ever
 * runs, so the test also proves they are skipped under act (env.ACT). Small on purpose: one
 * test (point-query) with 6 repeats on 6 server instances per release (verdicts count
 * instances); a few minutes on 2 cores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throttleServers } from './throttle-server.js';
import { describeFailure, ROOT, runAct, STUB_MARK } from './run-act.js';

/** Servers of this test listen from here on (this area's port range). */
const PORT_BASE = 23460;
const CANDIDATE = '10.11.19';
const LEG = `local_mariadb_${CANDIDATE}_smoke`;
const git = promisify(execFile);

/** @param {string} dir */
async function listFiles(dir) {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

test('act runs benchmark.yml by dispatch: run records, a confirmed regression, an issue body, published', { timeout: 20 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-'));
  let passed = false;
  // Kept when the test fails: act.log, the store and the outputs are what one wants to read then.
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  const resultsRepo = join(dir, 'results.git');
  await git('git', ['init', '--quiet', '--bare', resultsRepo]);
  // The candidate is slowed to a tenth of a CPU, in the run and in the confirmation rerun.
  const throttle = await throttleServers({ name: `tagbench-act-${process.pid}`, match: [new RegExp(`mariadb-${CANDIDATE.replace(/\./g, '\\.')}(@[^/]*)?/usr/sbin/mariadbd\0`), new RegExp(`\0--port=${String(PORT_BASE).slice(0, -1)}\\d\0`)], quotaCpus: 0.1 });
  let result;
  try {
    result = await runAct({
      workflow: '.github/workflows/benchmark.yml',
      dir,
      event: { inputs: { product: 'mariadb', version: CANDIDATE, host_class: 'local', suite: 'smoke', only: 'point-query', repeats: '6', instances: '6', dry_run: false } },
      // `only` makes this an ad-hoc run: it gets an issue of its own, never the release's official one
      vars: { TAGBENCH_HOST_LABELS: JSON.stringify({ local: ['tagbench-act'] }), TAGBENCH_RESULTS_REPO: resultsRepo, TAGBENCH_AD_HOC_ISSUES: 'issue' },
      env: {
        TAGBENCH_CACHE: process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'),
        TAGBENCH_PORT_BASE: String(PORT_BASE),
        // Short: server sockets live in the work dir (108-byte limit); act's workspace path is long.
        TAGBENCH_WORK_DIR: join(dir, 'w'),
      },
    });
  } finally {
    await throttle.stop();
  }
  t.diagnostic(`throttled ${throttle.throttled.size} candidate server(s); put back into the group ${throttle.movedBack()} time(s)`);
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK), 'a remote action step was not skipped under act');
  assert.ok(throttle.throttled.size >= 2, `the candidate's servers (run and confirm) should have been throttled; got ${throttle.throttled.size}`);

  // What the bench job uploaded, as the report and publish jobs downloaded it.
  const artifactNames = (await listFiles(result.artifacts)).filter((f) => f.endsWith('artifact-meta.json')).map((f) => f.split('/').at(-2));
  assert.deepEqual(artifactNames.sort(), [`issues-${LEG}-a1`, `results-${LEG}-a1`]);
  const runDir = join(result.artifacts, (await readdir(result.artifacts))[0]);
  const store = join(runDir, `results-${LEG}-a1`, 'files');
  const out = join(runDir, `issues-${LEG}-a1`, 'files');
  const files = await listFiles(store);
  const records = files.filter((f) => f.includes(`${join(store, 'runs')}/`));
  for (const v of ['10.11.18', CANDIDATE]) assert.ok(records.some((f) => f.includes(`/local/mariadb/${v}/smoke/`)), `no run record for ${v} in ${store}:\n${files.join('\n')}`);
  const comparisons = await Promise.all(files.filter((f) => f.includes('/verdicts/')).map(async (f) => JSON.parse(await readFile(f, 'utf8'))));
  assert.ok(comparisons.length >= 1, 'no comparison written');
  const confirmed = comparisons.flatMap((c) => c.tests).filter((v) => v.verdict === 'regression' && v.confirmed === true);
  assert.ok(confirmed.some((v) => v.test === 'point-query' && v.metric === 'throughput'), `point-query throughput should be a confirmed regression; verdicts: ${JSON.stringify(comparisons.map((c) => c.tests.map((/** @type {any} */ v) => [v.test, v.metric, v.verdict, v.confirmed])))}`);

  const issues = await listFiles(join(out, 'issues'));
  assert.equal(issues.length, 1, `one issue body expected in ${out}/issues`);
  const body = await readFile(issues[0], 'utf8');
  assert.match(body, new RegExp(`Performance regression: mariadb ${CANDIDATE.replace(/\./g, '\\.')} vs 10\\.11\\.18 on local \\(smoke\\)`));
  assert.match(body, /Ad-hoc run with overrides \([^)]*point-query/, 'the ad-hoc run says so in its own issue');
  assert.match(body, /\| point-query \| point \| throughput( \([^)]*\))? ↑ \|/);
  assert.match(body, /### Provenance/);
  const summary = await readFile(join(out, 'summary.md'), 'utf8');
  assert.match(summary, /point-query \| throughput \| 🔴 regression \(confirmed/);

  const published = (await git('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', '--name-only', 'bench-data'])).stdout.split('\n');
  for (const v of ['10.11.18', CANDIDATE]) assert.ok(published.some((f) => f.startsWith(`runs/local/mariadb/${v}/smoke/`)), `no run record of ${v} on the results branch:\n${published.join('\n')}`);
  passed = true;
});
