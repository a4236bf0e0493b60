/**
 * Open (or update) a pull request with local changes, through GitHub's Git Data API: blobs, a
 * tree on top of the checked-out commit, a commit, a branch, the pull request. No git push and
 * no stored credentials: the workflow's token is only handed to Octokit. The changes are read
 * from the working tree with git.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** @typedef {import('../github/index.js').GitHubClient} GitHubClient */

const git = promisify(execFile);

/**
 * @typedef {object} PullRequestChange
 * @property {string} path repository-relative path
 * @property {Buffer|null} content new content; null = delete the file
 */

/**
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {object} change
 * @param {string} change.parentSha commit the change is based on (the checked-out HEAD)
 * @param {PullRequestChange[]} change.files
 * @param {string} change.branch head branch to create or move
 * @param {string} change.base base branch of the pull request
 * @param {string} change.title
 * @param {string} change.body
 * @returns {Promise<{number: number, url: string, created: boolean}>}
 */
export async function createPullRequest(octokit, repo, change) {
  const { data: parent } = await octokit.rest.git.getCommit({ ...repo, commit_sha: change.parentSha });
  /** @type {{path: string, mode: '100644', type: 'blob', sha: string|null}[]} */
  const tree = [];
  for (const f of change.files) {
    if (f.content === null) {
      tree.push({ path: f.path, mode: '100644', type: 'blob', sha: null });
      continue;
    }
    // base64 blobs: correct for any content, where the tree API's inline content assumes UTF-8.
    const { data: blob } = await octokit.rest.git.createBlob({ ...repo, content: f.content.toString('base64'), encoding: 'base64' });
    tree.push({ path: f.path, mode: '100644', type: 'blob', sha: blob.sha });
  }
  const { data: newTree } = await octokit.rest.git.createTree({ ...repo, base_tree: parent.tree.sha, tree });
  const { data: commit } = await octokit.rest.git.createCommit({ ...repo, message: `${change.title}\n\n${change.body}`, tree: newTree.sha, parents: [change.parentSha] });
  try {
    await octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${change.branch}`, sha: commit.sha });
  } catch (err) {
    // 422: the branch exists from an earlier promotion of the same release; move it.
    if (/** @type {{status?: number}} */ (err).status !== 422) throw err;
    await octokit.rest.git.updateRef({ ...repo, ref: `heads/${change.branch}`, sha: commit.sha, force: true });
  }
  const open = await octokit.rest.pulls.list({ ...repo, head: `${repo.owner}:${change.branch}`, state: 'open', per_page: 1 });
  if (open.data.length > 0) return { number: open.data[0].number, url: open.data[0].html_url, created: false };
  const { data: pr } = await octokit.rest.pulls.create({ ...repo, head: change.branch, base: change.base, title: change.title, body: change.body });
  return { number: pr.number, url: pr.html_url, created: true };
}

/**
 * Changed, added (also untracked) and deleted files under a path, relative to the repository.
 * @param {string} cwd a directory inside the git work tree
 * @param {string} path only changes under this path
 * @returns {Promise<PullRequestChange[]>}
 */
export async function readLocalChanges(cwd, path) {
  const top = (await git('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
  const { stdout } = await git('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', path], { cwd });
  /** @type {PullRequestChange[]} */
  const out = [];
  for (const entry of stdout.split('\0').filter(Boolean)) {
    const status = entry.slice(0, 2);
    const file = entry.slice(3);
    out.push({ path: file, content: status.includes('D') ? null : await readFile(join(top, file)) });
  }
  return out;
}

/**
 * @param {string} cwd a directory inside the git work tree
 * @returns {Promise<string>} the checked-out commit (HEAD), the parent of the pull request's commit
 */
export async function readHeadCommit(cwd) {
  return (await git('git', ['rev-parse', 'HEAD'], { cwd })).stdout.trim();
}
