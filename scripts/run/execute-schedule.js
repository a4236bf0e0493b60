/**
 * The timed schedule of a run (schedule.js) carried out: each action against its release's
 * server, measured steps through the run's timed meter (measure-repeat.js), setup steps plainly;
 * restarts for new instances, and a crashed server failing its step and ending its release.
 */
import { UserError } from '../errors.js';
import { startServer } from '../server/index.js';
import { getBenchmark } from '../workload/index.js';
import { measureDbSize } from '../metrics/index.js';
import { writeRawLog } from '../store/index.js';
import { buildSchedule, needsSnapshot, countedOnlySchedule } from './schedule.js';
import { measureRepeat } from './measure-repeat.js';
import { markStep, skipRemaining } from './record-builder.js';
import { createProgress } from './progress.js';
import { snapshotAfterLoad, restoreForRound } from './same-data-rounds.js';
import { estimateCopyS } from './estimate.js';
import { checkRunPiece, stopForBudget } from './run-budget.js';

/** @typedef {import('./run-releases.js').RunOptions} RunOptions */
/** @typedef {import('./start-release.js').RunState} RunState */

/**
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {import('./types.js').RunRelease[]} releases
 * @param {Map<string, RunState>} states
 * @param {any} ctx plan, options, write; afterLoad: runs once the loads are done (the counting
 *   meters); counted: whether afterLoad counts (round 1 then starts from the snapshot too);
 *   timed: whether the run has a timed meter (false: the loads only, countedOnlySchedule);
 *   onReleaseDone: stores a release once its last action ran or its server died; budget: the
 *   run's (run-budget.js), null = no limit: an action whose estimate does not fit what is left
 *   is not started, and the run stops there
 */
export async function executeSchedule(steps, releases, states, { plan, options, write, afterLoad, counted, timed = true, onReleaseDone, budget }) {
  // Every round starts from the data the load left (same-data-rounds.js); a run that times
  // nothing has no rounds to restore.
  const snapshot = timed && needsSnapshot(steps, plan.instances, counted);
  const restore = snapshot ? { copyS: estimateCopyS(steps, plan.host), countedFirst: counted } : null;
  const keys = releases.map((r) => r.key);
  const schedule = timed ? buildSchedule(steps, keys, plan.repeats, plan.instances, plan.host.estimate, restore) : countedOnlySchedule(steps, keys, plan.host.estimate);
  if (!timed) for (const state of states.values()) noteNotTimed(state.record, steps);
  const progress = createProgress(schedule, { write, now: Date.now });
  const lastAction = new Map(schedule.map((a) => [a.release, a.index]));
  let loaded = false;
  for (const action of schedule) {
    if (options.signal?.aborted) return;
    const over = checkRunPiece(budget, `${action.step.name} of ${action.release} (${action.index + 1} of ${schedule.length})`, action.estimatedS);
    if (over) {
      write(`${over}: the run stops here, with what it measured\n`);
      stopForBudget(states.values(), over);
      return;
    }
    await runScheduled(action);
    const state = /** @type {RunState} */ (states.get(action.release));
    // Only after the counting meters ran (right after the load): they add to every record.
    if (loaded && (state.deadReason || action.index === lastAction.get(action.release))) await onReleaseDone(action.release);
  }
  if (!loaded) await afterLoad();

  /** @param {import('./schedule.js').ScheduledAction} action */
  async function runScheduled(action) {
    // The loads come first in the schedule: the first other action is where they are all done.
    if (!loaded && !action.step.loadsData) {
      loaded = true;
      // Before the counted phase and before any test writes: what every round starts from.
      if (snapshot) await snapshotLoads(states, steps.findIndex((s) => s.loadsData), write);
      await afterLoad();
      if (options.signal?.aborted) return;
    }
    const state = /** @type {RunState} */ (states.get(action.release));
    if (state.deadReason) return;
    if (action.restart) {
      const restarted = action.restore ? await restoreServer(state, action, write) : await restartServer(state, action, write);
      if (!restarted) {
        progress.end(action, { status: 'failed', reason: state.deadReason ?? undefined });
        return;
      }
    }
    const health = await state.server.checkHealth();
    if (!health.ok) {
      killRelease(state, action.stepIndex, `server not running before ${action.step.name}: ${health.reason}`, health.logExcerpt);
      progress.end(action, { status: 'failed', reason: state.deadReason ?? undefined });
      return;
    }
    progress.begin(action);
    const result = await runAction(action, state, plan, options, steps);
    progress.end(action, result);
    if (result.status !== 'ok' && !options.signal?.aborted) {
      const after = await state.server.checkHealth();
      if (!after.ok) killRelease(state, action.stepIndex, `server crashed during ${action.step.name}: ${after.reason}`, after.logExcerpt);
      // A step that failed but left its data usable (a failed timed repeat, a missed target
      // rate) lets the run go on; a failed load, postwrite or sequence step ends the release.
      else if (result.stateValid !== true) killRelease(state, action.stepIndex, `${action.step.sequence ? 'sequence' : 'setup'} step ${action.step.name} failed: ${result.reason}`);
    }
  }
}

