/**
 * CLI commands of the workflow stage, the plumbing of .github/workflows: plan (the first job of
 * benchmark.yml) and open-pr (promote-baseline.yml). The workflows call them by name. Each
 * handler imports the modules it drives only when it runs, so `--help` stays light.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError, EXIT } from '../errors.js';
import { githubRepoOption, tokenEnvOption, parsePositiveInt } from '../command-spec.js';

/** @typedef {import('../github/index.js').GitHubSettings} GitHubSettings */

/**
 * The command's settings, read from the environment once, here at its entry (the github stage's
 * reader: token, repository, API URL, step outputs, TAGBENCH_HOST_LABELS).
 * @param {Record<string, any>} options the CLI options (--token-env names the token's variable)
 * @returns {Promise<GitHubSettings>}
 */
async function settingsOf(options) {
  const { readGitHubSettings } = await import('../github/index.js');
  return readGitHubSettings(process.env, options.tokenEnv);
}

/**
 * `tagbench plan`: validate the dispatch/call inputs against configs/ and write the resolved
 * plan as step outputs ($GITHUB_OUTPUT), so later jobs get validated values only (and the
 * runner labels of the host class for runs-on).
 * @param {Record<string, any>} options CLI options (see planSpec); tests may pass `root`
 * @param {GitHubSettings} settings the step outputs file and TAGBENCH_HOST_LABELS
 * @returns {Promise<number>} 0 when the request is valid
 * @throws {UserError} listing every invalid input
 */
