/**
 * Render the regression issue of one comparison: the confirmed regressions with their numbers,
 * the baseline, links, provenance and the hidden marker. Pure: data in, Markdown out.
 */
import { computeDigest, computeFingerprint, renderMarker } from './issue-marker.js';
import { formatChange, formatDetectable, formatEffect, formatInterval, formatPercent, formatRatio, formatStats, formatValue } from '../format-number.js';
import { renderProvenance } from './render-provenance.js';
import { largestFitting } from './fit-text.js';
import { renderTriageHelp } from './triage-answers.js';
import { compareTimeAndWork, describeHowSure, describeMeasuredFalseIssues, describeTimeAndWork, findVerdictPolicy, renderFunctionDiff, namingCommand, computeShownRatio, formatShownRatio, isCountedVerdict, renderFunctionFindings, counterWords, TIMED_WORK_FLOOR } from '../compare/index.js';

/** Marks issues of ad-hoc runs, so people see at a glance they are not a release's verdict. */
export const AD_HOC_LABEL = 'tagbench:ad-hoc';

/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('../types.js').TestVerdict} TestVerdict */
/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('./types.js').IssuePlan} IssuePlan */
/** @typedef {import('./types.js').IssueKey} IssueKey */
/** @typedef {import('./types.js').ReportedVerdict} ReportedVerdict */

/**
 * Id of one verdict inside a comparison: a test can be gated on several metrics.
 * @param {TestVerdict} v
 * @returns {string} `<test>:<metric>`
 */
export function testId(v) {
  return `${v.test}:${v.metric}`;
}

/**
 * The verdicts that open an issue: regressions beyond the issue threshold that a confirmation
 * rerun agreed with. An unconfirmed or warn-level regression only shows in the job summary
 * (DESIGN.md: issues only after confirmation). Comparisons without `level` count as issue-level.
 * @param {Comparison} comparison
 * @returns {ReportedVerdict[]}
 */
export function confirmedRegressions(comparison) {
  return issueLevelRegressions(comparison).filter((t) => findVerdictPolicy(t, comparison.thresholds) === 'open');
}

/**
 * Confirmed issue-level regressions of tests whose policy is `note`: listed in an issue opened
 * for other tests and in the job summary, but they never open an issue themselves.
 * @param {Comparison} comparison
 * @returns {ReportedVerdict[]}
 */
export function notedRegressions(comparison) {
  return issueLevelRegressions(comparison).filter((t) => findVerdictPolicy(t, comparison.thresholds) === 'note');
}

/** @param {Comparison} comparison */
function issueLevelRegressions(comparison) {
  return /** @type {ReportedVerdict[]} */ (comparison.tests).filter((t) => t.verdict === 'regression' && t.confirmed === true && (t.level ?? 'issue') === 'issue');
}

/**
 * @param {Comparison} comparison
 * @param {import('./types.js').AdHocOverrides|null} [adHoc] the run's overrides, null for a default run
 * @returns {IssueKey}
 */
export function issueKeyOf(comparison, adHoc = null) {
  return {
    product: comparison.product,
    line: comparison.line,
    version: comparison.candidate.version,
    hostClass: comparison.hostClass,
    suite: comparison.suite,
    ...(adHoc ? { adHoc } : {}),
  };
}

/**
 * A note when the candidate's tag was moved since it was first benchmarked: its run is of the
 * new commit, and the regressions are about that commit (the record's release.movedFrom).
 * @param {{version: string, runIds: string[]}} candidate
 * @param {Map<string, RunRecord>} records
 * @returns {string[]} Markdown lines, none when the tag did not move
 */
function renderTagMoved(candidate, records) {
  const moved = candidate.runIds.map((id) => records.get(id)).find((r) => r?.release.movedFrom);
  if (!moved) return [];
  return [`> The tag ${code(moved.release.tag ?? candidate.version)} was moved upstream: moved from ${code(/** @type {string} */ (moved.release.movedFrom))} to ${code(moved.release.commit ?? 'an unrecorded commit')}. This run is of the new commit.`, ''];
}