/**
 * A run without a timed meter runs none of the timed phase's steps: each says so in the record
 * (skipped, with the reason), and the record ends `ok` when the loads and the counting did.
 * @param {import('../types.js').RunRecord} record
 * @param {import('./types.js').StepPlanLike[]} steps
 */
function noteNotTimed(record, steps) {
  const meters = record.config.meters?.join(', ') ?? 'counting meters only';
  for (const [i, step] of steps.entries()) {
    if (step.loadsData) continue;
    // A test keeps the words readers already show for a test only counted ("not timed: ...").
    record.steps[i].reason = step.measured && step.reported
      ? `not timed: this run's meters are ${meters} (no timed meter), so its timed repeats did not run; its counts are in its meters' slots`
      : `not run: no timed meter in this run (meters: ${meters}), and this is ${step.sequence ? 'a setup step of the timed pass of its sequence' : 'a step of the timed phase (warm-up, postwrite, setup)'}; the counted phase counts on servers of its own`;
  }
}

/**
 * Each live release's datadir copied aside after the load (its server stopped and started
 * again); a release whose copy or restart fails ends there, with the reason on its load step.
 * @param {Map<string, RunState>} states
 * @param {number} loadIndex the load's step index (it fails with the reason)
 * @param {(t: string) => void} write
 */
async function snapshotLoads(states, loadIndex, write) {
  for (const [key, state] of states) {
    if (state.deadReason) continue;
    const done = await snapshotAfterLoad(state, key, write);
    if (!done.ok) killRelease(state, loadIndex, done.reason);
  }
}

/**
 * Start a round of a release from the snapshot after the load: a clean shutdown, the copy put
 * back, a new process on it.
 * @param {RunState} state
 * @param {import('./schedule.js').ScheduledAction} action
 * @param {(t: string) => void} write
 * @returns {Promise<boolean>} false when the restore or the start failed (the release is then dead)
 */
async function restoreServer(state, action, write) {
  const done = await restoreForRound(state, action.release, { round: action.instance + 1, last: action.lastRound === true }, write);
  if (!done.ok) killRelease(state, action.stepIndex, done.reason);
  return done.ok;
}

/**
 * Start the next server instance of a release: a clean shutdown, then a new process on the
 * same datadir. The new process has its own memory layout and a cold buffer pool; the warm-up
 * steps that follow in the schedule warm it again.
 * @param {RunState} state
 * @param {import('./schedule.js').ScheduledAction} action
 * @param {(t: string) => void} write
 * @returns {Promise<boolean>} false when the server would not restart (the release is then dead)
 */
async function restartServer(state, action, write) {
  write(`restart ${action.release} for instance ${action.instance + 1}\n`);
  const exit = await state.server.stop();
  try {
    state.server = await startServer(state.install, { ...state.serverOptions, reuseDatadir: true });
    return true;
  } catch (err) {
    const reason = `server would not restart for instance ${action.instance + 1} (previous exit ${JSON.stringify(exit)}): ${err instanceof Error ? err.message : String(err)}`;
    killRelease(state, action.stepIndex, reason);
    return false;
  }
}

/**
 * Fail the current step with the crash reason and skip everything after it for this release:
 * the next step never runs against a dead server.
 * @param {RunState} state
 * @param {number} stepIndex
 * @param {string} reason
 * @param {string} [logExcerpt]
 */
