/**
 * How long a run will take, known before any server starts: the timed schedule (loads by their
 * rows, tests by their durations, restarts), and the counted phase of the instructions meter
 * (its instructions at the rate callgrind runs them on the host). A host class with a
 * `legBudgetH` refuses a run that cannot fit it (`checkBudget`), naming what takes the time and
 * what to change, so that a benchmark leg on a runner ends inside its job's timeout instead of
 * being killed after hours with nothing published (a workflow leg's estimate, from the same parts:
 * estimate-leg.js). A run that times nothing (only counting meters: a count shard) is the loads
 * and its counted phase. Pure: no I/O, no clock.
 *
 * The rates are estimates with a stated basis (ESTIMATE_DEFAULTS), and a host class whose runner
 * measures otherwise says so in its `estimate` block. A run's progress line corrects for the
 * real pace as it goes (schedule.js estimateRemainingS); this is the figure before the start.
 */
import { UserError } from '../errors.js';
import { getMeter } from '../metrics/index.js';
import { buildSchedule, needsSnapshot, countedOnlySchedule, loadPace, DEFAULT_LOAD_ROWS_PER_S } from './schedule.js';
import { formatDuration } from './progress.js';
import { planSuite } from '../workload/index.js';
import { shardUnits, planLanes } from './count-schedule.js';

/** @typedef {{loadRowsPerS: number, countedInstructionsPerS: number, countedRepeatOverheadS: number, countedServerStartS: number, countedSequenceStepS: number, sourceBuildS: number, debInstallS: number, datadirCopyMBps: number}} EstimateRates */

/**
 * The rates of the host class's `estimate` block when it gives none. Measured on this project's
 * 2-vCPU VM (MariaDB 10.11.18, 1 x 20,000 rows; the counted run of bench/instructions-releases.md):
 * callgrind ran a counted repeat's server instructions at 117 million a second over its 102
 * repeats, about 1.1 s a repeat went to starting sysbench, connecting and reading the counts
 * (median; 2.8 s at most), and stopping one server and starting the next under callgrind took
 * 11 s. The defaults are rounder and slower than that, since a bare-metal runner's tables are
 * larger; bench/estimate-at-size.md holds them against two measured runs (a third too slow here).
 * @type {Readonly<EstimateRates>}
 */
export const ESTIMATE_DEFAULTS = Object.freeze({
  loadRowsPerS: DEFAULT_LOAD_ROWS_PER_S,
  countedInstructionsPerS: 100e6,
  countedRepeatOverheadS: 2,
  countedServerStartS: 30,
  // A counted step of the insert benchmark or LinkBench (its instructions are not known before it
  // runs): from one counted step's start to the next, its uncounted setup and warm-up included,
  // the demo's 13 such steps at configs/suites/sequences-counted.yml's sizes took 1.5-15.5 s, 4.7 s
  // on average (MariaDB 10.11.18, both releases counted at once, 2026-11-28 17:39 UTC, this VM
  // quiet: load 0.85). Rounded up to 5: an earlier run at load 2.5-3 averaged 12 s.
  countedSequenceStepS: 5,
  // Installs: bench/source-build-local.md's build of record took 21 min on 2 vCPUs with a cold
  // ccache (1,274 s); a Debian install is minutes. For the leg estimate (estimateLeg).
  sourceBuildS: 1800,
  debInstallS: 300,
  // A plain copy of the datadir (no reflinks), as this 2-vCPU VM's disk ran one
  // (bench/same-data-rounds.md): the snapshot after the load and each round's restore.
  datadirCopyMBps: 200,
});

/**
 * @typedef {object} EstimatePart one line of an estimate
 * @property {string} name what takes the time (`timed repeats`, `counted phase`, ...)
 * @property {number} seconds
 * @property {string} detail how it was reckoned, for the user who wants to change it
 */

/**
 * @typedef {object} RunEstimate
 * @property {EstimatePart[]} parts in the order they run
 * @property {number} totalS
 */

