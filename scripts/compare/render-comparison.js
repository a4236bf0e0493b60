/**
 * Render the verdicts of one comparison (candidate vs base) for the terminal or as Markdown:
 * a summary, a table with the numbers of every gated metric (ratio, interval, noise, MDE),
 * and the reason of every verdict other than unchanged.
 */
import { findSuspects, SUSPECT_BAD_SHARE, SUSPECT_PAST_ISSUE_SHARE } from './suspects.js';
import { describeHowSure, describeMeasuredFalseIssues } from './how-sure.js';
import { formatDetectable, formatPercent, formatRatio, formatStats, formatValue, UNDETECTABLE } from '../format-number.js';
import { renderFunctionDiff } from './function-diff.js';
import { namingCommand } from './unnamed-code.js';
import { renderFunctionFindings } from './render-function-findings.js';
import { WARMUP_STEADY_SHARE } from './warm-up.js';
import { formatMs } from './latency-resolution.js';
import { renderCountedTable } from './render-counted-table.js';
import { renderTimedWork } from './timed-work.js';
import { renderCountedTypes } from './counted-types.js';
import { describeVerdict, labelVerdict as label } from './verdict-words.js';
import { renderContextLines } from './context-verdicts.js';
import { compareTimeAndWork } from './time-and-work.js';
import { renderTimeAndWork } from './render-time-and-work.js';
import { computeShownRatio, formatShownRatio, SHOWN_RATIO_DIGITS } from './shown-ratio.js';
import { isCountedVerdict } from './metrics.js';
import { renderUntrustedText } from './markdown-text.js';

/** @typedef {import('./types.js').FullComparison} FullComparison */

/**
 * A verdict's ratio or a not-judged metric's, as every page and file prints it (./shown-ratio.js).
 * @param {{verdict?: import('./types.js').FullVerdict, notJudged?: {test: string, metric: string, reason: string, ratio?: number}}} of
 */
function shownText(of) {
  const metric = of.verdict ?? /** @type {{metric: string}} */ (of.notJudged);
  return formatShownRatio(computeShownRatio({ verdict: of.verdict ?? null, notJudged: of.notJudged ?? null, counted: isCountedVerdict(of.verdict ?? metric) }));
}

/**
 * A name from the records (test, metric, run id, version) as inert Markdown: a pull request's run
 * hands its records back, so its names are the author's (markdown-text.js). Escaped rather than a
 * code span, so that a plain name reads as before.
 * @param {string|number} text
 * @returns {string}
 */
function asText(text) {
  return renderUntrustedText(String(text), { span: false });
}

const ORDER = /** @type {const} */ (['regression', 'failed', 'inconclusive', 'improvement', 'unchanged']);

/** @typedef {import('./how-sure.js').HostCalibration} MeasuredFalseIssues */

/**
 * @param {FullComparison} cmp
 * @param {{format: 'markdown'|'terminal', color?: boolean, calibration?: MeasuredFalseIssues|null, calibrations?: import('../types.js').Calibration[], functions?: 'changed'|'all'}} options
 *   calibration: the host class's false-issue rate; calibrations: its stored calibrations, which
 *   the "how sure" sentence (first after the title) chooses from
 *   functions: where the instructions went, for instruction regressions and improvements
 *   (default `changed`) or for every instruction verdict that has it (`all`: compare --functions)
 * @returns {string} text ending with a newline
 */
