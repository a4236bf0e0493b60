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
 * test (point-query) with 5 repeats on 5 server instances per release (verdicts count
 * instances: with 5 per side the exact rank-sum test's smallest p-value is 1/252, well under
 * the run's Holm-adjusted level; with 4 it is 1/70, which passes only while at most three
 * metrics are gated); a few minutes on 2 cores.
 *
 * The second run times the confirmation out: act enforces a step's timeout-minutes (whole
 * minutes, expressions evaluated; checked with act 0.2.89), so the repository variable
 * TAGBENCH_CONFIRM_TIMEOUT_MINUTES=1 cuts the throttled rerun short, as GitHub would at 300.
 * What finished before the kill (the run's records, uploaded as the run's checkpoint) is
 * published by remember-failure with the failed attempt, and watch proposes the leg again as a
 * resume of those records; the resumed bench job's fetch and run are then checked against the
 * published branch (no servers: every release has its finished record).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
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

/**
 * Processes this test started that outlived act (a step killed at its timeout leaves its
 * children behind under act's host mode): those whose command line or working folder is
 * inside the test's own scratch folder. Ended by pid, SIGTERM first.
 * @param {string} dir the test's scratch folder
 * @returns {Promise<number[]>} the pids ended
 */
async function endLeftovers(dir) {
  const ended = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (!cmdline.includes(dir) && !cwd.startsWith(dir)) continue;
    try {
      process.kill(Number(entry), 'SIGTERM');
      ended.push(Number(entry));
    } catch { /* gone already */ }
  }
  if (ended.length > 0) await new Promise((r) => setTimeout(r, 5000));
  for (const pid of ended) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch { /* ended by SIGTERM */ }
  }
  return ended;
}

/**
 * Dispatch benchmark.yml for CANDIDATE (point-query only, 5 repeats on 5 instances) with the
 * candidate's servers held to a tenth of a CPU, in the run and in the confirmation rerun.
 * @param {string} dir scratch folder
 * @param {string} resultsRepo bare repository for the results branch
 * @param {Record<string, string>} [vars] more repository variables
 */
async function dispatchThrottled(dir, resultsRepo, vars = {}) {
  const throttle = await throttleServers({ name: `tagbench-act-${process.pid}`, match: [new RegExp(`mariadb-${CANDIDATE.replace(/\./g, '\\.')}(@[^/]*)?/usr/sbin/mariadbd\0`), new RegExp(`\0--port=${String(PORT_BASE).slice(0, -1)}\\d\0`)], quotaCpus: 0.1 });
  try {
    const result = await runAct({
      workflow: '.github/workflows/benchmark.yml',
      dir,
      event: { inputs: { product: 'mariadb', version: CANDIDATE, host_class: 'local', suite: 'smoke', only: 'point-query', repeats: '5', instances: '5', dry_run: false } },
      // `only` makes this an ad-hoc run: it gets an issue of its own, never the release's official one
      vars: { TAGBENCH_HOST_LABELS: JSON.stringify({ local: ['tagbench-act'] }), TAGBENCH_RESULTS_REPO: resultsRepo, TAGBENCH_AD_HOC_ISSUES: 'issue', ...vars },
      env: {
        TAGBENCH_CACHE: process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'),
        TAGBENCH_PORT_BASE: String(PORT_BASE),
        // Short: server sockets live in the work dir (108-byte limit); act's workspace path is long.
        TAGBENCH_WORK_DIR: join(dir, 'w'),
      },
    });
    return { result, throttle };
  } finally {
    await throttle.stop();
  }
}

