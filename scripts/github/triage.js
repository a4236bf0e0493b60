/**
 * Triage that feeds back: read the engineer's answer on each tagbench regression issue (label
 * or command, see triage-answers.js), act on new answers once, and count the answers per
 * metric. "Expected change" dispatches the existing promote-baseline workflow for the release;
 * "noise" is a false alarm, and the count of false alarms per metric is what the site shows
 * beside the calibration figures.
 *
 * Each answer is acted on once: the bot acknowledges it in a comment carrying a hidden marker,
 * and a later triage run that finds its own acknowledgement of the same answer does nothing.
 */
import { commentOnce, fetchTagbenchIssues } from './sync-issues.js';
import { isUncertainWriteError } from './github-client.js';
import { readTriageAnswer, TRIAGE_ANSWERS } from './triage-answers.js';

/** @typedef {import('./github-client.js').GitHubClient} GitHubClient */
/** @typedef {import('./triage-answers.js').TriageAnswer} TriageAnswer */
/** @typedef {import('./types.js').ExistingIssue} ExistingIssue */

const ACK_PREFIX = '<!-- tagbench-triage ';
const ACK_SUFFIX = ' -->';

/**
 * @typedef {object} TriageOptions
 * @property {string} label index label of tagbench issues
 * @property {ReadonlySet<string>} trustedLogins whose issues (markers) and acknowledgements count
 * @property {string|null} promoteWorkflow workflow file dispatched for an expected change
 *   (`promote-baseline.yml`); null = do not dispatch, only list the promotion
 * @property {string} ref branch the promotion workflow runs on (and opens its pull request against)
 * @property {boolean} act false = read and count only, write nothing to GitHub
 * @property {(line: string) => void} log
 * @property {() => Date} [now]
 * @property {number} [recheckDelayMs] wait before reading comments back after an uncertain failure
 */

/**
 * @typedef {object} TriagedIssue
 * @property {number} number
 * @property {string} url
 * @property {'open'|'closed'} state
 * @property {import('./types.js').IssueKey} key
 * @property {string[]} tests `<test>:<metric>`
 * @property {TriageAnswer|null} answer
 * @property {'label'|'comment'|null} source
 * @property {string|null} problem
 * @property {'acknowledged'|'already-acknowledged'|'promotion-dispatched'|'promotion-listed'|'none'|'failed'} action
 * @property {string} [detail]
 */

/**
 * @typedef {object} NoiseSummary what the site shows: false alarms per metric
 * @property {1} schemaVersion
 * @property {string} createdAt ISO 8601
 * @property {string} repo owner/name
 * @property {number} issues official regression issues looked at (ad-hoc runs are left out)
 * @property {Record<TriageAnswer|'unanswered', number>} answers issues per answer
 * @property {Record<string, {issues: number, noise: number, confirmedBug: number, expectedChange: number, unanswered: number}>} metrics
 *   per metric: issues listing a regression of it, and how they were judged
 * @property {{number: number, url: string, product: string, line: string, version: string, hostClass: string, suite: string, tests: string[]}[]} noise
 *   the issues judged noise
 */

/**
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {TriageOptions} options
 * @returns {Promise<{issues: TriagedIssue[], summary: NoiseSummary, promotions: {product: string, line: string, version: string, hostClass: string, suite: string, issue: number}[]}>}
 *   promotions: expected changes not acknowledged before this run (dispatched now when acting)
 */
export async function triageIssues(octokit, repo, options) {
  const all = await fetchTagbenchIssues(octokit, repo, options.label, options.trustedLogins);
  // Ad-hoc runs have overrides: they are no verdict on the release and no false alarm of the thresholds.
  const official = all.filter((i) => i.marker && !i.marker.key.adHoc);
  /** @type {TriagedIssue[]} */
  const triaged = [];
  /** @type {{product: string, line: string, version: string, hostClass: string, suite: string, issue: number}[]} */
  const promotions = [];
  for (const issue of official) {
    const marker = /** @type {import('./types.js').IssueMarker} */ (issue.marker);
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: issue.number, per_page: 100 });
    const decision = readTriageAnswer(issue.labels, comments.map((c) => ({ body: c.body ?? '', login: c.user?.login ?? '', authorAssociation: c.author_association, createdAt: c.created_at })));
    /** @type {TriagedIssue} */
    const result = { number: issue.number, url: issue.url, state: issue.state, key: marker.key, tests: marker.tests, answer: decision.answer, source: decision.source, problem: decision.problem, action: 'none' };
    triaged.push(result);
    if (decision.problem) options.log(`#${issue.number}: ${decision.problem}`);
    if (!decision.answer) continue;
    const { key } = marker;
    const acks = comments.filter((c) => c.user?.login && options.trustedLogins.has(c.user.login.toLowerCase())).map((c) => parseAck(c.body));
    // The newest acknowledgement is what was last acted on; a changed answer is acted on again.
    if (acks.filter((a) => a !== null).at(-1) === decision.answer) {
      result.action = 'already-acknowledged';
      continue;
    }
    if (decision.answer === 'expected-change') promotions.push({ product: key.product, line: key.line, version: key.version, hostClass: key.hostClass, suite: key.suite, issue: issue.number });
    if (!options.act) continue;
    try {
      let detail = TRIAGE_ANSWERS.find((a) => a.answer === decision.answer)?.meaning ?? '';
      if (decision.answer === 'expected-change') {
        if (options.promoteWorkflow) {
          // Not retried automatically: a dispatch whose answer was lost may have started a run;
          // promotion opens a pull request on a fixed branch, so a second run would only repeat it.
          await dispatchPromotion(octokit, repo, { workflow: options.promoteWorkflow, ref: options.ref, key, issueNumber: issue.number });
          result.action = 'promotion-dispatched';
          detail = `dispatched ${options.promoteWorkflow} on ${options.ref}: it opens the pull request that makes ${key.product} ${key.version} the ${key.line} baseline on ${key.hostClass} (${key.suite})`;
        } else {
          result.action = 'promotion-listed';
          detail = `promotion of ${key.product} ${key.version} to the ${key.line} baseline on ${key.hostClass} (${key.suite}) listed for the workflow`;
        }
      } else {
        result.action = 'acknowledged';
      }
      result.detail = detail;
      const ack = `${renderAck(decision.answer)}\nTriage answer **${decision.answer}** (${decision.source === 'label' ? 'label' : `command by @${decision.by}`}): ${detail}.`;
      await commentOnce({ octokit, repo, trustedLogins: options.trustedLogins, log: options.log, recheckDelayMs: options.recheckDelayMs }, issue.number, ack);
    } catch (err) {
      if (typeof (/** @type {{status?: unknown}} */ (err)).status !== 'number') throw err;
      result.action = 'failed';
      result.detail = `${isUncertainWriteError(err) ? 'GitHub failed' : 'GitHub refused'} (HTTP ${/** @type {{status: number}} */ (err).status}): ${err instanceof Error ? err.message : String(err)}`;
      options.log(`#${issue.number}: ${result.detail}`);
    }
  }
  return { issues: triaged, summary: summarise(triaged, `${repo.owner}/${repo.repo}`, (options.now ?? (() => new Date()))()), promotions };
}