export function renderComparison(cmp, options) {
  const md = options.format === 'markdown';
  const out = [];
  const title = `${cmp.product} ${cmp.candidate.version} vs ${cmp.base.version} (${cmp.suite}, ${cmp.hostClass})`;
  const counts = `${ORDER.map((k) => `${cmp.summary[k]} ${k}`).join(', ')}${cmp.tests.some((t) => t.context) ? `; ${cmp.tests.filter((t) => t.context).length} context (shown, not gated)` : ''}`;
  const th = /** @type {any} */ (cmp.thresholds);
  const pairedCount = cmp.tests.filter((t) => t.pairedRounds).length;
  const independent = `ratio of medians, exact rank interval at ${formatPercent(th.confidence ?? 0.9)}`;
  const paired = `paired by round (releases side by side): geometric mean of the rounds' ratios, paired t interval at ${formatPercent(th.confidence ?? 0.9)}`;
  const design = pairedCount === 0 ? independent : pairedCount === cmp.tests.length ? paired : `${paired} for ${pairedCount} of ${cmp.tests.length} verdicts, else ${independent}`;
  const method = `${design}, MDE at power ${formatPercent(th.power ?? 0.8)}`;
  const sure = describeHowSure(cmp, options.calibrations ?? []);
  const extra = [familyLine(cmp, options.calibration ?? null, options.calibrations), adaptiveLine(cmp, md ? asText : String)].filter(Boolean);
  if (md) {
    out.push(`## ${asText(title)}\n\n${sure ? `**How sure:** ${sure}\n\n` : ''}${counts}. Method: ${method} (docs/method.md). Runs: base ${cmp.base.runIds.map(asText).join(', ')}; candidate ${cmp.candidate.runIds.map(asText).join(', ')}.\n\n`);
    for (const line of extra) out.push(`${line}\n\n`);
    // The 30-second view first: one row per test, as the terminal prints it; every figure after.
    out.push(renderGlance(cmp), renderTimedWork(cmp, 'markdown'));
    out.push('\n**Every gated metric**\n\n');
    out.push('| test | metric | base | candidate | instances | ratio | interval | noise (df) | MDE drop | MDE rise | MDE for an issue | threshold | p worse / better (Holm) | verdict |\n| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n');
    for (const t of cmp.tests) {
      const metric = t.resolutionMs ? `${asText(t.metric)} (in steps of ${formatMs(t.resolutionMs)})` : asText(t.metric);
      out.push(`| ${asText(t.test)} | ${metric} | ${formatStats(t.base)} | ${formatStats(t.candidate)} | ${t.pairedRounds ? `${t.pairedRounds} rounds, paired` : `${t.base?.n ?? 0} vs ${t.candidate?.n ?? 0}`} | ${shownText({ verdict: t })} | ${interval(t)} | ${noise(t)}${t.noiseDf && t.noiseCv !== 0 ? ` (${t.noiseDf})` : ''} | ${formatDetectable(t, t.mdeDrop)} | ${formatDetectable(t, t.mdeRise)} | ${issueMde(t, cmp, md)} | ${change(t, t.threshold.issue)} | ${holmP(t)} | ${label(t)} |\n`);
    }
    out.push(renderSuspects(cmp, true));
    out.push(renderTimeAndWork(compareTimeAndWork(cmp), 'markdown'));
    const notable = cmp.tests.filter((t) => t.verdict !== 'unchanged' || t.context);
    if (notable.length > 0) {
      out.push('\n');
      for (const t of notable) out.push(`- **${asText(t.test)}** ${asText(t.metric)}: ${label(t)}: ${asText(t.reason)}\n`);
    }
    out.push(renderCountedTable(cmp, { format: 'markdown' }), renderCountedTypes(cmp, 'markdown'));
    out.push(renderFunctionSections(cmp, 'markdown', options.functions ?? 'changed'), renderFunctionFindings(cmp.tests, 'markdown'));
    if (cmp.notJudged?.length) {
      out.push('\nNot judged:\n\n');
      for (const n of cmp.notJudged) out.push(`- ${asText(n.test)} ${asText(n.metric)}: ${asText(n.reason)} (ratio ${shownText({ notJudged: n })}, not judged)\n`);
    }
    if (cmp.warmups?.length) out.push(`\n${warmupLines(cmp.warmups, true)}`);
    if (cmp.rocksdb?.length) {
      out.push(`\n${ROCKSDB_TITLE}:\n\n| test | repeats | write amp | stalls (s) | SST bytes / raw |\n| --- | ---: | ---: | ---: | ---: |\n`);
      for (const r of cmp.rocksdb) out.push(`| ${asText(r.test)} | ${rocksdbCells(r).join(' | ')} |\n`);
    }
    return out.join('');
  }
  out.push(`${title}: ${counts}\n${sure ? `how sure: ${sure}\n` : ''}`);
  out.push(`method: ${method}\n`);
  for (const line of extra) out.push(`${line}\n`);
  out.push('\n');
  const color = options.color === true;
  out.push(renderThroughputLines(cmp.tests.filter((t) => t.metric === 'throughput'), color, cmp));
  out.push(renderUnjudgedLines(cmp, 'throughput'), renderTimedWork(cmp, 'text'));
  const counted = cmp.tests.filter((t) => t.metric === 'instructionsPerOp');
  if (counted.length > 0) out.push(`\n${renderInstructionLines(counted, color, cmp)}`);
  out.push(renderTimeAndWork(compareTimeAndWork(cmp), 'text'));
  out.push(renderUnjudgedLines(cmp, 'instructionsPerOp'));
  // Every metric's numbers are in the Markdown and JSON; the terminal spells out only the
  // verdicts that call for action, so a noisy host does not bury them under "inconclusive".
  const notable = cmp.tests.filter((t) => !t.context && (t.verdict === 'regression' || t.verdict === 'improvement' || t.verdict === 'failed'));
  if (notable.length > 0) out.push('\nwhy:\n');
  for (const t of notable) out.push(paint(`  ${label(t).padEnd(22)} ${t.test} ${t.metric}: ${t.reason}`, t, color));
  out.push(renderSuspects(cmp, false), renderContextLines(cmp.tests));
  out.push(renderCountedTable(cmp, { format: 'terminal' }), renderCountedTypes(cmp, 'text'));
  out.push(renderFunctionSections(cmp, 'text', options.functions ?? 'changed'), renderFunctionFindings(cmp.tests, 'text'));
  const quiet = cmp.tests.filter((t) => !t.context && t.metric !== 'throughput' && t.metric !== 'instructionsPerOp' && (t.verdict === 'inconclusive' || t.verdict === 'unchanged')).length;
  if (quiet > 0) out.push(`\n${quiet} other metric verdicts (latency, CPU/op, KB written/op, QoS, whole-process instructions) are inconclusive or within their thresholds: every number is in --markdown / --json.\n`);
  if (cmp.notJudged?.length) {
    const byMetric = new Map();
    for (const n of cmp.notJudged) byMetric.set(n.metric, [...(byMetric.get(n.metric) ?? []), n]);
    out.push(`\nnot judged (below a floor, within noise of zero, or too short a window): ${[...byMetric].map(([m, list]) => `${m} of ${list.length} test(s), e.g. ${list[0].test}: ${list[0].reason}`).join('; ')}\n`);
  }
  if (cmp.warmups?.length) out.push(`\n${warmupLines(cmp.warmups, false)}`);
  if (cmp.rocksdb?.length) {
    const rows = [['test', 'repeats', 'write amp', 'stalls (s)', 'SST bytes / raw'], ...cmp.rocksdb.map((r) => [r.test, ...rocksdbCells(r)])];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    out.push(`\n${ROCKSDB_TITLE}:\n`);
    for (const row of rows) out.push(`  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}\n`);
  }
  return out.join('');
}