export async function planCommand(options, settings) {
  const { loadConfig } = await import('../config/index.js');
  const { readBaseline } = await import('../store/index.js');
  const { resolveBenchmarkRequest } = await import('./resolve-benchmark-request.js');
  const { applyAcceptedBaseline, needsReferenceRun, renderPlanOutputs, planCountShards } = await import('./benchmark-plan.js');
  const root = options.root ?? process.cwd();
  const config = await loadConfig(root);
  // A pull request is fetched from where GitHub says it is, never from a URL in the request.
  const source = options.pull ? await readPullRequest(options, settings) : null;
  const { plan: requested, errors } = resolveBenchmarkRequest(config, {
    product: options.product ?? '',
    version: options.version ?? '',
    provider: options.provider ?? '',
    suite: options.suite ?? '',
    hostClass: options.hostClass ?? '',
    mycnf: options.mycnf ?? '',
    repeats: options.repeats ?? '',
    instances: options.instances ?? '',
    only: options.only ?? '',
    baseline: options.baseline ?? '',
    resume: options.resume ?? '',
    dryRun: options.dryRun ?? '',
    commit: options.commit ?? '',
    movedFrom: options.movedFrom ?? '',
    ref: options.ref ?? '',
    repo: source?.cloneUrl ?? options.repo ?? '',
    baseRef: source?.baseRef ?? options.baseRef ?? '',
  // A pull request's leg runs on the labels of pull requests (below), never its class's: the
  // class needs no labels of its own then.
  }, { hostLabels: options.hostLabels ?? settings.hostLabels ?? '', selfHosted: Boolean(options.selfHosted) && !options.pull });
  if (!requested) throw new UserError(`invalid benchmark request (${errors.length} problem${errors.length > 1 ? 's' : ''}):\n  - ${errors.join('\n  - ')}`);
  if (options.commit && !requested.commit) process.stderr.write(`plan: commit ${options.commit} is not used: the ${requested.provider} provider installs a build that is not made from a commit here (only --provider source builds one)\n`);
  // A ref's base is resolved with git by `run --ref` (the release it branched from), not a baseline file.
  const plan = options.baseline || requested.kind === 'ref'
    ? requested
    : applyAcceptedBaseline(requested, await readBaseline(options.baselines ?? join(root, 'baselines'), {
      hostClass: requested.hostClass, product: requested.product, line: requested.line, suite: requested.suite,
    }));
  // Before any runner is taken: a leg that cannot fit its host class's budget would be killed
  // by its job's timeout with nothing published, and tried again every cycle.
  const { estimateLeg, legTimeoutsMinutes, checkBudget, renderEstimate, getMeter, DEFAULT_METERS } = await import('../run/index.js');
  const hostCounting = config.hosts[plan.hostClass].counting;
  const shardsWhere = options.countShards ? '--count-shards' : `counting.shards of configs/hosts/${plan.hostClass}.yml`;
  const suiteOf = config.suites[plan.suite];
  const legMeters = (suiteOf?.meters ?? config.hosts[plan.hostClass].meters ?? DEFAULT_METERS).map((name) => ({ name, kind: getMeter(name).kind }));
  const count = planCountShards(options.countShards ?? hostCounting?.shards ?? 1, legMeters, shardsWhere);
  const leg = estimateLeg(config, {
    suite: plan.suite, hostClass: plan.hostClass, provider: plan.provider, releases: plan.kind === 'ref' ? 2 : plan.releases.split(',').length,
    reference: needsReferenceRun(plan), ...(plan.repeats ? { repeats: Number(plan.repeats) } : {}),
    ...(plan.instances ? { instances: Number(plan.instances) } : {}), ...(plan.only ? { only: plan.only.split(',') } : {}),
    ...(count.shards > 1 ? { countShards: count.shards } : {}),
  });
  checkBudget(leg.budgeted, config.hosts[plan.hostClass].legBudgetH, `This leg (${plan.leg})`);
  const timeouts = legTimeoutsMinutes(leg.steps);
  process.stderr.write(`estimated time of the leg ${plan.leg}:\n${renderEstimate(leg.budgeted)}\n`
    + `  and, when a regression needs confirming, up to ${Math.round(leg.steps.confirmS / 60)} min more (every test rerun)\n`
    + `step timeouts (min): install ${timeouts.install}, run ${timeouts.run}, reference ${timeouts.reference}, confirm ${timeouts.confirm}; job ${timeouts.job}${count.shards ? `; ${count.shards} count jobs (${count.countMeters}) ${timeouts.count} each` : ''}\n`);
  if (options.pull) {
    // Never a release host: labels of its own (runner-labels.js), and the request on the job summary.
    const { pullRequestRunnerLabels } = await import('./runner-labels.js');
    plan.runsOn = pullRequestRunnerLabels(plan.hostClass);
    if (settings.stepSummary) await appendFile(settings.stepSummary, renderPullRequestSummary({ ...options, baseRef: source?.baseRef }, plan));
  }
  const text = renderPlanOutputs(plan, { estimateMinutes: Math.ceil(leg.budgeted.totalS / 60), timeouts }, count);
  if (settings.output) await appendFile(settings.output, text);
  process.stdout.write(options.json ? `${JSON.stringify({ ...plan, estimateMinutes: Math.ceil(leg.budgeted.totalS / 60), timeoutsMinutes: timeouts }, null, 2)}\n` : text);
  // A pull request's plan: the environment that holds its run for approval must really hold it.
  // Checked after the outputs are written, so the job posting the check can say why it refused.
  if (options.environment) await checkEnvironment(options, settings);
  if (source && source.problems.length > 0) await refuse(settings, `the pull request is not planned: ${source.problems.join('; ')}`);
  return EXIT.ok;
}

/**
 * A pull request's plan: its code repository must be on the allow-list, and the pull request is
 * read from GitHub for where to fetch it (the clone URL of the repository GitHub reports it in)
 * and its base branch. Fail closed: no token, no allow-list or an unreadable pull request, no plan.
 * @param {Record<string, any>} options --pull, --code-repo, --code-repos, --commit (not --repo or --base-ref: GitHub's report gives them)
 * @param {GitHubSettings} settings
 * @returns {Promise<{problems: string[], cloneUrl: string, baseRef: string}>} problems: closed or moved on (refused after the outputs are written, for the neutral check)
 * @throws {UserError} when the pull request may not or cannot be read
 */
