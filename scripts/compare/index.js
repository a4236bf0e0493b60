/**
 * The compare stage: statistics, thresholds, verdicts, confirmation, relative-to-base tables
 * and change points. Pure functions over run records (no fs, clock or environment), except
 * `detectChangePoints`, which runs apache-otava in a Python child process.
 */
export { compareRuns } from './compare-runs.js';
export { confirmVerdicts, listRegressedTests, hasIssueRegression } from './confirm-verdicts.js';
export { resolveThresholds, findThreshold } from './thresholds.js';
export { computeQos } from './qos.js';
export { METRICS, METRIC_NAMES } from './metrics.js';
export { computeRelativeTable, GROUPS, MARKS } from './relative-table.js';
export { renderRelativeTable, formatRatio } from './render-relative-table.js';
export { chooseBase } from './select-releases.js';
