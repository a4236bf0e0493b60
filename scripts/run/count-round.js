/**
 * What one release's counting server does in one round of the counted phase (count-phase.js):
 * the counted warm-ups, every test's counted repeats, each sequence's pass, each repeat kept in
 * its step's slot with a progress line. The phase runs several of these at once (a round's
 * servers side by side: count-schedule.js); a test counted alone waits for the others.
 */
import { getBenchmark } from '../workload/index.js';
import { countRepeat, describeCounted } from './count-repeat.js';

/** @typedef {import('./count-phase.js').IndexedStep} IndexedStep */
/** @typedef {import('./count-phase.js').CountState} CountState */
/** @typedef {import('./count-phase.js').PhaseContext} PhaseContext */

/**
 * @typedef {object} RoundOf one release's server process of one round
 * @property {import('../metrics/types.js').Meter} meter
 * @property {CountState} state
 * @property {string} key
 * @property {number} round
 * @property {PhaseContext} ctx
 * @property {{done: number, total: number, startedMs: number}} progress
 * @property {string|null} cpus the CPU list its server and client are pinned to (its slot's:
 *   count-schedule.js), null: the host class's client pinning
 */

/**
 * The step context of a counted run (or its warm-up) of this round.
 * @param {RoundOf} r
 * @param {import('../workload/types.js').FixedWork} work
 * @returns {import('../workload/types.js').StepContext}
 */
function stepContext({ state, round, ctx, cpus }, work) {
  return { suite: ctx.plan.suite, engine: state.engine, pass: round, clientCpus: cpus ?? ctx.plan.host.pinning.clientCpus, cacheDir: ctx.options.cacheDir, signal: ctx.options.signal, onProgress: quiet, work };
}

/**
 * The timed warm-ups (a scan that brings the table into the buffer pool) as counted runs,
 * uncounted, at the start of the server's round.
 * @param {RoundOf} r
 * @param {import('./types.js').StepPlanLike[]} warmups
 * @returns {Promise<boolean>} true (the shape of the phase's other units)
 */
export async function countWarmups(r, warmups) {
  for (const w of warmups) await getBenchmark(w.benchmark).runStep(w, r.state.server, stepContext(r, { events: /** @type {number} */ (w.countedEvents), seed: 1 + r.round }));
  return true;
}

/**
 * `repeats` counted repeats of one sysbench test on this round's server, each after a warm-up
 * run of its own.
 * @param {RoundOf} r
 * @param {IndexedStep} test
 * @returns {Promise<boolean>} false when the run was interrupted
 */
export async function countTest(r, { step, index }) {
  const { round, ctx } = r;
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
export async function countSequence(r, seq) {
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

/** @param {number} s */
function formatLeft(s) {
  return s >= 90 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`;
}

/** The tools' own progress lines are kept in the raw logs. */
function quiet() {}
