/**
 * `tagbench post-verdict`: one comparison's verdict on its commit (check run or commit status)
 * and its pull request (one comment kept up to date), or, with --started, the in-progress check
 * the verdict later completes. The command's entry reads the environment once (settings.js).
 */
import { appendFile } from 'node:fs/promises';
import { EXIT, UserError } from '../errors.js';
import { botLoginOption, githubRepoOption, tokenEnvOption } from '../command-spec.js';
import { botLoginsFrom, readGitHubSettings } from './settings.js';

/** @typedef {import('./settings.js').GitHubSettings} GitHubSettings */

/** A commit as GitHub names it in the check-run and status routes: the full SHA. */
const SHA_RE = /^[0-9a-f]{40}$/i;

/**
 * `tagbench post-verdict`: the verdict of one comparison on the commit it is about (a check run,
 * or a commit status when the token may not create one) and, for a pull request, one comment
 * kept up to date. Without a token, or with --dry-run, the Markdown and the requests go to files.
 * @param {Record<string, any>} options CLI options (see postVerdictSpec); tests may pass `timing`
 * @param {GitHubSettings} settings token, repository, API URL, run URL, job summary file
 * @returns {Promise<number>} 0 when everything was posted (or written)
 * @throws {UserError} for a bad option, an unreadable comparison, or when GitHub refused a part
 *   (after posting the other part and writing the files)
 */
