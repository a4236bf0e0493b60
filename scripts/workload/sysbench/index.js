/**
 * The sysbench plug-in: the standard sysbench suite (plan.js), its load (prepare-tables.js), the
 * postwrite steps between its phases (../postwrite.js, shared with the insert benchmark), one
 * timed repeat of a test (run-step-repeat.js: command.js builds the command, parse-sysbench.js
 * reads it back). Its step kinds: `load`, `sysbench` (a timed test, measured), `postwrite`.
 *
 * The benchmarks that load sysbench tables of their own (ddl, reload, loops) import
 * prepareTables, loadStep and the suite's tests from here, never through the suite composer.
 */
import { planSysbench, sysbenchStepNames } from './plan.js';
import { prepareTables } from './prepare-tables.js';
import { runStepRepeat, countScanRows } from './run-step-repeat.js';
import { buildCommand } from './command.js';
import { parseSysbench } from './parse-sysbench.js';
import { runPostwrite } from '../postwrite.js';
import { runSysbenchVersion } from './run-sysbench-version.js';
import { makeRowsSame } from './same-rows.js';

export { SUITE_ENTRIES, STEP_NAMES, MEASURED_SYSBENCH, loadStep, planSysbench } from './plan.js';
export { prepareTables } from './prepare-tables.js';
export { runStepRepeat } from './run-step-repeat.js';
export { buildCommand, OWN_LUA_DIR } from './command.js';
export { parseSysbench } from './parse-sysbench.js';
export { runSysbenchVersion } from './run-sysbench-version.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').StepContext} StepContext */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */

/** @satisfies {import('../types.js').Benchmark} */
export const sysbench = Object.freeze({
  name: 'sysbench',
  planSteps: planSysbench,
  stepNames: sysbenchStepNames,
  runStep,
  beforeRepeat: countScanRows,
  buildCommand,
  parseOutput: parseSysbench,
  toolVersions: runSysbenchVersion,
  /**
   * Before counted repeats: the same rows in every release's tables (same-rows.js).
   * @param {import('../../types.js').SuiteConfig} suite
   * @param {BenchTarget} target
   */
  prepareCounting: (suite, target) => {
    if (!target.query) throw new Error('the sysbench plug-in needs the server\'s query function to prepare counted repeats');
    return makeRowsSame(suite, target.query);
  },
});

/**
 * One step of the sysbench suite: a timed test (one repeat), the load, or a postwrite step.
 * @param {StepPlan} step
 * @param {BenchTarget} target
 * @param {StepContext} ctx
 * @returns {Promise<StepOutcome>} a timed test's repeat leaves the tables usable whatever its
 *   status (stateValid: true); a failed load or postwrite does not
 */
async function runStep(step, target, ctx) {
  if (step.kind === 'load') {
    const out = await prepareTables(ctx.suite, target, { engine: ctx.engine, clientCpus: ctx.clientCpus, signal: ctx.signal, onProgress: ctx.onProgress });
    return setupOutcome(out.status, out.reason, out.durationS, out.rawOutput);
  }
  if (step.kind === 'postwrite') {
    if (!target.query) throw new Error(`step ${step.name}: the postwrite step needs the target's query function (a scripts/server handle)`);
    const out = await runPostwrite(target.query, ctx.engine, ctx.suite, { signal: ctx.signal, onProgress: ctx.onProgress });
    // Its statements are not kept as a log (they never were): an empty one.
    return setupOutcome(out.status, out.reason, out.flushS, '');
  }
  const rep = await runStepRepeat(step, target, { clientCpus: ctx.clientCpus, signal: ctx.signal, onProgress: ctx.onProgress, ...(ctx.work ? { work: ctx.work } : {}) });
  return { ...rep, stateValid: true };
}

/**
 * @param {'ok'|'failed'} status
 * @param {string|undefined} reason
 * @param {number} durationS
 * @param {string} rawOutput
 * @returns {StepOutcome}
 */
function setupOutcome(status, reason, durationS, rawOutput) {
  return {
    status, ...(reason === undefined ? {} : { reason }), stateValid: status === 'ok', durationS,
    throughput: null, tps: null, latencyMs: null, errors: 0, reconnects: 0, intervals: [], rawOutput,
  };
}
