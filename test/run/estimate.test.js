/**
 * Issue 21, "a cycle has a time budget": every shipped cycle preset fits its host class's
 * budget as a whole leg (computed from the project's real configs/, as `tagbench plan` does), a
 * plan or a run over budget is refused before anything is installed or started, and the workflow
 * gets its step timeouts from the estimate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite } from '../../scripts/workload/index.js';
import { estimateRun, checkBudget, ESTIMATE_DEFAULTS, estimateCopyS } from '../../scripts/run/estimate.js';
import { estimateLeg, legTimeoutsMinutes } from '../../scripts/run/estimate-leg.js';
import { runReleases } from '../../scripts/run/index.js';
import { planCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { formatDuration } from '../../scripts/run/progress.js';
import { COUNTED_SCAN_MAX_ROWS } from '../../scripts/workload/sysbench/plan.js';
import { UserError } from '../../scripts/errors.js';
import { getMeter, withMeters } from '../../scripts/metrics/index.js';

const root = new URL('../..', import.meta.url).pathname;
const config = await loadConfig(root);

/** The presets a benchmark cycle runs on each budgeted host class: its scale, and standard on small-server. */
const CYCLE_PRESETS = [
  ...Object.values(config.hosts).filter((h) => h.legBudgetH).map((h) => ({ host: h.name, suite: h.scale })),
  { host: 'small-server', suite: 'standard' },
];

test('every bare-metal host class has a budget, and each cycle preset fits it as a whole leg (deb and source builds)', () => {
  const budgeted = Object.values(config.hosts).filter((h) => h.legBudgetH);
  assert.deepEqual(budgeted.map((h) => h.name).sort(), ['large-server', 'medium-server', 'small-server']);
  for (const { host, suite } of CYCLE_PRESETS) {
    const budgetS = /** @type {number} */ (config.hosts[host].legBudgetH) * 3600;
    for (const provider of ['deb', 'source']) {
      // The heaviest leg a cycle plans: the release and its base, and the reference on its own.
      const leg = estimateLeg(config, { suite, hostClass: host, provider, releases: 2, reference: true });
      assert.ok(leg.budgeted.totalS <= budgetS, `${suite} on ${host} (${provider}): ${formatDuration(leg.budgeted.totalS)} > ${formatDuration(budgetS)}`);
      const names = leg.budgeted.parts.map((p) => p.name);
      // The instructions meter carries the CPU cost; a wall-clock check stays beside it.
      for (const part of ['installs', 'loads', 'timed repeats', 'counted phase (instructions)']) assert.ok(names.includes(part), `${suite} on ${host}: no ${part} in ${names.join(', ')}`);
      assert.equal(leg.budgeted.totalS, leg.budgeted.parts.reduce((s, p) => s + p.seconds, 0));
      assert.ok(leg.steps.referenceS > 0 && leg.steps.runS > leg.steps.referenceS, `${suite} on ${host}: two releases take longer than one`);
    }
  }
});

test('the preset for a change under review counts every sysbench test and benchmarks a change and its base in under an hour on small-server', () => {
  // Issue 23 item 3: the pull-request workflow runs it with 2 repeats and no reference run (a
  // change never enters the host's series); builds are warm-ccache rebuilds, so installs are left out here.
  const leg = estimateLeg(config, { suite: 'ref-quick', hostClass: 'small-server', provider: 'source', releases: 2, reference: false, repeats: 2 });
  const benchmarkingS = leg.budgeted.parts.filter((p) => p.name !== 'installs').reduce((s, p) => s + p.seconds, 0);
  assert.ok(benchmarkingS <= 3600, `ref-quick: ${formatDuration(benchmarkingS)} of benchmarking`);
  const steps = planSuite(config.suites['ref-quick'], { engine: 'innodb' });
  const tests = steps.filter((st) => st.measured && st.reported && st.benchmark === 'sysbench');
  assert.ok(tests.length >= 30, `${tests.length} sysbench tests`);
  assert.deepEqual(tests.filter((st) => !st.countedEvents).map((st) => st.name), [], 'every sysbench test is counted');
  assert.deepEqual(config.suites['ref-quick'].meters, ['instructions', 'wall']);
});