/**
 * Start the promote-baseline workflow (workflow_dispatch) for the issue's release. Its inputs
 * are that workflow's: product, line, version, host_class, suite, note (runs left empty: every
 * complete run of the release).
 * @param {GitHubClient} octokit
 * @param {{owner: string, repo: string}} repo
 * @param {{workflow: string, ref: string, key: import('./types.js').IssueKey, issueNumber: number}} promotion
 * @returns {Promise<void>}
 */
export async function dispatchPromotion(octokit, repo, { workflow, ref, key, issueNumber }) {
  await octokit.rest.actions.createWorkflowDispatch({
    ...repo,
    workflow_id: workflow,
    ref,
    inputs: { product: key.product, line: key.line, version: key.version, host_class: key.hostClass, suite: key.suite, note: `Expected change, answered on #${issueNumber}` },
    request: { retries: 0 },
  });
}

/**
 * @param {TriagedIssue[]} issues
 * @param {string} repo
 * @param {Date} now
 * @returns {NoiseSummary}
 */
export function summarise(issues, repo, now) {
  /** @type {NoiseSummary['answers']} */
  const answers = { 'confirmed-bug': 0, 'expected-change': 0, noise: 0, unanswered: 0 };
  /** @type {NoiseSummary['metrics']} */
  const metrics = {};
  const field = /** @type {const} */ ({ 'confirmed-bug': 'confirmedBug', 'expected-change': 'expectedChange', noise: 'noise' });
  for (const issue of issues) {
    answers[issue.answer ?? 'unanswered']++;
    // An issue counts once per metric however many of its tests regressed on that metric.
    const names = new Set(issue.tests.map((t) => t.slice(t.lastIndexOf(':') + 1)));
    for (const m of names) {
      const row = (metrics[m] ??= { issues: 0, noise: 0, confirmedBug: 0, expectedChange: 0, unanswered: 0 });
      row.issues++;
      row[issue.answer ? field[issue.answer] : 'unanswered']++;
    }
  }
  return {
    schemaVersion: 1,
    createdAt: now.toISOString(),
    repo,
    issues: issues.length,
    answers,
    metrics: Object.fromEntries(Object.entries(metrics).sort(([a], [b]) => a.localeCompare(b))),
    noise: issues.filter((i) => i.answer === 'noise').map((i) => ({ number: i.number, url: i.url, product: i.key.product, line: i.key.line, version: i.key.version, hostClass: i.key.hostClass, suite: i.key.suite, tests: i.tests })),
  };
}

/**
 * @param {NoiseSummary} summary
 * @returns {string} Markdown for the job summary
 */
export function renderNoiseSummary(summary) {
  const out = ['## tagbench triage', '', `${summary.issues} regression issue(s): ${Object.entries(summary.answers).map(([k, v]) => `${v} ${k}`).join(', ')}.`, ''];
  out.push('| metric | issues | noise (false alarms) | confirmed bug | expected change | unanswered |', '|---|---:|---:|---:|---:|---:|');
  for (const [m, r] of Object.entries(summary.metrics)) out.push(`| ${m} | ${r.issues} | ${r.noise} | ${r.confirmedBug} | ${r.expectedChange} | ${r.unanswered} |`);
  out.push('');
  return out.join('\n');
}

/** @param {TriageAnswer} answer */
function renderAck(answer) {
  return `${ACK_PREFIX}${JSON.stringify({ v: 1, answer })}${ACK_SUFFIX}`;
}

/**
 * @param {string|null|undefined} body
 * @returns {TriageAnswer|null}
 */
function parseAck(body) {
  if (!body?.startsWith(ACK_PREFIX)) return null;
  const end = body.indexOf(ACK_SUFFIX, ACK_PREFIX.length);
  try {
    const m = JSON.parse(body.slice(ACK_PREFIX.length, end));
    return m?.v === 1 && TRIAGE_ANSWERS.some((a) => a.answer === m.answer) ? m.answer : null;
  } catch {
    return null;
  }
}
