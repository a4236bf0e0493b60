/**
 * What the github and workflow commands take from the environment (GitHub Actions' variables,
 * the token, the repository variables the workflows pass on), read once by a command's entry
 * (`run` in commands.js) and handed to its handler as a plain object. The handlers never read
 * process.env, so a test passes the settings it means instead of changing the process's
 * environment.
 */
import { parseList } from '../command-spec.js';

/** The GitHub API when Actions names none (github.com; GitHub Enterprise sets GITHUB_API_URL). */
const DEFAULT_API_URL = 'https://api.github.com';

/**
 * @typedef {object} GitHubSettings
 * @property {string} tokenEnv the variable the token was read from (messages name it)
 * @property {string|null} token its value; null when unset or empty
 * @property {string|null} repository $GITHUB_REPOSITORY (`owner/name`), the default of --repo
 * @property {string} apiUrl $GITHUB_API_URL, else https://api.github.com
 * @property {string|null} runUrl this workflow run's page, from $GITHUB_SERVER_URL,
 *   $GITHUB_REPOSITORY and $GITHUB_RUN_ID (null unless all three are set)
 * @property {string|null} stepSummary $GITHUB_STEP_SUMMARY: the job summary file
 * @property {string|null} output $GITHUB_OUTPUT: the step outputs file
 * @property {string|null} refName $GITHUB_REF_NAME: the branch the workflow runs on
 * @property {string|null} siteUrl $TAGBENCH_SITE_URL, the default of --site-url
 * @property {string|null} botLogins $TAGBENCH_BOT_LOGINS (comma-separated), the default of --bot-login
 * @property {boolean} closeOnRecovery $TAGBENCH_CLOSE_ON_RECOVERY is `true`
 * @property {string|null} hostLabels $TAGBENCH_HOST_LABELS (JSON), the default of plan's --host-labels
 */

/**
 * Read the settings once from the environment (process.env at the CLI's edge, a plain object in
 * tests). Empty values count as unset where an empty value would mean nothing (the token, the API
 * URL, the summary and output files), exactly as the handlers treated them when they read the
 * environment themselves.
 * @param {Record<string, string|undefined>} env
 * @param {string} [tokenEnv] the variable holding the token (--token-env), default GITHUB_TOKEN
 * @returns {GitHubSettings}
 */
export function readGitHubSettings(env, tokenEnv = 'GITHUB_TOKEN') {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  return {
    tokenEnv,
    token: env[tokenEnv] || null,
    repository: repository ?? null,
    apiUrl: env.GITHUB_API_URL || DEFAULT_API_URL,
    runUrl: server && repository && runId ? `${server}/${repository}/actions/runs/${runId}` : null,
    stepSummary: env.GITHUB_STEP_SUMMARY || null,
    output: env.GITHUB_OUTPUT || null,
    refName: env.GITHUB_REF_NAME ?? null,
    siteUrl: env.TAGBENCH_SITE_URL ?? null,
    botLogins: env.TAGBENCH_BOT_LOGINS ?? null,
    closeOnRecovery: env.TAGBENCH_CLOSE_ON_RECOVERY === 'true',
    hostLabels: env.TAGBENCH_HOST_LABELS ?? null,
  };
}

/**
 * The logins whose markers and comments are trusted besides the token's own.
 * @param {string|undefined} option --bot-login
 * @param {GitHubSettings} settings its default, $TAGBENCH_BOT_LOGINS
 * @returns {string[]} the given logins, else github-actions[bot]
 */
export function botLoginsFrom(option, settings) {
  const given = parseList(String(option ?? settings.botLogins ?? ''));
  return given.length > 0 ? given : ['github-actions[bot]'];
}
