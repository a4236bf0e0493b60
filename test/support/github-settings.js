/**
 * The settings a github or workflow command receives (scripts/github/settings.js), for tests:
 * every value unset, then the ones a test means. Tests pass these instead of an environment.
 */
import { readGitHubSettings } from '../../scripts/github/settings.js';

/**
 * @param {Partial<import('../../scripts/github/settings.js').GitHubSettings>} [given]
 * @returns {import('../../scripts/github/settings.js').GitHubSettings}
 */
export function githubSettings(given = {}) {
  return { ...readGitHubSettings({}), ...given };
}