/**
 * @param {object} run
 * @param {import('./types.js').StepPlanLike[]} run.steps planSuite's steps
 * @param {number} run.releases how many releases the run benchmarks
 * @param {number} run.repeats
 * @param {number} run.instances
 * @param {import('../types.js').MeterName[]} run.meters
 * @param {import('../types.js').HostClass} run.host
 * @param {CountPlan} [run.count] the counted phase's servers at once and shard; default: the host
 *   class's `counting.parallel`, else one per release (the pair), all tests
 * @returns {RunEstimate}
 */
export function estimateRun({ steps, releases, repeats, instances, meters, host, count }) {
  const rates = { ...ESTIMATE_DEFAULTS, ...(host.estimate ?? {}) };
  const keys = Array.from({ length: releases }, (_, i) => `r${i}`);
  const counted = meters.some((m) => getMeter(m).kind === 'counted');
  // A run that times nothing (a count shard) runs the loads and its counted phase, no more.
  const timed = meters.some((m) => getMeter(m).kind === 'timed');
  const copy = timed && needsSnapshot(steps, instances, counted) ? { copyS: estimateCopyS(steps, host), countedFirst: counted } : null;
  const schedule = timed ? buildSchedule(steps, keys, repeats, instances, rates, copy) : countedOnlySchedule(steps, keys, rates);
  // The datadir copies are a part of their own; the other parts count their actions without them.
  const sum = (/** @type {(a: typeof schedule[number]) => boolean} */ keep) => schedule.filter(keep).reduce((s, a) => s + a.estimatedS - (a.copyS ?? 0), 0);
  const copiesS = schedule.reduce((s, a) => s + (a.copyS ?? 0), 0);
  const testS = sum((a) => !a.step.workRows && a.step.measured && a.step.reported);
  const setupS = sum((a) => !a.step.workRows && !(a.step.measured && a.step.reported));
  const tests = steps.filter((s) => s.measured && s.reported);
  /** @type {EstimatePart[]} */
  const parts = [
    { name: 'loads', seconds: sum((a) => Boolean(a.step.workRows)), detail: describeLoads(schedule, releases, rates) },
    { name: 'timed repeats', seconds: testS, detail: `${tests.length} tests x ${repeats} repeats x ${releases} release${releases > 1 ? 's' : ''} at their durations` },
    { name: 'warm-ups, flushes, restarts', seconds: setupS, detail: `the not-reported steps, rests and ${instances - 1} restart${instances === 2 ? '' : 's'} per release` },
    ...(copy ? [{ name: 'same data every round', seconds: copiesS, detail: describeRestores(schedule.filter((a) => a.restore).length / releases, copy.copyS, steps, host) }] : []),
  ];
  // Each counting meter's phase at its own pace: the work meter's plain servers run a counted
  // repeat in well under a second, where callgrind's take minutes (issue 35: the estimate gave
  // the work meter 7 min at callgrind's rates for a phase that took under one).
  const countPlan = count ?? { parallel: host.counting?.parallel ?? releases };
  for (const m of meters) {
    const meter = getMeter(m);
    if (meter.kind === 'counted') parts.push(estimateCounting(meter, steps, releases, host, rates, meter.countedPace?.(rates) ?? CALLGRIND_PACE(rates), countPlan));
  }
  return { parts: parts.filter((p) => p.seconds > 0), totalS: parts.reduce((s, p) => s + p.seconds, 0) };
}

/**
 * The loads' line: the rows a release loads (a sequence benchmark's every pass again) and the pace
 * of each benchmark's loads, its own declared one (workRowsPerS) or the host class's.
 * @param {import('./schedule.js').ScheduledAction[]} schedule
 * @param {number} releases
 * @param {{loadRowsPerS?: number}} rates
 * @returns {string}
 */
