/**
 * `tagbench issues`: list tagbench's regression issues (from their hidden markers) as JSON for
 * the site, which links each release's table to its issue.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EXIT } from '../errors.js';
import { createGitHubClient } from './github-client.js';
import { fetchTagbenchIssues } from './sync-issues.js';
import { parseRepo } from './parse-repo.js';

/**
 * @param {Record<string, any>} options CLI options (commands.js); tests may pass `env`
 * @returns {Promise<number>} 0
 * @throws {UserError} when the repository name is malformed
 */
export async function run(options) {
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const log = (/** @type {string} */ line) => process.stderr.write(`issues: ${line}\n`);
  const token = env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const repoName = options.repo ?? env.GITHUB_REPOSITORY ?? null;
  /** @type {{product: string, line: string, version: string, hostClass: string, suite: string, number: number, url: string, state: string, title: string}[]} */
  let list = [];
  if (!token || !repoName) {
    log(`no token in $${options.tokenEnv ?? 'GITHUB_TOKEN'} or no repository: writing an empty list`);
  } else {
    const octokit = createGitHubClient({ token, baseUrl: env.GITHUB_API_URL || 'https://api.github.com', log });
    const issues = await fetchTagbenchIssues(octokit, parseRepo(repoName), options.label ?? 'tagbench-regression');
    list = issues.flatMap((i) => (i.marker ? [{ ...i.marker.key, number: i.number, url: i.url, state: i.state, title: i.title }] : []));
    log(`${list.length} tagbench issue(s) in ${repoName}`);
  }
  const text = `${JSON.stringify(list, null, 2)}\n`;
  if (options.out) {
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(`${options.out}.tmp`, text);
    await rename(`${options.out}.tmp`, options.out);
  } else {
    process.stdout.write(text);
  }
  return EXIT.ok;
}
