/**
 * The store stage: run-record schema, the results store (a directory) and the results branch.
 * Other stages import only from here (typedefs of the store's own formats too).
 */
export { validateRecord, validateComparison, validateChangePoints } from './validate-record.js';
export { writeRecord, writeComparison, writeRawLog, writeChangePoints } from './write-record.js';
export { readRecords, readComparisons, readChangePoints } from './read-records.js';
export { buildIndex, readIndex } from './build-index.js';
export { publishToBranch } from './publish-to-branch.js';

/** @typedef {import('../types.js').ChangePoints} ChangePoints */
/** @typedef {import('../types.js').ChangePointSeries} ChangePointSeries */
/** @typedef {import('../types.js').DetectedChangePoint} DetectedChangePoint */