function describeLoads(schedule, releases, rates) {
  const loads = schedule.filter((a) => a.step.workRows);
  const rows = loads.reduce((s, a) => s + (a.step.workRows ?? 0), 0) / releases;
  /** @type {Map<string, number[]>} */
  const paces = new Map();
  for (const { step } of loads) paces.set(step.benchmark, [...(paces.get(step.benchmark) ?? []), loadPace(step, rates)]);
  const pace = [...paces].map(([b, p]) => `${b} ${Math.min(...p).toLocaleString('en-US')}${Math.max(...p) > Math.min(...p) ? `-${Math.max(...p).toLocaleString('en-US')}` : ''}`).join(', ');
  const again = loads.some((a) => a.step.sequence) ? ' (every pass of a sequence benchmark loads again)' : '';
  return `${rows.toLocaleString('en-US')} rows per release${again} at ${pace} rows/s`;
}

/**
 * InnoDB's bytes a row of a sysbench table takes on disk (clustered index and the k index, pages
 * about 15/16 full after a sorted load): MEASURED_BYTES_PER_ROW. The datadir's fixed part besides
 * the redo log (system and undo tablespaces, the mysql schema): FIXED_DATADIR_BYTES. The rate a
 * copy runs at where the filesystem has no reflinks: the host class's `estimate.datadirCopyMBps`
 * (ESTIMATE_DEFAULTS). Basis: bench/same-data-rounds.md.
 */
const MEASURED_BYTES_PER_ROW = 250;
const FIXED_DATADIR_BYTES = 50e6;
/** innodb_log_file_size when the host class sets none: configs/mycnf/innodb.cnf's default. */
const DEFAULT_REDO_BYTES = 1024 ** 3;

/**
 * Seconds one copy of a release's datadir after the load takes (same-data-rounds.js): its
 * tables' rows, the redo log the host class configures and the fixed part, at a plain copy's
 * rate (a reflink would take a moment: the estimate assumes none).
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {import('../types.js').HostClass} host
 * @returns {number}
 */
export function estimateCopyS(steps, host) {
  return datadirBytes(steps, host) / copyBytesPerS(host);
}

/**
 * @param {import('../types.js').HostClass} host
 * @returns {number} bytes a second a datadir copy runs at on this class's runners
 */
function copyBytesPerS(host) {
  return (host.estimate?.datadirCopyMBps ?? ESTIMATE_DEFAULTS.datadirCopyMBps) * 1e6;
}

/**
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {import('../types.js').HostClass} host
 * @returns {number}
 */
function datadirBytes(steps, host) {
  const rows = steps.filter((s) => s.loadsData).reduce((s, l) => s + (l.workRows ?? 0), 0);
  return rows * MEASURED_BYTES_PER_ROW + redoBytes(host) + FIXED_DATADIR_BYTES;
}

/**
 * The estimate's line for the datadir copies.
 * @param {number} restores restores per release (the last one a move of the snapshot)
 * @param {number} copyS seconds of one copy
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {import('../types.js').HostClass} host
 */
function describeRestores(restores, copyS, steps, host) {
  const size = `${(datadirBytes(steps, host) / 1e9).toFixed(1)} GB with a ${(redoBytes(host) / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GiB redo log`;
  return `a snapshot of the datadir after the load and ${restores} restore${restores === 1 ? '' : 's'} per release (the last a move), about ${formatDuration(copyS)} a copy (${size}, at ${copyBytesPerS(host) / 1e6} MB/s)`;
}

/**
 * The redo log's size from the host class's my.cnf values (`8G`, `256M`, bytes).
 * @param {import('../types.js').HostClass} host
 */
function redoBytes(host) {
  const value = String(host.mycnf?.innodb_log_file_size ?? '').trim();
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)$/i.exec(value);
  if (!m) return DEFAULT_REDO_BYTES;
  const power = ' KMGT'.indexOf((m[2] || ' ').toUpperCase());
  return Number(m[1]) * 1024 ** power;
}

/**
 * The pace of a counted meter that states none (Meter.countedPace): callgrind's, the slowest.
 * @param {EstimateRates} rates
 * @returns {import('../metrics/types.js').CountedPace}
 */