/**
 * What the warm-up rule left out (scripts/compare/warm-up.js): a heading, then one line per test.
 * @param {import('../types.js').WarmupExclusion[]} warmups
 * @param {boolean} md a Markdown list, else indented lines
 * @returns {string}
 */
function warmupLines(warmups, md) {
  const seconds = (/** @type {number[]} */ list) => {
    if (list.length === 0) return 'none';
    const lo = Math.min(...list);
    const hi = Math.max(...list);
    const s = (/** @type {number} */ v) => String(Number(v.toFixed(1)));
    return lo === hi ? `${s(lo)} s` : `${s(lo)}–${s(hi)} s`;
  };
  const lines = warmups.map((w) => {
    const ramping = w.stillRamping > 0
      ? `; ${w.stillRamping} of ${w.base.length + w.candidate.length} repeats were still climbing at half-time (their second half was judged: a longer step would reach its steady rate)`
      : '';
    return `${md ? '- ' : '  '}${md ? asText(w.test) : w.test}: the first ${seconds(w.base)} of the base's repeats, ${seconds(w.candidate)} of the candidate's${ramping}\n`;
  });
  return `warm-up left out of the judged throughput and per-second figures (a repeat's first seconds below ${Math.round(WARMUP_STEADY_SHARE * 100)} % of its steady per-second rate, at most half of them; docs/method.md):\n${md ? '\n' : ''}${lines.join('')}`;
}