async function readPullRequest(options, settings) {
  const { createGitHubClient, parseRepo, checkCodeRepository, readPullRequestSource } = await import('../github/index.js');
  if (options.repo || options.baseRef) throw new UserError('--pull takes no --repo or --base-ref: both come from GitHub\'s report of the pull request, never from the request');
  const codeRepo = String(options.codeRepo ?? '');
  const denied = checkCodeRepository(codeRepo, options.codeRepos ?? '');
  if (denied.length > 0) throw new UserError(denied.join('; '));
  if (!settings.token) throw new UserError(`--pull ${options.pull}: no token in $${settings.tokenEnv} to read the pull request; it is not planned unread`);
  const log = (/** @type {string} */ line) => process.stderr.write(`plan: ${line}\n`);
  const octokit = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const source = await readPullRequestSource(octokit, parseRepo(codeRepo), Number(options.pull), String(options.commit ?? ''));
  if (source.cloneUrl === null || source.baseRef === null) throw new UserError(source.problems.join('; '));
  log(`pull request #${options.pull} of ${codeRepo}: fetched from ${source.cloneUrl}, base ${source.baseRef}`);
  return { problems: source.problems, cloneUrl: source.cloneUrl, baseRef: source.baseRef };
}

/**
 * Write why a pull request's plan refused (the step output the neutral check says), then refuse.
 * @param {GitHubSettings} settings
 * @param {string} why
 * @returns {Promise<never>}
 * @throws {UserError} always
 */
async function refuse(settings, why) {
  if (settings.output) await appendFile(settings.output, `refused=${why.replace(/[\r\n]+/g, ' ')}\n`);
  throw new UserError(why);
}

/**
 * Refuse a plan whose approval environment would let a run through without a person
 * (github/pull-request-gate.js). Fail closed: no token, no plan.
 * @param {Record<string, any>} options --environment, --default-branch
 * @param {GitHubSettings} settings
 * @throws {UserError} listing every problem
 */
async function checkEnvironment(options, settings) {
  const { createGitHubClient, parseRepo, fetchEnvironmentProblems } = await import('../github/index.js');
  if (!options.defaultBranch) throw new UserError('--environment needs --default-branch: the only branch that may use the environment (the repository\'s default branch)');
  if (!settings.token) {
    const why = `--environment ${options.environment}: no token in $${settings.tokenEnv} to read it (actions: read); a pull request's run is not planned unchecked`;
    if (settings.output) await appendFile(settings.output, `refused=${why}\n`);
    throw new UserError(why);
  }
  // The service repository: the one running this workflow (--repo is the ref's clone URL here).
  const repo = parseRepo(settings.repository ?? '');
  const log = (/** @type {string} */ line) => process.stderr.write(`plan: ${line}\n`);
  const octokit = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const problems = await fetchEnvironmentProblems(octokit, repo, options.environment, options.defaultBranch);
  if (problems.length > 0 && settings.output) await appendFile(settings.output, `refused=${problems.join('; ').replace(/[\r\n]+/g, ' ')}\n`);
  if (problems.length > 0) throw new UserError(`the approval of pull-request runs is not safe (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n  - ${problems.join('\n  - ')}`);
}

/**
 * The job summary of a pull request's plan: what the reviewer approves (the pull request, its
 * commit and a compare link with its base), written before anyone is asked to approve.
 * @param {Record<string, any>} options --code-repo, --pull, --commit, base ref (GitHub's), --server-url, --requested-by
 * @param {{hostClass: string, suite: string}} plan
 * @returns {string} Markdown
 */
function renderPullRequestSummary(options, plan) {
  const server = String(options.serverUrl ?? 'https://github.com').replace(/\/+$/, '');
  const repo = String(options.codeRepo ?? '');
  const commit = String(options.commit ?? '');
  return [
    `## Pull request ${repo}#${options.pull} at \`${commit}\``,
    '',
    `- pull request: ${server}/${repo}/pull/${options.pull}`,
    `- commit: ${server}/${repo}/commit/${commit}`,
    `- compare with its base: ${server}/${repo}/compare/${options.baseRef}...${commit}`,
    `- asked for by: \`${options.requestedBy ?? '?'}\`; suite ${plan.suite} on ${plan.hostClass} (runners of pull requests only)`,
    `- to approve: read that commit, then approve the environment with a comment naming \`${commit.slice(0, 12)}\``,
    '',
  ].join('\n');
}