/**
 * Render the issue for a comparison, or null when it has no confirmed regression.
 * @param {Comparison} comparison
 * @param {Map<string, RunRecord>} records run records by id, for provenance (missing ones are named)
 * @param {{siteUrl: string|null, runUrl: string|null, label: string, adHoc?: import('./types.js').AdHocOverrides|null, calibration?: import('../compare/index.js').HostCalibration|null, calibrations?: import('../types.js').Calibration[]}} context
 *   links, the index label, the run's overrides (an ad-hoc run gets an issue of its own), the
 *   host class's false-issue rate (calibration) and its stored calibrations (calibrations), for
 *   the "how sure" sentence, second only to the count of regressions
 * @returns {IssuePlan|null}
 */
export function renderIssue(comparison, records, context) {
  const regressed = confirmedRegressions(comparison);
  if (regressed.length === 0) return null;
  const noted = notedRegressions(comparison);
  const key = issueKeyOf(comparison, context.adHoc ?? null);
  const tests = regressed.map(testId);
  // Only what a reader would call "the same regression" goes into the digest: links and
  // timestamps change on every run and must not turn a rerun into an update.
  const digest = computeDigest({
    base: comparison.base,
    candidate: comparison.candidate,
    tests: regressed.map((t) => [testId(t), t.base, t.candidate, t.ratio, t.ci]),
  });
  const marker = /** @type {const} */ ({ v: 1, fingerprint: computeFingerprint(key), key, tests, digest });
  const n = regressed.length;
  const adHocNote = key.adHoc ? ` [ad-hoc: ${describeOverrides(key.adHoc)}]` : '';
  const title = `Performance regression: ${key.product} ${key.version} vs ${comparison.base.version} on ${key.hostClass} (${key.suite}): ${n} test${n > 1 ? 's' : ''}${adHocNote}`;

  /** @param {ReportedVerdict[]} listed the regressions the table and the reasons show */
  const compose = (listed) => [
    renderMarker(marker),
    `**${n} confirmed regression${n > 1 ? 's' : ''}** in ${code(`${key.product} ${key.version}`)} (line ${code(key.line)}) against the baseline ${code(`${key.product} ${comparison.base.version}`)}, host class ${code(key.hostClass)}, suite ${code(key.suite)}. Each was confirmed by a rerun of the regressed tests.`,
    '',
    `**How sure:** ${describeHowSure(comparison, context.calibrations ?? [])} ${falseIssueWords(comparison, context)}`.trimEnd(),
    '',
    ...renderTagMoved(comparison.candidate, records),
    ...(key.adHoc ? [`> Ad-hoc run with overrides (${describeOverrides(key.adHoc)}): this is not the official issue of ${code(`${key.product} ${key.version}`)}, which only default runs write.`, ''] : []),
    renderTable(listed, comparison),
    '',
    ...(listed.length < n ? [`**${n - listed.length} more confirmed regression${n - listed.length > 1 ? 's' : ''}** (the smallest changes) are not listed here: an issue body holds at most ${ISSUE_BODY_LIMIT.toLocaleString('en-US')} characters. Every one is in the comparison${context.siteUrl ? ` and on the site (${context.siteUrl})` : ''}, and in this issue's marker.`, ''] : []),
    ...(noted.length > 0 ? [`Also regressed, noted only (their policy in configs/thresholds.yml is \`note\`): ${noted.map((t) => code(testId(t))).join(', ')}.`, ''] : []),
    '### Why each verdict',
    '',
    // compare's reason already tells the confirmation rerun's outcome when there was one.
    ...listed.map((t) => `- ${code(testId(t))}: ${t.reason}`),
    '',
    ...renderTimeAndWorkLines(comparison, listed),
    ...renderWhereItWent(listed, comparison),
    // Functions that rose under the total's threshold ride along in an issue opened for the
    // regressions above; they never open one (renderIssue returns null without a regression).
    ...renderBelowThreshold(comparison),
    '### Links',
    '',
    `- Results site: ${context.siteUrl ?? 'not published (no site URL given)'}`,
    `- Workflow run: ${context.runUrl ?? 'not from a workflow run'}`,
    `- Comparison created ${comparison.createdAt}; summary: ${renderCounts(comparison)}`,
    '',
    renderProvenance(comparison.base, comparison.candidate, records),
    '',
    renderTriageHelp(),
    '',
    `<sub>Opened by tagbench. A later report of the same release, host class and suite updates this issue instead of opening another; a later release of the line that recovers is noted here. The label ${code(context.label)} is how tagbench finds its issues: keep it.</sub>`,
    '',
  ].join('\n');
  const body = fitBody(regressed, compose);

  const labels = [context.label, `product:${key.product}-${key.line}`, `host:${key.hostClass}`, ...(key.adHoc ? [AD_HOC_LABEL] : [])];
  const updateNote = [
    `Updated with new numbers${context.runUrl ? ` from ${context.runUrl}` : ''}: now ${n} confirmed regression${n > 1 ? 's' : ''} (${tests.map(code).join(', ')}), comparison created ${comparison.createdAt}.`,
  ].join('\n');
  return { key, marker, title, body, labels, updateNote };
}