/**
 * The suspects (findSuspects): inconclusive verdicts leaning the bad way, apart from the noise,
 * with what would settle each.
 * @param {FullComparison} cmp
 * @param {boolean} md
 * @returns {string} empty when there are none
 */
function renderSuspects(cmp, md) {
  const suspects = findSuspects(cmp);
  if (suspects.length === 0) return '';
  const intro = `suspects: ${suspects.length} inconclusive throughput or instruction verdict(s) lean the bad way (at least ${formatPercent(SUSPECT_BAD_SHARE)} of the interval on the bad side of no change, or ${formatPercent(SUSPECT_PAST_ISSUE_SHARE)} with the estimate past the issue threshold); leads, not findings: about one noise verdict in ten leans this far by chance`;
  const value = (/** @type {import('./suspects.js').Suspect} */ s) => (s.ratio !== null
    ? `${formatRatio(s.ratio)} [${formatRatio(s.interval[0])}, ${formatRatio(s.interval[1])}]`
    : `${formatValue(s.difference)} [${formatValue(s.interval[0])}, ${formatValue(s.interval[1])}]`);
  if (md) {
    return `\n**Suspects.** ${intro.slice('suspects: '.length)}.\n\n| test | metric | ratio [interval] | why | what would settle it |\n| --- | --- | --- | --- | --- |\n${suspects.map((s) => `| ${asText(s.test)} | ${asText(s.metric)} | ${value(s)} | ${s.why} | ${s.settle} |\n`).join('')}`;
  }
  return `\n${intro}:\n${suspects.map((s) => `  ${s.test} ${s.metric} ${value(s)}: ${s.why}; ${s.settle}\n`).join('')}`;
}

const ROCKSDB_TITLE = 'RocksDB figures, base → candidate (informational, never judged: medians over the repeats of MyRocks servers; – = none, e.g. InnoDB)';

/**
 * A RocksDB row's cells after the test, each `base → candidate`.
 * @param {import('../types.js').RocksdbComparison} r
 * @returns {string[]}
 */
function rocksdbCells(r) {
  const pair = (/** @type {(side: import('../types.js').RocksdbSide) => number|null} */ pick) =>
    `${r.base ? formatValue(pick(r.base)) : '–'} → ${r.candidate ? formatValue(pick(r.candidate)) : '–'}`;
  return [`${r.base?.repeats ?? 0} vs ${r.candidate?.repeats ?? 0}`, pair((s) => s.writeAmp), pair((s) => s.stallS), pair((s) => s.spaceAmp)];
}

/**
 * What reaches a person, controlled over the run: the design bound and what the calibrations the
 * run cites measured (per meter, matched as the "how sure" sentence matches them); without the
 * stored calibrations, the host class's report as before.
 * @param {FullComparison} cmp
 * @param {MeasuredFalseIssues|null} calibration
 * @param {import('../types.js').Calibration[]} [calibrations]
 * @returns {string}
 */
function familyLine(cmp, calibration, calibrations) {
  const f = cmp.family;
  if (!f) return 'issues: judged test by test (a confirmation rerun)';
  const measured = calibrations ? `measured by the calibrations this run cites: ${describeMeasuredFalseIssues(cmp, calibrations)}`
    : calibration ? `measured on this host class: ${calibration.runsWithFalseIssue} of ${calibration.runs} A/A runs opened an issue (95 % upper bound ${formatPercent(calibration.upper95)} per run, ${calibration.file})`
      : 'not yet measured on this host class (run tagbench calibrate)';
  // A paired verdict (t over the rounds) has no floor on its p-value; the exact rank-sum test does.
  const unpaired = cmp.tests.some((t) => !t.pairedRounds && t.pWorse !== null && t.pWorse !== undefined);
  const floor = unpaired ? ` An issue judged on independent instances needs at least ${f.minInstances} instances per side.` : '';
  // Split between meters: each meter's level and family size, their levels adding up to alpha at most.
  const rule = f.meters && f.meters.length > 1
    ? `${formatPercent(f.alpha)} split between the meters, Holm within each over its gated verdicts (${f.meters.map((m) => `${m.meter ?? 'timed repeats'} ${formatPercent(m.alpha, { digits: 2 })} over ${m.size}`).join(', ')})`
    : `Holm over ${f.size} gated verdicts at ${formatPercent(f.alpha)}`;
  return `issues: ${rule}: expected false issues per run at most ${formatValue(f.alpha)} before the confirmation rerun; ${measured}.${floor}`;
}

