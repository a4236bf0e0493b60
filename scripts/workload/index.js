/**
 * The bench stage: plan a suite (the sysbench suite and the sequence benchmarks it names), load
 * the sysbench tables, run one repeat of a sysbench step, the postwrite step between phases, and
 * the sequence benchmarks (the insert benchmark) by name. The run orchestrator (scripts/run/)
 * calls these; it owns repeats, passes, alternation between releases, metrics and records.
 */
export { planSuite, suiteBenchmarks } from './suite.js';
export { prepareTables } from './prepare-tables.js';
export { runStepRepeat } from './run-step-repeat.js';
export { runPostwrite } from './postwrite.js';
export { getSequenceBenchmark, SEQUENCES } from './registry.js';
export { matrixCells, cellSuite, findCellSuite, suiteSweep, sweepTestName, parseSweepTestName } from './variants.js';