test('the counted phase with servers at once: a test in the time of one, a test counted alone in the time of all, a shard its share', () => {
  const steps = planSuite({ ...config.suites.smoke, only: ['point-query', 'read-only.range10', 'update-index', 'insert'] }, { engine: 'innodb' });
  const counted = (/** @type {Record<string, unknown>} */ counting, /** @type {any} */ count = undefined) => /** @type {import('../../scripts/run/estimate.js').EstimatePart} */ (
    estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall', 'instructions'], host: { ...config.hosts.local, counting }, ...(count ? { count } : {}) }).parts.find((p) => p.name === 'counted phase (instructions)'));
  const r = ESTIMATE_DEFAULTS;
  const testS = (/** @type {string} */ name) => r.countedRepeatOverheadS + 1.3 * /** @type {number} */ (steps.find((s) => s.name === name)?.countedInstructions) / r.countedInstructionsPerS;
  const alone = counted({ parallel: 1 });
  const paired = counted({ parallel: 2 });
  // Both releases' servers at once: half the rounds' time, the same rows made twice (serial).
  const sameRowsS = 2 * (config.suites.smoke.tables * config.suites.smoke.tableSize) / r.loadRowsPerS;
  assert.ok(Math.abs((alone.seconds - sameRowsS) / 2 - (paired.seconds - sameRowsS)) < 1e-6, `${alone.seconds} alone, ${paired.seconds} paired`);
  assert.match(paired.detail, /one server at a time \S+, 2 at once \S+$/);
  // More slots than releases: lanes of a pair each (count-schedule.js planLanes), the tests dealt
  // to them; 8 slots make 4 lanes of one test each, so a round takes its longest test.
  const names = ['point-query', 'read-only.range10', 'update-index', 'insert'];
  const sumS = names.reduce((s, n) => s + testS(n), 0);
  const lanes4 = counted({ parallel: 8 });
  // Lanes 2 to 4 count on copies of both releases' datadirs, made once.
  const copyS = estimateCopyS(steps, config.hosts.local);
  assert.ok(copyS > 0);
  assert.ok(Math.abs(paired.seconds - lanes4.seconds - 3 * (sumS - Math.max(...names.map(testS))) + 3 * 2 * copyS) < 1e-6, `${paired.seconds} paired, ${lanes4.seconds} in 4 lanes`);
  assert.match(lanes4.detail, /, 8 at once \S+$/);
  // 2 lanes: point-query and update-index on one, read-only.range10 and insert on the other.
  const lanes2 = counted({ parallel: 4 });
  const longest = Math.max(testS('point-query') + testS('update-index'), testS('read-only.range10') + testS('insert'));
  assert.ok(Math.abs(paired.seconds - lanes2.seconds - 3 * (sumS - longest) + 2 * copyS) < 1e-6);
  // A test counted alone leaves the lanes and is counted after them, one server at a time.
  const lanesAlone = counted({ parallel: 8, alone: ['update-index'] });
  const rest = names.filter((n) => n !== 'update-index');
  assert.ok(Math.abs(lanesAlone.seconds - (paired.seconds - 3 * (sumS - Math.max(...rest.map(testS))) + 3 * 2 * testS('update-index') + 2 * 2 * copyS)) < 1e-6, 'each of the pair in turn');
  // update-index counted alone: its time counts twice again in each of the 3 rounds.
  const withAlone = counted({ parallel: 2, alone: ['update-index'] });
  assert.ok(Math.abs(withAlone.seconds - paired.seconds - 3 * testS('update-index')) < 1e-6);
  assert.match(withAlone.detail, /\(1 counted alone\)/);
  // The default is the pair; a run's own count plan wins.
  assert.equal(counted({}).seconds, paired.seconds);
  assert.equal(counted({ parallel: 2 }, { parallel: 1 }).seconds, alone.seconds);
  // Two shards: shard 1 counts point-query and update-index, shard 2 the others; the line names the longest.
  const shard1 = counted({ parallel: 2 }, { parallel: 2, shard: { index: 1, of: 2 } });
  const shard2 = counted({ parallel: 2 }, { parallel: 2, shard: { index: 2, of: 2 } });
  const fixedS = shard1.seconds + shard2.seconds - paired.seconds;
  assert.ok(Math.abs(shard1.seconds - shard2.seconds - 3 * (testS('point-query') + testS('update-index') - testS('read-only.range10') - testS('insert'))) < 1e-6);
  assert.ok(fixedS > 0, 'each shard starts its own servers and makes its own rows the same');
  assert.match(shard1.detail, /in 2 shards \S+ the longest \(this run: shard 1\)$/);
  const leg = estimateLeg(config, { suite: 'demo', hostClass: 'local', provider: 'deb', releases: 2, reference: false, countShards: 3 });
  assert.match(/** @type {any} */ (leg.budgeted.parts.find((p) => p.name === 'counted phase (instructions)')).detail, /one server at a time \S+, 2 at once \S+ \(2 counted alone\), in 3 shards \S+ the longest$/);
});

test('the seed posts\' own sizes do not fit a cycle, and say so before anything starts', () => {
  for (const suite of ['insert-in-memory', 'linkbench-cached']) {
    const leg = estimateLeg(config, { suite, hostClass: 'small-server', provider: 'deb', releases: 2, reference: false });
    assert.throws(() => checkBudget(leg.budgeted, 8, `This leg (${suite})`), (err) => err instanceof UserError
      && /over the host class's budget of 8 h/.test(err.message)
      // What takes the time, largest first, with what would shorten it.
      && /What takes the time[^]*\n {2}- timed repeats, \d+h\d\dm: fewer tests/.test(err.message));
  }
});

test('the counted phase: instructions at the host class\'s rate, server starts per round, scans counted only at small sizes', () => {
  // One counting server at a time (counting.parallel 1): the releases' rounds one after the other.
  const host = { ...config.hosts.local, counting: { rounds: 3, repeats: 1, warmupShare: 0.5, parallel: 1 } };
  const suite = { ...config.suites.smoke, only: ['point-query'] };
  const steps = planSuite(suite, { engine: 'innodb' });
  const counted = steps.filter((s) => s.countedInstructions);
  const e = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall', 'instructions'], host });
  const part = /** @type {import('../../scripts/run/estimate.js').EstimatePart} */ (e.parts.find((p) => p.name === 'counted phase (instructions)'));
  const r = ESTIMATE_DEFAULTS;
  const test = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (steps.find((s) => s.name === 'point-query'));
  const warmups = counted.filter((s) => !s.reported);
  const perRound = r.countedServerStartS
    + warmups.reduce((s, w) => s + r.countedRepeatOverheadS + /** @type {number} */ (w.countedInstructions) / r.countedInstructionsPerS, 0)
    + r.countedRepeatOverheadS + 1.5 * /** @type {number} */ (test.countedInstructions) / r.countedInstructionsPerS;
  const sameRows = (suite.tables * suite.tableSize) / r.loadRowsPerS;
  assert.ok(Math.abs(part.seconds - 2 * (3 * perRound + sameRows)) < 1e-6, `${part.seconds} vs ${2 * (3 * perRound + sameRows)}`);
  // 1,000 point selects at about 65,000 instructions each at 20,000 rows.
  assert.ok(/** @type {number} */ (test.countedInstructions) > 50e6 && /** @type {number} */ (test.countedInstructions) < 80e6);
  // Wall only: no counted phase.
  assert.equal(estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall'], host }).parts.some((p) => p.name.startsWith('counted phase')), false);
  // A scan of every row under callgrind is hours at runner sizes: timed only there.
  const small = planSuite({ ...config.suites.smoke, only: ['scan'] }, { engine: 'innodb' });
  const big = planSuite({ ...config.suites.smoke, only: ['scan'], tableSize: COUNTED_SCAN_MAX_ROWS + 1 }, { engine: 'innodb' });
  assert.ok(small.find((s) => s.name === 'scan')?.countedEvents);
  assert.equal(big.find((s) => s.name === 'scan')?.countedEvents, undefined);
  assert.equal(big.find((s) => s.name === 'scan.warmpre')?.countedEvents, undefined);
});

test('each counted meter\'s phase at its own pace: the work meter\'s plain servers, not callgrind\'s rates (issue 35); a meter stating none at callgrind\'s', async () => {
  // The demo's suite and meters as they were then (sysbench counted, no sequence): its estimate
  // printed a second 7 min "counted phase" for the work meter, whose phase took 39 s in that run.
  const suite = config.suites.demo;
  const steps = planSuite(suite, { engine: 'innodb' }).filter((s) => !s.sequence);
  const host = config.hosts.local;
  const e = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall', 'instructions', 'work'], host });
  const byName = Object.fromEntries(e.parts.map((p) => [p.name, p]));
  const counting = byName['counted phase (instructions)'];
  const work = byName['counted phase (work)'];
  assert.ok(counting && work, Object.keys(byName).join(', '));
  assert.match(counting.detail, /under callgrind, .* at 100 million\/s, 30s a server start; one server at a time /);
  assert.match(work.detail, /on plain servers, .* at 1000 million\/s, 4s a server start; one server at a time /);
  assert.ok(work.seconds < 90 && work.seconds > 30, `the work meter's phase: ${formatDuration(work.seconds)} (39 s measured)`);
  assert.ok(work.seconds * 4 < counting.seconds, `${formatDuration(work.seconds)} beside ${formatDuration(counting.seconds)}`);
  // The pace is the meter's own: a host class's callgrind rates move the instructions meter's only.
  const slower = { ...host, estimate: { countedInstructionsPerS: 50e6, countedServerStartS: 60 } };
  const again = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall', 'instructions', 'work'], host: slower });
  assert.ok(/** @type {any} */ (again.parts.find((p) => p.name === 'counted phase (instructions)')).seconds > counting.seconds * 1.5);
  assert.equal(/** @type {any} */ (again.parts.find((p) => p.name === 'counted phase (work)')).seconds, work.seconds);
  // A counted meter that states no pace (a made-up one, as a plug-in would be) is reckoned at
  // callgrind's: the same seconds as the instructions meter, under its own name.
  const { countedPace, ...paceless } = getMeter('work');
  assert.equal(typeof countedPace, 'function');
  const made = await withMeters({ 'no-pace': /** @type {any} */ ({ ...paceless, name: 'no-pace' }) }, async () => estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: /** @type {any} */ (['wall', 'no-pace']), host }));
  const guessed = /** @type {any} */ (made.parts.find((p) => p.name === 'counted phase (no-pace)'));
  assert.equal(guessed.seconds, counting.seconds);
  assert.match(guessed.detail, /at callgrind's pace \(the meter states none\)/);
});

test('loads are estimated by their rows at their benchmark\'s own pace, every pass of a sequence benchmark again', () => {
  const host = { ...config.hosts.local, estimate: { loadRowsPerS: 1000 } };
  const suite = { ...config.suites['insert-smoke'] };
  const steps = planSuite(suite, { engine: 'innodb' });
  const loadSteps = steps.filter((st) => st.workRows);
  assert.ok(loadSteps.length > 0);
  // The insert benchmark declares a measured pace for each of its loads; the host class's rate
  // is for a load that declares none (sysbench's).
  assert.deepEqual(loadSteps.filter((st) => !st.workRowsPerS).map((st) => st.name), []);
  const expectedS = loadSteps.reduce((s, st) => s + (st.workRows ?? 0) / (st.workRowsPerS ?? 1000) + 0.5, 0);
  const one = estimateRun({ steps, releases: 1, repeats: 1, instances: 1, meters: ['wall'], host });
  const three = estimateRun({ steps, releases: 1, repeats: 3, instances: 1, meters: ['wall'], host });
  const loads = (/** @type {typeof one} */ e) => /** @type {number} */ (e.parts.find((p) => p.name === 'loads')?.seconds);
  assert.ok(Math.abs(loads(one) - expectedS) < 1e-6, `${loads(one)} != ${expectedS}`);
  assert.ok(Math.abs(loads(three) - 3 * loads(one)) < 1e-6);
  const sysbench = planSuite(config.suites.smoke, { engine: 'innodb' }).filter((st) => st.workRows);
  assert.ok(sysbench.length > 0 && sysbench.every((st) => !st.workRowsPerS), 'the sysbench load takes the host class\'s rate');
});

test('the demo\'s loads are estimated near what its records measured, not at 20,000 rows/s for every pass (1,063 s)', () => {
  const steps = planSuite(config.suites.demo, { engine: 'innodb' });
  const e = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall', 'instructions', 'work'], host: config.hosts.local });
  const loads = /** @type {import('../../scripts/run/estimate.js').EstimatePart} */ (e.parts.find((p) => p.name === 'loads'));
  // The demo of 2026-11-28 17:39 UTC (load 0.85): its insert benchmark and LinkBench load steps
  // took 104.6 s over the 6 passes of both releases (their repeats' durations in the run records;
  // bench/estimate-at-size.md), the sysbench load of 20,000 rows about a second each. The paces
  // are rounded towards slower: the estimate is above that, and under twice it.
  assert.ok(loads.seconds > 105 && loads.seconds < 2 * 107, `loads ${loads.seconds} s`);
  assert.match(loads.detail, /sysbench 20,000, ibench 12,000-200,000, linkbench 100,000-500,000 rows\/s/);
});

test('a run that times nothing estimates its loads and its counted phase only (no timed repeats, warm-ups or restores)', () => {
  const steps = planSuite(config.suites.demo, { engine: 'innodb' });
  const e = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['instructions'], host: config.hosts.local });
  assert.deepEqual(e.parts.map((p) => p.name), ['loads', 'counted phase (instructions)']);
  const loads = /** @type {import('../../scripts/run/estimate.js').EstimatePart} */ (e.parts[0]);
  // Only the run-wide sysbench load (20,000 rows a release), not the sequences' passes.
  assert.match(loads.detail, /^20,000 rows per release at sysbench 20,000 rows\/s$/);
  assert.ok(Math.abs(loads.seconds - 2 * (20_000 / 20_000 + 0.5)) < 1e-6, `${loads.seconds}`);
  const timed = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['wall', 'instructions'], host: config.hosts.local });
  assert.equal(timed.parts.find((p) => p.name === 'counted phase (instructions)')?.seconds, e.parts[1].seconds);
  assert.ok(e.totalS < timed.totalS / 2);
});

