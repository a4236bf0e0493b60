/**
 * The verdict on a commit: one comparison (a branch, a pull request or any ref against its base)
 * as a GitHub check run's conclusion and output, as the commit status that stands in for it when
 * the token may not create check runs, and as a pull-request comment with a hidden marker so a
 * later run edits it in place. Pure: data in, Markdown and request bodies out.
 */
import { confirmedRegressions, FUNCTION_SECTIONS, hasFunctions, renderFunctionSection, renderTimeAndWorkLines, testId } from './render-issue.js';
import { renderVerdictRow, VERDICT_TABLE_HEAD } from './render-summary.js';
import { parseNamedMarker, renderNamedMarker } from './issue-marker.js';
import { largestFitting, utf8Bytes } from './fit-text.js';
import { describeHowSure, findVerdictPolicy, renderUntrustedText } from '../compare/index.js';
import { formatChange, formatPercent, formatValue } from '../format-number.js';

/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('./types.js').ReportedVerdict} ReportedVerdict */

/**
 * GitHub's limits: a check run's output.summary and output.text hold at most 65,535 bytes each
 * (GitHub counts bytes of UTF-8 there, not the characters its documentation says: "summary
 * exceeds a maximum bytesize of 65535"); a comment body at most 65,536 characters. Everything is
 * measured in UTF-8 bytes, which are never fewer than GitHub's characters, and kept a kilobyte
 * under the limit for what might be counted differently.
 */
export const GITHUB_LIMITS = Object.freeze({ checkOutput: 65_535, commentBody: 65_536, statusDescription: 140 });
const MARGIN = 1024;
export const CHECK_OUTPUT_BUDGET = GITHUB_LIMITS.checkOutput - MARGIN;
export const COMMENT_BUDGET = GITHUB_LIMITS.commentBody - MARGIN;

/** The marker name of the pull-request comment (its value: the check run's external id). */
export const VERDICT_MARKER = 'tagbench-verdict';

/** How many time-and-work statements the check run's text lists (about 400 bytes each). */
const TIME_AND_WORK_LINES = 20;
/** How many tests a title names before "and N more". */
const TITLE_TESTS = 3;
/** A title is one line; GitHub shows about this much of it in the checks list. */
const TITLE_CHARS = 200;

/**
 * Which way the check goes.
 *  - failure: at least one regression at the issue level that a rerun confirmed and whose
 *    policy opens issues (the same rule as a regression issue: confirmedRegressions). `failure`
 *    rather than `action_required`: it is what the commit is (slower), it fails a required
 *    check in branch protection like a failing test does, and `action_required` is meant for a
 *    check whose integrator offers an action to take (a button) and would need one.
 *  - neutral: no such regression, but an issue-level regression no rerun has judged yet
 *    (`tagbench confirm` was not run), or tests without a decision (inconclusive, failed).
 *    Neutral passes a required check: an undecided benchmark must not block a merge.
 *  - success: everything else; a regression below the issue level (warn), one whose policy is
 *    `note` or `ignore`, or one the rerun did not confirm does not fail the commit, and is listed.
 * @param {Comparison} comparison
 * @returns {{conclusion: 'failure'|'neutral'|'success', regressions: ReportedVerdict[], unconfirmed: ReportedVerdict[], undecided: ReportedVerdict[]}}
 *   regressions: what fails the check, largest change first
 */
export function decideVerdict(comparison) {
  const tests = /** @type {ReportedVerdict[]} */ (comparison.tests);
  const regressions = bySize(confirmedRegressions(comparison));
  const unconfirmed = bySize(tests.filter((t) => t.verdict === 'regression' && t.confirmed === undefined && (t.level ?? 'issue') === 'issue' && findVerdictPolicy(t, comparison.thresholds) === 'open'));
  const undecided = tests.filter((t) => t.verdict === 'inconclusive' || t.verdict === 'failed');
  const conclusion = regressions.length > 0 ? 'failure' : unconfirmed.length > 0 || undecided.length > 0 ? 'neutral' : 'success';
  return { conclusion, regressions, unconfirmed, undecided };
}

