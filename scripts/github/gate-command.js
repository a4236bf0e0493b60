/**
 * `tagbench check-approval`: the first step of a pull request's bench job (pull-request.yml),
 * before any of its code is fetched. It passes only when this workflow run was approved for the
 * environment by a person other than the one who asked, naming the commit the run builds, and
 * the pull request's head is still that commit (pull-request-gate.js). Anything else stops the
 * job, with the reason as the step output `refused` so the posting job can say it on the check.
 */
import { appendFile } from 'node:fs/promises';
import { EXIT, UserError } from '../errors.js';
import { githubRepoOption, tokenEnvOption } from '../command-spec.js';
import { readGitHubSettings } from './settings.js';

/** @typedef {import('./settings.js').GitHubSettings} GitHubSettings */

/** The environment whose reviewers approve pull-request runs (docs/github-service.md). */
export const PULL_REQUEST_ENVIRONMENT = 'tagbench-pull-requests';

/**
 * @param {Record<string, any>} options CLI options (see checkApprovalSpec); tests may pass `timing`
 * @param {GitHubSettings} settings token, repository, API URL, step outputs and summary files
 * @returns {Promise<number>} 0 when the run may go on
 * @throws {UserError} without a token, for a malformed option, or with every reason the run may not go on
 */
export async function checkApprovalCommand(options, settings) {
  const { createGitHubClient, parseRepo } = await import('./github-client.js');
  const { fetchApprovalProblems, fetchHeadProblems } = await import('./pull-request-gate.js');
  const commit = String(options.commit ?? '');
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new UserError(`--commit is '${commit}' but must be the full 40-hex SHA the run builds`);
  for (const [flag, value] of [['--run-id', options.runId], ['--pull', options.pull]]) {
    if (!/^[1-9]\d*$/.test(String(value ?? ''))) throw new UserError(`${flag} is '${value ?? ''}' but must be a whole number from 1`);
  }
  if (!options.codeRepo) throw new UserError('--code-repo <owner/name> is required: the repository of the pull request');
  if (!options.cloneUrl) throw new UserError('--clone-url <url> is required: where the plan fetches the pull request from (GitHub\'s report), checked again here');
  // Fail closed: without a token nothing can be checked, so nothing may run (no dry run here).
  if (!settings.token) throw new UserError(`check-approval needs a token in $${settings.tokenEnv} (the job's GITHUB_TOKEN with actions: read): without it the approval cannot be checked and the pull request is not built`);
  const repo = parseRepo(options.repo ?? settings.repository ?? '');
  const log = (/** @type {string} */ line) => process.stderr.write(`check-approval: ${line}\n`);
  const octokit = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const environment = options.environment ?? PULL_REQUEST_ENVIRONMENT;
  const problems = [
    ...await fetchApprovalProblems(octokit, repo, Number(options.runId), { environment, commit, notApprovers: [options.requestedBy, options.actor] }),
    ...await fetchHeadProblems(octokit, parseRepo(options.codeRepo), Number(options.pull), commit, options.cloneUrl),
  ];
  if (problems.length === 0) {
    log(`run ${options.runId} approved for ${environment} at ${commit}; pull request #${options.pull} still has that head`);
    return EXIT.ok;
  }
  // One line: a step output, and the neutral check's text (posted by the hosted job).
  const reason = problems.join('; ').replace(/[\r\n]+/g, ' ');
  if (settings.output) await appendFile(settings.output, `refused=${reason}\n`);
  if (settings.stepSummary) await appendFile(settings.stepSummary, `## Not run: ${commit}\n\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  throw new UserError(`the pull request is not built: ${reason}`);
}

/** @type {import('../command-spec.js').CommandSpec} */
export const checkApprovalSpec = {
  name: 'check-approval',
  summary: 'refuse a pull-request run unless another person approved it for this commit (the bench job\'s first step)',
  help: [
    'Reads the run\'s reviews (GET /repos/{owner}/{repo}/actions/runs/{run_id}/approvals): one approval',
    'for --environment by someone who is neither --requested-by nor --actor, whose comment names the',
    `commit (at least its first 12 hex digits); no rejection. Then the pull request must still have`,
    'that head, open, and kept where --clone-url says (a newer push supersedes the run). Exit 1 with every reason, also written as the step',
    'output refused=<reason>. No token: exit 1 (never a dry run).',
  ].join('\n'),
  options: [
    githubRepoOption('the service repository running the workflow'),
    { flags: '--run-id <id>', description: 'this workflow run (github.run_id)' },
    { flags: '--environment <name>', description: 'the environment whose approval counts', default: PULL_REQUEST_ENVIRONMENT },
    { flags: '--commit <sha>', description: 'the full SHA the run builds' },
    { flags: '--requested-by <login>', description: 'who labelled the pull request or commented /tagbench run (may not approve)' },
    { flags: '--actor <login>', description: 'the dispatch\'s actor, github.actor (may not approve)' },
    { flags: '--code-repo <owner/name>', description: 'the pull request\'s repository' },
    { flags: '--pull <number>', description: 'the pull request' },
    { flags: '--clone-url <url>', description: 'the plan\'s clone URL (GitHub\'s report of the pull request when planned): refused when GitHub now reports another' },
    tokenEnvOption('environment variable holding a token with actions: read on --repo'),
  ],
  run: (options) => checkApprovalCommand(options, readGitHubSettings(process.env, options.tokenEnv)),
};
