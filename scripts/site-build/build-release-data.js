/**
 * The release page's data: every test's numbers and verdict, efficiency, latency, database
 * size, the sequence benchmarks' per-operation response times (build-latency-data.js), provenance, and the my.cnf / settings diff against the release it was compared with.
 * Pure.
 */
import { createTwoFilesPatch } from 'diff';
import { dataPaths } from '../../site/js/paths.js';
import { summarizeRepeats, summarizeCounted, throughputSteps, countedMeters } from './summarize-repeats.js';
import { SCHEMA_VERSION, testShownRatios } from './build-table-data.js';
import { METRICS, describeTestTimeAndWork, describeVerdict, isCountedVerdict, groupFunctionFindings, describeFindingChange } from '../compare/index.js';
import { buildLatencyData } from './build-latency-data.js';
import { namedFindings } from './build-findings.js';
import { testFunctionMoves } from './build-function-moves.js';

/** @import { RunRecord, TestVerdict, FunctionsData } from './types.js' */
/** @import { TableGroup, ReleaseGroup } from './group-tables.js' */


/**
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @param {ReturnType<typeof import('./build-calibration-data.js').hostCalibration>} [calibration]
 *   the host class's calibration: what it caught of known slowdowns (the page's "how sure")
 * @param {import('./types.js').DeletedTags|null} [deletedTags] tags upstream deleted (watch)
 * @returns {{path: string, data: unknown, functions: {path: string, data: FunctionsData}|null}}
 *   functions: where the instructions went, when the release's comparison has it
 */
export function buildReleaseData(table, rel, calibration = null, deletedTags = null) {
  const { key } = table;
  const comparison = rel.comparison?.comparison ?? null;
  const against = pickReference(table, rel);
  const where = { host: key.host, product: key.product, version: rel.version, suite: key.suite };
  const functions = releaseFunctions(rel, where);
  const first = rel.records[0];
  const data = {
    schemaVersion: SCHEMA_VERSION,
    ...key,
    productName: table.productName,
    version: rel.version,
    defaultBase: table.defaultBase,
    runs: releaseRuns(rel, where),
    mycnf: first ? first.config.mycnf.text : null,
    comparison: comparison && rel.comparison ? releaseComparison(rel.comparison.id, comparison, where, calibration, rel.comparison.howSure ?? null) : null,
    reference: against && first ? {
      version: against.version,
      source: against.source,
      runId: against.record.id,
      mycnfDiff: first.config.mycnf.text === against.record.config.mycnf.text ? null
        : createTwoFilesPatch(`${against.version}/${against.record.config.mycnf.name}`, `${rel.version}/${first.config.mycnf.name}`,
          against.record.config.mycnf.text, first.config.mycnf.text, '', '', { context: 2 }),
      settings: diffSettings(against.record, first),
    } : null,
    functions: functions?.path ?? null,
    belowThreshold: comparison ? belowThreshold(comparison) : null,
    tag: releaseTagStatus(key.product, [...rel.superseded, ...rel.records], deletedTags),
    // Inconclusive verdicts leaning the bad way (compare's findSuspects), most suspicious first.
    suspects: (rel.comparison?.suspects ?? []).map(slimSuspect),
    // Every regression and suspect by name: the first thing the page shows (build-findings.js).
    findings: rel.comparison ? namedFindings(rel.comparison.comparison, rel.comparison.suspects ?? []) : [],
    tests: releaseTests(table, rel),
    latencies: buildLatencyData(table, rel),
  };
  return { path: dataPaths.release(where), data, functions };
}

