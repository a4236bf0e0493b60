/**
 * `tagbench open-pr`: open a pull request with the local changes under a path (the
 * promote-baseline workflow uses it for baselines/). Reads the changes with git, sends them
 * with createPullRequest.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EXIT, UserError } from '../errors.js';
import { createGitHubClient } from './github-client.js';
import { createPullRequest } from './create-pull-request.js';
import { parseRepo } from './parse-repo.js';

const git = promisify(execFile);

/**
 * @param {Record<string, any>} options CLI options (commands.js); tests may pass `env` and `cwd`
 * @returns {Promise<number>} 0 (also when there is nothing to propose)
 * @throws {UserError} without token or repository, or when an option is missing
 */
export async function run(options) {
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  for (const name of ['path', 'branch', 'base', 'title']) {
    if (!options[name]) throw new UserError(`missing --${name}: see tagbench open-pr --help`);
  }
  const token = env[options.tokenEnv ?? 'GITHUB_TOKEN'];
  const repoName = options.repo ?? env.GITHUB_REPOSITORY;
  if (!token || !repoName) throw new UserError(`open-pr needs a token in $${options.tokenEnv ?? 'GITHUB_TOKEN'} and a repository (--repo or $GITHUB_REPOSITORY)`);
  const files = await readChanges(cwd, options.path);
  if (files.length === 0) {
    process.stderr.write(`open-pr: nothing changed under ${options.path}: no pull request\n`);
    return EXIT.ok;
  }
  const parentSha = (await git('git', ['rev-parse', 'HEAD'], { cwd })).stdout.trim();
  const log = (/** @type {string} */ line) => process.stderr.write(`open-pr: ${line}\n`);
  const octokit = createGitHubClient({ token, baseUrl: env.GITHUB_API_URL || 'https://api.github.com', log });
  const pr = await createPullRequest(octokit, parseRepo(repoName), {
    parentSha, files, branch: options.branch, base: options.base, title: options.title, body: options.body ?? '',
  });
  log(`${pr.created ? 'opened' : 'updated'} pull request #${pr.number} ${pr.url} (${files.length} file(s))`);
  return EXIT.ok;
}

/**
 * Changed, added (also untracked) and deleted files under a path, relative to the repository.
 * @param {string} cwd
 * @param {string} path
 * @returns {Promise<import('./create-pull-request.js').PullRequestChange[]>}
 */
async function readChanges(cwd, path) {
  const top = (await git('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
  const { stdout } = await git('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', path], { cwd });
  /** @type {import('./create-pull-request.js').PullRequestChange[]} */
  const out = [];
  for (const entry of stdout.split('\0').filter(Boolean)) {
    const status = entry.slice(0, 2);
    const file = entry.slice(3);
    out.push({ path: file, content: status.includes('D') ? null : await readFile(join(top, file)) });
  }
  return out;
}
