/**
 * The compare stage: statistics, thresholds, verdicts, confirmation, relative-to-base tables,
 * change points and their renderings. Pure functions over run records (no fs, clock or
 * environment: the time and the python3 to use come in as arguments), except
 * `detectChangePoints`, which runs apache-otava in a Python child process. Reading records and
 * writing results is scripts/verify/'s job.
 */
export { compareRuns, chooseBase, estimateNoiseHistory, explainStepRefused } from './compare-runs.js';
export { splitSuperseded } from './moved-tags.js';
export { selectUndecided, isUndecided } from './select-undecided.js';
export { findSuspects, SUSPECT_BAD_SHARE, SUSPECT_PAST_ISSUE_SHARE, SUSPECT_METRICS } from './suspects.js';
/** @typedef {import('./suspects.js').Suspect} Suspect */
export { clopperPearson, upperBound } from './proportion.js';
export { confirmVerdicts, listRegressedTests, hasIssueRegression } from './confirm-verdicts.js';
export { resolveThresholds, findThreshold, findPolicy, findVerdictPolicy } from './thresholds.js';
export { computeRankSumP, adjustHolm, minInstancesFor } from './family-wise.js';
export { computeQos } from './qos.js';
export { METRICS, METRIC_NAMES, isCountedVerdict, meterMetrics } from './metrics.js';
export { computeRelativeTable, GROUPS, MARKS } from './relative-table.js';
export { renderRelativeTable, READS_SHOWN_FROM } from './render-relative-table.js';
export { computeCrossTable, renderCrossTable, releaseKey } from './cross-table.js';
export { renderComparison } from './render-comparison.js';
export { describeHowSure, describeMeasuredFalseIssues, computeRunDesigns } from './how-sure.js';
export { selectCalibration, computeRunDesign, CALIBRATION_MAX_AGE_DAYS } from './select-calibration.js';
/** @typedef {import('./how-sure.js').HostCalibration} HostCalibration */
export { detectChangePoints } from './run-change-points.js';
export { renderChangePoints } from './render-change-points.js';
export { findHostDrift, splitHostSegments, renderHostDrift, describeHostDrift, referenceRecords, HOST_FACT_FIELDS } from './host-drift.js';

/** @typedef {import('./types.js').CompareThresholds} CompareThresholds */
/** @typedef {import('./types.js').FullComparison} FullComparison */
/** @typedef {import('./types.js').FullVerdict} FullVerdict */
/** @typedef {import('./types.js').ReleaseRecords} ReleaseRecords */
/** @typedef {import('./types.js').ChangePointReport} ChangePointReport */
/** @typedef {import('./cross-table.js').CrossTable} CrossTable */
/** @typedef {import('./cross-table.js').CrossRelease} CrossRelease */
export { computeSweepTables, renderSweepTables, parseSweepName } from './sweep-table.js';
export { renderMatrixTables } from './matrix-table.js';
export { renderBisectReport } from './render-bisect.js';
/** @typedef {import('./render-bisect.js').BisectReportView} BisectReportView */
export { latencyTable, renderLatencyTables, medianOfFinite } from './latency-tables.js';
/** @typedef {import('./latency-tables.js').LatencyTable} LatencyTable */
export { computeSequenceTables, renderSequenceTables, representativeRepeat, formatBytes } from './sequence-tables.js';
/** @typedef {import('./sequence-tables.js').SequenceTables} SequenceTables */
export { diffProfiles, renderFunctionDiff } from './function-diff.js';
export { describeListedShare, describeUnnamed, namingCommand, listedShare } from './unnamed-code.js';
export { judgeFunctionProfiles } from './function-findings.js';
export { renderFunctionFindings, groupFunctionFindings, describeFindingChange, describeFindingSize, BELOW_THRESHOLD_TITLE } from './render-function-findings.js';
/** @typedef {import('./function-diff.js').CompactProfile} CompactProfile */
/** @typedef {import('./function-findings.js').ProfileRound} ProfileRound */
export { renderUntrustedText } from './markdown-text.js';
export { compareTimeAndWork } from './time-and-work.js';
export { summarizeTimedWork, renderTimedWork, counterWords, TIMED_WORK_FLOOR } from './timed-work.js';
export { compareCountedTypes, renderCountedTypes, COUNTED_TYPES_NOT_JUDGED } from './counted-types.js';
/** @typedef {import('./time-and-work.js').TimeAndWork} TimeAndWork */
export { describeTimeAndWork, describeTestTimeAndWork, renderTimeAndWork } from './render-time-and-work.js';
export { describeVerdict, describeMeasuredChange, formatPercentInterval } from './verdict-words.js';
export { computeShownRatio, formatShownRatio, describeShownRatio, SHOWN_RATIO_DIGITS } from './shown-ratio.js';
/** @typedef {import('./shown-ratio.js').ShownRatio} ShownRatio */