export async function postVerdictCommand(options, settings) {
  const { parseRepo } = await import('./github-client.js');
  const log = (/** @type {string} */ line) => process.stderr.write(`post-verdict: ${line}\n`);
  // The commit and its repository: the same for the started check and the verdict.
  const sha = String(options.sha ?? '');
  if (!SHA_RE.test(sha)) throw new UserError(`--sha is '${sha}' but must be the commit's full SHA: 40 hexadecimal digits (git rev-parse <ref>)`);
  const repoName = options.repo ?? settings.repository ?? '';
  if (!repoName) throw new UserError('post-verdict needs --repo <owner/name> (or GITHUB_REPOSITORY): the repository where the commit lives, a fork\'s own for a fork');
  const repo = parseRepo(repoName);
  if (options.started || options.neutral) return postStartedCommand(options, { ...repo, sha: sha.toLowerCase(), pull: null }, settings, log);
  if (!options.comparison) throw new UserError('post-verdict needs --comparison <file>: a comparison written by tagbench compare or confirm (results/verdicts/...)');
  let pull = null;
  if (options.pull !== undefined && options.pull !== '') {
    if (!/^[1-9]\d*$/.test(String(options.pull))) throw new UserError(`--pull is '${options.pull}' but must be a pull-request number: a whole number from 1`);
    pull = Number(options.pull);
  }
  for (const [flag, value] of /** @type {[string, unknown][]} */ ([['--report-url', options.reportUrl], ['--site-url', options.siteUrl], ['--run-url', options.runUrl]])) {
    if (value !== undefined && value !== '' && !isWebUrl(String(value))) throw new UserError(`${flag} is '${value}' but must be an http(s) URL`);
  }
  const { readComparisonFile, readCalibrations, replaceFileAtomic } = await import('../store/index.js');
  const { renderVerdict } = await import('./render-verdict.js');
  if (options.untrusted) await checkUntrusted(options, sha);
  const comparison = await readComparisonFile(options.comparison);
  if (options.untrusted) await checkUntrustedComparison(comparison, options, { sha, pull });
  const root = options.root ?? new URL('../..', import.meta.url).pathname;
  const verdict = renderVerdict(comparison, {
    sha: sha.toLowerCase(),
    reportUrl: options.reportUrl || null,
    siteUrl: options.siteUrl || null,
    runUrl: options.runUrl || settings.runUrl,
    calibrations: await readCalibrations(`${root}/bench`, comparison.hostClass),
  });
  const target = { ...repo, sha: sha.toLowerCase(), pull };
  const token = options.dryRun ? null : settings.token;
  const checkMarkdown = `# ${verdict.output.title}\n\n${verdict.output.summary}\n${verdict.output.text}`;
  if (settings.stepSummary) await appendFile(settings.stepSummary, `## ${verdict.name}\n\n${checkMarkdown}\n`);
  if (!token) {
    const { planVerdictRequests } = await import('./post-verdict.js');
    const { join } = await import('node:path');
    const dir = options.dryRun || 'out/verdict';
    if (!options.dryRun) log(`no token in $${settings.tokenEnv}: dry run, nothing posted`);
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
  const octokit = createGitHubClient({ token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const trustedLogins = pull === null ? new Set() : await resolveTrustedLogins(octokit, botLoginsFrom(options.botLogin, settings), log);
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
 * @param {GitHubSettings} settings
 * @param {(line: string) => void} log
 * @returns {Promise<number>}
 */
async function postStartedCommand(options, target, settings, log) {
  for (const [flag, value] of [['--product', options.product], ['--host-class', options.hostClass], ['--suite', options.suite]]) {
    if (!value) throw new UserError(`post-verdict --started needs ${flag}: the check's name and id are made of the product, host class and suite the verdict will have`);
  }
  if (options.comparison) throw new UserError('post-verdict --started posts the check before there is a comparison: give --comparison to the post that ends the run, not to this one');
  const { renderStartedCheck } = await import('./render-verdict.js');
  const started = renderStartedCheck({ product: options.product, hostClass: options.hostClass, suite: options.suite }, { runUrl: options.runUrl || settings.runUrl, about: options.about ?? null });
  const token = options.dryRun ? null : settings.token;
  if (options.neutral) return postNeutralCheck(options, started, target, settings, log);
  if (!token) {
    log(`no token (or --dry-run): the in-progress check "${started.name}" is not posted`);
    process.stdout.write(`${JSON.stringify({ started: started.name, dryRun: true })}\n`);
    return EXIT.ok;
  }
  const { createGitHubClient } = await import('./github-client.js');
  const { postStartedCheck } = await import('./post-verdict.js');
  const octokit = createGitHubClient({ token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const result = await postStartedCheck(started, target, { octokit, trustedLogins: new Set(), log, recheckDelayMs: options.timing?.recheckDelayMs });
  log(`"${started.name}" in progress on ${target.sha} (${result.check}${result.url ? `: ${result.url}` : ''})`);
  process.stdout.write(`${JSON.stringify({ started: started.name, ...result })}\n`);
  return EXIT.ok;
}

/**
 * `post-verdict --neutral <reason>`: a run that ended without a verdict (refused at the approval,
 * failed, timed out or cancelled) completes its check as neutral, saying why and linking the run,
 * so no check stays "in progress" for good. A token is required: this posts from the workflow.
 * @param {Record<string, any>} options
 * @param {ReturnType<typeof import('./render-verdict.js').renderStartedCheck>} started the check's name and id
 * @param {{owner: string, repo: string, sha: string, pull: null}} target
 * @param {GitHubSettings} settings
 * @param {(line: string) => void} log
 * @returns {Promise<number>}
 * @throws {UserError} without a token, or when GitHub refuses the check
 */
async function postNeutralCheck(options, started, target, settings, log) {
  if (!settings.token) throw new UserError(`post-verdict --neutral needs a token in $${settings.tokenEnv}: the check must be completed, never left in progress`);
  const runUrl = options.runUrl || settings.runUrl;
  // The reason may come from a failed step's output: one line, and no Markdown link or mention.
  const reason = String(options.neutral).replace(/[\r\n]+/g, ' ').replace(/@/g, '@\u200b').replace(/\]\(/g, ']\u200b(').slice(0, 1000);
  const { createGitHubClient } = await import('./github-client.js');
  const { syncCheckRun } = await import('./post-verdict.js');
  const octokit = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, log, ...(options.timing ?? {}) });
  const ctx = { octokit, trustedLogins: new Set(), log, recheckDelayMs: options.timing?.recheckDelayMs };
  const output = { title: 'Not benchmarked', summary: `${reason}${runUrl ? `\n\nThe workflow run: ${runUrl}` : ''}` };
  const run = await syncCheckRun(ctx, { owner: target.owner, repo: target.repo }, target.sha, {
    name: started.name, externalId: started.externalId,
    fields: { status: 'completed', conclusion: 'neutral', output, ...(runUrl ? { details_url: runUrl } : {}) },
  });
  log(`"${started.name}" completed as neutral on ${target.sha}: ${reason}`);
  process.stdout.write(`${JSON.stringify({ neutral: started.name, check: run.action, url: run.url })}\n`);
  return EXIT.ok;
}

/**
 * The artifact of a pull request's bench job (--untrusted): size and file count capped first.
 * @param {Record<string, any>} options
 * @param {string} sha
 * @throws {UserError} naming every problem
 */
async function checkUntrusted(options, sha) {
  const { readArtifactProblems } = await import('./untrusted-results.js');
  for (const flag of ['product', 'hostClass', 'suite', 'expectRef', 'expectRepository', 'pull']) {
    if (!options[flag]) throw new UserError(`post-verdict --untrusted needs --${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: the plan's value the comparison must match`);
  }
  const problems = await readArtifactProblems(options.untrusted);
  if (problems.length > 0) throw new UserError(`post-verdict: the results of ${sha} are refused: ${problems.join('; ')}`);
}

/**
 * The comparison of an --untrusted artifact must be this run's: the plan's pull request, ref,
 * repository, commit, product, host class and suite.
 * @param {import('../types/comparison.js').Comparison} comparison
 * @param {Record<string, any>} options
 * @param {{sha: string, pull: number|null}} target
 * @throws {UserError}
 */
async function checkUntrustedComparison(comparison, options, { sha, pull }) {
  const { validateComparisonIdentity } = await import('./untrusted-results.js');
  const problems = validateComparisonIdentity(comparison, {
    product: options.product, hostClass: options.hostClass, suite: options.suite, ref: options.expectRef,
    repository: options.expectRepository, pull: Number(pull), commit: sha,
  });
  if (problems.length > 0) throw new UserError(`post-verdict: ${options.comparison} is not this run's comparison: ${problems.join('; ')}`);
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

/** @type {import('../command-spec.js').CommandSpec} */
export const postVerdictSpec = {
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
    githubRepoOption('repository where the commit lives'),
    { flags: '--sha <sha>', description: 'the commit the comparison measured: its full 40-hex SHA' },
    { flags: '--pull <number>', description: 'pull request to keep the verdict comment on (none: the check run only)' },
    { flags: '--report-url <url>', description: 'the full report, linked from the check run (its details URL), the status and the comment' },
    { flags: '--site-url <url>', description: 'the site\'s page of this run, linked from the check run and the comment' },
    { flags: '--run-url <url>', description: 'workflow run linked (default: built from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)' },
    tokenEnvOption('environment variable holding the token of --repo'),
    { flags: '--neutral <reason>', description: 'complete the check as neutral with this reason and the run\'s link (a run that ended without a verdict); needs --product, --host-class, --suite' },
    { flags: '--untrusted <dir>', description: 'the comparison comes from this downloaded artifact of a pull request\'s run: its size and file count are capped, and the comparison must match --product, --host-class, --suite, --pull, --sha, --expect-ref and --expect-repository' },
    { flags: '--expect-ref <ref>', description: 'with --untrusted: the ref the plan resolved (pull/N/head)' },
    { flags: '--expect-repository <url>', description: 'with --untrusted: the clone URL the plan checked' },
    { flags: '--dry-run <dir>', description: 'post nothing: write check-run.md, comment.md and requests.json to this directory' },
    botLoginOption('whose verdict comments are ours to edit besides the token\'s own', '; a GitHub App: <app-slug>[bot]'),
  ],
  run: (options) => postVerdictCommand(options, readGitHubSettings(process.env, options.tokenEnv)),
};
