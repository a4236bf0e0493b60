/**
 * The store stage owns every stored format: run records, comparisons, change points, baselines,
 * the index, atomic writes, and the results store's layout (a directory, or the results branch).
 * Other stages read and write those files only through these exports.
 */
export { validateRecord, validateComparison, validateChangePoints } from './validate-record.js';
export { writeRecord, writeComparison, writeRawLog, writeChangePoints } from './write-record.js';
export { readRecords, readComparisons, readComparisonFile, readChangePoints } from './read-records.js';
export { listPartitions, readRawLog } from './read-records.js';
export { readBaseline, readBaselines, writeBaseline, baselinePath, promoteBaseline } from './baselines.js';
export { replaceFileAtomic, writeFileOnce } from './write-file-once.js';
export { readIssueList, writeIssueList, renderIssueList, validateIssueRef } from './issue-list.js';
export { buildIndex, readIndex, readIndexFile } from './build-index.js';
export { publishToBranch } from './publish-to-branch.js';
export { fetchRuns } from './fetch-runs.js';
export { writeBisectReport, readBisectReports, validateBisectReport } from './bisect-report.js';
export { writeLegAttempt, readLegAttempts, summarizeLegAttempts, legKey, openFailedLegs } from './leg-attempts.js';
export { refRunKey, refRunPagePath } from './ref-runs.js';
/** @typedef {import('./ref-runs.js').RefRunKey} RefRunKey */

/** @typedef {import('../types.js').ChangePoints} ChangePoints */
/** @typedef {import('../types.js').ChangePointSeries} ChangePointSeries */
/** @typedef {import('../types.js').DetectedChangePoint} DetectedChangePoint */
/** @typedef {import('../types.js').Baseline} Baseline */
/** @typedef {import('../types.js').IssueRef} IssueRef */
/** @typedef {import('./bisect-report.js').BisectReport} BisectReport */
/** @typedef {import('./leg-attempts.js').LegAttempts} LegAttempts */
/** @typedef {import('./build-index.js').StoreIndex} StoreIndex */
/** @typedef {import('./leg-attempts.js').LegAttempt} LegAttempt */
/** @typedef {import('./leg-attempts.js').LegsBenchmarked} LegsBenchmarked */
export { readNoiseSummary, writeNoiseSummary, validateNoiseSummary, NOISE_SUMMARY_SCHEMA_VERSION } from './noise-summary.js';
export { readCalibrationReport, CALIBRATION_FORMAT } from './calibration-report.js';
export { readCalibrations, writeCalibration, calibrationFromReport, calibrationPath, isCondensedFormat, CALIBRATION_SCHEMA_VERSION } from './calibrations.js';
/** @typedef {import('./calibration-report.js').CalibrationReport} CalibrationReport */
/** @typedef {import('./noise-summary.js').NoiseSummary} NoiseSummary */
