/**
 * CLI commands of the github stage: report, issues. Each handler is the edge of the stage: it
 * reads options and the environment (token, repository, API URL, run URL, step summary file)
 * and imports the modules it drives only when it runs, so `--help` stays light.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EXIT } from '../errors.js';

/**
 * `tagbench report`: open or update the regression issues of the comparisons; write the job summary.
 * @param {Record<string, any>} options parsed CLI options (see below); tests may also pass
 *   `env` (defaults to process.env)
 * @returns {Promise<number>} exit code: 0 when every comparison was reported
 * @throws {UserError} for unreadable inputs or when GitHub refuses a request
 */
export async function reportCommand(options) {
  const { readReferencedRecords, readReportComparisons } = await import('./read-report-inputs.js');
  const { reportComparisons } = await import('./report-comparisons.js');
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const log = (/** @type {string} */ line) => process.stderr.write(`report: ${line}\n`);
  const storeDir = options.store ?? 'results';
  const comparisons = await readReportComparisons({
    files: options.comparison,
    storeDir,
    filter: { hostClass: options.hostClass, product: options.product, version: options.version, suite: options.suite },
  });
  log(`${comparisons.length} comparison(s) to report`);
  const records = await readReferencedRecords(comparisons, storeDir);
  const token = options.dryRun ? null : env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const repo = options.repo ?? env.GITHUB_REPOSITORY ?? null;
  if (!options.dryRun && !token) log(`no token in $${options.tokenEnv ?? 'GITHUB_TOKEN'}: dry run`);
  const result = await reportComparisons(comparisons, records, {
    repo,
    token,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    dryRunDir: options.dryRunDir ?? 'out/issues',
    siteUrl: options.siteUrl ?? env.TAGBENCH_SITE_URL ?? null,
    runUrl: options.runUrl ?? defaultRunUrl(env),
    label: options.label ?? 'tagbench-regression',
    closeOnRecovery: Boolean(options.closeOnRecovery) || env.TAGBENCH_CLOSE_ON_RECOVERY === 'true',
    log,
  });
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, result.summary);
  if (options.summaryFile) {
    await mkdir(dirname(options.summaryFile), { recursive: true });
    await writeFile(options.summaryFile, result.summary);
  }
  if (!env.GITHUB_STEP_SUMMARY && !options.summaryFile) process.stdout.write(result.summary);
  return EXIT.ok;
}

/**
 * @param {Record<string, string|undefined>} env
 * @returns {string|null}
 */
function defaultRunUrl(env) {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  return server && repo && runId ? `${server}/${repo}/actions/runs/${runId}` : null;
}

/**
 * `tagbench issues`: list tagbench's regression issues (from their hidden markers) as JSON for
 * the site, which links each release's table to its issue.
 * @param {Record<string, any>} options CLI options (see below); tests may pass `env`
 * @returns {Promise<number>} 0
 * @throws {UserError} when the repository name is malformed
 */
export async function issuesCommand(options) {
  const { createGitHubClient, parseRepo } = await import('./github-client.js');
  const { fetchTagbenchIssues } = await import('./sync-issues.js');
  const { renderIssueList, writeIssueList, validateIssueRef } = await import('../store/index.js');
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const log = (/** @type {string} */ line) => process.stderr.write(`issues: ${line}\n`);
  const token = env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const repoName = options.repo ?? env.GITHUB_REPOSITORY ?? null;
  /** @type {import('../store/index.js').IssueRef[]} */
  let list = [];
  if (!token || !repoName) {
    log(`no token in $${options.tokenEnv ?? 'GITHUB_TOKEN'} or no repository: writing an empty list`);
  } else {
    const octokit = createGitHubClient({ token, baseUrl: env.GITHUB_API_URL || 'https://api.github.com', log });
    const issues = await fetchTagbenchIssues(octokit, parseRepo(repoName), options.label ?? 'tagbench-regression');
    for (const i of issues) {
      if (!i.marker) continue;
      const entry = { ...i.marker.key, number: i.number, url: i.url, state: i.state, title: i.title };
      // A marker edited by hand can lack a field: that issue is left out (and named), the rest listed.
      const problems = validateIssueRef(entry);
      if (problems.length > 0) log(`#${i.number} left out of the list: its marker's ${problems.join('; ')}`);
      else list.push(/** @type {import('../store/index.js').IssueRef} */ (entry));
    }
    log(`${list.length} tagbench issue(s) in ${repoName}`);
  }
  if (options.out) await writeIssueList(options.out, list);
  else process.stdout.write(renderIssueList(list));
  return EXIT.ok;
}

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'report',
    summary: 'open or update one GitHub issue per release with confirmed regressions; write the job summary',
    help: [
      'Reads comparisons (tagbench compare / confirm) and the run records they name (provenance).',
      'Only regressions marked confirmed open issues; every verdict goes into the job summary',
      '(appended to $GITHUB_STEP_SUMMARY when set). One issue per (product line, release, host class,',
      'suite), found again through a hidden fingerprint, so rerunning a report never duplicates it.',
      'The token is read from the environment variable named by --token-env (never from argv).',
      'Without a token or repository it is a dry run: issue Markdown goes to --dry-run-dir.',
      'GitHub API root: $GITHUB_API_URL (default https://api.github.com).',
      'Example: tagbench report --store results --product mariadb --version 10.11.19 --host-class local',
    ].join('\n'),
    options: [
      { flags: '--comparison <files...>', description: 'comparison files to report (default: every comparison in --store matching the filters)' },
      { flags: '--store <dir>', description: 'results store: comparisons (when no --comparison) and run records', default: 'results' },
      { flags: '--host-class <name>', description: 'only comparisons of this host class' },
      { flags: '--product <name>', description: 'only comparisons of this product' },
      { flags: '--version <version>', description: 'only comparisons whose candidate is this release' },
      { flags: '--suite <name>', description: 'only comparisons of this suite' },
      { flags: '--repo <owner/name>', description: 'repository for issues (default: $GITHUB_REPOSITORY)' },
      { flags: '--token-env <name>', description: 'environment variable holding the GitHub token', default: 'GITHUB_TOKEN' },
      { flags: '--dry-run', description: 'write issue Markdown to files even when a token is set' },
      { flags: '--dry-run-dir <dir>', description: 'where a dry run writes issue Markdown', default: 'out/issues' },
      { flags: '--site-url <url>', description: 'results site linked from issues (default: $TAGBENCH_SITE_URL)' },
      { flags: '--run-url <url>', description: 'workflow run linked from issues (default: built from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)' },
      { flags: '--label <name>', description: 'label that marks tagbench regression issues (and finds them again)', default: 'tagbench-regression' },
      { flags: '--close-on-recovery', description: 'close an issue when a later release recovers every test it lists (default: $TAGBENCH_CLOSE_ON_RECOVERY=true, else comment only)' },
      { flags: '--summary-file <file>', description: 'also write the job-summary Markdown to this file' },
    ],
    run: reportCommand,
  },
  {
    name: 'issues',
    summary: 'list tagbench\'s regression issues as JSON (for the site)',
    help: 'Finds issues by the index label and their hidden marker. Without a token: an empty list.',
    options: [
      { flags: '--out <file>', description: 'write the JSON here instead of stdout' },
      { flags: '--repo <owner/name>', description: 'repository (default: $GITHUB_REPOSITORY)' },
      { flags: '--token-env <name>', description: 'environment variable holding the GitHub token', default: 'GITHUB_TOKEN' },
      { flags: '--label <name>', description: 'label that marks tagbench regression issues', default: 'tagbench-regression' },
    ],
    run: issuesCommand,
  },
];