/**
 * GitHub refuses an issue body over 65,536 characters (422). What we write stays under this,
 * with room for what GitHub counts differently from JavaScript (a character outside the Basic
 * Multilingual Plane is one character there, two UTF-16 units here: the limit errs on the safe side).
 */
export const ISSUE_BODY_LIMIT = 60_000;

/**
 * The body with every regression, or, when that is over ISSUE_BODY_LIMIT, with the most that
 * fit, the largest changes first (the rest named as a count; the marker keeps them all). Fewer
 * rows always make a shorter body, so the largest that fits is found by bisection.
 * @param {ReportedVerdict[]} regressed
 * @param {(listed: ReportedVerdict[]) => string} compose
 * @returns {string}
 */
function fitBody(regressed, compose) {
  const all = compose(regressed);
  if (all.length <= ISSUE_BODY_LIMIT) return all;
  const size = (/** @type {ReportedVerdict} */ t) => Math.abs(Math.log(t.ratio ?? 1));
  const bySize = [...regressed].sort((a, b) => size(b) - size(a));
  const listed = largestFitting(regressed.length - 1, (n) => compose(bySize.slice(0, n)).length <= ISSUE_BODY_LIMIT);
  const body = compose(bySize.slice(0, listed));
  // Left with no row, the rest of the body (the marker's test list, provenance) is too long on its own.
  if (body.length > ISSUE_BODY_LIMIT) throw new Error(`the issue body is ${body.length} characters with no regression listed, over GitHub's limit: the marker or provenance grew`);
  return body;
}

/**
 * Time and work side by side for the tests the body lists (compare's statements): whether the
 * timed and the counted verdicts agree, and what a disagreement points to.
 * Disagreements come first, then the undecided, then agreements; past `limit` the rest are counted.
 * @param {Comparison} comparison
 * @param {ReportedVerdict[]} listed
 * @param {number} [limit] most statements shown (a check run's text has a size limit)
 * @returns {string[]} Markdown lines, none when no listed test was judged by more than one meter
 */
export function renderTimeAndWorkLines(comparison, listed, limit = Infinity) {
  const tests = new Set(listed.map((t) => t.test));
  const rank = { disagree: 0, undecided: 1, agree: 2 };
  const statements = compareTimeAndWork(comparison)
    .filter((s) => tests.has(s.test)).sort((a, b) => rank[a.agreement] - rank[b.agreement]);
  if (statements.length === 0) return [];
  const more = statements.length - limit;
  return [
    '### Time and work', '',
    ...statements.slice(0, limit).map((s) => `- ${code(s.test)}: ${describeTimeAndWork(s)}`),
    ...(more > 0 ? [`- and ${more} more test${more === 1 ? '' : 's'} (agreeing ones last) in the full report and on the site`] : []),
    '',
  ];
}

/** Functions "below the threshold, named" an issue lists; the rest are in the comparison and on the site. */
export const FINDINGS_IN_ISSUE = 10;

/**
 * The comparison's functions that rose beyond their noise whatever their test's total did
 * (compare's "Below the threshold, named"), bounded for an issue body.
 * @param {Comparison} comparison
 * @returns {string[]} Markdown lines, none when no verdict was judged per function
 */