test('a run over its budget is refused before anything is installed or started', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-budget-'));
  const tight = { ...config, hosts: { ...config.hosts, local: { ...config.hosts.local, legBudgetH: 0.01 } } };
  /** @type {string[]} */
  const written = [];
  await assert.rejects(runReleases(tight, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'smoke', hostClass: 'local', storeDir: join(dir, 'results'), workDir: join(dir, 'work'), cacheDir: join(dir, 'cache'),
    write: (t) => { written.push(t); },
  }), (err) => err instanceof UserError && /This run is estimated at \d+m\d\ds, over the host class's budget of 0\.01 h/.test(err.message));
  // Nothing installed, no datadir, no record.
  for (const d of ['work', 'cache', 'results']) await assert.rejects(stat(join(dir, d)), { code: 'ENOENT' }, `${d} was created`);
  assert.ok(!written.some((t) => /^install /m.test(t)), written.join(''));
  // --budget-h 0 lifts the limit: the same run gets past the check (and stops at the install,
  // which the empty cache and the missing provider here cannot do: not this test's business).
  await assert.rejects(runReleases(tight, {
    releases: [{ product: 'mariadb', version: '10.11.18', provider: 'no-such-provider' }],
    suite: 'smoke', hostClass: 'local', storeDir: join(dir, 'results'), workDir: join(dir, 'work'), cacheDir: join(dir, 'cache'), budgetH: 0,
    write: () => {},
  }), (err) => err instanceof Error && !/budget/.test(err.message));
});