const CALLGRIND_PACE = (rates) => ({
  instructionsPerS: rates.countedInstructionsPerS, repeatOverheadS: rates.countedRepeatOverheadS,
  serverStartS: rates.countedServerStartS, servers: 'at callgrind\'s pace (the meter states none)',
});

/**
 * @typedef {object} CountPlan how the counted phase spreads its servers (count-schedule.js)
 * @property {number} parallel counting servers at once
 * @property {{index: number, of: number}|null} [shard] the share of the counted tests this run counts
 * @property {number} [shards] for the estimate's line: the longest of this many shards
 */

/**
 * A counted meter's phase (count-phase.js): per release and round, a server start the way the
 * meter needs it, the counted warm-ups, then every countable test's repeats, each with its
 * uncounted warm-up run; before it, each release's rows made the same (a rewrite of its tables).
 * With several servers at once a group of releases counts a test in the time one takes (a core
 * each), a test of `counting.alone` in the time of all of them; a shard counts its share of the
 * tests. The line gives the three: one server at a time, the servers at once, the longest shard.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {number} releases
 * @param {import('../types.js').HostClass} host
 * @param {EstimateRates} rates the host class's (its load rate rewrites the rows)
 * @param {import('../metrics/types.js').CountedPace} pace the meter's, on this host class
 * @param {CountPlan} count
 * @returns {EstimatePart}
 */