function renderBelowThreshold(comparison) {
  const text = renderFunctionFindings(comparison.tests, 'markdown', { limit: FINDINGS_IN_ISSUE });
  return text === '' ? [] : [text.trim(), ''];
}

/** Instruction regressions whose functions an issue shows; the rest are on the site. */
export const FUNCTION_SECTIONS = 3;

/**
 * Where the instructions went, for the confirmed instruction regressions (the first few, each
 * bounded: an issue body must stay well under GitHub's 65,536 characters).
 * @param {ReportedVerdict[]} regressed
 * @param {Comparison} comparison
 * @returns {string[]} lines, empty when no regression has its functions
 */
function renderWhereItWent(regressed, comparison) {
  const withFunctions = regressed.filter(hasFunctions);
  // Beside the functions, the same test's work counters: CPU on the same work, or more work.
  const lines = withFunctions.slice(0, FUNCTION_SECTIONS).map((t) => `${renderFunctionSection(t, comparison)}${renderWorkBeside(t, comparison)}`);
  if (withFunctions.length > FUNCTION_SECTIONS) lines.push(`${withFunctions.length - FUNCTION_SECTIONS} more instruction regressions have their functions in the comparison and on the site.\n`);
  return lines.length > 0 ? [...lines, ''] : [];
}

/** Counters a work line names at most. */
export const WORK_COUNTERS_SHOWN = 4;

/**
 * The server's work of a counted regression's test, for the reader of its functions: the counted
 * work verdicts of the same test (rows, pages, redo per operation of the same fixed work; told by
 * their facts: counted, in another unit than instructions) that moved, base → candidate, or, when
 * none moved, that none did (the cost is CPU on the same work). Without counted work verdicts,
 * the timed repeats' work counters that moved most (context, never gated), when the comparison has them.
 * @param {ReportedVerdict} t
 * @param {Comparison} comparison
 * @returns {string} a Markdown paragraph ending with a blank line, empty when the test has neither
 */
export function renderWorkBeside(t, comparison) {
  const work = comparison.tests.filter((v) => v.test === t.test && isCountedVerdict(v) && v.unit !== t.unit && v.base && v.candidate);
  const median = (/** @type {{median: number}|null|undefined} */ side) => formatValue(side?.median ?? null);
  const name = (/** @type {TestVerdict & {label?: string}} */ v) => v.label ?? v.metric;
  if (work.length > 0) {
    const moved = work.filter((v) => v.verdict === 'regression' || v.verdict === 'improvement');
    if (moved.length === 0) {
      const shown = work.filter((v) => (v.base?.median ?? 0) > 0).slice(0, WORK_COUNTERS_SHOWN);
      return `**Server work of ${code(t.test)}** (counted on the same fixed work): none of its ${work.length} gated counters moved${shown.length > 0 ? ` (${shown.map((v) => `${name(v)} ${median(v.base)} → ${median(v.candidate)}`).join(', ')})` : ''}: the same work per operation, so the instructions above are more CPU for the same rows and pages.\n\n`;
    }
    const listed = moved.slice(0, WORK_COUNTERS_SHOWN).map((v) => `${name(v)} ${median(v.base)} → ${median(v.candidate)} (${v.verdict})`);
    const more = moved.length - listed.length;
    return `**Server work of ${code(t.test)}** (counted on the same fixed work): ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}; ${work.length - moved.length} other counters unchanged: the release does more (or other) work per operation, not only the same work at a higher CPU cost.\n\n`;
  }
  const timed = comparison.timedWork?.find((w) => w.test === t.test);
  const counters = (timed?.counters ?? []).filter((x) => x.base !== null && x.candidate !== null && Math.max(x.base, x.candidate) >= TIMED_WORK_FLOOR).slice(0, WORK_COUNTERS_SHOWN);
  if (counters.length === 0) return '';
  return `**Server work of ${code(t.test)} on the timed repeats** (context, not gated: each release did as much work as it managed in the repeats' seconds; the counters that moved most, base → candidate per operation): ${counters.map((x) => `${counterWords(x.counter)}/op ${formatValue(x.base)} → ${formatValue(x.candidate)}`).join(', ')}.\n\n`;
}

