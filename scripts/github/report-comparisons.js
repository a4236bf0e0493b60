/**
 * The report stage as one function: render an issue per comparison with confirmed regressions,
 * then either sync them with GitHub (token and repository given) or write their Markdown to
 * files (dry run); in both cases return the job-summary Markdown.
 */
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { replaceFileAtomic } from '../store/index.js';
import { createGitHubClient, parseRepo } from './github-client.js';
import { renderIssue } from './render-issue.js';
import { renderSummary } from './render-summary.js';
import { ensureLabels, fetchTagbenchIssues, syncIssue, syncRecoveries } from './sync-issues.js';

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
 * @returns {Promise<{outcomes: IssueOutcome[], summary: string, dryRun: boolean}>}
 * @throws {UserError} when the repository name is malformed or GitHub refuses a request
 */
export async function reportComparisons(comparisons, records, options) {
  const context = { siteUrl: options.siteUrl, runUrl: options.runUrl, label: options.label };
  /** @type {{comparison: Comparison, plan: IssuePlan|null}[]} */
  const rendered = comparisons.map((comparison) => ({ comparison, plan: renderIssue(comparison, records, context) }));
  const dryRun = !options.token || !options.repo;
  const outcomes = dryRun ? await writeDryRun(rendered, options) : await syncWithGitHub(rendered, options);
  return { outcomes, summary: renderSummary(comparisons, outcomes, { dryRun }), dryRun };
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
 * @param {{comparison: Comparison, plan: IssuePlan|null}[]} rendered
 * @param {ReportOptions} options
 * @returns {Promise<IssueOutcome[]>}
 */
async function syncWithGitHub(rendered, options) {
  const repo = parseRepo(/** @type {string} */ (options.repo));
  const octokit = createGitHubClient({ token: /** @type {string} */ (options.token), baseUrl: options.apiUrl, log: options.log });
  try {
    const issues = await fetchTagbenchIssues(octokit, repo, options.label);
    options.log(`found ${issues.length} issue(s) labelled ${options.label} in ${options.repo}`);
    const plans = rendered.flatMap((r) => (r.plan ? [r.plan] : []));
    if (plans.length > 0) {
      const created = await ensureLabels(octokit, repo, plans.flatMap((p) => p.labels), options.label);
      if (created.length > 0) options.log(`created labels: ${created.join(', ')}`);
    }
    /** @type {IssueOutcome[]} */
    const outcomes = [];
    for (const { comparison, plan } of rendered) {
      if (plan) {
        const outcome = await syncIssue(octokit, repo, plan, issues);
        options.log(`issue ${outcome.action}: #${outcome.number} ${plan.title}`);
        outcomes.push(outcome);
      }
      const recoveries = await syncRecoveries(octokit, repo, comparison, issues, options);
      for (const r of recoveries) options.log(`issue #${r.number}: ${r.detail}`);
      outcomes.push(...recoveries);
    }
    return outcomes;
  } catch (err) {
    const status = /** @type {{status?: number}} */ (err).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      throw new UserError(`GitHub refused a request to ${options.apiUrl} for ${options.repo} (HTTP ${status}: ${err instanceof Error ? err.message : String(err)}). Check that GITHUB_TOKEN may write issues (workflow permission issues: write) and that --repo is right; without a token the report is a dry run.`, { cause: err });
    }
    throw err;
  }
}

/** @param {string} s */
function slug(s) {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_');
}
