/**
 * The order in which a run executes. The repeats of a release are spread over `instances`
 * rounds, each on its own server instance: round 0 starts from the load; every later round
 * begins by restarting each release's server (a new process: new memory layout, cold buffer
 * pool) and re-running the warm-up and postwrite steps, then runs its share of every reported
 * step. With `restore` (a run with a run-wide load, same-data-rounds.js), that restart puts the
 * datadir snapshot taken after the load back first, so every round reads the data the load
 * left, not what the rounds before wrote; after a counted phase round 0 starts that way too. Repeats of one server process are not independent (they share its
 * memory layout and warm-up, docs/method.md "Instances"), so the verdicts count instances, not
 * repeats. A sequence benchmark (the insert benchmark: steps with `sequence` set) runs its whole
 * sequence once per repeat ("pass"), passes spread over the rounds like repeats, each pass from
 * a fresh table. Within a reported step, repeats alternate between the releases (A B A B ...) so that
 * drift of the machine over time (thermal, page cache, noisy neighbours) falls on both releases
 * alike instead of looking like a difference between them. The order turns by one release each
 * round (A B, then B A; with three, A B C, B C A, C A B): a verdict paired by round takes each
 * round's ratio, and a fixed order would put into every ratio whatever favours the server that
 * runs first (the other's background flushing, a cache the first one warmed), where a turning
 * order puts it on each release in turn. Pure: no I/O, no clock.
 */

/**
 * @typedef {object} ScheduledAction
 * @property {number} index position in the schedule, 0-based
 * @property {import('./types.js').StepPlanLike} step
 * @property {number} stepIndex position of the step in the suite
 * @property {string} release release key (`product@version`)
 * @property {number} repeat 0-based repeat number over the whole run (always 0 for setup steps)
 * @property {number} repeats how many repeats this step has in the run
 * @property {number} instance 0-based round: which server instance of the release runs it
 * @property {boolean} [restart] restart the release's server before this action (on the same
 *   datadir, or with `restore` on the snapshot after the load)
 * @property {boolean} [restore] with restart: put the datadir snapshot taken after the load back
 *   before the server starts again
 * @property {boolean} [lastRound] with restore: the release's last round, which may take the
 *   snapshot itself (moved into place) instead of a copy
 * @property {number} estimatedS expected wall time of this action, for "time left"
 * @property {number} [copyS] the part of estimatedS that goes to the datadir snapshot after the
 *   load (its copy and restart) or to putting it back before a round (and round 0's restart,
 *   which only a restore asks for)
 */

/** Fixed cost per action on top of its measured duration: process start, connect, warm-up tail. */
const OVERHEAD_S = 0.5;
/** Expected cost of a server restart (shutdown, start, ping). */
const RESTART_S = 8;
/**
 * @typedef {object} ScheduleRestore how a run's rounds start from the snapshot after the load
 * @property {number} copyS expected seconds of one copy of the datadir (the snapshot, a restore)
 * @property {boolean} countedFirst a counted phase runs between the load and round 0, so round 0
 *   restores too
 */

/**
 * Rows a second a load step writes when the host class says nothing (its `estimate.loadRowsPerS`):
 * below every load rate measured on this project's 2-vCPU VM (the demo's insert benchmark: l.i1
 * inserted 22,000 rows/s and deleted as many, l.i0 inserted 80,000; sysbench loaded 2M rows and
 * rewrote them at 40,000 rows/s or more, bench/estimate-at-size.md), for larger tables on runners.
 */
export const DEFAULT_LOAD_ROWS_PER_S = 20_000;

/**
 * @param {import('./types.js').StepPlanLike[]} steps suite steps in order
 * @param {string[]} releases release keys, in the order given by the user
 * @param {number} repeats repeats per reported step and release (>= 1)
 * @param {number} [instances] server instances (rounds) the repeats are spread over, 1..repeats
 * @param {{loadRowsPerS?: number}} [rates] the host class's `estimate` (rows a second of a load step)
 * @param {ScheduleRestore|null} [restore] rounds start from the snapshot taken after the load;
 *   null = later rounds restart on the datadir as the rounds before left it
 * @returns {ScheduledAction[]}
 */
