/**
 * The counted phase of a run: right after the load, before any timed step changes the data,
 * each counting meter (instructions) gets servers of its own, started under its wrapper on the
 * releases' datadirs (the same rows in each: the load's seed is fixed), and runs every step
 * that can do a fixed amount of work (a sysbench test) as counted repeats: a warm-up run of the
 * same test, then the meter around `countedEvents` events with a fixed seed. Rounds alternate
 * the releases like the timed schedule, one new server process per release and round: counts
 * differ a little between processes (memory layout), so a round is the unit compare pairs.
 *
 * Servers at once (count-schedule.js): a round's release servers count side by side when the
 * host class's slots allow (`counting.parallel`, else the machine's cores and memory), each on its
 * own port and datadir (its release's), pinned with its client to a CPU of its own where the host
 * class pins, and every test on all of them at the same time: each release's count has the same
 * neighbour, the other's count of the same test. Counts do not depend on load, but a neighbour
 * can change what a server does (a timer's background work, memory layout); a test whose counts
 * beside another differ from its counts alone by more than the meter's A/A noise is listed in
 * `counting.alone` (bench/count-parallel.md) and counted one server at a time, its slot saying
 * so. More slots than releases: lanes (count-schedule.js planLanes), each a server per release on
 * a copy of its datadir, counting its own units at once. A shard (`run --count-shard k/n`)
 * counts every n-th unit of both releases; the others get a skipped slot, which compare reads as
 * missing and takes from the shard that counted them. The repeats go to `step.meters.<meter>`
 * of each release's record, apart from the timed repeats.
 *
 * Why before the timed steps: those write as much as each release manages in its seconds, so
 * after them the releases' tables differ (rows inserted, values updated); counted on such data,
 * two releases would not do the same work. Counted writes use seeds that are the same for every
 * release, so the data stays the same for all of them through the phase.
 *
 * Sequence benchmarks (the insert benchmark, LinkBench) are counted too when their steps can do a
 * fixed amount of work (the suite's `ibench.counted` / `linkbench.counted` sizes): after the
 * sysbench tests of a round, each sequence runs once, whole and in order, from its own start
 * (its first step drops and creates its own tables, which the sysbench tests never read, and
 * which the timed schedule's first pass creates again), every counted step under the meter with
 * the round's seed, its setup steps uncounted between them. Each release's server of a round thus
 * counts the same statements on the same data. One pass per round, not `repeats`: a second pass
 * would redo the load, and rounds are what compare pairs anyway. A measured step that cannot be
 * counted gets a skipped slot with the reason (compare gives it no counted verdict).
 */
import { cpus as machineCpus, totalmem } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, snapshotDatadir, findFreePort } from '../server/index.js';
import { getBenchmark } from '../workload/index.js';
import { countWarmups, countTest, countSequence } from './count-round.js';
import { resolveCountSlots, groupReleases, aloneReason, shardUnits, planLanes } from './count-schedule.js';

/**
 * @typedef {object} CountSettings
 * @property {number} rounds server processes per release (rounds compare pairs)
 * @property {number} repeats counted repeats of each test per process (their median stands for it)
 * @property {number} warmupShare the warm-up run before each repeat, as a share of its events
 */

/**
 * @typedef {object} CountState what the phase needs of one release (run-releases' RunState)
 * @property {import('../types.js').RunRecord} record
 * @property {any} server ServerHandle, replaced by the wrapped one
 * @property {string|null} deadReason
 * @property {import('../types.js').InstallResult} install
 * @property {import('../server/types.js').ServerOptions} serverOptions
 * @property {'innodb'|'rocksdb'} engine
 */

/**
 * @typedef {object} PhaseContext what the phase is handed (runCountPhase's ctx)
 * @property {import('./types.js').StepPlanLike[]} steps the run's planned steps
 * @property {string[]} order release keys in run order
 * @property {Map<string, CountState>} states
 * @property {CountSettings} settings
 * @property {(opts: import('../server/types.js').ServerOptions) => import('../server/types.js').ServerOptions} wrap
 *   the server options with the meter's wrapper
 * @property {(product: string) => string} dispatchFunction the flavor's command-dispatch function
 * @property {(product: string) => import('../metrics/types.js').WorkCounterNames} [workCounters]
 *   the product's status variables of the work meter's counters
 * @property {{suite: any, host: any}} plan
 * @property {{storeDir: string, cacheDir: string, signal?: AbortSignal}} options
 * @property {(t: string) => void} write
 * @property {import('./count-schedule.js').CountSlots} [slots] counting servers at once and
 *   their CPUs (default: the host class's `counting.parallel`, else this machine's cores and memory)
 * @property {{index: number, of: number}|null} [shard] the share of the counted units this run
 *   counts (`run --count-shard k/n`); null or absent: all of them
 */

