/**
 * The github stage: regression issues and job summaries, and the one GitHub client (the
 * network). Other stages import only from here: workflow/ borrows the client to open pull
 * requests.
 */
export { reportComparisons } from './report-comparisons.js';
export { createGitHubClient, parseRepo } from './github-client.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
