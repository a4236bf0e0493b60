/**
 * CLI commands of the github stage: report (report-command.js), post-verdict
 * (verdict-command.js), check-approval (gate-command.js), issues, export, triage. Each command's entry (`run`) reads the
 * environment once (settings.js: token, repository, API URL, job summary, ...) and hands the
 * handler a plain settings object; handlers import the modules they drive only when they run, so
 * `--help` stays light.
 */
import { EXIT, UserError } from '../errors.js';
import { botLoginOption, githubRepoOption, identityFilterOptions, issueLabelOption, storeOption, tokenEnvOption } from '../command-spec.js';
import { botLoginsFrom, readGitHubSettings } from './settings.js';
import { reportSpec } from './report-command.js';
import { postVerdictSpec } from './verdict-command.js';
import { checkApprovalSpec } from './gate-command.js';

/** @typedef {import('./settings.js').GitHubSettings} GitHubSettings */

/**
 * `tagbench issues`: list tagbench's regression issues (from their hidden markers) as JSON for
 * the site, which links each release's table to its issue.
 * @param {Record<string, any>} options CLI options (see issuesSpec)
 * @param {GitHubSettings} settings token, repository, API URL
 * @returns {Promise<number>} 0
 * @throws {UserError} when the repository name is malformed
 */
export async function issuesCommand(options, settings) {
  const { createGitHubClient, parseRepo } = await import('./github-client.js');
  const { fetchTagbenchIssues, resolveTrustedLogins } = await import('./sync-issues.js');
  const { renderIssueList, writeIssueList, validateIssueRef } = await import('../store/index.js');
  const log = (/** @type {string} */ line) => process.stderr.write(`issues: ${line}\n`);
  const { token } = settings;
  const repoName = options.repo ?? settings.repository;
  /** @type {import('../store/index.js').IssueRef[]} */
  let list = [];
  if (!token || !repoName) {
    log(`no token in $${settings.tokenEnv} or no repository: writing an empty list`);
  } else {
    const octokit = createGitHubClient({ token, baseUrl: settings.apiUrl, log });
    const trusted = await resolveTrustedLogins(octokit, botLoginsFrom(options.botLogin, settings), log);
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

/** @type {import('../command-spec.js').CommandSpec} */
const issuesSpec = {
  name: 'issues',
  summary: 'list tagbench\'s regression issues as JSON (for the site)',
  help: 'Finds issues by the index label and their hidden marker. Without a token: an empty list.',
  options: [
    { flags: '--out <file>', description: 'write the JSON here instead of stdout' },
    githubRepoOption(),
    tokenEnvOption(),
    issueLabelOption(),
    botLoginOption('whose issue markers are trusted besides the token\'s own'),
  ],
  run: (options) => issuesCommand(options, readGitHubSettings(process.env, options.tokenEnv)),
};

/**
 * `tagbench export --format github-action-benchmark`: run records as the action's custom input.
 * @param {Record<string, any>} options CLI options (see exportSpec)
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

/** @type {import('../command-spec.js').CommandSpec} */
const exportSpec = {
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
    storeOption('results store holding the run records'),
    { flags: '--run <ids...>', description: 'run ids to export (default: every completed run matching the filters)' },
    ...identityFilterOptions('run'),
    { flags: '--out <file>', description: 'the JSON file to write (the action\'s output-file-path)' },
  ],
  run: exportCommand,
};

/**
 * `tagbench triage`: read the answers on regression issues, act on new ones once, and write
 * the false-alarm counts per metric.
 * @param {Record<string, any>} options CLI options (see triageSpec); tests may pass `timing`
 * @param {GitHubSettings} settings token, repository, API URL, branch, job summary file
 * @returns {Promise<number>} 0
 * @throws {UserError} without a token or repository, or when GitHub refuses to list issues
 */
export async function triageCommand(options, settings) {
  const { createGitHubClient, parseRepo, describeGitHubError } = await import('./github-client.js');
  const { resolveTrustedLogins } = await import('./sync-issues.js');
  const { triageIssues, renderNoiseSummary } = await import('./triage.js');
  const { replaceFileAtomic, writeNoiseSummary } = await import('../store/index.js');
  const log = (/** @type {string} */ line) => process.stderr.write(`triage: ${line}\n`);
  const { token } = settings;
  const repoName = options.repo ?? settings.repository;
  if (!token || !repoName) throw new UserError(`triage needs a token in $${settings.tokenEnv} and a repository (--repo or GITHUB_REPOSITORY)`);
  const octokit = createGitHubClient({ token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const repo = parseRepo(repoName);
  let result;
  try {
    const trustedLogins = await resolveTrustedLogins(octokit, botLoginsFrom(options.botLogin, settings), log);
    result = await triageIssues(octokit, repo, {
      label: options.label ?? 'tagbench-regression',
      trustedLogins,
      promoteWorkflow: options.promoteWorkflow === false ? null : options.promoteWorkflow ?? 'promote-baseline.yml',
      ref: options.ref ?? settings.refName ?? 'main',
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
  if (settings.stepSummary) {
    const { appendFile } = await import('node:fs/promises');
    await appendFile(settings.stepSummary, renderNoiseSummary(result.summary));
  }
  const failed = result.issues.filter((i) => i.action === 'failed');
  for (const i of result.issues) if (i.action !== 'none' && i.action !== 'already-acknowledged') log(`#${i.number} ${i.answer}: ${i.action}${i.detail ? ` — ${i.detail}` : ''}`);
  if (failed.length > 0) throw new UserError(`triage: acting on ${failed.map((i) => `#${i.number}`).join(', ')} failed (${failed.map((i) => i.detail).join(' | ')}); the counts were written; rerun to retry`);
  return EXIT.ok;
}

/** @type {import('../command-spec.js').CommandSpec} */
const triageSpec = {
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
    githubRepoOption(),
    tokenEnvOption(),
    issueLabelOption(),
    botLoginOption('whose markers and acknowledgements are trusted'),
    { flags: '--promote-workflow <file>', description: 'workflow dispatched for an expected change', default: 'promote-baseline.yml' },
    { flags: '--no-promote-workflow', description: 'do not dispatch: only acknowledge and list promotions (--promotions-out)' },
    { flags: '--ref <branch>', description: 'branch the promotion runs on (default: $GITHUB_REF_NAME, else main)' },
    { flags: '--read-only', description: 'count only: no comments, no dispatch' },
  ],
  run: (options) => triageCommand(options, readGitHubSettings(process.env, options.tokenEnv)),
};

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [reportSpec, issuesSpec, exportSpec, triageSpec, postVerdictSpec, checkApprovalSpec];