/** @typedef {{step: import('./types.js').StepPlanLike, index: number}} IndexedStep */

/**
 * What the phase counts: the sysbench tests (and their warm-ups), and the sequences that can run
 * a fixed amount of work, each whole and in order (its setup steps run uncounted between its
 * counted ones). A sequence step that cannot be counted gets a skipped slot saying why.
 * @param {import('./types.js').StepPlanLike[]} steps
 * @returns {{tests: IndexedStep[], warmups: import('./types.js').StepPlanLike[], sequences: IndexedStep[][], notCounted: {index: number, reason: string}[]}}
 */
export function planCounting(steps) {
  const indexed = steps.map((step, index) => ({ step, index }));
  const tests = indexed.filter(({ step }) => step.measured && step.reported && !step.sequence && step.countedEvents);
  const warmups = steps.filter((s) => s.measured && !s.reported && !s.sequence && s.countedEvents);
  /** @type {Map<string, IndexedStep[]>} */
  const bySequence = new Map();
  for (const x of indexed) if (x.step.sequence) bySequence.set(x.step.sequence, [...(bySequence.get(x.step.sequence) ?? []), x]);
  /** @type {IndexedStep[][]} */
  const sequences = [];
  /** @type {{index: number, reason: string}[]} */
  const notCounted = [];
  for (const seq of bySequence.values()) {
    const judged = seq.filter(({ step }) => step.measured && step.reported);
    if (judged.some(({ step }) => step.countedEvents)) sequences.push(seq);
    for (const { step, index } of judged) {
      if (step.countedEvents && sequences.includes(seq)) continue;
      notCounted.push({ index, reason: `not counted: ${step.notCounted ?? `the ${step.benchmark} benchmark runs no fixed amount of work (its steps plan no countedEvents)`}` });
    }
  }
  return { tests, warmups, sequences, notCounted };
}

/**
 * The counted phase: every counted unit (a sysbench test, a sequence) of this run's shard, round by
 * round, each round's release servers side by side as the slots allow (count-schedule.js).
 * @param {import('../metrics/types.js').Meter} meter a counted meter (kind 'counted')
 * @param {PhaseContext} ctx
 * @returns {Promise<void>}
 */