function killRelease(state, stepIndex, reason, logExcerpt) {
  const step = state.record.steps[stepIndex];
  if (step.status !== 'failed') {
    markStep(state.record, stepIndex, { ok: false, reason, logExcerpt });
  } else {
    // The repeat already failed with the client's view (lost connection); the server's own
    // error log says why, so it leads.
    step.reason = `${reason}; client: ${step.reason ?? 'failed'}`;
    if (logExcerpt) step.logExcerpt = logExcerpt;
  }
  state.deadReason = reason;
  skipRemaining(state.record, `not run: ${reason}`);
}

/**
 * Run one scheduled action against one release's server: through the step's plug-in, inside the
 * meter when the step is measured, else as a setup step.
 * @param {import('./schedule.js').ScheduledAction} action
 * @param {RunState} state
 * @param {any} plan
 * @param {RunOptions} options
 * @param {import('./types.js').StepPlanLike[]} steps the run's planned steps (a sequence's first step is the one after another plug-in's)
 * @returns {Promise<{status: string, reason?: string, throughput?: number|null, metric?: string, intervals?: number[], stateValid?: boolean}>}
 */
async function runAction(action, state, plan, options, steps) {
  const { step, stepIndex } = action;
  try {
    const bench = getBenchmark(step.benchmark);
    /** @type {import('../workload/types.js').StepContext} */
    const ctx = { suite: plan.suite, engine: state.engine, pass: action.repeat, clientCpus: plan.host.pinning.clientCpus, cacheDir: options.cacheDir, signal: options.signal, onProgress: quiet };
    if (!step.measured) return await runSetupStep(action, state, options, () => bench.runStep(step, state.server, ctx));
    // What the repeat's figures depend on, read before the meter starts (a scan's rows).
    const measured = bench.beforeRepeat ? await bench.beforeRepeat(step, state.server) : step;
    const result = await measureRepeat(
      { action, record: state.record, server: state.server, meter: /** @type {import('../metrics/types.js').Meter} */ (state.meter), storeDir: options.storeDir, signal: options.signal, workCounters: state.workCounters },
      () => bench.runStep(measured, state.server, ctx),
    );
    // A suite without the sysbench load gets its size after load from the sequence's first step.
    const first = stepIndex === 0 || steps[stepIndex - 1].sequence !== step.sequence;
    if (step.sequence && first && result.status === 'ok' && state.record.dbSize.afterLoad === null) {
      state.record.dbSize.afterLoad = await measureDbSize({ datadir: state.server.datadir, query: state.server.query, database: state.server.database });
    }
    return result;
  } catch (err) {
    if (err instanceof UserError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    markStep(state.record, stepIndex, { ok: false, reason });
    // A bug in a timed repeat outside a sequence leaves the data as it was; anywhere else the
    // data may be half made.
    return { status: 'failed', reason, stateValid: step.measured && !step.sequence };
  }
}

/**
 * A step that is not measured (a load, a postwrite, a sequence's cleanup): keep its log, mark it
 * ok or failed, and after the run-wide load record the database size.
 * @param {import('./schedule.js').ScheduledAction} action
 * @param {RunState} state
 * @param {RunOptions} options
 * @param {() => Promise<import('../workload/types.js').StepOutcome>} run
 */
async function runSetupStep(action, state, options, run) {
  const { step, stepIndex } = action;
  const { server, record } = state;
  const out = await run();
  if (out.rawOutput !== '') {
    // A sequence's setup step runs once per pass: its logs are numbered by pass.
    await writeRawLog(options.storeDir, record.id, step.sequence ? `${step.name}.r${action.repeat}.txt` : `${step.name}.txt`, out.rawOutput);
  }
  markStep(record, stepIndex, { ok: out.status === 'ok', reason: out.reason });
  if (out.status === 'ok' && step.loadsData) record.dbSize.afterLoad = await measureDbSize({ datadir: server.datadir, query: server.query, database: server.database });
  return { status: out.status, reason: out.reason, stateValid: out.stateValid };
}

/** The tools' own progress lines are kept in the raw logs; the run prints its own summary. */
function quiet() {}
