import { UserError } from '../errors.js';

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
