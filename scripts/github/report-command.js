/**
 * `tagbench report`: the regression issues of the comparisons (and, with --bisects, the bisect
 * reports on them) and the job summary. The command's entry reads the environment once
 * (settings.js); the handler receives it.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EXIT, UserError } from '../errors.js';
import { botLoginOption, githubRepoOption, identityFilterOptions, issueLabelOption, parseList, storeOption, tokenEnvOption } from '../command-spec.js';
import { botLoginsFrom, readGitHubSettings } from './settings.js';

/** @typedef {import('./settings.js').GitHubSettings} GitHubSettings */

/**
 * `tagbench report`: open or update the regression issues of the comparisons; write the job summary.
 * @param {Record<string, any>} options parsed CLI options (see reportSpec)
 * @param {GitHubSettings} settings token, repository, API URL, run URL, job summary file, defaults
 * @returns {Promise<number>} exit code: 0 when every comparison was reported
 * @throws {UserError} for unreadable inputs or when GitHub refuses a request
 */
export async function reportCommand(options, settings) {
  const { readReferencedRecords, readReportComparisons } = await import('./read-report-inputs.js');
  const { reportComparisons } = await import('./report-comparisons.js');
  const log = (/** @type {string} */ line) => process.stderr.write(`report: ${line}\n`);
  const storeDir = options.store ?? 'results';
  const comparisons = await readReportComparisons({
    files: options.comparison,
    storeDir,
    filter: { hostClass: options.hostClass, product: options.product, version: options.version, suite: options.suite },
  });
  log(`${comparisons.length} comparison(s) to report`);
  const records = await readReferencedRecords(comparisons, storeDir);
  const { calibrations, storedCalibrations } = await readCalibrations(comparisons, options.root ?? new URL('../..', import.meta.url).pathname);
  const token = options.dryRun ? null : settings.token;
  const repo = options.repo ?? settings.repository;
  if (!options.dryRun && !token) log(`no token in $${settings.tokenEnv}: dry run`);
  const adHoc = parseOverrides(options);
  if (adHoc) log(`ad-hoc run (overrides given): ${options.adHocIssues === 'issue' ? 'an issue of its own' : 'job summary only'}`);
  const result = await reportComparisons(comparisons, records, {
    adHoc,
    calibrations,
    storedCalibrations,
    adHocIssues: options.adHocIssues === 'issue' ? 'issue' : 'summary',
    botLogins: botLoginsFrom(options.botLogin, settings),
    timing: options.timing,
    repo,
    token,
    apiUrl: settings.apiUrl,
    dryRunDir: options.dryRunDir ?? 'out/issues',
    siteUrl: options.siteUrl ?? settings.siteUrl,
    runUrl: options.runUrl ?? settings.runUrl,
    label: options.label ?? 'tagbench-regression',
    closeOnRecovery: Boolean(options.closeOnRecovery) || settings.closeOnRecovery,
    log,
  });
  if (options.bisects) {
    // After the comparisons: an issue this report just opened can then take its bisect.
    const bisects = await reportStoredBisects(options, settings, { repo, token, log });
    result.summary += bisects.summary;
    result.failures.push(...bisects.failures);
  }
  if (settings.stepSummary) await appendFile(settings.stepSummary, result.summary);
  if (options.summaryFile) {
    await mkdir(dirname(options.summaryFile), { recursive: true });
    await writeFile(options.summaryFile, result.summary);
  }
  if (!settings.stepSummary && !options.summaryFile) process.stdout.write(result.summary);
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
 * Each host class's calibration report (its false-issue rate) and stored calibrations (the "how
 * sure" sentence chooses among them), for its issues and summary.
 * @param {{hostClass: string}[]} comparisons
 * @param {string} root the project folder holding bench/
 * @returns {Promise<{calibrations: Map<string, import('../compare/index.js').HostCalibration>, storedCalibrations: Map<string, import('../types.js').Calibration[]>}>}
 *   host classes without a report are left out of calibrations
 */
async function readCalibrations(comparisons, root) {
  const { readCalibrationReport, readCalibrations: readStored } = await import('../store/index.js');
  /** @type {Map<string, import('../compare/index.js').HostCalibration>} */
  const calibrations = new Map();
  /** @type {Map<string, import('../types.js').Calibration[]>} */
  const storedCalibrations = new Map();
  for (const host of new Set(comparisons.map((c) => c.hostClass))) {
    const report = await readCalibrationReport(root, host);
    if (report) calibrations.set(host, report);
    storedCalibrations.set(host, await readStored(join(root, 'bench'), host));
  }
  return { calibrations, storedCalibrations };
}

/**
 * The store's bisect reports (`report --bisects`, same filters; --version is the bad release),
 * each posted on its bad release's issue.
 * @param {Record<string, any>} options report's CLI options
 * @param {GitHubSettings} settings
 * @param {{repo: string|null, token: string|null, log: (line: string) => void}} target
 * @returns {Promise<{summary: string, failures: string[]}>}
 */
async function reportStoredBisects(options, settings, { repo, token, log }) {
  const { readBisectReports } = await import('../store/index.js');
  const { reportBisects } = await import('./report-bisects.js');
  const reports = (await readBisectReports(options.store ?? 'results', { hostClass: options.hostClass, product: options.product, suite: options.suite }))
    .filter((r) => !options.version || r.bad.version === options.version);
  log(`${reports.length} bisect report(s) to post`);
  return reportBisects(reports, {
    repo, token, apiUrl: settings.apiUrl, dryRunDir: options.dryRunDir ?? 'out/issues',
    label: options.label ?? 'tagbench-regression', botLogins: botLoginsFrom(options.botLogin, settings), log, timing: options.timing,
  });
}

/** @type {import('../command-spec.js').CommandSpec} */
export const reportSpec = {
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
    storeOption('results store: comparisons (when no --comparison) and run records'),
    ...identityFilterOptions('comparison', 'only comparisons whose candidate is this release'),
    githubRepoOption('repository for issues'),
    tokenEnvOption(),
    { flags: '--dry-run', description: 'write issue Markdown to files even when a token is set' },
    { flags: '--dry-run-dir <dir>', description: 'where a dry run writes issue Markdown', default: 'out/issues' },
    { flags: '--site-url <url>', description: 'results site linked from issues (default: $TAGBENCH_SITE_URL)' },
    { flags: '--run-url <url>', description: 'workflow run linked from issues (default: built from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)' },
    issueLabelOption('label that marks tagbench regression issues (and finds them again)'),
    { flags: '--close-on-recovery', description: 'close an issue when a later release recovers every test it lists (default: $TAGBENCH_CLOSE_ON_RECOVERY=true, else comment only)' },
    { flags: '--summary-file <file>', description: 'also write the job-summary Markdown to this file' },
    { flags: '--base-override <version>', description: 'the dispatch overrode the base release (\'\' = not): an ad-hoc run, never the official issue', default: '' },
    { flags: '--mycnf-override <name>', description: 'the dispatch overrode the my.cnf template (\'\' = not): an ad-hoc run', default: '' },
    { flags: '--only-override <tests>', description: 'the dispatch ran only these tests, comma-separated (\'\' = all): an ad-hoc run', default: '' },
    { flags: '--ad-hoc-issues <where>', description: 'where an ad-hoc run reports: summary (job summary only) or issue (an issue of its own, fingerprinted by its overrides)', choices: ['summary', 'issue'], default: 'summary' },
    botLoginOption('whose issue markers are trusted besides the token\'s own'),
    { flags: '--bisects', description: 'also post the store\'s bisect reports (tagbench bisect; filters apply, --version = the bad release) as a comment on the bad release\'s issue, once per report (a rerun edits, never duplicates)' },
  ],
  run: (options) => reportCommand(options, readGitHubSettings(process.env, options.tokenEnv)),
};