/**
 * @param {FullComparison} cmp
 * @param {(name: string) => string} name how a test's name is written (inert in Markdown)
 * @returns {string}
 */
function adaptiveLine(cmp, name) {
  const a = cmp.adaptive;
  if (!a) return '';
  // Grouped by count: a long suite would otherwise print one entry per test.
  /** @type {Map<number, string[]>} */
  const byCount = new Map();
  for (const [test, n] of Object.entries(a.instancesNeeded)) byCount.set(n, [...(byCount.get(n) ?? []), test]);
  const needed = [...byCount].sort((x, y) => y[0] - x[0])
    .map(([n, tests]) => `${n} for ${tests.length <= 6 ? tests.map(name).join(', ') : `${tests.length} tests`}`).join('; ');
  return `adaptive repeats: ${a.rounds} round(s) in ${a.seconds} s of a ${a.budgetS} s budget resolved ${a.resolved} of ${a.undecidedBefore} undecided verdicts${needed ? ` (instances per side: ${needed})` : ''}; stopped: ${a.stopped}`;
}

/**
 * Both directions' Holm-adjusted p-values: a regression's issue needs the first at or below the
 * family's alpha, an improvement's the second (its reason cites that one).
 * @param {import('./types.js').FullVerdict} t
 * @returns {string}
 */
function holmP(t) {
  if (t.pAdjusted === null || t.pAdjusted === undefined) return 'n/a';
  return `${formatP(t.pAdjusted)} / ${formatP(t.pAdjustedBetter)}`;
}