export async function runCountPhase(meter, ctx) {
  const { order, states, settings, options, write } = ctx;
  const planned = planCounting(ctx.steps);
  const shard = ctx.shard ?? null;
  const mine = shardUnits([...planned.tests.map(({ step }) => step.name), ...planned.sequences.map(sequenceName)], shard);
  const tests = planned.tests.filter(({ step }) => mine.has(step.name));
  const sequences = planned.sequences.filter((seq) => mine.has(sequenceName(seq)));
  // A unit of another shard is missing here, not failed: compare takes it from that shard's record.
  const otherShards = [...planned.tests.filter((t) => !tests.includes(t)), ...planned.sequences.filter((q) => !sequences.includes(q)).flat()]
    .filter(({ step }) => step.countedEvents && step.reported)
    .map(({ index }) => ({ index, reason: `counted by another shard of ${shard?.of} (this run is shard ${shard?.index})` }));
  addSkipped(meter, states, [...planned.notCounted, ...otherShards]);
  const slots = ctx.slots ?? resolveCountSlots(ctx.plan.host, { cpus: machineCpus().length, memBytes: totalmem() });
  const lanes = planLanes([...tests.map(({ step }) => step.name), ...sequences.map(sequenceName)], order.length, slots, ctx.plan.host.counting?.alone ?? []);
  noteSetup(meter, states, lanes.lanes * Math.min(slots.parallel, states.size), shard);
  if (tests.length === 0 && sequences.length === 0) {
    write(`${meter.name}: no step of this ${shard ? 'shard' : 'suite'} can run a fixed amount of work; nothing to count\n`);
    return;
  }
  const countedIndexes = [...tests, ...sequences.flat().filter(({ step }) => step.countedEvents && step.reported)].map((c) => c.index);
  addSlots(meter, states, countedIndexes);
  await prepareSameRows(meter, tests.map((c) => c.step), { order, states, plan: ctx.plan, write });
  write(`${meter.name}: ${Math.min(slots.parallel, order.length * lanes.lanes)} counting server${slots.parallel > 1 ? 's' : ''} at once (${slots.why})${lanes.lanes > 1 ? `: ${lanes.lanes} lanes of ${order.length}, each counting its own tests on copies of the releases' datadirs` : ''}\n`);
  const laneStates = lanes.lanes > 1 ? await copyLanes(ctx, lanes.lanes) : [];
  // A sequence runs once per round (one pass from its own start), a test `repeats` times.
  const perRound = tests.length * settings.repeats + sequences.flat().filter(({ step }) => step.countedEvents && step.reported).length;
  const progress = { done: 0, total: settings.rounds * order.length * perRound, startedMs: Date.now() };
  for (let round = 0; round < settings.rounds; round += 1) {
    // Alternate which release goes first, as the timed schedule does.
    const keys = round % 2 === 0 ? order : [...order].reverse();
    if (lanes.lanes > 1) {
      if (options.signal?.aborted) return;
      const by = { tests, sequences, warmups: planned.warmups, progress, countedIndexes };
      if (!(await countInLanes(meter, ctx, { keys, round, lanes, laneStates, ...by }))) return;
      continue;
    }
    for (const group of groupReleases(keys, slots.parallel)) {
      if (options.signal?.aborted) return;
      const members = await startGroup(meter, ctx, group, round, { cpus: slots.cpus, countedIndexes, states });
      if (members.length === 0) continue;
      const runs = members.map(({ key, cpus }) => ({ meter, state: /** @type {CountState} */ (states.get(key)), key, round, ctx, progress, cpus }));
      if (!(await countGroup(runs, tests, sequences, planned.warmups))) return;
      await stopRuns(meter, runs);
    }
  }
  // The run ends with every live release's server up, as after the timed schedule (the size
  // of the database at the end, the error log); plainly, without the meter's wrapper.
  for (const state of states.values()) {
    if (state.deadReason || (await state.server.checkHealth()).ok) continue;
    try {
      state.server = await startServer(state.install, { ...state.serverOptions, reuseDatadir: true });
    } catch (err) {
      state.deadReason = `server would not start again after the ${meter.name} meter: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

/**
 * After a group's round: each server's health checked, then stopped (an idle server under valgrind
 * runs its background threads fifty times slower, taking the next group's CPU).
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./count-round.js').RoundOf[]} runs
 */
async function stopRuns(meter, runs) {
  await Promise.all(runs.map(async ({ state }) => {
    const health = await state.server.checkHealth();
    if (!health.ok) state.deadReason = `server under ${meter.name} crashed: ${health.reason}`;
    else await state.server.stop();
  }));
}

/**
 * The servers of lanes 1.. (count-schedule.js planLanes): for each release a copy of its datadir as
 * the phase found it (after the same-rows step), in a work folder of its own beside the release's,
 * on a free port; the release's record is shared (each unit is counted by one lane only).
 * @param {PhaseContext} ctx
 * @param {number} lanes
 * @returns {Promise<Map<string, CountState>[]>} per lane (index 0 empty: the releases' own states)
 */
async function copyLanes(ctx, lanes) {
  const out = [new Map()];
  for (let lane = 1; lane < lanes; lane += 1) {
    /** @type {Map<string, CountState>} the round starts each copy's server (restartWrapped) */
    const copies = new Map();
    for (const key of ctx.order) {
      const state = /** @type {CountState} */ (ctx.states.get(key));
      if (state.deadReason) continue;
      await state.server.stop();
      const workDir = `${state.serverOptions.workDir}.lane${lane + 1}`;
      await mkdir(workDir, { recursive: true });
      const copy = await snapshotDatadir(state.server, join(workDir, 'data'));
      ctx.write(`${key}: lane ${lane + 1}'s copy of the datadir, ${(copy.bytes / 1e6).toFixed(1)} MB in ${copy.seconds.toFixed(2)} s\n`);
      copies.set(key, { ...state, serverOptions: { ...state.serverOptions, workDir, port: await findFreePort() } });
    }
    out.push(copies);
  }
  return out;
}

/**
 * One round in lanes: every lane's servers (one per release) count the lane's units at the same
 * time as the other lanes, then the units of `counting.alone` on lane 1's servers, one server at a time.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {PhaseContext} ctx
 * @param {{keys: string[], round: number, lanes: import('./count-schedule.js').CountLanes, laneStates: Map<string, CountState>[],
 *   tests: IndexedStep[], sequences: IndexedStep[][], warmups: import('./types.js').StepPlanLike[],
 *   progress: {done: number, total: number, startedMs: number}, countedIndexes: number[]}} at
 * @returns {Promise<boolean>} false when the run was interrupted
 */
async function countInLanes(meter, ctx, { keys, round, lanes, laneStates, tests, sequences, warmups, progress, countedIndexes }) {
  const mine = (/** @type {string[]} */ units) => ({ tests: tests.filter((t) => units.includes(t.step.name)), sequences: sequences.filter((q) => units.includes(sequenceName(q))) });
  const laneRuns = await Promise.all(lanes.units.map(async (_, lane) => {
    const states = lane === 0 ? ctx.states : laneStates[lane];
    const cpus = keys.map((key) => lanes.cpus[lane][ctx.order.indexOf(key)] ?? null);
    const members = await startGroup(meter, ctx, keys.filter((k) => states.has(k)), round, { cpus, countedIndexes, states });
    return members.map(({ key, cpus: c }) => ({ meter, state: /** @type {CountState} */ (states.get(key)), key, round, ctx, progress, cpus: c }));
  }));
  const done = await Promise.all(laneRuns.map((runs, lane) => {
    const share = mine(lanes.units[lane]);
    return runs.length === 0 ? true : countGroup(runs, share.tests, share.sequences, warmups);
  }));
  const alone = mine(lanes.alone);
  const ok = done.every(Boolean) && (laneRuns[0].length === 0 || await countGroup(laneRuns[0], alone.tests, alone.sequences, []));
  await Promise.all(laneRuns.map((runs) => stopRuns(meter, runs)));
  return ok;
}

/**
 * One round of a group of release servers: the warm-ups, every test, every sequence, each on all
 * the group's servers at once (so each release's count of a test has the same neighbour: the
 * other's count of the same test), except a test counted alone (count-schedule.js aloneReason),
 * which each server counts in turn while the others wait, its slot saying so.
 * @param {import('./count-round.js').RoundOf[]} runs the group's servers of this round
 * @param {IndexedStep[]} tests
 * @param {IndexedStep[][]} sequences
 * @param {import('./types.js').StepPlanLike[]} warmups
 * @returns {Promise<boolean>} false when the run was interrupted
 */
async function countGroup(runs, tests, sequences, warmups) {
  const { ctx, meter } = runs[0];
  const alone = ctx.plan.host.counting?.alone ?? [];
  /** @param {string} name @param {number[]} indexes @param {(r: import('./count-round.js').RoundOf) => Promise<boolean>} count */
  const unit = async (name, indexes, count) => {
    const why = aloneReason(name, runs.length, alone, ctx.plan.host.name);
    if (why === null) return (await Promise.all(runs.map(count))).every(Boolean);
    for (const r of runs) for (const i of indexes) Object.assign(/** @type {object} */ (r.state.record.steps[i].meters?.[meter.name]), { alone: why });
    for (const r of runs) if (!(await count(r))) return false;
    return true;
  };
  await Promise.all(runs.map((r) => countWarmups(r, warmups)));
  for (const t of tests) if (!(await unit(t.step.name, [t.index], (r) => countTest(r, t)))) return false;
  for (const seq of sequences) {
    const indexes = seq.filter(({ step }) => step.countedEvents && step.reported).map(({ index }) => index);
    if (!(await unit(sequenceName(seq), indexes, (r) => countSequence(r, seq)))) return false;
  }
  return true;
}

/**
 * Start a group's servers under the meter's wrapper at once, each on its own slot's CPU where
 * the host class pins (its own port and datadir: its release's, or a lane's copy).
 * @param {import('../metrics/types.js').Meter} meter
 * @param {PhaseContext} ctx
 * @param {string[]} group release keys
 * @param {number} round
 * @param {{cpus: (string|null)[], countedIndexes: number[], states: Map<string, CountState>}} at
 *   cpus: per slot of the group; states: the releases' own, or a lane's copies
 * @returns {Promise<{key: string, cpus: string|null}[]>} the servers that started
 */
async function startGroup(meter, ctx, group, round, { cpus: slotCpus, countedIndexes, states }) {
  const live = group.filter((key) => !states.get(key)?.deadReason);
  const started = await Promise.all(live.map(async (key, slot) => {
    const state = /** @type {CountState} */ (states.get(key));
    const cpus = slotCpus[slot] ?? null;
    // A meter without a wrapper (work) restarts a plain server: no wrapper to name.
    const how = meter.needs.wrappedServer ? `under the ${meter.name} meter's wrapper` : `plainly (the ${meter.name} meter needs no wrapper)`;
    ctx.write(`${meter.name}: ${key} round ${round + 1} of ${ctx.settings.rounds}: start the server ${how}${cpus ? ` on CPU ${cpus}` : ''}\n`);
    const wrap = (/** @type {import('../server/types.js').ServerOptions} */ o) => ctx.wrap(cpus ? { ...o, serverCpus: cpus } : o);
    return (await restartWrapped(state, wrap, meter.name, countedIndexes)) ? { key, cpus } : null;
  }));
  return started.filter((s) => s !== null);
}

/**
 * The record says how its counts were taken: servers at once, and the shard.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {Map<string, CountState>} states
 * @param {number} parallel counting servers at once (lanes x releases)
 * @param {{index: number, of: number}|null} shard
 */
function noteSetup(meter, states, parallel, shard) {
  for (const state of states.values()) {
    const setup = state.record.config.meterSetup?.[meter.name];
    if (!setup) continue;
    setup.counting = { ...setup.counting, parallel, ...(shard ? { shard } : {}) };
  }
}

/** @param {IndexedStep[]} seq @returns {string} the sequence's name (its steps' `sequence`) */
function sequenceName(seq) {
  return seq[0].step.sequence ?? seq[0].step.name;
}

/**
 * The steps that cannot be counted get the meter's slot as skipped, with the reason.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {Map<string, CountState>} states
 * @param {{index: number, reason: string}[]} notCounted
 */
function addSkipped(meter, states, notCounted) {
  for (const state of states.values()) {
    for (const { index, reason } of notCounted) {
      const step = state.record.steps[index];
      step.meters = { ...(step.meters ?? {}), [meter.name]: { status: 'skipped', reason, repeats: [] } };
    }
  }
}

/**
 * Every counted step of every release gets the meter's slot (`step.meters.<meter>`), skipped
 * for a release whose server is already dead.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {Map<string, CountState>} states
 * @param {number[]} stepIndexes the counted steps
 */
function addSlots(meter, states, stepIndexes) {
  for (const state of states.values()) {
    for (const index of stepIndexes) {
      const step = state.record.steps[index];
      /** @type {import('../types.js').StepMeterRun} */
      const slot = state.deadReason ? { status: 'skipped', reason: `not counted: ${state.deadReason}`, repeats: [] } : { status: 'ok', repeats: [] };
      step.meters = { ...(step.meters ?? {}), [meter.name]: slot };
    }
  }
}

/**
 * The same rows for every release before anything is counted (sysbench's load is random).
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./types.js').StepPlanLike[]} steps the counted steps
 * @param {{order: string[], states: Map<string, CountState>, plan: {suite: any}, write: (t: string) => void}} ctx
 */
async function prepareSameRows(meter, steps, { order, states, plan, write }) {
  for (const name of new Set(steps.map((s) => s.benchmark))) {
    const prepare = getBenchmark(name).prepareCounting;
    if (!prepare) continue;
    for (const key of order) {
      const state = /** @type {CountState} */ (states.get(key));
      if (state.deadReason) continue;
      write(`${meter.name}: ${key}: the same ${name} rows as the other releases\n`);
      await prepare(plan.suite, state.server);
    }
  }
}

/**
 * Stop the release's server and start it again on the same datadir under the meter's wrapper.
 * @param {CountState} state
 * @param {(opts: import('../server/types.js').ServerOptions) => import('../server/types.js').ServerOptions} wrap
 * @param {string} meterName
 * @param {number[]} stepIndexes the counted steps (failed with the reason when it will not start)
 * @returns {Promise<boolean>}
 */
async function restartWrapped(state, wrap, meterName, stepIndexes) {
  await state.server.stop();
  try {
    state.server = await startServer(state.install, wrap({ ...state.serverOptions, reuseDatadir: true }));
    return true;
  } catch (err) {
    const reason = `server would not start under the ${meterName} meter: ${err instanceof Error ? err.message : String(err)}`;
    state.deadReason = reason;
    for (const i of stepIndexes) {
      const slot = state.record.steps[i].meters?.[meterName];
      if (slot) Object.assign(slot, { status: 'failed', reason });
    }
    return false;
  }
}