function estimateCounting(meter, steps, releases, host, rates, pace, count) {
  const rounds = host.counting?.rounds ?? 3;
  const repeats = host.counting?.repeats ?? 1;
  const warmupShare = host.counting?.warmupShare ?? 0.3;
  const alone = host.counting?.alone ?? [];
  const counted = steps.filter((s) => s.measured && s.reported && !s.sequence && s.countedEvents);
  const sequenceSteps = steps.filter((s) => s.measured && s.reported && s.sequence && s.countedEvents);
  const warmups = steps.filter((s) => s.measured && !s.reported && !s.sequence && s.countedEvents);
  const instructionsS = (/** @type {number|undefined} */ n) => (n ?? 0) / pace.instructionsPerS;
  const testS = (/** @type {import('./types.js').StepPlanLike} */ t) => repeats * (pace.repeatOverheadS + (1 + warmupShare) * instructionsS(t.countedInstructions));
  const warmS = warmups.reduce((s, w) => s + pace.repeatOverheadS + instructionsS(w.countedInstructions), 0);
  // A step of a sequence (the insert benchmark, LinkBench) is reckoned by its measured time, not
  // its instructions: its setup and its driver's own warm-up are most of it.
  const sequenceStepS = pace.sequenceStepS ?? rates.countedSequenceStepS;
  const sameRowsS = counted.some((s) => s.benchmark === 'sysbench')
    ? steps.filter((s) => s.loadsData).reduce((s, l) => s + (l.workRows ?? 0), 0) / rates.loadRowsPerS : 0;
  /** @typedef {{tests: import('./types.js').StepPlanLike[], sequenceSteps: import('./types.js').StepPlanLike[]}} CountShare */
  const phaseS = (/** @type {CountShare} */ part, /** @type {number} */ parallel) => {
    if (part.tests.length + part.sequenceSteps.length === 0) return 0;
    const size = Math.max(1, Math.min(parallel, releases));
    /** @type {Map<string, number>} a unit's time on one server: a test, or a sequence's steps */
    const unitS = new Map(part.tests.map((t) => [t.name, testS(t)]));
    for (const t of part.sequenceSteps) unitS.set(String(t.sequence), (unitS.get(String(t.sequence)) ?? 0) + sequenceStepS);
    // More slots than releases: lanes count their units at once, the longest lane sets the pace,
    // then the units counted alone (count-schedule.js planLanes).
    const lanes = planLanes([...unitS.keys()], releases, { parallel, why: '', cpus: [] }, alone);
    const laneS = (/** @type {string[]} */ units) => units.reduce((s, n) => s + (size > 1 && lanes.lanes === 1 && alone.includes(n) ? size : 1) * (unitS.get(n) ?? 0), 0);
    const perGroupRound = pace.serverStartS + warmS + Math.max(...lanes.units.map(laneS)) + size * lanes.alone.reduce((s, n) => s + (unitS.get(n) ?? 0), 0);
    // Lanes 2 and up count on copies of each release's datadir, made once before the rounds.
    return rounds * Math.ceil(releases / size) * perGroupRound + releases * sameRowsS + (lanes.lanes - 1) * releases * estimateCopyS(steps, host);
  };
  // The shards' units as count-phase.js deals them: the tests, then the sequences whole.
  const names = [...counted.map((t) => t.name), ...new Set(sequenceSteps.map((t) => String(t.sequence)))];
  const share = (/** @type {{index: number, of: number}|null} */ shard) => {
    const mine = shardUnits(names, shard);
    return { tests: counted.filter((t) => mine.has(t.name)), sequenceSteps: sequenceSteps.filter((t) => mine.has(String(t.sequence))) };
  };
  const whole = share(null);
  const shards = count.shard?.of ?? count.shards ?? 1;
  const longestShardS = Math.max(0, ...Array.from({ length: shards }, (_, i) => phaseS(share({ index: i + 1, of: shards }), count.parallel)));
  const total = counted.reduce((s, t) => s + (t.countedInstructions ?? 0), 0);
  const at = Math.max(1, Math.min(count.parallel, releases * Math.max(1, Math.floor(count.parallel / releases))));
  const aloneHere = names.filter((n) => alone.includes(n));
  return {
    name: `counted phase (${meter.name})`,
    // A leg split into shards (no shard of its own) takes as long as its longest shard.
    seconds: !count.shard && shards > 1 ? longestShardS : phaseS(share(count.shard ?? null), count.parallel),
    detail: `${counted.length} tests x ${rounds} rounds x ${repeats} repeat${repeats > 1 ? 's' : ''} x ${releases} release${releases > 1 ? 's' : ''} ${pace.servers}, about ${(total / 1e9).toFixed(1)} billion instructions a round and release (+${Math.round(warmupShare * 100)} % warm-up) at ${(pace.instructionsPerS / 1e6).toFixed(0)} million/s, ${formatDuration(pace.serverStartS)} a server start${sequenceSteps.length ? `, and ${sequenceSteps.length} steps of sequences a round and release at ${sequenceStepS} s each` : ''}; `
      + `one server at a time ${formatDuration(phaseS(whole, 1))}, ${at} at once ${formatDuration(phaseS(whole, at))}${aloneHere.length ? ` (${aloneHere.length} counted alone)` : ''}`
      + `${shards > 1 ? `, in ${shards} shards ${formatDuration(longestShardS)} the longest${count.shard ? ` (this run: shard ${count.shard.index})` : ''}` : ''}`,
  };
}

/**
 * The counted phase of one counting meter (count-phase.js) as the run's estimate reckons it: what
 * the run asks before it starts the phase (runReleases), from the same estimator as its plan, at
 * the meter's own pace and with the run's servers at once and shard.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./types.js').StepPlanLike[]} steps the run's planned steps
 * @param {number} releases
 * @param {import('../types.js').HostClass} host
 * @param {CountPlan} count
 * @returns {EstimatePart}
 */
export function estimateCountedPhase(meter, steps, releases, host, count) {
  const rates = { ...ESTIMATE_DEFAULTS, ...(host.estimate ?? {}) };
  return estimateCounting(meter, steps, releases, host, rates, meter.countedPace?.(rates) ?? CALLGRIND_PACE(rates), count);
}

/**
 * A run of some of a suite's tests, estimated before anything starts: the adaptive rounds ask it
 * before each round (scripts/verify/adaptive-repeats.js), as `run` and `plan` do for a whole run.
 * @param {import('../types.js').Config} config
 * @param {{suite: string, hostClass: string, only: string[], releases: number, repeats: number,
 *   instances: number, meters: import('../types.js').MeterName[]}} run
 * @returns {RunEstimate}
 * @throws {UserError} a test `only` names that the suite does not have
 */