/**
 * @typedef {object} VerdictContext
 * @property {string} sha the commit the verdict is about (40 hex)
 * @property {string|null} [reportUrl] the full report (e.g. the workflow run's artifact or job summary)
 * @property {string|null} [siteUrl] the site's page of this run
 * @property {string|null} [runUrl] the workflow run that measured it
 * @property {import('../types.js').Calibration[]} [calibrations] the host class's stored
 *   calibrations, for the "how sure" sentence
 */

/**
 * @typedef {object} RenderedVerdict
 * @property {'failure'|'neutral'|'success'} conclusion
 * @property {string} name the check run's name (and the commit status's context)
 * @property {string} externalId finds the check run and the comment again
 * @property {{title: string, summary: string, text: string}} output the check run's
 * @property {string} comment the pull-request comment, starting with its hidden marker
 * @property {{state: 'failure'|'success', description: string, context: string, target_url?: string}} status
 *   the commit status posted instead of the check run when the token may not create one
 * @property {string|null} detailsUrl linked from the check run and the status
 */

/**
 * @param {Comparison} comparison
 * @param {VerdictContext} context
 * @returns {RenderedVerdict}
 */
export function renderVerdict(comparison, context) {
  const decision = decideVerdict(comparison);
  const { name, externalId } = checkIdentity(comparison);
  const title = renderTitle(comparison, decision);
  const rows = orderRows(comparison);
  const sections = /** @type {(ReportedVerdict & {functions: NonNullable<ReportedVerdict['functions']>})[]} */ (rows.filter((t) => hasFunctions(t) && (t.verdict === 'regression' || t.verdict === 'improvement')));
  const links = renderLinks(context);

  /** @param {number} shown rows of the verdict table */
  const summaryOf = (shown) => renderSummaryPart(comparison, decision, context, rows, shown);
  /** @param {number} shown function sections */
  const textOf = (shown) => renderTextPart(comparison, sections, shown, links);
  const summaryRows = largestFitting(rows.length, (n) => utf8Bytes(summaryOf(n)) <= CHECK_OUTPUT_BUDGET);
  const textSections = largestFitting(Math.min(sections.length, FUNCTION_SECTIONS), (n) => utf8Bytes(textOf(n)) <= CHECK_OUTPUT_BUDGET);
  const output = { title, summary: summaryOf(summaryRows), text: textOf(textSections) };

  // The comment holds both parts: the function tables first give way, then table rows.
  const marker = renderNamedMarker(VERDICT_MARKER, { v: 1, id: externalId });
  /** @param {number} shownRows @param {number} shownSections */
  const commentOf = (shownRows, shownSections) => [
    marker,
    // The title names tests (data): escaped, as a heading cannot hold code spans well.
    `## ${MARK[decision.conclusion]} ${name} — ${renderUntrustedText(title, { span: false })}`,
    '',
    summaryOf(shownRows),
    textOf(shownSections),
    `<sub>tagbench keeps this comment up to date: each run for this pull request edits it (now: commit \`${context.sha}\`). The same verdict is on the commit as the check run "${name}".</sub>`,
    '',
  ].join('\n');
  const fitsComment = (/** @type {number} */ r, /** @type {number} */ s) => utf8Bytes(commentOf(r, s)) <= COMMENT_BUDGET;
  const commentSections = largestFitting(textSections, (s) => fitsComment(0, s));
  const commentRows = largestFitting(summaryRows, (r) => fitsComment(r, commentSections));
  const comment = commentOf(commentRows, commentSections);
  if (utf8Bytes(output.summary) > CHECK_OUTPUT_BUDGET || utf8Bytes(comment) > COMMENT_BUDGET) {
    throw new Error(`the verdict of ${name} is over GitHub's size limits with no table row listed: its header grew`);
  }

  const detailsUrl = context.reportUrl ?? context.siteUrl ?? context.runUrl ?? null;
  // A commit status has no neutral state: `pending` would never finish and `error` would block
  // a protected branch as a failure does, so an undecided verdict is a success that says so.
  const status = {
    state: decision.conclusion === 'failure' ? /** @type {const} */ ('failure') : /** @type {const} */ ('success'),
    description: oneLine(`${decision.conclusion === 'neutral' ? 'undecided: ' : ''}${title}`, GITHUB_LIMITS.statusDescription),
    context: name,
    ...(detailsUrl ? { target_url: detailsUrl } : {}),
  };
  return { conclusion: decision.conclusion, name, externalId, output, comment, status, detailsUrl };
}