export function buildSchedule(steps, releases, repeats, instances = 1, rates = {}, restore = null) {
  if (releases.length === 0) throw new Error('buildSchedule: no releases');
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`buildSchedule: repeats must be a positive integer, got ${repeats}`);
  if (!Number.isInteger(instances) || instances < 1 || instances > repeats) {
    throw new Error(`buildSchedule: instances must be an integer from 1 to repeats (${repeats}), got ${instances}`);
  }
  /** @type {ScheduledAction[]} */
  const actions = [];
  for (let instance = 0; instance < instances; instance++) {
    const restartPending = new Set(instance > 0 || restore?.countedFirst ? releases : []);
    const order = releases.map((_, i) => releases[(i + instance) % releases.length]);
    /** @param {import('./types.js').StepPlanLike} step @param {number} stepIndex @param {number} repeat @param {number} of */
    const push = (step, stepIndex, repeat, of) => {
      for (const release of order) {
        // The load itself runs on the fresh datadir; the restart comes before the first step after it.
        const restart = !step.loadsData && restartPending.delete(release);
        // With restore, the load's action also pays for the snapshot (a restart and a copy),
        // and every restart for the copy put back.
        const snapshotS = restore && step.loadsData ? RESTART_S + restore.copyS : 0;
        // The last round moves the snapshot into place: a rename, no copy.
        const last = instance === instances - 1;
        const restoreS = restore && restart && !last ? restore.copyS : 0;
        actions.push({
          index: actions.length, step, stepIndex, release, repeat, repeats: of, instance,
          estimatedS: estimateS(step, rates) + (restart ? RESTART_S : 0) + snapshotS + restoreS,
          ...(restart ? { restart: true } : {}), ...(restart && restore ? { restore: true, ...(last ? { lastRound: true } : {}) } : {}),
          // Round 0's restart exists only to restore (after a counted phase): it counts as the copy's.
          ...(snapshotS + restoreS > 0 || (restart && instance === 0) ? { copyS: snapshotS + restoreS + (restart && instance === 0 ? RESTART_S : 0) } : {}),
        });
      }
    };
    // Repeat k belongs to round k mod instances: every round gets floor or ceil of repeats/instances.
    const mine = range(repeats).filter((k) => k % instances === instance);
    for (let stepIndex = 0; stepIndex < steps.length; stepIndex++) {
      const step = steps[stepIndex];
      if (step.sequence) {
        // A sequence benchmark's state evolves step by step: each pass runs the whole sequence
        // (from a fresh table), so passes are the outer loop and every step of a pass records
        // that pass as its repeat. Releases still alternate step by step.
        const end = sequenceEnd(steps, stepIndex);
        for (const pass of mine) {
          for (let i = stepIndex; i < end; i++) push(steps[i], i, pass, repeats);
        }
        stepIndex = end - 1;
        continue;
      }
      const once = step.runOnce ?? !step.reported;
      // The data is loaded once; later rounds restart on the loaded datadir (or its snapshot).
      if (step.loadsData && instance > 0) continue;
      for (const repeat of once ? [0] : mine) push(step, stepIndex, repeat, once ? 1 : repeats);
    }
  }
  return actions;
}

/**
 * The schedule of a run that times nothing (its meters all count, e.g. `--meter instructions`, a
 * count shard): the run-wide loads only, since the counted phase counts on the data they leave
 * and starts right after them. No warm-up, postwrite, timed test or sequence pass runs: they exist
 * for the timed repeats, and a sequence's setup steps would fail without the pass that makes
 * their tables (the insert benchmark's cleanup analyses the tables its load step made).
 * @param {import('./types.js').StepPlanLike[]} steps suite steps in order
 * @param {string[]} releases release keys
 * @param {{loadRowsPerS?: number}} [rates] the host class's `estimate`
 * @returns {ScheduledAction[]}
 */
export function countedOnlySchedule(steps, releases, rates = {}) {
  return buildSchedule(steps, releases, 1, 1, rates, null)
    .filter((a) => a.step.loadsData)
    .map((a, index) => ({ ...a, index }));
}

/**
 * Whether a run takes the snapshot: it has a run-wide load, and something would otherwise read
 * another state than the load's (a later round, or round 1 after a counted phase).
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {number} instances timed rounds
 * @param {boolean} counted a counted phase runs after the load
 * @returns {boolean}
 */
export function needsSnapshot(steps, instances, counted) {
  return steps.some((s) => s.loadsData) && (instances > 1 || counted);
}

/**
 * Index after the last step of the sequence that starts at `start` (its steps are contiguous).
 * @param {import('./types.js').StepPlanLike[]} steps
 * @param {number} start
 */
function sequenceEnd(steps, start) {
  let end = start;
  while (end < steps.length && steps[end].sequence === steps[start].sequence) end++;
  return end;
}

/** @param {number} n */
function range(n) {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * @param {import('./types.js').StepPlanLike} step
 * @param {{loadRowsPerS?: number}} rates
 * @returns {number} seconds
 */
function estimateS(step, rates) {
  const work = (step.workRows ?? 0) / loadPace(step, rates);
  return (step.durationS ?? 0) + (step.warmupS ?? 0) + (step.restS ?? 0) + work + OVERHEAD_S;
}

/**
 * Rows a second a step with `workRows` is expected to write: the pace its benchmark declares for
 * it (`workRowsPerS`, measured: the insert benchmark's and LinkBench's loads run 10 to 40 times
 * the sysbench load's default), else the host class's `estimate.loadRowsPerS`, else
 * DEFAULT_LOAD_ROWS_PER_S.
 * @param {import('./types.js').StepPlanLike} step
 * @param {{loadRowsPerS?: number}} rates the host class's `estimate`
 * @returns {number}
 */
export function loadPace(step, rates) {
  return step.workRowsPerS ?? rates.loadRowsPerS ?? DEFAULT_LOAD_ROWS_PER_S;
}

/**
 * Seconds still to go after `done` actions, scaled by how the finished ones compared with their
 * estimates (load and postwrite take what they take; the ratio corrects for it as the run goes).
 * @param {ScheduledAction[]} schedule
 * @param {number} done number of finished actions
 * @param {number} elapsedS wall seconds spent on those
 * @returns {number} seconds
 */
export function estimateRemainingS(schedule, done, elapsedS) {
  const estimatedDone = schedule.slice(0, done).reduce((s, a) => s + a.estimatedS, 0);
  const estimatedLeft = schedule.slice(done).reduce((s, a) => s + a.estimatedS, 0);
  const pace = done > 0 && estimatedDone > 0 ? Math.max(0.5, Math.min(4, elapsedS / estimatedDone)) : 1;
  return estimatedLeft * pace;
}
