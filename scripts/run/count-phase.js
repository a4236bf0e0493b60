/**
 * The counted phase of a run: right after the load, before any timed step changes the data,
 * each counting meter (instructions) gets servers of its own, started under its wrapper on the
 * releases' datadirs (the same rows in each: the load's seed is fixed), and runs every step
 * that can do a fixed amount of work (a sysbench test) as counted repeats: a warm-up run of the
 * same test, then the meter around `countedEvents` events with a fixed seed. Rounds alternate
 * the releases like the timed schedule, one new server process per release and round: counts
 * differ a little between processes (memory layout), so a round is the unit compare pairs.
 *
 * Its repeats go to `step.meters.<meter>` of each release's record, apart from the timed
 * repeats: a count under valgrind is not a throughput, and no reader of timed figures sees them.
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
import { startServer } from '../server/index.js';
import { getBenchmark } from '../workload/index.js';
import { countRepeat, describeCounted } from './count-repeat.js';

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
 * @param {import('../metrics/types.js').Meter} meter a counted meter (kind 'counted')
 * @param {PhaseContext} ctx
 */
export async function runCountPhase(meter, ctx) {
  const { steps, order, states, settings, wrap, options, write } = ctx;
  const { tests, warmups, sequences, notCounted } = planCounting(steps);
  addSkipped(meter, states, notCounted);
  if (tests.length === 0 && sequences.length === 0) {
    write(`${meter.name}: no step of this suite can run a fixed amount of work; nothing to count\n`);
    return;
  }
  const countedIndexes = [...tests, ...sequences.flat().filter(({ step }) => step.countedEvents && step.reported)].map((c) => c.index);
  addSlots(meter, states, countedIndexes);
  await prepareSameRows(meter, tests.map((c) => c.step), { order, states, plan: ctx.plan, write });
  // A sequence runs once per round (one pass from its own start), a test `repeats` times.
  const perRound = tests.length * settings.repeats + sequences.flat().filter(({ step }) => step.countedEvents && step.reported).length;
  const progress = { done: 0, total: settings.rounds * order.length * perRound, startedMs: Date.now() };
  for (let round = 0; round < settings.rounds; round += 1) {
    // Alternate which release goes first, as the timed schedule does.
    const keys = round % 2 === 0 ? order : [...order].reverse();
    for (const key of keys) {
      if (options.signal?.aborted) return;
      const state = /** @type {CountState} */ (states.get(key));
      if (state.deadReason) continue;
      // A meter without a wrapper (work) restarts a plain server: no wrapper to name.
      const how = meter.needs.wrappedServer ? `under the ${meter.name} meter's wrapper` : `plainly (the ${meter.name} meter needs no wrapper)`;
      write(`${meter.name}: ${key} round ${round + 1} of ${settings.rounds}: start the server ${how}\n`);
      const started = await restartWrapped(state, wrap, meter.name, countedIndexes);
      if (!started) continue;
      const round1 = { meter, state, key, round, ctx, progress };
      if (!(await countTests(round1, tests, warmups))) return;
      for (const seq of sequences) if (!(await countSequence(round1, seq))) return;
      const health = await state.server.checkHealth();
      if (!health.ok) state.deadReason = `server under ${meter.name} crashed: ${health.reason}`;
      // An idle server under valgrind still runs its background threads, fifty times slower:
      // it would take CPU from the next release's counting. The next round starts its own.
      else await state.server.stop();
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
 * @typedef {object} RoundOf one release's server process of one round
 * @property {import('../metrics/types.js').Meter} meter
 * @property {CountState} state
 * @property {string} key
 * @property {number} round
 * @property {PhaseContext} ctx
 * @property {{done: number, total: number, startedMs: number}} progress
 */

/**
 * The step context of a counted run (or its warm-up) of this round.
 * @param {RoundOf} r
 * @param {import('../workload/types.js').FixedWork} work
 * @returns {import('../workload/types.js').StepContext}
 */
function stepContext({ state, round, ctx }, work) {
  return { suite: ctx.plan.suite, engine: state.engine, pass: round, clientCpus: ctx.plan.host.pinning.clientCpus, cacheDir: ctx.options.cacheDir, signal: ctx.options.signal, onProgress: quiet, work };
}

/**
 * The sysbench tests of one round: the timed warm-ups as counted runs, then `repeats` counted
 * repeats of each test, each after a warm-up run of its own.
 * @param {RoundOf} r
 * @param {IndexedStep[]} tests
 * @param {import('./types.js').StepPlanLike[]} warmups
 * @returns {Promise<boolean>} false when the run was interrupted
 */
async function countTests(r, tests, warmups) {
  const { state, round, ctx } = r;
  // The timed warm-ups (a scan that brings the table into the buffer pool) as counted runs.
  for (const w of warmups) await getBenchmark(w.benchmark).runStep(w, state.server, stepContext(r, { events: /** @type {number} */ (w.countedEvents), seed: 1 + round }));
  for (const { step, index } of tests) {
    for (let rep = 0; rep < ctx.settings.repeats; rep += 1) {
      if (ctx.options.signal?.aborted) return false;
      const events = /** @type {number} */ (step.countedEvents);
      // Seeds differ by round and repeat (a write repeated with the seed of the one before
      // would rewrite the same values: no row changed, nothing logged, a third fewer
      // instructions) and are the same for every release in a round: paired rounds compare
      // the same work on the same data.
      const warmUp = { events: Math.max(1, Math.ceil(events * ctx.settings.warmupShare)), seed: 1000 + 100 * round + rep };
      await countAndKeep(r, step, index, { repeat: rep, events, warmUp });
    }
  }
  return true;
}

/**
 * One pass of a sequence in one round, from its own start (its first step drops and creates its
 * tables), every step in order: the counted ones under the meter with the round's seed (the same
 * for every release), the setup ones (the insert benchmark's cleanup) uncounted. No warm-up run:
 * a sequence step's warm-up is the steps before it, and a run of its own would change the data
 * the counted one starts from. A step that leaves the data unusable ends the pass; the steps
 * after it are failed in this round, naming it.
 * @param {RoundOf} r
 * @param {IndexedStep[]} seq
 * @returns {Promise<boolean>} false when the run was interrupted
 */
async function countSequence(r, seq) {
  const { meter, state, round, ctx } = r;
  for (const [at, { step, index }] of seq.entries()) {
    if (ctx.options.signal?.aborted) return false;
    /** @type {string|null} */
    let broken = null;
    if (step.countedEvents && step.reported) {
      const kept = await countAndKeep(r, step, index, { repeat: 0, events: step.countedEvents, warmUp: null });
      if (!kept.stateValid) broken = kept.repeat.reason ?? 'failed';
      else if (kept.repeat.status === 'ok' && step.countedParts) broken = await countParts(r, step, kept.repeat);
    } else {
      const out = await getBenchmark(step.benchmark).runStep(step, state.server, stepContext(r, { events: step.countedEvents ?? 1, seed: 7 + 100 * round }));
      if (out.status !== 'ok' && !out.stateValid) broken = out.reason ?? 'failed';
    }
    if (broken === null) continue;
    for (const later of seq.slice(at + 1)) {
      const slot = state.record.steps[later.index].meters?.[meter.name];
      if (slot && slot.status === 'ok') Object.assign(slot, { status: 'failed', reason: `not counted in round ${round + 1}: ${step.name} failed before it (${broken})` });
    }
    return true;
  }
  return true;
}

/**
 * The step's parts, each counted alone after the whole step (a LinkBench request phase: each
 * operation type), kept in the whole step's counted repeat under `byType`: per operation of one
 * type, which a mixed phase cannot say (callgrind counts the process, not the statement type).
 * In a fixed order after the whole, so every release's part starts from the same data.
 * @param {RoundOf} r
 * @param {import('./types.js').StepPlanLike} step
 * @param {import('../types.js').CountedRepeat} whole the step's counted repeat (gets byType)
 * @returns {Promise<string|null>} why the data is no longer usable, null when it is
 */
async function countParts(r, step, whole) {
  const { meter, state, key, round, ctx } = r;
  /** @type {Record<string, import('../types.js').CountedRepeat>} */
  const byType = {};
  whole.byType = byType;
  for (const part of step.countedParts ?? []) {
    if (ctx.options.signal?.aborted) return null;
    const counted = await countRepeat(meter, state, step, { round, repeat: 0, events: part.events, warmUp: null, part: part.name }, {
      run: (work) => getBenchmark(step.benchmark).runStep(step, state.server, stepContext(r, work)),
      dispatchFunction: ctx.dispatchFunction(state.record.release.product),
      workCounters: ctx.workCounters?.(state.record.release.product),
      storeDir: ctx.options.storeDir,
    });
    byType[part.name] = counted.repeat;
    ctx.write(`  ${key} ${step.name} ${part.name} alone, round ${round + 1}: ${describeCounted(meter, counted.repeat)}\n`);
    if (!counted.stateValid) return `${part.name} alone: ${counted.repeat.reason ?? 'failed'}`;
  }
  return null;
}

/**
 * Count one repeat and keep it in the step's slot (failing the slot with its reason when it
 * failed), with a progress line.
 * @param {RoundOf} r
 * @param {import('./types.js').StepPlanLike} step
 * @param {number} index the step's index in the record
 * @param {{repeat: number, events: number, warmUp: import('../workload/types.js').FixedWork|null}} at
 * @returns {Promise<{repeat: import('../types.js').CountedRepeat, stateValid: boolean}>}
 */
async function countAndKeep(r, step, index, at) {
  const { meter, state, key, round, ctx, progress } = r;
  const counted = await countRepeat(meter, state, step, { round, ...at }, {
    run: (work) => getBenchmark(step.benchmark).runStep(step, state.server, stepContext(r, work)),
    dispatchFunction: ctx.dispatchFunction(state.record.release.product),
    workCounters: ctx.workCounters?.(state.record.release.product),
    storeDir: ctx.options.storeDir,
  });
  const rep = counted.repeat;
  const slot = /** @type {import('../types.js').StepMeterRun} */ (state.record.steps[index].meters?.[meter.name]);
  slot.repeats.push(rep);
  if (rep.status !== 'ok' && slot.status === 'ok' && !ctx.options.signal?.aborted) {
    slot.status = 'failed';
    slot.reason = rep.reason;
  }
  progress.done += 1;
  const leftS = ((Date.now() - progress.startedMs) / progress.done) * (progress.total - progress.done) / 1000;
  ctx.write(`  ${key} ${step.name} round ${round + 1} repeat ${at.repeat + 1}: ${describeCounted(meter, rep)} (${progress.done}/${progress.total}, about ${formatLeft(leftS)} left)\n`);
  return counted;
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

/** @param {number} s */
function formatLeft(s) {
  return s >= 90 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`;
}

/** The tools' own progress lines are kept in the raw logs. */
function quiet() {}
