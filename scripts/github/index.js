/**
 * The github stage: regression issues and job summaries, and the one GitHub client (the
 * network). Other stages import only from here: workflow/ borrows the client to open pull
 * requests, and the github settings read once from the environment (its commands' too).
 */
export { reportComparisons } from './report-comparisons.js';
export { createGitHubClient, parseRepo } from './github-client.js';
export { readGitHubSettings } from './settings.js';
export { checkCodeRepository, fetchEnvironmentProblems, readPullRequestSource } from './pull-request-gate.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
/** @typedef {import('./settings.js').GitHubSettings} GitHubSettings */
