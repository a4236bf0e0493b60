/**
 * The bench stage (sysbench suite): plan the standard suite, load its tables, run one repeat of
 * a step, and the postwrite step between phases. The run orchestrator (scripts/run/) calls these;
 * it owns repeats, alternation between releases, metrics and records.
 */
export { planSuite } from './suite.js';
export { prepareTables } from './prepare-tables.js';
export { runStepRepeat } from './run-step-repeat.js';
export { runPostwrite } from './postwrite.js';
