/**
 * CLI commands of the github stage: report, issues. Each handler is the edge of the stage: it
 * reads options and the environment (token, repository, API URL, run URL, step summary file)
 * and imports the modules it drives only when it runs, so `--help` stays light.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EXIT, UserError } from '../errors.js';
import { parseList } from '../command-spec.js';

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
  // Each host class's calibration, for the "how sure" line of its issues and summary.
  const { readCalibrationReport } = await import('../store/index.js');
  const root = options.root ?? new URL('../..', import.meta.url).pathname;
  /** @type {Map<string, import('../compare/index.js').HostCalibration>} */
  const calibrations = new Map();
  for (const host of new Set(comparisons.map((c) => c.hostClass))) {
    const report = await readCalibrationReport(root, host);
    if (report) calibrations.set(host, report);
  }
  const token = options.dryRun ? null : env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const repo = options.repo ?? env.GITHUB_REPOSITORY ?? null;
  if (!options.dryRun && !token) log(`no token in $${options.tokenEnv ?? 'GITHUB_TOKEN'}: dry run`);
  const adHoc = parseOverrides(options);
  if (adHoc) log(`ad-hoc run (overrides given): ${options.adHocIssues === 'issue' ? 'an issue of its own' : 'job summary only'}`);
  const result = await reportComparisons(comparisons, records, {
    adHoc,
    calibrations,
    adHocIssues: options.adHocIssues === 'issue' ? 'issue' : 'summary',
    botLogins: botLogins(options, env),
    timing: options.timing,
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
  if (options.bisects) {
    // After the comparisons: an issue this report just opened can then take its bisect.
    const { readBisectReports } = await import('../store/index.js');
    const { reportBisects } = await import('./report-bisects.js');
    const reports = (await readBisectReports(storeDir, { hostClass: options.hostClass, product: options.product, suite: options.suite }))
      .filter((r) => !options.version || r.bad.version === options.version);
    log(`${reports.length} bisect report(s) to post`);
    const bisects = await reportBisects(reports, {
      repo, token, apiUrl: env.GITHUB_API_URL || 'https://api.github.com', dryRunDir: options.dryRunDir ?? 'out/issues',
      label: options.label ?? 'tagbench-regression', botLogins: botLogins(options, env), log, timing: options.timing,
    });
    result.summary += bisects.summary;
    result.failures.push(...bisects.failures);
  }
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, result.summary);
  if (options.summaryFile) {
    await mkdir(dirname(options.summaryFile), { recursive: true });
    await writeFile(options.summaryFile, result.summary);
  }
  if (!env.GITHUB_STEP_SUMMARY && !options.summaryFile) process.stdout.write(result.summary);
  if (result.failures.length > 0) {
    // After the summary: the verdicts are written down whatever GitHub said, and the workflow
    // publishes the results without waiting for this step.
    throw new UserError(`report: ${result.failures.length} GitHub request(s) failed; everything else was reported. ${result.failures.join(' | ')}`);
  }
  return EXIT.ok;
}

/** Values the plan step validated; checked again because the report may be run by hand. */
const OVERRIDE_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/**
 * The run's overrides from --base-override, --mycnf-override, --only-override ('' = not given,
 * so a workflow can always pass its inputs through).
 * @param {Record<string, any>} options
 * @returns {import('./types.js').AdHocOverrides|null} null for a default run
 * @throws {UserError} naming an override that is not a plain name
 */
export function parseOverrides(options) {
  const base = String(options.baseOverride ?? '').trim();
  const mycnf = String(options.mycnfOverride ?? '').trim();
  const only = [...new Set(parseList(String(options.onlyOverride ?? '')))].sort();
  for (const [flag, value] of /** @type {[string, string][]} */ ([['--base-override', base], ['--mycnf-override', mycnf], ...only.map((t) => ['--only-override', t])])) {
    if (value && !OVERRIDE_RE.test(value)) throw new UserError(`${flag} is '${value}'; expected letters, digits and . _ + - (a version, a my.cnf template name or a test name)`);
  }
  if (!base && !mycnf && only.length === 0) return null;
  return { base: base || null, mycnf: mycnf || null, only };
}

/**
 * @param {Record<string, any>} options
 * @param {Record<string, string|undefined>} env
 * @returns {string[]} logins whose markers are trusted besides the token's own
 */
