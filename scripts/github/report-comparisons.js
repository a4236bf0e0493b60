/**
 * The report stage as one function: render an issue per comparison with confirmed regressions,
 * then either sync them with GitHub (token and repository given) or write their Markdown to
 * files (dry run); in both cases return the job-summary Markdown.
 */
import { join } from 'node:path';
import { replaceFileAtomic } from '../store/index.js';
import { createGitHubClient, describeGitHubError, parseRepo } from './github-client.js';
import { describeOverrides, renderIssue } from './render-issue.js';
import { renderSummary } from './render-summary.js';
import { TRIAGE_ANSWERS } from './triage-answers.js';
import { ACTIONS_BOT_LOGIN, ensureLabels, fetchTagbenchIssues, resolveTrustedLogins, syncIssue, syncRecoveries } from './sync-issues.js';

/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('./types.js').ReportOptions} ReportOptions */
/** @typedef {import('./types.js').IssueOutcome} IssueOutcome */
/** @typedef {import('./types.js').IssuePlan} IssuePlan */

/**
 * @param {Comparison[]} comparisons in the order to report (older releases first, so a
 *   recovery is noted after the issue it recovers exists)
 * @param {Map<string, RunRecord>} records run records by id, for provenance
 * @param {ReportOptions} options
 * @returns {Promise<{outcomes: IssueOutcome[], summary: string, dryRun: boolean, failures: string[]}>}
 *   failures: one sentence per GitHub request that failed for good (the rest was still done;
 *   the caller decides the exit code after writing the summary)
 * @throws {UserError} when the repository name is malformed
 */
export async function reportComparisons(comparisons, records, options) {
  const adHoc = options.adHoc ?? null;
  const context = { siteUrl: options.siteUrl, runUrl: options.runUrl, label: options.label, adHoc };
  const calibrations = options.calibrations ?? new Map();
  const storedCalibrations = options.storedCalibrations ?? new Map();
  /** @type {{comparison: Comparison, plan: IssuePlan|null}[]} */
  const rendered = comparisons.map((comparison) => ({ comparison, plan: renderIssue(comparison, records, { ...context, calibration: calibrations.get(comparison.hostClass) ?? null, calibrations: storedCalibrations.get(comparison.hostClass) ?? [] }) }));
  const dryRun = !options.token || !options.repo;
  /** @type {IssueOutcome[]} */
  let outcomes;
  /** @type {string[]} */
  let failures = [];
  if (adHoc && (options.adHocIssues ?? 'summary') === 'summary') {
    outcomes = rendered.flatMap(({ plan }) => (plan ? [{ action: /** @type {const} */ ('summary-only'), fingerprint: plan.marker.fingerprint, title: plan.title, number: null, url: null, detail: `ad-hoc run (${describeOverrides(adHoc)}): reported here only, the release's issue is left alone` }] : []));
  } else if (dryRun) {
    outcomes = await writeDryRun(rendered, options);
  } else {
    ({ outcomes, failures } = await syncWithGitHub(rendered, options));
  }
  return { outcomes, summary: renderSummary(comparisons, outcomes, { dryRun, adHoc, storedCalibrations }), dryRun, failures };
}

/**
 * @param {{comparison: Comparison, plan: IssuePlan|null}[]} rendered
 * @param {ReportOptions} options
 * @returns {Promise<IssueOutcome[]>}
 */
async function writeDryRun(rendered, options) {
  /** @type {IssueOutcome[]} */
  const outcomes = [];
  for (const { plan } of rendered) {
    if (!plan) continue;
    const file = join(options.dryRunDir, `${slug(plan.marker.fingerprint)}.md`);
    // Atomic: a reader (the act test, a person) never sees half a file.
    await replaceFileAtomic(file, `# ${plan.title}\n\nLabels: ${plan.labels.join(', ')}\n\n${plan.body}`);
    options.log(`dry run: issue "${plan.title}" written to ${file}`);
    outcomes.push({ action: 'dry-run', fingerprint: plan.marker.fingerprint, title: plan.title, number: null, url: null, file });
  }
  return outcomes;
}