test('act runs benchmark.yml by dispatch: run records, a confirmed regression, an issue body, published', { timeout: 20 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-'));
  let passed = false;
  // Kept when the test fails: act.log, the store and the outputs are what one wants to read then.
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  const resultsRepo = join(dir, 'results.git');
  await git('git', ['init', '--quiet', '--bare', resultsRepo]);
  const { result, throttle } = await dispatchThrottled(dir, resultsRepo);
  t.diagnostic(`throttled ${throttle.throttled.size} candidate server(s); put back into the group ${throttle.movedBack()} time(s)`);
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK), 'a remote action step was not skipped under act');
  assert.ok(throttle.throttled.size >= 2, `the candidate's servers (run and confirm) should have been throttled; got ${throttle.throttled.size}`);

  // What the bench job uploaded, as the report and publish jobs downloaded it.
  const artifactNames = (await listFiles(result.artifacts)).filter((f) => f.endsWith('artifact-meta.json')).map((f) => f.split('/').at(-2));
  // The run's checkpoint, then the whole store at the end (the reference is the base here: no
  // reference run, no checkpoint of it).
  assert.deepEqual(artifactNames.sort(), [`issues-${LEG}-a1`, `results-${LEG}-a1`, `results-${LEG}-a1-run`]);
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

test('act: a confirmation that exceeds its timeout fails the bench job; nothing is reported, the run records that finished and the failed attempt are published, and watch backs off, then resumes the leg from them', { timeout: 20 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-timeout-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  const resultsRepo = join(dir, 'results.git');
  await git('git', ['init', '--quiet', '--bare', resultsRepo]);
  const { result } = await dispatchThrottled(dir, resultsRepo, { TAGBENCH_CONFIRM_TIMEOUT_MINUTES: '1' });
  const leftovers = await endLeftovers(dir);
  t.diagnostic(`ended ${leftovers.length} process(es) the killed confirm step left behind`);

  assert.notEqual(result.code, 0, `the workflow must fail when confirm times out:\n${describeFailure(result)}`);
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK), 'a remote action step was not skipped under act');
  // The run and compare succeeded and found the regression; confirm started and was cut at 1 minute.
  assert.match(result.log, /✅ {2}Success - Main tagbench compare/);
  const confirmFailed = result.log.match(/❌ {2}Failure - Main tagbench confirm \[(?:(\d+)m)?([\d.]+)s\]/);
  assert.ok(confirmFailed, `act reports the confirm step failed:\n${describeFailure(result)}`);
  const seconds = Number(confirmFailed[1] ?? 0) * 60 + Number(confirmFailed[2]);
  assert.ok(seconds >= 59 && seconds < 120, `the step ended at its 1-minute timeout, not on its own (${seconds} s)`);
  assert.match(result.log, /Job failed/);
  // Report and publish never ran on the unconfirmed verdicts.
  assert.doesNotMatch(result.log, /Main tagbench report/);
  assert.doesNotMatch(result.log, /publish to the results branch\s*\].*Main tagbench publish/, 'the publish job of results never ran');
  // What reached the results branch (remember-failure): the run's checkpoint, i.e. the records of
  // both releases that finished before confirm was killed, with their logs, and the failed
  // attempt; never the unconfirmed comparison.
  assert.match(result.log, /✅ {2}Success - Main tagbench store attempt/);
  const onBranch = (await git('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', '--name-only', 'bench-data'])).stdout.trim().split('\n');
  assert.deepEqual(onBranch.filter((f) => !/^(index\.json|attempts\/|runs\/|logs\/)/.test(f)), [], 'no comparison (nor anything else) was published');
  assert.equal(onBranch.filter((f) => f.startsWith(`attempts/local/mariadb/${CANDIDATE}/smoke/attempt-`)).length, 1);
  const index = JSON.parse((await git('git', ['--git-dir', resultsRepo, 'show', 'bench-data:index.json'])).stdout);
  assert.deepEqual(index.comparisons, []);
  assert.deepEqual(index.runs.map((/** @type {any} */ r) => [r.version, r.status]).sort(), [['10.11.18', 'ok'], [CANDIDATE, 'ok']], 'both releases\' finished records');
  const [baseRun, candidateRun] = [...index.runs].sort((/** @type {any} */ a, /** @type {any} */ b) => a.version.localeCompare(b.version));
  assert.ok(onBranch.some((f) => f.startsWith(`logs/${candidateRun.id}/`)), 'with the logs of the finished run');
  assert.equal(index.attempts.length, 1);
  assert.equal(index.attempts[0].count, 1);
  assert.equal(index.attempts[0].lastOutcome, 'failure');
  assert.match(index.attempts[0].lastReason, /the bench job ended failure/);
  const { planMatrix } = await import('../../scripts/watch/discover-tags.js');
  const candidate = { product: 'mariadb', line: '10.11', version: CANDIDATE, tag: `mariadb-${CANDIDATE}`, commit: 'a'.repeat(40) };
  const hostClasses = [{ name: 'local', suite: 'smoke', reference: { product: 'mariadb', version: '10.11.18' } }];
  const watchAt = (/** @type {number|undefined} */ now) => planMatrix({ candidates: [candidate], hostClasses, runs: index.runs, comparisons: index.comparisons, attempts: index.attempts, max: 10, now });
  const watchNow = watchAt(undefined);
  assert.deepEqual(watchNow.matrix.include, [], 'watch does not propose the failed leg again at once');
  assert.match(watchNow.skipped[0].reason, /^backing off after 1 failed attempt: not before /);
  // After the back-off: proposed again as a resume of the published run, not a restart.
  const [again] = watchAt(Date.parse(index.attempts[0].lastAt) + 6 * 3600_000).matrix.include;
  assert.equal(again?.attempt, 2);
  assert.equal(again?.resume, `${candidateRun.id},${baseRun.id}`);

  // What the resumed leg's bench job then does with it, without servers: it fetches those records
  // from the branch and its run finds nothing left to run (act's plan outputs: the same releases,
  // tests, repeats and instances).
  const { fetchRuns } = await import('../../scripts/store/fetch-runs.js');
  const { runReleases } = await import('../../scripts/run/index.js');
  const { loadConfig } = await import('../../scripts/config/index.js');
  const resumedStore = join(dir, 'resumed-store');
  const fetched = await fetchRuns(resumedStore, { repo: resultsRepo, ids: again.resume.split(','), progress: () => {} });
  assert.deepEqual(fetched.map((f) => f.status), ['ok', 'ok']);
  const resumed = await runReleases(await loadConfig(ROOT), {
    releases: [{ product: 'mariadb', version: '10.11.18', provider: 'deb' }, { product: 'mariadb', version: CANDIDATE, provider: 'deb' }],
    suite: 'smoke', hostClass: 'local', repeats: 5, instances: 5, only: ['point-query'], resumeFrom: again.resume.split(','),
    storeDir: resumedStore, workDir: join(dir, 'w'), cacheDir: process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'), write: () => {},
  });
  assert.deepEqual(resumed.records, [], 'nothing runs again');
  assert.deepEqual(resumed.resumed?.map((r) => r.id).sort(), [baseRun.id, candidateRun.id].sort());

  // The measurements are kept for diagnosis (upload runs always()), with no confirmed comparison.
  const runDir = join(result.artifacts, (await readdir(result.artifacts))[0]);
  const store = join(runDir, `results-${LEG}-a1`, 'files');
  const files = await listFiles(store);
  assert.ok(files.some((f) => f.includes(`/runs/local/mariadb/${CANDIDATE}/smoke/`)), `the run records were uploaded:\n${files.join('\n')}`);
  const comparisons = await Promise.all(files.filter((f) => f.includes('/verdicts/')).map(async (f) => JSON.parse(await readFile(f, 'utf8'))));
  assert.equal(comparisons.length, 1, 'only the unconfirmed comparison');
  assert.ok(comparisons[0].tests.every((/** @type {any} */ v) => v.confirmed === undefined), 'no verdict is marked confirmed');
  assert.ok(!(await readdir(result.artifacts, { recursive: true })).some((f) => String(f).startsWith(`issues-`) || String(f).includes('/issues-')), 'no issue drafts: report never ran');
  passed = true;
});