test('plan refuses a leg over budget and gives the workflow its timeouts from the estimate', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-plan-budget-'));
  const out = join(dir, 'github_output');
  await writeFile(out, '');
  const quiet = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = () => true;
  process.stderr.write = () => true;
  try {
    await assert.rejects(planCommand({ root, baselines: join(dir, 'none'), product: 'mariadb', version: '10.11.19', hostClass: 'small-server', suite: 'linkbench-cached' }, githubSettings({ output: out })),
      (err) => err instanceof UserError && /This leg \(small-server_mariadb_10\.11\.19_linkbench-cached\) is estimated at \d+h\d\dm, over the host class's budget of 8 h/.test(err.message));
    assert.equal(await readFile(out, 'utf8'), '', 'a refused plan writes no outputs');
    await planCommand({ root, baselines: join(dir, 'none'), product: 'mariadb', version: '10.11.19', hostClass: 'small-server' }, githubSettings({ output: out }));
  } finally {
    process.stdout.write = quiet.stdout;
    process.stderr.write = quiet.stderr;
  }
  const o = Object.fromEntries((await readFile(out, 'utf8')).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const leg = estimateLeg(config, { suite: 'small', hostClass: 'small-server', provider: 'deb', releases: 2, reference: false });
  const t = legTimeoutsMinutes(leg.steps);
  assert.equal(o['estimate-minutes'], String(Math.ceil(leg.budgeted.totalS / 60)));
  assert.equal(o['run-timeout-minutes'], String(t.run));
  assert.ok(t.run * 60 > 1.5 * leg.steps.runS && t.run < 8 * 60, `run timeout ${t.run} min for a ${formatDuration(leg.steps.runS)} run`);
  assert.equal(o['job-timeout-minutes'], String(t.install + t.run + t.reference + t.confirm + 20));
  for (const k of ['install', 'reference', 'confirm']) assert.match(o[`${k}-timeout-minutes`], /^\d+$/);
});

test('benchmark.yml takes every bench timeout from the plan (the test variable still shortens the confirmation)', async () => {
  const text = await readFile(join(root, '.github/workflows/benchmark.yml'), 'utf8');
  const timeouts = [...text.matchAll(/timeout-minutes: (.*)/g)].map((m) => m[1]);
  const bench = text.slice(text.indexOf('\n  bench:'), text.indexOf('\n  report:'));
  for (const m of bench.matchAll(/timeout-minutes: (.*)/g)) assert.match(m[1], /needs\.plan\.outputs\.[a-z-]+-timeout-minutes/, `a constant timeout in the bench job: ${m[1]}`);
  assert.ok(timeouts.length >= 6);
});

test('durations past an hour read in hours', () => {
  assert.equal(formatDuration(245), '4m05s');
  assert.equal(formatDuration(3600 * 7 + 5 * 60 + 10), '7h05m');
  assert.equal(formatDuration(3600 * 2 - 10), '2h00m');
});

test('every round from the load\'s data: the snapshot and the restores are a part of the estimate, sized by rows and redo log', () => {
  const suite = { ...config.suites.smoke, only: ['point-query'] };
  const steps = planSuite(suite, { engine: 'innodb' });
  const part = (/** @type {any} */ host, /** @type {number} */ instances, /** @type {any[]} */ meters) => estimateRun({ steps, releases: 2, repeats: 3, instances, meters, host }).parts.find((p) => p.name === 'same data every round');
  const local = /** @type {import('../../scripts/run/estimate.js').EstimatePart} */ (part(config.hosts.local, 3, ['wall']));
  // One copy: 20,000 rows + a 256 MiB redo log + the fixed part; a snapshot (+ its restart) and
  // two restores a release, the last a move (no copy).
  const copyS = estimateCopyS(steps, config.hosts.local);
  assert.ok(Math.abs(local.seconds - 2 * (2 * copyS + 8)) < 1e-6, `${local.seconds}`);
  assert.match(local.detail, /a snapshot of the datadir after the load and 2 restores per release \(the last a move\)/);
  assert.match(local.detail, /0\.3 GB with a 0\.25 GiB redo log/);
  // A bigger redo log costs more per copy; one round without a counted phase needs none.
  assert.ok(estimateCopyS(steps, config.hosts['small-server']) > 20 * copyS);
  assert.equal(part(config.hosts.local, 1, ['wall']), undefined);
  const afterCount = /** @type {import('../../scripts/run/estimate.js').EstimatePart} */ (part(config.hosts.local, 1, ['wall', 'instructions']));
  assert.match(afterCount.detail, /and 1 restore per release/);
});