/**
 * `tagbench open-pr`: open a pull request with the local changes under a path (the
 * promote-baseline workflow uses it for baselines/).
 * @param {Record<string, any>} options CLI options (see openPrSpec); tests may pass `cwd`
 * @param {GitHubSettings} settings token, repository, API URL
 * @returns {Promise<number>} 0 (also when there is nothing to propose)
 * @throws {UserError} without token or repository, or when an option is missing
 */
export async function openPrCommand(options, settings) {
  const cwd = options.cwd ?? process.cwd();
  for (const name of ['path', 'branch', 'base', 'title']) {
    if (!options[name]) throw new UserError(`missing --${name}: see tagbench open-pr --help`);
  }
  const { token } = settings;
  const repoName = options.repo ?? settings.repository;
  if (!token || !repoName) throw new UserError(`open-pr needs a token in $${settings.tokenEnv} and a repository (--repo or $GITHUB_REPOSITORY)`);
  const { createPullRequest, readHeadCommit, readLocalChanges } = await import('./create-pull-request.js');
  const { createGitHubClient, parseRepo } = await import('../github/index.js');
  const files = await readLocalChanges(cwd, options.path);
  if (files.length === 0) {
    process.stderr.write(`open-pr: nothing changed under ${options.path}: no pull request\n`);
    return EXIT.ok;
  }
  const parentSha = await readHeadCommit(cwd);
  const log = (/** @type {string} */ line) => process.stderr.write(`open-pr: ${line}\n`);
  const octokit = createGitHubClient({ token, baseUrl: settings.apiUrl, log });
  const pr = await createPullRequest(octokit, parseRepo(repoName), {
    parentSha, files, branch: options.branch, base: options.base, title: options.title, body: options.body ?? '',
  });
  log(`${pr.created ? 'opened' : 'updated'} pull request #${pr.number} ${pr.url} (${files.length} file(s))`);
  return EXIT.ok;
}