/**
 * Sync every plan; a request GitHub refuses or fails costs only what depends on it: the
 * other comparisons are still reported, and every failure is named in the summary.
 * @param {{comparison: Comparison, plan: IssuePlan|null}[]} rendered
 * @param {ReportOptions} options
 * @returns {Promise<{outcomes: IssueOutcome[], failures: string[]}>}
 */
async function syncWithGitHub(rendered, options) {
  const repo = parseRepo(/** @type {string} */ (options.repo));
  const timing = options.timing ?? {};
  const octokit = createGitHubClient({ token: /** @type {string} */ (options.token), baseUrl: options.apiUrl, log: options.log, retryAfterBaseMs: timing.retryAfterBaseMs, throttle: timing.throttle });
  /** @type {IssueOutcome[]} */
  const outcomes = [];
  /** @type {string[]} */
  const failures = [];
  const plans = rendered.flatMap((r) => (r.plan ? [r.plan] : []));
  /** @param {IssuePlan|null} plan @param {unknown} err @param {string} doing */
  const fail = (plan, err, doing) => {
    // Octokit's errors carry an HTTP status (500 for a network failure); anything else is a bug.
    if (typeof (/** @type {{status?: unknown}} */ (err)).status !== 'number') throw err;
    const info = describeGitHubError(err);
    const message = `${doing}: ${info.message}`;
    options.log(message);
    failures.push(message);
    if (plan) outcomes.push({ action: 'failed', fingerprint: plan.marker.fingerprint, title: plan.title, number: null, url: null, detail: message });
  };
  /** @type {import('./sync-issues.js').SyncContext} */
  let ctx;
  /** @type {import('./types.js').ExistingIssue[]} */
  let issues;
  try {
    const trustedLogins = await resolveTrustedLogins(octokit, options.botLogins ?? [ACTIONS_BOT_LOGIN], options.log);
    ctx = { octokit, repo, label: options.label, trustedLogins, log: options.log, recheckDelayMs: timing.recheckDelayMs };
    issues = await fetchTagbenchIssues(octokit, repo, options.label, trustedLogins);
    options.log(`found ${issues.length} issue(s) labelled ${options.label} in ${options.repo}`);
    for (const i of issues) if (i.untrustedMarker) options.log(`issue #${i.number} carries a tagbench marker but was opened by ${i.author}, not by ${[...trustedLogins].join(' or ')}: ignored`);
    if (plans.length > 0) {
      // The triage answers are offered as labels: they must exist for people to pick them.
      const wanted = [...plans.flatMap((p) => p.labels), ...TRIAGE_ANSWERS.map((a) => a.label)];
      const created = await ensureLabels(octokit, repo, wanted, options.label, options.log);
      if (created.length > 0) options.log(`created labels: ${created.join(', ')}`);
    }
  } catch (err) {
    for (const plan of plans) fail(plan, err, `reading ${options.repo}'s issues and labels`);
    if (plans.length === 0) fail(null, err, `reading ${options.repo}'s issues`);
    return { outcomes, failures };
  }
  for (const { comparison, plan } of rendered) {
    if (plan) {
      try {
        const outcome = await syncIssue(ctx, plan, issues);
        options.log(`issue ${outcome.action}: #${outcome.number} ${plan.title}`);
        outcomes.push(outcome);
      } catch (err) {
        fail(plan, err, `issue "${plan.title}"`);
      }
    }
    if (options.adHoc) continue;
    try {
      const recoveries = await syncRecoveries(ctx, comparison, issues, options);
      for (const r of recoveries) options.log(`issue #${r.number}: ${r.detail}`);
      outcomes.push(...recoveries);
    } catch (err) {
      fail(null, err, `noting recoveries in ${comparison.product} ${comparison.candidate.version}`);
    }
  }
  return { outcomes, failures };
}

/** @param {string} s */
function slug(s) {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_');
}
