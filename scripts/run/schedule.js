/**
 * The order in which a run executes: the suite's steps in their fixed order; within a reported
 * step, its repeats alternate between the releases (A B A B ...) so that drift of the machine
 * over time (thermal, page cache, noisy neighbours) falls on both releases alike instead of
 * looking like a difference between them. Setup steps (load, warm-ups, postwrite) run once per
 * release. Pure: no I/O, no clock.
 */

/**
 * @typedef {object} ScheduledAction
 * @property {number} index position in the schedule, 0-based
 * @property {import('./types.js').StepPlanLike} step
 * @property {number} stepIndex position of the step in the suite
 * @property {string} release release key (`product@version`)
 * @property {number} repeat 0-based repeat number (always 0 for setup steps)
 * @property {number} repeats how many repeats this step has
 * @property {number} estimatedS expected wall time of this action, for "time left"
 */

/** Fixed cost per action on top of its measured duration: process start, connect, warm-up tail. */
const OVERHEAD_S = 0.5;

/**
 * @param {import('./types.js').StepPlanLike[]} steps suite steps in order
 * @param {string[]} releases release keys, in the order given by the user
 * @param {number} repeats repeats per reported step (>= 1)
 * @returns {ScheduledAction[]}
 */
export function buildSchedule(steps, releases, repeats) {
  if (releases.length === 0) throw new Error('buildSchedule: no releases');
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`buildSchedule: repeats must be a positive integer, got ${repeats}`);
  /** @type {ScheduledAction[]} */
  const actions = [];
  steps.forEach((step, stepIndex) => {
    const n = (step.runOnce ?? !step.reported) ? 1 : repeats;
    for (let repeat = 0; repeat < n; repeat++) {
      for (const release of releases) {
        actions.push({ index: actions.length, step, stepIndex, release, repeat, repeats: n, estimatedS: estimateS(step) });
      }
    }
  });
  return actions;
}

/**
 * @param {import('./types.js').StepPlanLike} step
 * @returns {number} seconds
 */
function estimateS(step) {
  return (step.durationS ?? 0) + (step.warmupS ?? 0) + OVERHEAD_S;
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