/** @param {number|null|undefined} p */
function formatP(p) {
  if (p === null || p === undefined) return 'n/a';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/**
 * One aligned line per test: the throughput verdict with ratio, interval, noise and the
 * minimum detectable effect, so the reader sees how small a change each test could catch.
 * @param {import('./types.js').FullVerdict[]} tests
 * @param {boolean} color
 * @param {FullComparison} cmp
 */
function renderThroughputLines(tests, color, cmp) {
  if (tests.length === 0) return '';
  const width = Math.max(4, ...tests.map((t) => t.test.length));
  const head = `${'test'.padEnd(width)}  ${'ratio'.padStart(6)}  ${'interval'.padEnd(13)}  ${'noise'.padStart(7)}  ${'MDE'.padStart(8)}  ${'issue MDE'.padStart(10)}  verdict\n`;
  const lines = tests.map((t) => paint(`${t.test.padEnd(width)}  ${shownText({ verdict: t }).padStart(6)}  ${interval(t).padEnd(13)}  ${noise(t).padStart(7)}  ${formatDetectable(t, t.mde, { short: true }).padStart(8)}  ${issueMde(t, cmp, false).padStart(10)}  ${label(t)}`, t, color));
  const pairedNote = tests.some((t) => t.pairedRounds) ? ', or per side of the rounds\' ratio when paired by round' : '';
  return `throughput verdicts (noise = CV between server instances${pairedNote}; MDE = smallest drop the test's interval can detect; issue MDE = smallest drop that can open an issue, at its meter's share of the run's family-wise level; ${UNDETECTABLE.short}: ${UNDETECTABLE.long}):\n${head}${lines.join('')}`;
}

/**
 * The instructions meter's query-path verdicts, one line each: counted figures move by
 * hundredths of a percent, so the ratio gets five decimals.
 * @param {import('./types.js').FullVerdict[]} tests
 * @param {boolean} color
 * @param {FullComparison} cmp
 */
function renderInstructionLines(tests, color, cmp) {
  const width = Math.max(4, ...tests.map((t) => t.test.length));
  const perOp = (/** @type {{median: number}|null} */ side) => (side ? Math.round(side.median).toLocaleString('en-US') : '–');
  const head = `${'test'.padEnd(width)}  ${'base/op'.padStart(11)}  ${'cand./op'.padStart(11)}  ${'ratio'.padStart(8)}  ${'interval'.padEnd(17)}  ${'noise'.padStart(7)}  ${'issue MDE'.padStart(10)}  verdict\n`;
  const ci = (/** @type {import('./types.js').FullVerdict} */ t) => (t.ci ? `${formatRatio(t.ci[0], { digits: 5 })}–${formatRatio(t.ci[1], { digits: 5 })}` : 'n/a');
  const lines = tests.map((t) => paint(`${t.test.padEnd(width)}  ${perOp(t.base).padStart(11)}  ${perOp(t.candidate).padStart(11)}  ${shownText({ verdict: t }).padStart(8)}  ${ci(t).padEnd(17)}  ${noise(t).padStart(7)}  ${issueMde(t, cmp, false).padStart(10)}  ${label(t)}`, t, color));
  const decided = tests.filter((t) => t.verdict !== 'inconclusive' && t.verdict !== 'failed').length;
  return `instructions per operation in the query path (counted under callgrind, ${decided} of ${tests.length} decided):\n${head}${lines.join('')}`;
}

/**
 * The tests a metric was not judged for, each with the ratio shown for it and why, under the
 * verdicts' lines: a test without a verdict still has its ratio, marked.
 * @param {FullComparison} cmp
 * @param {string} metric
 * @returns {string} empty when every test of the metric was judged
 */
function renderUnjudgedLines(cmp, metric) {
  const list = (cmp.notJudged ?? []).filter((n) => n.metric === metric);
  if (list.length === 0) return '';
  const width = Math.max(4, ...list.map((n) => n.test.length));
  return `${metric} not judged (ratio shown, not a verdict):\n${list.map((n) => `${n.test.padEnd(width)}  ${shownText({ notJudged: n }).padStart(6)}  ${n.reason}\n`).join('')}`;
}

/**
 * Where the instructions went, for each instruction verdict that calls for it.
 * @param {FullComparison} cmp
 * @param {'text'|'markdown'} format
 * @param {'changed'|'all'} which
 * @returns {string}
 */
function renderFunctionSections(cmp, format, which) {
  const shown = cmp.tests.filter((t) => t.metric === 'instructionsPerOp' && t.functions && (which === 'all' || t.verdict === 'regression' || t.verdict === 'improvement'));
  return shown.map((t) => `\n${renderFunctionDiff({ ...(/** @type {NonNullable<typeof t.functions>} */ (t.functions)), functions: [] }, {
    // The terminal keeps every verdict's section short when all are shown (compare --functions).
    format, limit: format === 'markdown' ? 10 : which === 'all' ? 3 : 5,
    title: `Where the instructions went: ${t.test} (${t.verdict}, ${cmp.candidate.version} vs ${cmp.base.version})`,
    baseLabel: cmp.base.version, candidateLabel: cmp.candidate.version, namingCommand: namingCommand(cmp),
  })}`).join('');
}

/**
 * The Markdown report's first table: each test's throughput verdict (ratio, interval, smallest
 * detectable drop, verdict) and, where counted, its instructions verdict, one row per test.
 * @param {FullComparison} cmp
 * @returns {string} Markdown, empty without throughput or counted verdicts
 */
function renderGlance(cmp) {
  const timed = cmp.tests.filter((t) => t.metric === 'throughput');
  const counted = new Map(cmp.tests.filter((t) => t.metric === 'instructionsPerOp').map((t) => [t.test, t]));
  const unjudged = (/** @type {string} */ test, /** @type {string} */ metric) => cmp.notJudged?.find((n) => n.test === test && n.metric === metric);
  const countedUnjudged = (cmp.notJudged ?? []).filter((n) => n.metric === 'instructionsPerOp');
  if (timed.length === 0 && counted.size === 0 && !cmp.notJudged?.some((n) => n.metric === 'throughput')) return '';
  const tests = [...new Set([...timed.map((t) => t.test), ...counted.keys(), ...(cmp.notJudged ?? []).filter((n) => n.metric === 'throughput' || n.metric === 'instructionsPerOp').map((n) => n.test)])];
  const rows = tests.map((name) => {
    const t = timed.find((x) => x.test === name);
    const c = counted.get(name);
    const [tn, cn] = [unjudged(name, 'throughput'), unjudged(name, 'instructionsPerOp')];
    const timedCells = t ? [shownText({ verdict: t }), interval(t), formatDetectable(t, t.mde), `**${label(t)}**`]
      : tn ? [shownText({ notJudged: tn }), '–', '–', 'not judged (see below)'] : ['–', '–', '–', 'not timed'];
    const countedCells = counted.size === 0 && countedUnjudged.length === 0 ? [] : c
      ? [shownText({ verdict: c }), c.ci ? `${formatRatio(c.ci[0], { digits: 5 })}–${formatRatio(c.ci[1], { digits: 5 })}` : 'n/a', `**${label(c)}**`]
      : cn ? [shownText({ notJudged: cn }), '–', 'not judged (see below)'] : ['–', '–', 'not counted'];
    return `| ${asText(name)} | ${[...timedCells, ...countedCells].join(' | ')} |\n`;
  });
  const head = counted.size === 0 && countedUnjudged.length === 0
    ? '| test | ratio | interval | smallest detectable drop | verdict |\n| --- | ---: | --- | ---: | --- |\n'
    : '| test | ratio | interval | smallest detectable drop | verdict | instructions/op ratio | interval | instructions verdict |\n| --- | ---: | --- | ---: | --- | ---: | --- | --- |\n';
  return `**At a glance**: throughput (timed)${counted.size ? ' and instructions per operation in the query path (counted)' : ''}, one row per test; the ratio is the verdict's own estimate, or, for a test not judged, the ratio of medians marked so.\n\n${head}${rows.join('')}`;
}

/**
 * @param {string} text
 * @param {import('./types.js').FullVerdict} t
 * @param {boolean} color
 */
function paint(text, t, color) {
  if (!color || t.verdict === 'unchanged') return `${text}\n`;
  const code = t.verdict === 'regression' ? '\x1b[31m' : t.verdict === 'improvement' ? '\x1b[32m' : t.verdict === 'failed' ? '\x1b[35m' : '\x1b[33m';
  return `${code}${text}\x1b[0m\n`;
}

/** @param {import('./types.js').FullVerdict} t */
function interval(t) {
  // A counted interval at the digits of its ratio: at three decimals it read "1.003–1.003".
  const digits = isCountedVerdict(t) ? SHOWN_RATIO_DIGITS.counted : SHOWN_RATIO_DIGITS.timed;
  if (t.ci) return `${formatRatio(t.ci[0], { digits })}–${formatRatio(t.ci[1], { digits })}`;
  if (t.differenceCi) return `${formatValue(t.differenceCi[0])}…${formatValue(t.differenceCi[1])}`;
  return 'n/a';
}

/** @param {import('./types.js').FullVerdict} t */
function noise(t) {
  // No spread at all between the rounds (a counter that repeated exactly): not "0.0 %".
  return t.noiseCv === 0 ? 'none' : change(t, t.noiseCv);
}

/**
 * The issue-level detectable change, or how many instances it still needs.
 * @param {import('./types.js').FullVerdict} t
 * @param {FullComparison} cmp
 * @param {boolean} long Markdown's words for an undetectable change, else the terminal's
 */
function issueMde(t, cmp, long) {
  if (t.mdeIssue !== null && t.mdeIssue !== undefined) return formatDetectable(t, t.mdeIssue, { short: !long });
  if (t.context) return 'not gated';
  return cmp.family && !t.pairedRounds && t.pWorse !== null && t.pWorse !== undefined ? `needs ${cmp.family.minInstances}` : 'n/a';
}

/**
 * A relative figure for ratio metrics, an amount in the unit for difference metrics.
 * @param {import('./types.js').FullVerdict} t
 * @param {number|null|undefined} v
 * @returns {string} `n/a` for null
 */
function change(t, v) {
  return t.scale === 'log' ? formatPercent(v) : formatValue(v);
}