export function estimateTestsRun(config, run) {
  const host = config.hosts[run.hostClass];
  const suite = { ...config.suites[run.suite], only: run.only };
  const steps = planSuite(suite, { engine: suite.engine ?? 'innodb' });
  return estimateRun({ steps, releases: run.releases, repeats: run.repeats, instances: run.instances, meters: run.meters, host });
}

/**
 * The one check every budgeted piece of work makes before it starts (a step of a run, a counted
 * phase, an adaptive round): it starts only when its estimate fits what is left of the budget,
 * since once started it cannot be cut short without losing what it measured.
 * @param {{what: string, estimatedS: number, elapsedS: number, budgetS: number, budgetName: string}} piece
 *   what: the piece in words (`a round of 2 tests (scan, insert)`); budgetName: where the budget
 *   comes from (`--adaptive-budget`, `legBudgetH`)
 * @returns {string|null} null when it fits; else the message saying it is skipped and why
 */
export function overBudget({ what, estimatedS, elapsedS, budgetS, budgetName }) {
  const leftS = Math.max(0, budgetS - elapsedS);
  if (estimatedS <= leftS) return null;
  return `${what} takes about ${formatDuration(estimatedS)}; ${formatDuration(leftS)} left of the ${formatDuration(budgetS)} budget (${budgetName}): skipped`;
}

/**
 * One line per part and the total, for `run`, `plan` and error messages.
 * @param {RunEstimate} estimate
 * @returns {string}
 */
export function renderEstimate(estimate) {
  const lines = estimate.parts.map((p) => `  ${formatDuration(p.seconds).padStart(9)}  ${p.name}: ${p.detail}`);
  return [...lines, `  ${formatDuration(estimate.totalS).padStart(9)}  in all`].join('\n');
}

/**
 * Refuse what cannot fit the host class's budget, before anything starts.
 * @param {RunEstimate} estimate
 * @param {number|undefined} budgetH the host class's `legBudgetH` (or `--budget-h`); absent or 0 = no limit
 * @param {string} what the thing estimated (`this run`, `this leg`), for the message
 * @throws {UserError} over budget: the parts, largest first, and what would shorten each
 */
export function checkBudget(estimate, budgetH, what) {
  if (!budgetH || estimate.totalS <= budgetH * 3600) return;
  const advice = {
    'timed repeats': 'fewer tests (--only), fewer --repeats, or a suite with shorter readDurationS/writeDurationS',
    'counted phase': 'fewer counting.rounds on the host class, or fewer tests (--only)',
    loads: 'a suite with smaller tables (tableSize, loadRows, maxid1)',
    'warm-ups, flushes, restarts': 'fewer --instances, or a suite with a shorter restS or scanWarmDurationS',
    'same data every round': 'fewer --instances, a work directory on a filesystem with reflinks (XFS, btrfs), or a smaller innodb_log_file_size',
  };
  // A counted phase is named with its meter (`counted phase (instructions)`): one advice for each.
  const adviceOf = (/** @type {string} */ name) => /** @type {Record<string, string>} */ (advice)[name.replace(/ \(.*\)$/, '')];
  const largest = [...estimate.parts].sort((a, b) => b.seconds - a.seconds)
    .map((p) => `  - ${p.name}, ${formatDuration(p.seconds)}: ${adviceOf(p.name) ?? p.detail}`);
  throw new UserError([
    `${what} is estimated at ${formatDuration(estimate.totalS)}, over the host class's budget of ${budgetH} h (legBudgetH): it would be killed by its job's timeout with nothing published.`,
    renderEstimate(estimate),
    'What takes the time, and what would shorten it:',
    ...largest,
    'Or raise the budget (legBudgetH on the host class, --budget-h for one run) if the runner can really give it.',
  ].join('\n'));
}
