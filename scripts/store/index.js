/**
 * The store stage: run-record schema, the results store (a directory) and the results branch.
 * Other stages import only from here.
 */
export { validateRecord, validateComparison } from './validate-record.js';
export { writeRecord, writeComparison, writeRawLog } from './write-record.js';
export { readRecords, readComparisons } from './read-records.js';
export { buildIndex, readIndex } from './build-index.js';
export { publishToBranch } from './publish-to-branch.js';