function botLogins(options, env) {
  const given = parseList(String(options.botLogin ?? env.TAGBENCH_BOT_LOGINS ?? ''));
  return given.length > 0 ? given : ['github-actions[bot]'];
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
  const { fetchTagbenchIssues, resolveTrustedLogins } = await import('./sync-issues.js');
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
    const trusted = await resolveTrustedLogins(octokit, botLogins(options, env), log);
    const issues = await fetchTagbenchIssues(octokit, parseRepo(repoName), options.label ?? 'tagbench-regression', trusted);
    for (const i of issues) {
      // The site links a release to its official issue: ad-hoc runs' issues are not that.
      if (!i.marker || i.marker.key.adHoc) continue;
      const { adHoc: _none, ...key } = i.marker.key;
      const entry = { ...key, number: i.number, url: i.url, state: i.state, title: i.title };
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

/**
 * `tagbench export --format github-action-benchmark`: run records as the action's custom input.
 * @param {Record<string, any>} options CLI options (see below)
 * @returns {Promise<number>} 0
 * @throws {UserError} for an unknown format or tool, no matching run, or colliding series
 */
export async function exportCommand(options) {
  const { exportBenchmarkEntries } = await import('./export-benchmark.js');
  const { readRecords, replaceFileAtomic } = await import('../store/index.js');
  const { resolveThresholds } = await import('../compare/index.js');
  const { loadConfig } = await import('../config/index.js');
  if (options.format !== 'github-action-benchmark') throw new UserError(`--format is '${options.format}'; valid: github-action-benchmark`);
  if (!options.out) throw new UserError('--out <file.json> is required: the file github-action-benchmark reads (its output-file-path)');
  const storeDir = options.store ?? 'results';
  const ids = options.run && options.run.length > 0 ? options.run : undefined;
  const records = await readRecords(storeDir, { ids, hostClass: options.hostClass, product: options.product, version: options.version, suite: options.suite, status: ['ok'] });
  if (records.length === 0) throw new UserError(`export: no completed run in ${storeDir} matches ${ids ? `--run ${ids.join(' ')}` : 'the filters'}${options.hostClass ? ` (host class ${options.hostClass})` : ''}`);
  if (ids) {
    const missing = ids.filter((/** @type {string} */ id) => !records.some((r) => r.id === id));
    if (missing.length > 0) throw new UserError(`export: run(s) ${missing.join(', ')} not found in ${storeDir} (or not completed)`);
  }
  const config = await loadConfig(options.root ?? new URL('../..', import.meta.url).pathname);
  const { qos } = resolveThresholds(config.thresholds);
  const entries = exportBenchmarkEntries(records, { tool: options.tool, qos });
  await replaceFileAtomic(options.out, `${JSON.stringify(entries, null, 2)}\n`);
  process.stderr.write(`export: ${entries.length} ${options.tool} entries from ${records.length} run(s) written to ${options.out}\n`);
  return EXIT.ok;
}

/**
 * `tagbench triage`: read the answers on regression issues, act on new ones once, and write
 * the false-alarm counts per metric.
 * @param {Record<string, any>} options CLI options (see below); tests may pass `env`
 * @returns {Promise<number>} 0
 * @throws {UserError} without a token or repository, or when GitHub refuses to list issues
 */
export async function triageCommand(options) {
  const { createGitHubClient, parseRepo, describeGitHubError } = await import('./github-client.js');
  const { resolveTrustedLogins } = await import('./sync-issues.js');
  const { triageIssues, renderNoiseSummary } = await import('./triage.js');
  const { replaceFileAtomic, writeNoiseSummary } = await import('../store/index.js');
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const log = (/** @type {string} */ line) => process.stderr.write(`triage: ${line}\n`);
  const token = env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const repoName = options.repo ?? env.GITHUB_REPOSITORY ?? null;
  if (!token || !repoName) throw new UserError(`triage needs a token in $${options.tokenEnv ?? 'GITHUB_TOKEN'} and a repository (--repo or GITHUB_REPOSITORY)`);
  const octokit = createGitHubClient({ token, baseUrl: env.GITHUB_API_URL || 'https://api.github.com', log, ...(options.timing ?? {}) });
  const repo = parseRepo(repoName);
  let result;
  try {
    const trustedLogins = await resolveTrustedLogins(octokit, botLogins(options, env), log);
    result = await triageIssues(octokit, repo, {
      label: options.label ?? 'tagbench-regression',
      trustedLogins,
      promoteWorkflow: options.promoteWorkflow === false ? null : options.promoteWorkflow ?? 'promote-baseline.yml',
      ref: options.ref ?? env.GITHUB_REF_NAME ?? 'main',
      act: !options.readOnly,
      log,
      recheckDelayMs: options.timing?.recheckDelayMs,
    });
  } catch (err) {
    if (typeof (/** @type {{status?: unknown}} */ (err)).status !== 'number') throw err;
    throw new UserError(`triage: ${describeGitHubError(err).message}`, { cause: err });
  }
  // The summary is a stored format (store/noise-summary.js): validated as it is written.
  if (options.out) await writeNoiseSummary(options.out, result.summary);
  else process.stdout.write(`${JSON.stringify(result.summary, null, 2)}\n`);
  if (options.promotionsOut) await replaceFileAtomic(options.promotionsOut, `${JSON.stringify(result.promotions, null, 2)}\n`);
  if (env.GITHUB_STEP_SUMMARY) {
    const { appendFile } = await import('node:fs/promises');
    await appendFile(env.GITHUB_STEP_SUMMARY, renderNoiseSummary(result.summary));
  }
  const failed = result.issues.filter((i) => i.action === 'failed');
  for (const i of result.issues) if (i.action !== 'none' && i.action !== 'already-acknowledged') log(`#${i.number} ${i.answer}: ${i.action}${i.detail ? ` — ${i.detail}` : ''}`);
  if (failed.length > 0) throw new UserError(`triage: acting on ${failed.map((i) => `#${i.number}`).join(', ')} failed (${failed.map((i) => i.detail).join(' | ')}); the counts were written; rerun to retry`);
  return EXIT.ok;
}

/** A commit as GitHub names it in the check-run and status routes: the full SHA. */
const SHA_RE = /^[0-9a-f]{40}$/i;

/**
 * `tagbench post-verdict`: the verdict of one comparison on the commit it is about (a check run,
 * or a commit status when the token may not create one) and, for a pull request, one comment
 * kept up to date. Without a token, or with --dry-run, the Markdown and the requests go to files.
 * @param {Record<string, any>} options CLI options (see below); tests may pass `env` and `timing`
 * @returns {Promise<number>} 0 when everything was posted (or written)
 * @throws {UserError} for a bad option, an unreadable comparison, or when GitHub refused a part
 *   (after posting the other part and writing the files)
 */
export async function postVerdictCommand(options) {
  const { parseRepo } = await import('./github-client.js');
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const log = (/** @type {string} */ line) => process.stderr.write(`post-verdict: ${line}\n`);
  // The commit and its repository: the same for the started check and the verdict.
  const sha = String(options.sha ?? '');
  if (!SHA_RE.test(sha)) throw new UserError(`--sha is '${sha}' but must be the commit's full SHA: 40 hexadecimal digits (git rev-parse <ref>)`);
  const repoName = options.repo ?? env.GITHUB_REPOSITORY ?? '';
  if (!repoName) throw new UserError('post-verdict needs --repo <owner/name> (or GITHUB_REPOSITORY): the repository where the commit lives, a fork\'s own for a fork');
  const repo = parseRepo(repoName);
  if (options.started) return postStartedCommand(options, { ...repo, sha: sha.toLowerCase(), pull: null }, env, log);
  if (!options.comparison) throw new UserError('post-verdict needs --comparison <file>: a comparison written by tagbench compare or confirm (results/verdicts/...)');
  let pull = null;
  if (options.pull !== undefined && options.pull !== '') {
    if (!/^[1-9]\d*$/.test(String(options.pull))) throw new UserError(`--pull is '${options.pull}' but must be a pull-request number: a whole number from 1`);
    pull = Number(options.pull);
  }
  for (const [flag, value] of /** @type {[string, unknown][]} */ ([['--report-url', options.reportUrl], ['--site-url', options.siteUrl], ['--run-url', options.runUrl]])) {
    if (value !== undefined && value !== '' && !isWebUrl(String(value))) throw new UserError(`${flag} is '${value}' but must be an http(s) URL`);
  }
  const { readComparisonFile, readCalibrationReport, replaceFileAtomic } = await import('../store/index.js');
  const { renderVerdict } = await import('./render-verdict.js');
  const comparison = await readComparisonFile(options.comparison);
  const root = options.root ?? new URL('../..', import.meta.url).pathname;
  const verdict = renderVerdict(comparison, {
    sha: sha.toLowerCase(),
    reportUrl: options.reportUrl || null,
    siteUrl: options.siteUrl || null,
    runUrl: options.runUrl || defaultRunUrl(env),
    calibration: await readCalibrationReport(root, comparison.hostClass),
  });
  const target = { ...repo, sha: sha.toLowerCase(), pull };
  const token = options.dryRun ? null : env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const checkMarkdown = `# ${verdict.output.title}\n\n${verdict.output.summary}\n${verdict.output.text}`;
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, `## ${verdict.name}\n\n${checkMarkdown}\n`);
  if (!token) {
    const { planVerdictRequests } = await import('./post-verdict.js');
    const { join } = await import('node:path');
    const dir = options.dryRun || 'out/verdict';
    if (!options.dryRun) log(`no token in $${options.tokenEnv ?? 'GITHUB_TOKEN'}: dry run, nothing posted`);
    await replaceFileAtomic(join(dir, 'check-run.md'), checkMarkdown);
    await replaceFileAtomic(join(dir, 'comment.md'), verdict.comment);
    await replaceFileAtomic(join(dir, 'requests.json'), `${JSON.stringify({ repo: repoName, sha: target.sha, pull, conclusion: verdict.conclusion, requests: planVerdictRequests(verdict, target) }, null, 2)}\n`);
    log(`${verdict.conclusion}: ${verdict.output.title}; check-run.md, comment.md and requests.json written to ${dir}`);
    process.stdout.write(`${JSON.stringify({ conclusion: verdict.conclusion, title: verdict.output.title, dryRun: dir })}\n`);
    return EXIT.ok;
  }
  const { createGitHubClient } = await import('./github-client.js');
  const { resolveTrustedLogins } = await import('./sync-issues.js');
  const { postVerdict } = await import('./post-verdict.js');
  const octokit = createGitHubClient({ token, baseUrl: env.GITHUB_API_URL || 'https://api.github.com', log, ...(options.timing ?? {}) });
  const trustedLogins = pull === null ? new Set() : await resolveTrustedLogins(octokit, botLogins(options, env), log);
  const outcome = await postVerdict(verdict, target, { octokit, trustedLogins, log, recheckDelayMs: options.timing?.recheckDelayMs });
  for (const note of outcome.notes) log(note);
  const { notes: _notes, failures, ...result } = outcome;
  process.stdout.write(`${JSON.stringify({ conclusion: verdict.conclusion, title: verdict.output.title, ...result })}\n`);
  if (failures.length > 0) throw new UserError(`post-verdict: ${failures.join(' | ')}`);
  return EXIT.ok;
}

/**
 * `post-verdict --started`: the in-progress check the verdict later completes.
 * @param {Record<string, any>} options as postVerdictCommand's, with product, hostClass, suite and about
 * @param {{owner: string, repo: string, sha: string, pull: null}} target the commit, checked
 * @param {Record<string, string|undefined>} env
 * @param {(line: string) => void} log
 * @returns {Promise<number>}
 */
async function postStartedCommand(options, target, env, log) {
  for (const [flag, value] of [['--product', options.product], ['--host-class', options.hostClass], ['--suite', options.suite]]) {
    if (!value) throw new UserError(`post-verdict --started needs ${flag}: the check's name and id are made of the product, host class and suite the verdict will have`);
  }
  if (options.comparison) throw new UserError('post-verdict --started posts the check before there is a comparison: give --comparison to the post that ends the run, not to this one');
  const { renderStartedCheck } = await import('./render-verdict.js');
  const started = renderStartedCheck({ product: options.product, hostClass: options.hostClass, suite: options.suite }, { runUrl: options.runUrl || defaultRunUrl(env), about: options.about ?? null });
  const token = options.dryRun ? null : env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  if (!token) {
    log(`no token (or --dry-run): the in-progress check "${started.name}" is not posted`);
    process.stdout.write(`${JSON.stringify({ started: started.name, dryRun: true })}\n`);
    return EXIT.ok;
  }
  const { createGitHubClient } = await import('./github-client.js');
  const { postStartedCheck } = await import('./post-verdict.js');
  const octokit = createGitHubClient({ token, baseUrl: env.GITHUB_API_URL || 'https://api.github.com', log, ...(options.timing ?? {}) });
  const result = await postStartedCheck(started, target, { octokit, trustedLogins: new Set(), log, recheckDelayMs: options.timing?.recheckDelayMs });
  log(`"${started.name}" in progress on ${target.sha} (${result.check}${result.url ? `: ${result.url}` : ''})`);
  process.stdout.write(`${JSON.stringify({ started: started.name, ...result })}\n`);
  return EXIT.ok;
}

/** @param {string} text */
function isWebUrl(text) {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
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
      'With --bisects, each bisect report in --store goes on its bad release\'s issue as a comment.',
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
      { flags: '--base-override <version>', description: 'the dispatch overrode the base release (\'\' = not): an ad-hoc run, never the official issue', default: '' },
      { flags: '--mycnf-override <name>', description: 'the dispatch overrode the my.cnf template (\'\' = not): an ad-hoc run', default: '' },
      { flags: '--only-override <tests>', description: 'the dispatch ran only these tests, comma-separated (\'\' = all): an ad-hoc run', default: '' },
      { flags: '--ad-hoc-issues <where>', description: 'where an ad-hoc run reports: summary (job summary only) or issue (an issue of its own, fingerprinted by its overrides)', choices: ['summary', 'issue'], default: 'summary' },
      { flags: '--bot-login <logins>', description: 'comma-separated logins whose issue markers are trusted besides the token\'s own (default: $TAGBENCH_BOT_LOGINS, else github-actions[bot])' },
      { flags: '--bisects', description: 'also post the store\'s bisect reports (tagbench bisect; filters apply, --version = the bad release) as a comment on the bad release\'s issue, once per report (a rerun edits, never duplicates)' },
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
      { flags: '--bot-login <logins>', description: 'comma-separated logins whose issue markers are trusted besides the token\'s own (default: $TAGBENCH_BOT_LOGINS, else github-actions[bot])' },
    ],
    run: issuesCommand,
  },
  {
    name: 'export',
    summary: 'export run records for github-action-benchmark\'s charts (its custom tools)',
    help: [
      'Writes the JSON array the action reads with tool customBiggerIsBetter (throughput) or',
      'customSmallerIsBetter (latency p95, CPU per operation, stall share): one file per tool, so',
      'the workflow runs the action once per tool. Series names hold product line, host class,',
      'suite, test and metric (stable across releases); value = median of the repeats, range = ±',
      'the largest distance of a repeat from it, extra = release, host class, run id.',
      'Example: tagbench export --format github-action-benchmark --tool customBiggerIsBetter --store results --run <id> --out out/bench-bigger.json',
    ].join('\n'),
    options: [
      { flags: '--format <format>', description: 'output format', choices: ['github-action-benchmark'], default: 'github-action-benchmark' },
      { flags: '--tool <tool>', description: 'which entries: the action\'s tool input', choices: ['customBiggerIsBetter', 'customSmallerIsBetter'], default: 'customBiggerIsBetter' },
      { flags: '--store <dir>', description: 'results store holding the run records', default: 'results' },
      { flags: '--run <ids...>', description: 'run ids to export (default: every completed run matching the filters)' },
      { flags: '--host-class <name>', description: 'only runs of this host class' },
      { flags: '--product <name>', description: 'only runs of this product' },
      { flags: '--version <version>', description: 'only runs of this release' },
      { flags: '--suite <name>', description: 'only runs of this suite' },
      { flags: '--out <file>', description: 'the JSON file to write (the action\'s output-file-path)' },
    ],
    run: exportCommand,
  },
  {
    name: 'triage',
    summary: 'act on the answers to regression issues (labels or /tagbench commands) and count false alarms per metric',
    help: [
      'Answers: tagbench:confirmed-bug, tagbench:expected-change, tagbench:noise (labels), or a comment',
      '`/tagbench <answer>` by an owner, member or collaborator. A new answer is acknowledged once in a',
      'comment; expected-change dispatches the promote-baseline workflow (needs actions: write).',
      'Writes {schemaVersion, createdAt, repo, issues, answers, metrics: {<metric>: {issues, noise,',
      'confirmedBug, expectedChange, unanswered}}, noise: [...]} to --out (stdout without it).',
    ].join('\n'),
    options: [
      { flags: '--out <file>', description: 'write the false-alarm summary JSON here' },
      { flags: '--promotions-out <file>', description: 'also write the promotions this run found (expected changes not acknowledged before)' },
      { flags: '--repo <owner/name>', description: 'repository (default: $GITHUB_REPOSITORY)' },
      { flags: '--token-env <name>', description: 'environment variable holding the GitHub token', default: 'GITHUB_TOKEN' },
      { flags: '--label <name>', description: 'label that marks tagbench regression issues', default: 'tagbench-regression' },
      { flags: '--bot-login <logins>', description: 'comma-separated logins whose markers and acknowledgements are trusted (default: $TAGBENCH_BOT_LOGINS, else github-actions[bot])' },
      { flags: '--promote-workflow <file>', description: 'workflow dispatched for an expected change', default: 'promote-baseline.yml' },
      { flags: '--no-promote-workflow', description: 'do not dispatch: only acknowledge and list promotions (--promotions-out)' },
      { flags: '--ref <branch>', description: 'branch the promotion runs on (default: $GITHUB_REF_NAME, else main)' },
      { flags: '--read-only', description: 'count only: no comments, no dispatch' },
    ],
    run: triageCommand,
  },
  {
    name: 'post-verdict',
    summary: 'post one comparison\'s verdict on its commit (check run, or commit status) and on its pull request (one comment kept up to date)',
    help: [
      'The check run "tagbench: <suite> on <host-class>" on --sha: failure on a confirmed issue-level',
      'regression, neutral while one awaits its rerun or a test is undecided, success otherwise; its',
      'output is the verdict table and where the instructions went. A second post for the same commit',
      'updates that check run; with --pull, one comment on the pull request is edited in place.',
      'A token that may not create check runs (a personal one: 403) gets a commit status instead.',
      'The token is read from the environment variable named by --token-env, for the repository where',
      'the commit lives (a fork\'s own). Without one, or with --dry-run, nothing is posted: check-run.md,',
      'comment.md and requests.json go to the --dry-run directory (default out/verdict).',
      'Example: tagbench post-verdict --comparison results/verdicts/.../vs-10.11.18-....json --repo acme/server --sha <40 hex> --pull 12 --report-url <url>',
    ].join('\n'),
    options: [
      { flags: '--comparison <file>', description: 'the comparison to post (tagbench compare / confirm wrote it under results/verdicts/)' },
      { flags: '--started', description: 'post the check as in progress (the benchmark starts; no comparison yet): a check run the verdict\'s post later completes, or a pending commit status; needs --product, --host-class and --suite' },
      { flags: '--product <name>', description: 'with --started: the product the verdict will be about' },
      { flags: '--host-class <name>', description: 'with --started: the host class that measures it' },
      { flags: '--suite <name>', description: 'with --started: the suite it runs' },
      { flags: '--about <text>', description: 'with --started: what is measured, shown in the check (e.g. "pull/12/head against its merge base with main")' },
      { flags: '--repo <owner/name>', description: 'repository where the commit lives (default: $GITHUB_REPOSITORY)' },
      { flags: '--sha <sha>', description: 'the commit the comparison measured: its full 40-hex SHA' },
      { flags: '--pull <number>', description: 'pull request to keep the verdict comment on (none: the check run only)' },
      { flags: '--report-url <url>', description: 'the full report, linked from the check run (its details URL), the status and the comment' },
      { flags: '--site-url <url>', description: 'the site\'s page of this run, linked from the check run and the comment' },
      { flags: '--run-url <url>', description: 'workflow run linked (default: built from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)' },
      { flags: '--token-env <name>', description: 'environment variable holding the token of --repo', default: 'GITHUB_TOKEN' },
      { flags: '--dry-run <dir>', description: 'post nothing: write check-run.md, comment.md and requests.json to this directory' },
      { flags: '--bot-login <logins>', description: 'comma-separated logins whose verdict comments are ours to edit besides the token\'s own (default: $TAGBENCH_BOT_LOGINS, else github-actions[bot]; a GitHub App: <app-slug>[bot])' },
    ],
    run: postVerdictCommand,
  },
];