/**
 * The check's name and the external id that finds its check run and comment again: one check
 * per (product, host class, suite) on a commit, whether it is running or done.
 * @param {{product: string, hostClass: string, suite: string}} what
 * @returns {{name: string, externalId: string}}
 */
export function checkIdentity(what) {
  return { name: `tagbench: ${what.suite} on ${what.hostClass}`, externalId: `tagbench/v1/${what.product}/${what.hostClass}/${what.suite}` };
}

/**
 * The check while the benchmark runs (an hour or more): an in-progress check run, or a pending
 * commit status when the token may not create check runs. The verdict later updates the same
 * check run (same name and external id).
 * @param {{product: string, hostClass: string, suite: string}} what
 * @param {{runUrl?: string|null, about?: string|null}} context the run that measures it, and
 *   what is measured (e.g. "pull/12/head against its merge base with main")
 * @returns {{name: string, externalId: string, output: {title: string, summary: string}, detailsUrl: string|null,
 *   status: {state: 'pending', description: string, context: string, target_url?: string}}}
 */
export function renderStartedCheck(what, context) {
  const { name, externalId } = checkIdentity(what);
  const title = `benchmarking: ${what.suite} on ${what.hostClass}`;
  const detailsUrl = context.runUrl ?? null;
  const summary = [
    `tagbench is measuring this commit${context.about ? ` (${renderUntrustedText(context.about, { span: false })})` : ''} with the suite \`${what.suite}\` on host class \`${what.hostClass}\`.`,
    'The verdict replaces this text when the run is done.',
    ...(detailsUrl ? ['', `[The workflow run](${detailsUrl})`] : []),
  ].join('\n');
  return {
    name, externalId, output: { title, summary }, detailsUrl,
    status: { state: 'pending', description: oneLine(title, GITHUB_LIMITS.statusDescription), context: name, ...(detailsUrl ? { target_url: detailsUrl } : {}) },
  };
}

/**
 * @param {string|null|undefined} body a comment's body
 * @returns {string|null} the external id of the verdict it carries, if any
 */
export function parseVerdictMarker(body) {
  const m = /** @type {{v?: unknown, id?: unknown}|null} */ (parseNamedMarker(body, VERDICT_MARKER));
  return m && m.v === 1 && typeof m.id === 'string' ? m.id : null;
}

/** Marks of a conclusion; the words are always there too. */
const MARK = Object.freeze({ failure: '❌', neutral: '⚪', success: '✅' });

/**
 * @param {Comparison} comparison
 * @param {ReturnType<typeof decideVerdict>} decision
 * @returns {string} one line
 */