/** @type {import('../command-spec.js').CommandSpec} */
const planSpec = {
  name: 'plan',
  summary: 'validate a benchmark request (workflow inputs) and resolve it: runner labels, line, base, releases',
  help: [
    'The first job of .github/workflows/benchmark.yml. Every problem is listed at once; on success the',
    'plan is written as step outputs to $GITHUB_OUTPUT (key=value lines, also printed) for later jobs.',
    'Example: tagbench plan --product mariadb --version 10.11.19 --host-class local --suite smoke',
    'A pull request: tagbench plan --product mariadb --ref pull/123/head --base-ref 10.11 --host-class local --suite smoke',
  ].join('\n'),
  options: [
    { flags: '--product <name>', description: 'product (configs/products/<name>.yml)' },
    { flags: '--version <version>', description: 'release to benchmark (or --ref)' },
    { flags: '--ref <ref>', description: 'a git ref to benchmark instead of a release: a branch, a tag, a full commit id or pull/N/head, built from source with its base (outputs kind=ref, ref, repo, base-ref; the bench job runs tagbench run --ref)' },
    { flags: '--repo <url>', description: 'with --ref: the repository holding it (a fork); no user name or password in it (the token goes in TAGBENCH_UPSTREAM_TOKEN); default: the product\'s gitUrl' },
    { flags: '--base-ref <ref>', description: 'with --ref: compare with the merge base with this ref (a pull request\'s base branch); default: the release the ref branched from, or --baseline' },
    { flags: '--provider <name>', description: 'install provider', default: 'deb' },
    { flags: '--suite <name>', description: 'suite (configs/suites/<name>.yml); default: the host class\'s scale' },
    { flags: '--host-class <name>', description: 'host class (configs/hosts/<name>.yml)' },
    { flags: '--mycnf <name>', description: 'my.cnf template (configs/mycnf/<name>.cnf)' },
    { flags: '--repeats <n>', description: 'repeats per test; default: the host class\'s' },
    { flags: '--instances <n>', description: 'server instances the repeats are spread over; default: the host class\'s' },
    { flags: '--only <tests>', description: 'comma-separated test names' },
    { flags: '--count-shards <n>', description: 'split the counted phase over n count jobs (run --count-shard k/n each, the matrix of benchmark.yml\'s count job; default the host class\'s counting.shards, else 1: the bench job counts): the estimate\'s counted line gives the longest shard beside one server at a time and the servers at once', parse: parsePositiveInt },
    { flags: '--baseline <version>', description: 'base release override; default: the accepted baseline (baselines/), else the line\'s baseVersion; with --ref: the release to compare with (default: the one it branched from)' },
    { flags: '--baselines <dir>', description: 'baselines folder (default: baselines/ of the checkout)' },
    { flags: '--resume <run ids>', description: 'comma-separated run ids on the results branch this leg resumes from (watch\'s resume; the bench job fetches them and runs only the releases without a finished record); default: none' },
    { flags: '--dry-run <bool>', description: 'true: no issues, no publishing', default: 'false' },
    { flags: '--commit <sha>', description: 'full commit id of the version\'s tag when watch saw it: the source provider builds exactly it (releases output product@version:source@<commit>); not used by other providers. With --ref: the commit to build (a pull request\'s head sha), output as commit for run --ref --commit' },
    { flags: '--moved-from <sha>', description: 'full commit id the tag pointed at when it was benchmarked before (watch found it moved): the run\'s record says "moved from <it> to <commit>"; needs --commit' },
    { flags: '--self-hosted', description: 'the jobs run on self-hosted runners: refuse a host class without runner labels' },
    { flags: '--host-labels <json>', description: 'extra runner labels per host class, {"<class>": ["<label>"]} (default: $TAGBENCH_HOST_LABELS)' },
    { flags: '--json', description: 'print the plan as JSON instead of key=value lines' },
    { flags: '--environment <name>', description: 'a pull request\'s plan: refuse unless this environment of --repo has required reviewers, no self-review, no administrator bypass, and only --default-branch may use it (needs $GITHUB_REPOSITORY and a token with actions: read)' },
    { flags: '--default-branch <name>', description: 'with --environment: the service repository\'s default branch' },
    tokenEnvOption('with --environment: environment variable holding a token with actions: read'),
    { flags: '--pull <number>', description: 'a pull request\'s plan: its runner labels are those of pull requests only (tagbench-pull-request, tagbench-pr-<host class>), and the job summary shows it' },
    { flags: '--code-repo <owner/name>', description: 'with --pull: the pull request\'s repository, read from GitHub for its clone URL and base branch (and the summary\'s links)' },
    { flags: '--code-repos <list>', description: 'with --pull: the code repositories (owner/name, comma- or space-separated; the variable TAGBENCH_PR_CODE_REPOS) whose pull requests may be benchmarked; empty allows none' },
    { flags: '--requested-by <login>', description: 'with --pull: who asked (for the summary)' },
    { flags: '--server-url <url>', description: 'with --pull: GitHub\'s web address (default https://github.com)' },
  ],
  run: async (options) => planCommand(options, await settingsOf(options)),
};

/** @type {import('../command-spec.js').CommandSpec} */
const openPrSpec = {
  name: 'open-pr',
  summary: 'open a pull request with the local changes under a path (Git Data API, no push)',
  help: 'Used by the promote-baseline workflow for baselines/. An open pull request from the same branch is updated.',
  options: [
    { flags: '--path <path>', description: 'only changes under this path' },
    { flags: '--branch <name>', description: 'head branch to create (moved if it exists)' },
    { flags: '--base <name>', description: 'base branch' },
    { flags: '--title <text>', description: 'pull request title (and commit subject)' },
    { flags: '--body <text>', description: 'pull request body' },
    githubRepoOption(),
    tokenEnvOption(),
  ],
  run: async (options) => openPrCommand(options, await settingsOf(options)),
};

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [planSpec, openPrSpec];
