/**
 * A run's budget while it runs (`run --budget-h`, else the host class's `legBudgetH`). The run
 * is refused before it starts when its estimate is over the budget (estimate.js checkBudget);
 * this is the same estimate asked again before each piece that could overrun what is left: every
 * scheduled step (its action's estimate, the one the plan added up) and each counting meter's
 * phase. A piece that does not fit is not started, since one that runs over is killed by its
 * job's timeout with nothing published, where one not started leaves the records of what did run:
 * the run says what it skipped and the estimate it used, and the records say it too (the steps
 * not run skipped with that reason and the record `partial`; a skipped counted phase as its
 * meter's skipped slots). Pure apart from the clock it is given.
 */
import { overBudget, estimateCountedPhase } from './estimate.js';
import { planCounting } from './count-phase.js';
import { skipRemaining } from './record-builder.js';

/** Where a run's budget comes from, in its messages. */
const BUDGET_NAME = "--budget-h, else the host class's legBudgetH";

/**
 * @typedef {object} RunBudget
 * @property {number} budgetS seconds the whole run may take
 * @property {number} startedMs when the run started (its clock's reading)
 * @property {() => number} now ms clock
 */

/**
 * The budget of a run that starts now.
 * @param {number|undefined} budgetH hours (`--budget-h`, legBudgetH); absent or 0 = no limit
 * @param {() => number} now ms clock
 * @returns {RunBudget|null} null = no limit
 */
export function startRunBudget(budgetH, now) {
  return budgetH ? { budgetS: budgetH * 3600, startedMs: now(), now } : null;
}

/**
 * Whether a piece of the run fits what is left of its budget.
 * @param {RunBudget|null} budget
 * @param {string} what the piece in words, for the message
 * @param {number} estimatedS its estimate
 * @returns {string|null} null when it fits (or there is no limit); else why it is not started
 */
export function checkRunPiece(budget, what, estimatedS) {
  if (!budget) return null;
  return overBudget({ what, estimatedS, elapsedS: (budget.now() - budget.startedMs) / 1000, budgetS: budget.budgetS, budgetName: BUDGET_NAME });
}

/**
 * Before a counting meter's phase: its estimate (estimateCountedPhase, as the run's plan has it)
 * against the budget left.
 * @param {RunBudget|null} budget
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./types.js').StepPlanLike[]} steps the run's planned steps
 * @param {number} releases
 * @param {import('../types.js').HostClass} host
 * @param {import('./estimate.js').CountPlan} count the run's servers at once and shard
 * @returns {string|null} null when the phase may start; else why it is not started
 */
export function checkCountedPhase(budget, meter, steps, releases, host, count) {
  return checkRunPiece(budget, `the ${meter.name} meter's counted phase`, estimateCountedPhase(meter, steps, releases, host, count).seconds);
}

/**
 * A counted phase not started: every step it would have counted gets the meter's slot as
 * skipped with the reason, so the record and compare say why there is no counted verdict.
 * @param {string} meterName
 * @param {Iterable<{record: import('../types.js').RunRecord}>} states the releases' run states
 * @param {import('./types.js').StepPlanLike[]} steps the run's planned steps
 * @param {string} reason
 */
export function skipCountedPhase(meterName, states, steps, reason) {
  const { tests, sequences } = planCounting(steps);
  const indexes = [...tests, ...sequences.flat().filter(({ step }) => step.countedEvents && step.reported)].map((c) => c.index);
  for (const { record } of states) {
    for (const index of indexes) {
      const step = record.steps[index];
      step.meters = { ...(step.meters ?? {}), [meterName]: { status: 'skipped', reason: `not counted: ${reason}`, repeats: [] } };
    }
  }
}

/**
 * The run stops at a step that does not fit: that step and every one after it, of every release
 * still running, are skipped with the reason, and the records will be stored as `partial`.
 * @param {Iterable<{record: import('../types.js').RunRecord, deadReason: string|null, budgetStop?: string}>} states
 * @param {string} reason
 */
export function stopForBudget(states, reason) {
  for (const state of states) {
    if (state.deadReason) continue;
    state.budgetStop = reason;
    skipRemaining(state.record, `not run: ${reason}`);
  }
}