/**
 * @param {ReportedVerdict} t
 * @returns {t is ReportedVerdict & {functions: NonNullable<ReportedVerdict['functions']>}} an
 *   instructions-per-operation verdict that carries where its instructions went
 */
export function hasFunctions(t) {
  return t.metric === 'instructionsPerOp' && Boolean(t.functions);
}

/**
 * One verdict's "where the instructions went" section, bounded (at most 8 functions each way,
 * 5,000 characters), as issues, check runs and pull-request comments show it.
 * @param {ReportedVerdict & {functions: NonNullable<ReportedVerdict['functions']>}} t
 * @param {Comparison} comparison
 * @returns {string} Markdown, ending with a newline
 */
export function renderFunctionSection(t, comparison) {
  return renderFunctionDiff({ ...t.functions, functions: [] }, {
    format: 'markdown', limit: 8, maxChars: 5000,
    title: `Where the instructions went: ${t.test}`,
    baseLabel: comparison.base.version, candidateLabel: comparison.candidate.version, namingCommand: namingCommand(comparison),
  });
}

/**
 * @param {ReportedVerdict[]} regressed
 * @param {Comparison} comparison
 */
function renderTable(regressed, comparison) {
  const rows = [
    '| test | group | metric | baseline median (min–max, n) | candidate median (min–max, n) | ratio | CI | change | issue threshold | smallest detectable | rerun ratio (CI) |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const t of regressed) {
    const threshold = t.threshold?.issue ?? comparison.thresholds.tests?.[t.test]?.issue ?? comparison.thresholds.groups[t.group]?.issue;
    const metric = `${t.metric}${t.unit ? ` (${t.unit})` : ''}${t.higherIsBetter ? ' ↑' : ' ↓'}`;
    const rerun = t.confirmation ? `${formatRatio(t.confirmation.ratio)} ${formatInterval(t.confirmation.ci)}` : 'n/a';
    rows.push(`| ${t.test} | ${t.group} | ${metric} | ${formatStats(t.base, { count: true })} | ${formatStats(t.candidate, { count: true })} | ${formatShownRatio(computeShownRatio({ verdict: t, counted: isCountedVerdict(t) }))} | ${formatInterval(t.ci)} | ${formatChange(t)} | ${formatEffect(t, threshold)} | ${formatDetectable(t, t.mde)} | ${rerun} |`);
  }
  rows.push('', '↑ higher is better, ↓ lower is better. Ratio = the verdict\'s estimate, the one every page and report shows (paired by round: the geometric mean of the rounds\' ratios; otherwise candidate median / baseline median); CI = its confidence interval as computed by `tagbench compare`.');
  return rows.join('\n');
}

/**
 * @param {import('./types.js').AdHocOverrides} o
 * @returns {string} e.g. `base 10.11.17, my.cnf small, tests point-query`
 */
export function describeOverrides(o) {
  const parts = [];
  if (o.base) parts.push(`base ${o.base}`);
  if (o.mycnf) parts.push(`my.cnf ${o.mycnf}`);
  if (o.only.length > 0) parts.push(`tests ${o.only.join(', ')}`);
  return parts.join('; ');
}

/** @param {Comparison} c */
function renderCounts(c) {
  return Object.entries(c.summary).map(([k, v]) => `${v} ${k}`).join(', ');
}

/** @param {string} s */
function code(s) {
  return '`' + String(s).replace(/`/g, "'") + '`';
}

/**
 * False issues measured by the calibrations the run cites (per meter, matched as "how sure"
 * matches them); without stored calibrations, the host class's report as before.
 * @param {Parameters<typeof describeHowSure>[0]} comparison
 * @param {{calibration?: import('../compare/index.js').HostCalibration|null, calibrations?: import('../types.js').Calibration[]}} context
 * @returns {string} a sentence, or '' when nothing was measured
 */
function falseIssueWords(comparison, context) {
  if (context.calibrations && context.calibrations.length > 0) return `False issues per A/A run, ${describeMeasuredFalseIssues(comparison, context.calibrations)}.`;
  const c = context.calibration;
  return c ? `On this host class ${c.runsWithFalseIssue} of ${c.runs} A/A calibration runs opened an issue (at most ${formatPercent(c.upper95)} per run, 95 % bound).` : '';
}