/**
 * Every test of the table on one release: its numbers, its throughput and instructions
 * verdicts, the comparison's other verdicts on it, its parameters.
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 */
function releaseTests(table, rel) {
  const verdictsOf = rel.comparison?.comparison.tests ?? [];
  // The table's counting meters: every release page of the table has the same counted columns.
  const meters = countedMeters(table.releases.flatMap((r) => r.records));
  const countedMetrics = meters.map((m) => m.metrics[0].name);
  return table.tests.map((t) => {
    const all = rel.records.flatMap((r) => r.steps.filter((s) => s.name === t.name));
    const { steps, timed } = throughputSteps(rel.records, t.name);
    const sum = summarizeRepeats(steps);
    const verdicts = verdictsOf.filter((v) => v.test === t.name);
    return {
      name: t.name, group: t.group, metric: t.metric,
      present: all.length > 0,
      timed,
      ...sum,
      verdict: pageVerdict(verdicts.find((v) => v.metric === 'throughput') ?? null),
      // Each counting meter's figures and verdict in its first metric, by meter name (a meter the
      // release did not count the test with is left out).
      counted: Object.fromEntries(meters.flatMap((m) => {
        const sum = summarizeCounted(all, m);
        return sum ? [[m.meter, sum]] : [];
      })),
      countedVerdicts: Object.fromEntries(meters.flatMap((m) => {
        const v = verdicts.find((x) => x.metric === m.metrics[0].name);
        return v ? [[m.meter, pageVerdict(v)]] : [];
      })),
      // The one ratio of each (the verdict's estimate, or not judged and why): scripts/compare/shown-ratio.js.
      ...testShownRatios(rel, table.releases, t.name, meters),
      otherVerdicts: verdicts.filter((v) => v.metric !== 'throughput' && !countedMetrics.includes(v.metric)).map(pageVerdict),
      // Whether the timed and the counted verdicts agree, in compare's words (null: one meter).
      timeAndWork: rel.comparison ? describeTestTimeAndWork(rel.comparison.comparison, t.name) : null,
      params: all[0]?.params ?? {},
    };
  });
}

/**
 * "Where the instructions went" of a release: its own file, when its comparison has it.
 * @param {ReleaseGroup} rel
 * @param {{host: string, product: string, version: string, suite: string}} where
 * @returns {{path: string, data: FunctionsData}|null}
 */
function releaseFunctions(rel, where) {
  const comparison = rel.comparison?.comparison;
  const moves = (comparison?.tests ?? []).filter((v) => v.functions);
  if (!comparison || !rel.comparison || moves.length === 0) return null;
  return {
    path: dataPaths.functions(where),
    data: {
      schemaVersion: SCHEMA_VERSION,
      ...where,
      comparisonId: rel.comparison.id,
      baseVersion: comparison.base.version,
      tests: moves.map((v) => /** @type {import('./build-function-moves.js').TestFunctionMoves} */ (testFunctionMoves(comparison, v.test))),
    },
  };
}

/** Functions the release page lists below the threshold; the rest are in the comparison file. */
const FINDINGS_SHOWN = 15;

/**
 * "Below the threshold, named": the functions that rose beyond their noise in the comparison's
 * instruction verdicts, whatever the tests' totals did (compare's groupFunctionFindings), with
 * only what the page's small table prints.
 * @param {import('./types.js').Comparison} comparison
 * @returns {import('./types.js').BelowThreshold|null} null when no verdict was judged per function
 */
function belowThreshold(comparison) {
  const judged = comparison.tests.filter((v) => v.functionFindings);
  if (judged.length === 0) return null;
  const named = groupFunctionFindings(judged);
  return {
    testsJudged: judged.length,
    more: Math.max(0, named.length - FINDINGS_SHOWN),
    functions: named.slice(0, FINDINGS_SHOWN).map((f) => ({
      name: f.name, object: f.object, change: describeFindingChange(f.tests[0].finding),
      tests: f.tests.map((t) => ({ test: t.test, deltaPerOp: t.finding.deltaPerOp, shareOfTotal: t.finding.shareOfTotal })),
    })),
  };
}

/**
 * The runs a release's numbers come from, then any of a commit its tag pointed at before it moved.
 * @param {ReleaseGroup} rel
 * @param {{host: string, product: string, version: string, suite: string}} where
 */
function releaseRuns(rel, where) {
  return [...rel.records, ...rel.superseded].map((r) => ({
    id: r.id, status: r.status, superseded: rel.superseded.includes(r), reason: r.reason ?? null, startedAt: r.startedAt, finishedAt: r.finishedAt,
    record: dataPaths.runRecord({ ...where, id: r.id }),
    release: r.release,
    host: r.host,
    config: {
      suite: r.config.suite, scale: r.config.scale, engine: r.config.engine, tools: r.config.tools,
      repeats: r.config.repeats, alternatedWith: r.config.alternatedWith ?? [],
      mycnf: { name: r.config.mycnf.name, sha256: r.config.mycnf.sha256 },
    },
    dbSize: r.dbSize,
  }));
}

