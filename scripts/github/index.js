/**
 * The github stage: regression issues and job summaries. Other stages import only from here.
 */
export { reportComparisons } from './report-comparisons.js';
export { renderIssue } from './render-issue.js';
export { renderSummary } from './render-summary.js';
