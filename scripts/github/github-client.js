/**
 * The one place that builds the GitHub client: Octokit REST with the retry plugin (5xx and
 * network errors) and the throttling plugin (primary and secondary rate limits, and GitHub's
 * advice to space out requests that notify people). The base URL comes from the caller (the
 * command reads GITHUB_API_URL), so production, act and the Prism tests run identical code.
 * Also parses the `owner/name` the client is pointed at.
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { UserError } from '../errors.js';

const TagbenchOctokit = Octokit.plugin(retry, throttling);

/** @typedef {InstanceType<typeof TagbenchOctokit>} GitHubClient */

/** How many times a rate-limited request is retried before the report fails. */
const RATE_LIMIT_RETRIES = 2;

/**
 * @param {object} options
 * @param {string} options.token GitHub token (repo scope: issues)
 * @param {string} options.baseUrl REST API root, e.g. the value of GITHUB_API_URL
 * @param {(line: string) => void} options.log progress and rate-limit notes (stderr)
 * @param {boolean} [options.throttle] false only in unit tests of the decision logic, where
 *   the write spacing (1–3 s per request) would only slow them down
 * @param {number} [options.retries] retries of a failed request (5xx, network)
 * @returns {GitHubClient}
 */
export function createGitHubClient({ token, baseUrl, log, throttle = true, retries = 3 }) {
  return new TagbenchOctokit({
    auth: token,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    userAgent: 'tagbench',
    retry: { retries },
    throttle: throttle
      ? {
          onRateLimit: (retryAfterS, options, _octokit, retryCount) => {
            log(`GitHub rate limit on ${options.method} ${options.url}: retry ${retryCount + 1} of ${RATE_LIMIT_RETRIES} in ${retryAfterS} s`);
            return retryCount < RATE_LIMIT_RETRIES;
          },
          onSecondaryRateLimit: (retryAfterS, options, _octokit, retryCount) => {
            log(`GitHub secondary rate limit on ${options.method} ${options.url}: retry ${retryCount + 1} of ${RATE_LIMIT_RETRIES} in ${retryAfterS} s`);
            return retryCount < RATE_LIMIT_RETRIES;
          },
        }
      : { enabled: false },
    log: { debug: () => {}, info: () => {}, warn: (m) => log(String(m)), error: (m) => log(String(m)) },
  });
}

/**
 * Split `owner/name` as given by --repo or GITHUB_REPOSITORY.
 * @param {string} text
 * @returns {{owner: string, repo: string}}
 * @throws {UserError} when it is not owner/name
 */
export function parseRepo(text) {
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(text);
  if (!m) throw new UserError(`--repo (or GITHUB_REPOSITORY) is '${text}' but must be owner/name, e.g. acme/tagbench`);
  return { owner: m[1], repo: m[2] };
}
