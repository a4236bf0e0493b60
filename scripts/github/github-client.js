/**
 * The one place that builds the GitHub client: Octokit REST with the retry plugin (5xx and
 * network errors) and the throttling plugin (primary and secondary rate limits, and GitHub's
 * advice to space out requests that notify people). The base URL comes from the caller (the
 * command reads GITHUB_API_URL), so production, act and the Prism tests run identical code.
 * Also parses the `owner/name` the client is pointed at, and tells GitHub's refusals apart:
 * a rate limit is not a permission problem, and "label already exists" is not a failure.
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { UserError } from '../errors.js';

const TagbenchOctokit = Octokit.plugin(retry, throttling);

/** @typedef {InstanceType<typeof TagbenchOctokit>} GitHubClient */

/**
 * Retries of a rate-limited request. Each waits as long as GitHub advises (retry-after for a
 * secondary limit, x-ratelimit-reset for the primary one), so a few retries cover a burst of
 * parallel matrix legs; a wait longer than RATE_LIMIT_MAX_WAIT_S is not taken (the job would
 * sit idle for up to an hour), the request fails as rate-limited instead.
 */
const RATE_LIMIT_RETRIES = 5;
const RATE_LIMIT_MAX_WAIT_S = 15 * 60;

/**
 * @param {object} options
 * @param {string} options.token GitHub token (repo scope: issues)
 * @param {string} options.baseUrl REST API root, e.g. the value of GITHUB_API_URL
 * @param {(line: string) => void} options.log progress and rate-limit notes (stderr)
 * @param {boolean} [options.throttle] false only in unit tests of the decision logic, where
 *   the write spacing (1–3 s per request) would only slow them down
 * @param {number} [options.retries] retries of a failed request (5xx, network)
 * @param {number} [options.retryAfterBaseMs] milliseconds per second of GitHub's advice (and
 *   of the retry plugin's back-off); 1000 in production, smaller in tests that replay a limit
 * @param {number} [options.rateLimitRetries] retries of a rate-limited request
 * @returns {GitHubClient}
 */
export function createGitHubClient({ token, baseUrl, log, throttle = true, retries = 3, retryAfterBaseMs = 1000, rateLimitRetries = RATE_LIMIT_RETRIES }) {
  /**
   * @param {string} kind
   * @param {number} retryAfterS
   * @param {{method: string, url: string}} request
   * @param {number} retryCount
   */
  const onLimit = (kind, retryAfterS, request, retryCount) => {
    const retrying = retryCount < rateLimitRetries && retryAfterS <= RATE_LIMIT_MAX_WAIT_S;
    log(`GitHub ${kind} on ${request.method} ${request.url}: ${retrying ? `retry ${retryCount + 1} of ${rateLimitRetries} in ${retryAfterS} s (GitHub's advice)` : `giving up after ${retryCount} retries (next wait ${retryAfterS} s)`}`);
    return retrying;
  };
  return new TagbenchOctokit({
    auth: token,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    userAgent: 'tagbench',
    retry: { retries, retryAfterBaseValue: retryAfterBaseMs },
    throttle: throttle
      ? {
          retryAfterBaseValue: retryAfterBaseMs,
          onRateLimit: (retryAfterS, options, _octokit, retryCount) => onLimit('rate limit', retryAfterS, options, retryCount),
          onSecondaryRateLimit: (retryAfterS, options, _octokit, retryCount) => onLimit('secondary rate limit', retryAfterS, options, retryCount),
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

/**
 * @typedef {object} GitHubErrorInfo
 * @property {'rate-limit'|'permission'|'not-found'|'invalid'|'server'|'network'|'other'} kind
 * @property {number|null} status
 * @property {string} message one sentence for the log and the job summary, with what to do
 */

/**
 * What a failed request means. A rate limit arrives as 403 or 429 like a permission problem;
 * GitHub tells them apart by x-ratelimit-remaining: 0, retry-after, or a message naming the
 * (secondary) rate limit. Reporting it as "check the token's permissions" sends people the
 * wrong way, so it is checked first.
 * @param {unknown} err
 * @returns {GitHubErrorInfo}
 */
export function describeGitHubError(err) {
  const e = /** @type {{status?: number, message?: string, response?: {headers?: Record<string, string|undefined>}}} */ (err ?? {});
  const status = typeof e.status === 'number' ? e.status : null;
  const headers = e.response?.headers ?? {};
  const text = e.message ?? String(err);
  if (isRateLimitError(err)) {
    const reset = Number(headers['x-ratelimit-reset']);
    const when = headers['retry-after'] ? `retry after ${headers['retry-after']} s` : Number.isFinite(reset) && reset > 0 ? `the limit resets at ${new Date(reset * 1000).toISOString()}` : 'retry later';
    return { kind: 'rate-limit', status, message: `GitHub rate limit (HTTP ${status}: ${text}); ${when}. The token's permissions are fine: rerun the report later.` };
  }
  if (status === 401 || status === 403) return { kind: 'permission', status, message: `GitHub refused the request (HTTP ${status}: ${text}). Check that the token may write issues (workflow permission issues: write).` };
  if (status === 404) return { kind: 'not-found', status, message: `GitHub answered 404 (${text}): the repository does not exist or the token cannot see it; check --repo / GITHUB_REPOSITORY.` };
  if (status === 410 || status === 422 || status === 400) return { kind: 'invalid', status, message: `GitHub rejected the request (HTTP ${status}: ${text}).` };
  if (status !== null && status >= 500) return { kind: 'server', status, message: `GitHub failed (HTTP ${status}: ${text}) after retries; rerun the report.` };
  if (status === null) return { kind: 'network', status, message: `could not reach GitHub: ${text}` };
  return { kind: 'other', status, message: `GitHub answered HTTP ${status}: ${text}` };
}

/**
 * @param {unknown} err
 * @returns {boolean} true when GitHub refused because of a primary or secondary rate limit
 */
export function isRateLimitError(err) {
  const e = /** @type {{status?: number, message?: string, response?: {headers?: Record<string, string|undefined>}}} */ (err ?? {});
  if (e.status !== 403 && e.status !== 429) return false;
  const headers = e.response?.headers ?? {};
  return e.status === 429 || headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined || /rate limit/i.test(e.message ?? '');
}

/**
 * GitHub's answer when a resource of that name exists already (another job created the same
 * label a moment earlier): 422 with `errors: [{resource, code: 'already_exists'}]`.
 * @param {unknown} err
 * @returns {boolean}
 */
export function isAlreadyExists(err) {
  const e = /** @type {{status?: number, response?: {data?: {errors?: {code?: string}[]}}}} */ (err ?? {});
  return e.status === 422 && (e.response?.data?.errors ?? []).some((x) => x?.code === 'already_exists');
}

/**
 * A failure after which a write may still have happened on GitHub's side (the answer was lost,
 * not the request): 5xx and network errors. Such a write is never blindly repeated.
 * @param {unknown} err
 * @returns {boolean}
 */
export function isUncertainWriteError(err) {
  const status = /** @type {{status?: number}} */ (err ?? {}).status;
  return typeof status !== 'number' || status >= 500;
}