/**
 * The release page's comparison: what it compared, how sure it is, and what the host class's
 * calibration caught of slowdowns of known size.
 * @param {string} id the comparison's id
 * @param {import('./types.js').Comparison} comparison
 * @param {{host: string, product: string, version: string, suite: string}} where
 * @param {ReturnType<typeof import('./build-calibration-data.js').hostCalibration>} calibration
 * @param {string|null} howSure the sentence compare words (the site build's, from the full verdicts)
 */
function releaseComparison(id, comparison, where, calibration, howSure) {
  return {
    id,
    file: dataPaths.comparison({ ...where, id }),
    createdAt: comparison.createdAt,
    base: comparison.base,
    candidate: comparison.candidate,
    thresholds: comparison.thresholds,
    summary: comparison.summary,
    // How sure, worded once (compare/how-sure.js) for the report, the issue, this page and home.
    howSure,
    // What this host class's calibration caught of slowdowns of known size (the page's note).
    calibration: calibration ? { file: calibration.file, measuredAt: calibration.measuredAt, falseIssues: calibration.falseIssues, detection: calibration.detection.map(({ slowdown, trials, detected }) => ({ slowdown, trials, detected })) } : null,
  };
}

/**
 * A release's tag upstream: runs made because it moved (their records say from which commit to
 * which), and whether watch found it deleted. Pure.
 * @param {string} product
 * @param {import('./types.js').RunRecord[]} records the release's runs
 * @param {import('./types.js').DeletedTags|null} deletedTags
 * @returns {import('./types.js').ReleaseTagStatus}
 */
export function releaseTagStatus(product, records, deletedTags) {
  const moved = records.filter((r) => r.release.movedFrom)
    .map((r) => ({ runId: r.id, tag: r.release.tag, from: /** @type {string} */ (r.release.movedFrom), to: r.release.commit }));
  const tags = new Set(records.map((r) => r.release.tag).filter(Boolean));
  const gone = (deletedTags?.deleted ?? []).filter((d) => d.product === product && tags.has(d.tag)).map((d) => d.tag);
  return { moved, deleted: gone.length > 0 && deletedTags ? { tags: [...new Set(gone)].sort(), checkedAt: deletedTags.checkedAt } : null };
}

/**
 * The fields of a verdict the release page shows (the compare stage adds evidence fields:
 * those stay in the comparison file, linked from the page, so release files stay small).
 * @template {import('./types.js').TestVerdict|null} V
 * @param {V} v
 * @returns {V}
 */
export function slimVerdict(v) {
  if (!v) return v;
  const { test, group, metric, higherIsBetter, ratio, ci, mde, verdict, reason, confirmed } = v;
  const evidence = /** @type {any} */ (v);
  return /** @type {V} */ (/** @type {unknown} */ ({
    test, group, metric, higherIsBetter, ratio, ci, mde, verdict, reason, confirmed: confirmed ?? false,
    // The verdict in words (never "unchanged" for an interval that excludes no change), and the
    // level and scale compare's time-and-work sentence reads, so the site's says what the report's does.
    words: describeVerdict(v), level: v.level ?? null, scale: v.scale ?? 'log',
    // the detectable effect per direction and the degrees of freedom of its noise (docs/method.md)
    mdeDrop: evidence.mdeDrop ?? null, mdeRise: evidence.mdeRise ?? null, noiseDf: evidence.noiseDf ?? null,
    base: v.base ? { median: v.base.median, n: v.base.n } : null,
    candidate: v.candidate ? { median: v.candidate.median, n: v.candidate.n } : null,
    // Counted metrics move by hundredths of a percent: readers print their ratios with more
    // decimals, and need to know which those are without a copy of compare's metric list.
    unit: v.unit ?? METRICS.find((m) => m.name === metric)?.unit ?? null, meter: meterOf(v), counted: isCountedVerdict(v),
    // How the page names a meter's metric: the meter's own fact (null for the timed repeat's own figures).
    label: evidence.label ?? null,
    // Shown, not gated: a counted verdict of the test decided its question (compare/context-verdicts.js).
    ...(v.context ? { context: true } : {}),
    // Bounded by the compare stage (10 functions a direction); the release page reads it from
    // a file of its own (buildReleaseData).
    ...(v.functions ? { functions: v.functions } : {}),
    // Bounded by the compare stage (20 a test): the release page's "Below the threshold, named".
    ...(v.functionFindings ? { functionFindings: v.functionFindings } : {}),
  }));
}