function renderTitle(comparison, decision) {
  /**
   * The first tests of the list, as many as fit the title (at least one), and how many more.
   * @param {ReportedVerdict[]} list
   * @param {string} before the rest of the title
   */
  const named = (list, before = '') => {
    const say = (/** @type {number} */ n) => list.slice(0, n).map((t) => `${t.test} ${formatChange(t)} (${t.metric})`).join(', ') + (list.length > n ? `, and ${list.length - n} more` : '');
    const n = largestFitting(Math.min(TITLE_TESTS, list.length), (k) => k <= 1 || before.length + say(k).length <= TITLE_CHARS);
    return say(Math.max(1, n));
  };
  const plural = (/** @type {number} */ n, /** @type {string} */ word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (decision.conclusion === 'failure') {
    const head = `${plural(decision.regressions.length, 'regression')}: `;
    return oneLine(head + named(decision.regressions, head), TITLE_CHARS);
  }
  if (decision.conclusion === 'neutral') {
    const parts = [];
    if (decision.unconfirmed.length > 0) {
      const head = `${plural(decision.unconfirmed.length, 'regression')} not confirmed by a rerun yet: `;
      parts.push(head + named(decision.unconfirmed, head));
    }
    if (decision.undecided.length > 0) parts.push(`${plural(decision.undecided.length, 'test')} undecided (${decision.undecided.slice(0, TITLE_TESTS).map((t) => `${t.test} ${t.verdict}`).join(', ')}${decision.undecided.length > TITLE_TESTS ? ', …' : ''})`);
    return oneLine(parts.join('; '), TITLE_CHARS);
  }
  const counts = Object.entries(comparison.summary).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ');
  return oneLine(`No regression: ${counts || 'no test compared'}`, TITLE_CHARS);
}

/**
 * The verdicts in the order a reader wants them: regressions, improvements, undecided, then
 * unchanged; the largest change first within each.
 * @param {Comparison} comparison
 * @returns {ReportedVerdict[]}
 */
function orderRows(comparison) {
  const rank = /** @type {Record<string, number>} */ ({ regression: 0, improvement: 1, inconclusive: 2, failed: 3, unchanged: 4 });
  return [...bySize(/** @type {ReportedVerdict[]} */ (comparison.tests))].sort((a, b) => (rank[a.verdict] ?? 5) - (rank[b.verdict] ?? 5));
}

/**
 * @param {ReportedVerdict[]} tests
 * @returns {ReportedVerdict[]} largest relative change first (stable for equal ones)
 */
function bySize(tests) {
  const size = (/** @type {ReportedVerdict} */ t) => (typeof t.ratio === 'number' && t.ratio > 0 ? Math.abs(Math.log(t.ratio)) : 0);
  return [...tests].sort((a, b) => size(b) - size(a));
}

/**
 * The 30-second verdict: what was compared, the decision and why, how sure, the table.
 * @param {Comparison} comparison
 * @param {ReturnType<typeof decideVerdict>} decision
 * @param {VerdictContext} context
 * @param {ReportedVerdict[]} rows ordered
 * @param {number} shown how many rows fit
 */
function renderSummaryPart(comparison, decision, context, rows, shown) {
  const c = comparison;
  const why = {
    failure: `**${decision.regressions.length} confirmed regression${decision.regressions.length === 1 ? '' : 's'}** at the issue level: ${listSome(decision.regressions, (t) => `${renderUntrustedText(testId(t))} ${formatChange(t)}`)}.`,
    neutral: decision.unconfirmed.length > 0
      ? `**No confirmed regression yet**: ${listSome(decision.unconfirmed, (t) => renderUntrustedText(testId(t)))} regressed, but no rerun has confirmed ${decision.unconfirmed.length === 1 ? 'it' : 'them'} (\`tagbench confirm\`).${decision.undecided.length > 0 ? ` ${decision.undecided.length} test(s) undecided.` : ''}`
      : `**No decision** for ${listSome(decision.undecided, (t) => `${renderUntrustedText(testId(t))} (${t.verdict})`)}; no regression among the others.`,
    success: '**No regression** at the issue level.',
  }[decision.conclusion];
  const out = [
    `${c.product} \`${c.candidate.version}\` (commit \`${context.sha}\`) against \`${c.base.version}\`, host class \`${c.hostClass}\`, suite \`${c.suite}\`: ${why}`,
    '',
    `${Object.entries(c.summary).map(([k, v]) => `${v} ${k}`).join(' · ')} (comparison of ${c.createdAt})`,
    '',
    `**How sure:** ${describeHowSure(c, context.calibrations ?? [])}`,
    '',
    ...VERDICT_TABLE_HEAD,
    ...rows.slice(0, shown).map((t) => renderVerdictRow(t, c.thresholds)),
    '',
  ];
  if (shown < rows.length) {
    const where = context.reportUrl ? `the full report (${context.reportUrl})` : context.siteUrl ? `the site (${context.siteUrl})` : 'the comparison file';
    out.push(`${rows.length - shown} more row${rows.length - shown === 1 ? '' : 's'} (the smallest changes of the later kinds) are not listed here, to stay within GitHub's size limit: every verdict is in ${where}.`, '');
  }
  out.push('The check fails only on a regression at the issue level that a rerun confirmed; it is neutral while a regression awaits its rerun or a test has no decision. Ratio = candidate median / baseline median; CI = its confidence interval.', '');
  return out.join('\n');
}

/** How many verdicts a sentence of the summary names; the table has them all (as many as fit). */
const SENTENCE_TESTS = 10;

/**
 * @param {ReportedVerdict[]} list
 * @param {(t: ReportedVerdict) => string} say
 * @returns {string} the first SENTENCE_TESTS, and how many more
 */
function listSome(list, say) {
  const more = list.length - SENTENCE_TESTS;
  return list.slice(0, SENTENCE_TESTS).map(say).join(', ') + (more > 0 ? ` and ${more} more (in the table)` : '');
}

/**
 * Where the instructions went, the moved functions' tables, then the links.
 * @param {Comparison} comparison
 * @param {(ReportedVerdict & {functions: NonNullable<ReportedVerdict['functions']>})[]} sections
 *   instruction verdicts that moved and carry their functions, regressions first
 * @param {number} shown how many sections fit
 * @param {string[]} links
 */
function renderTextPart(comparison, sections, shown, links) {
  const out = [];
  if (sections.length === 0) {
    out.push('No instruction count moved with per-function profiles to show (the instructions meter was not run, or no instruction verdict changed).', '');
  }
  for (const t of sections.slice(0, shown)) {
    const f = t.functions;
    const top = [...f.added.slice(0, 1), ...f.removed.slice(0, 1)].sort((a, b) => Math.abs(b.selfDelta) - Math.abs(a.selfDelta))[0];
    if (top) {
      const share = f.base.totalPerOp > 0 ? ` (${formatPercent(top.selfDelta / f.base.totalPerOp, { signed: true })} of the base total)` : '';
      // Function and object names come from the profiled binaries, a pull request's own among
      // them (a plugin file named `lib[pay here](https:evil.example) @octocat.so`): code spans.
      out.push(`**${renderUntrustedText(t.test)}: the function that moved most** is ${renderUntrustedText(top.name)} (${renderUntrustedText(top.object)}): ${formatValue(top.selfDelta, { signed: true })} instructions per operation${share}, ${t.verdict} ${formatChange(t)} in all.`, '');
    }
    out.push(renderFunctionSection(t, comparison));
  }
  if (shown < sections.length) out.push(`${sections.length - shown} more instruction verdict${sections.length - shown === 1 ? ' has its' : 's have their'} functions in the full report and on the site.`, '');
  // Tests judged by more than one meter, one line each, bounded so the function tables keep room.
  out.push(...renderTimeAndWorkLines(comparison, /** @type {ReportedVerdict[]} */ (comparison.tests), TIME_AND_WORK_LINES));
  out.push('### Links', '', ...(links.length > 0 ? links : ['- No report or site URL was given.']), '');
  return out.join('\n');
}

/**
 * @param {VerdictContext} context
 * @returns {string[]} Markdown list items
 */
function renderLinks(context) {
  return [
    context.reportUrl ? `- Full report: ${context.reportUrl}` : null,
    context.siteUrl ? `- Site page of this run: ${context.siteUrl}` : null,
    context.runUrl ? `- Workflow run: ${context.runUrl}` : null,
  ].filter((l) => l !== null);
}

/**
 * @param {string} text
 * @param {number} max characters
 * @returns {string} the first line, cut with an ellipsis when longer than max
 */
function oneLine(text, max) {
  const line = text.replace(/\s*\n\s*/g, ' ');
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
