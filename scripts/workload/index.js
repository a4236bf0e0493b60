/**
 * The workload stage: the benchmarks as plug-ins of one shape (registry.js: sysbench, ibench,
 * linkbench, ddl, reload, loops), the suite composer that plans a suite from them, and suite
 * variants (sweeps, config matrices). The run orchestrator (scripts/run/) plans with planSuite
 * and runs every step through getBenchmark(step.benchmark).runStep; it owns repeats, passes,
 * alternation between releases, meters and records. Other stages import only this file.
 */
export { planSuite, suiteBenchmarks } from './suite.js';
export { getBenchmark, BENCHMARKS } from './registry.js';
// The sysbench plug-in's own operations, for tests and fixture captures that drive one step.
export { prepareTables, runStepRepeat } from './sysbench/index.js';
export { runPostwrite } from './postwrite.js';
export { matrixCells, cellSuite, findCellSuite, suiteSweep, sweepTestName, parseSweepTestName } from './variants.js';