/**
 * Which meter measured a verdict's (or a suspect's) figures, as compare stamped it from the
 * records' meter facts (the store's reader for comparisons stored before): null for the timed
 * repeat's own figures (throughput, latency, ...), which every timed run measures.
 * @param {{metric: string, meter?: string}} v
 * @returns {string|null}
 */
export function meterOf(v) {
  return v.meter ?? null;
}

/**
 * A verdict as the release file holds it: without where the instructions went nor its function
 * findings (the page's own sections carry those).
 * @param {TestVerdict|null} v a slimVerdict()
 */
function pageVerdict(v) {
  if (!v) return null;
  const { functions: _moves, functionFindings: _findings, ...rest } = slimVerdict(v);
  return rest;
}

/**
 * Which release's settings to diff against: the comparison's base (what the verdicts used),
 * else the table's accepted baseline. None for the reference release itself.
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {{version: string, source: 'comparison'|'baseline', record: RunRecord}|null}
 */
function pickReference(table, rel) {
  const fromComparison = rel.comparison?.comparison.base;
  /** @type {{version: string, runIds: string[], source: 'comparison'|'baseline'}|null} */
  const ref = fromComparison ? { ...fromComparison, source: 'comparison' }
    : table.baseline ? { version: table.baseline.version, runIds: table.baseline.runIds, source: 'baseline' } : null;
  if (!ref || ref.version === rel.version) return null;
  const baseRel = table.releases.find((r) => r.version === ref.version);
  if (!baseRel || baseRel.records.length === 0) return null;
  const record = baseRel.records.find((r) => ref.runIds.includes(r.id)) ?? baseRel.records[0];
  return { version: ref.version, source: ref.source, record };
}

/**
 * Flatten the settings that decide a result (build, tools, scale, host, per-test tool options)
 * and list each with both values, flagging the ones that differ.
 * @param {RunRecord} base
 * @param {RunRecord} cand
 * @returns {{key: string, base: string|null, candidate: string|null, changed: boolean}[]}
 */
export function diffSettings(base, cand) {
  const a = flattenSettings(base);
  const b = flattenSettings(cand);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.map((key) => ({ key, base: a[key] ?? null, candidate: b[key] ?? null, changed: a[key] !== b[key] }));
}

/**
 * @param {RunRecord} r
 * @returns {Record<string, string>}
 */
function flattenSettings(r) {
  /** @type {Record<string, string>} */
  const out = {};
  /** @param {string} k @param {unknown} v */
  const put = (k, v) => { out[k] = Array.isArray(v) ? v.join(' ') : v === null || v === undefined ? '—' : String(v); };
  put('release.provider', r.release.provider);
  put('release.buildProfile', r.release.buildProfile);
  put('release.buildFlags', r.release.buildFlags);
  put('config.engine', r.config.engine);
  put('config.repeats', r.config.repeats);
  put('config.mycnf.name', r.config.mycnf.name);
  for (const [k, v] of Object.entries(r.config.scale ?? {})) put(`config.scale.${k}`, v);
  for (const [k, v] of Object.entries(r.config.tools ?? {})) put(`config.tools.${k}`, v);
  for (const k of /** @type {const} */ (['cpuModel', 'cores', 'kernel', 'memoryBytes', 'governor', 'turbo'])) put(`host.${k}`, r.host[k]);
  put('host.pinning.serverCpus', r.host.pinning?.serverCpus);
  put('host.pinning.clientCpus', r.host.pinning?.clientCpus);
  for (const step of r.steps) {
    for (const [k, v] of Object.entries(step.params ?? {})) put(`step.${step.name}.${k}`, v);
  }
  return out;
}

/**
 * What the pages show of a suspect: the verdict's numbers, why it leans, and the instances
 * (rounds) per side that would test the lean and settle the issue threshold, and whether its
 * metric is counted (its ratio is printed with more decimals).
 * @param {import('../compare/index.js').Suspect} s
 * @returns {import('../compare/index.js').Suspect & {counted: boolean}}
 */
export function slimSuspect(s) {
  const { test, metric, ratio, difference, interval, badShare, pastIssue, why, instances, settleInstances, estimateInstances, paired, settle } = s;
  return { test, metric, ratio, difference, interval, badShare, pastIssue, why, instances, settleInstances, estimateInstances, paired, settle, counted: isCountedVerdict(s) };
}
