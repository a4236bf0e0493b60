/**
 * The response times the sequence benchmarks record of each operation: LinkBench's
 * per-operation latencies (ADD_LINK, GET_NODE, … p25–p99, max, mean) and the insert benchmark's
 * response times per statement kind (insert, delete, query: avg, p50–p99, max), per step, for a
 * release beside its base. The release page (scripts/site-build/build-latency-data.js) and the
 * Markdown report of `tagbench compare` show the same tables. Informational: no verdict is drawn
 * from them. Pure.
 */
import { formatQps, formatValue } from '../format-number.js';
import { wholeMsReading, formatWholeMs } from './latency-resolution.js';

/** @import { RunRecord, Repeat } from '../types.js' */

/**
 * Median of a list of numbers, exact (not interpolated: the release page and the report print the
 * same figure) (mean of the two middle values when the count is even).
 * @param {(number|null|undefined)[]} values non-numbers are left out
 * @returns {number|null} null when no number is left
 */
export function medianOfFinite(values) {
  const xs = /** @type {number[]} */ (values.filter((v) => typeof v === 'number' && Number.isFinite(v))).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/**
 * @typedef {object} OperationTimes one operation of one repeat, in ms
 * @property {string} op
 * @property {number} count operations timed in the repeat
 * @property {Record<string, number|null>} ms a value per column of its benchmark
 * @property {string} format how the driver measured it (see LatencyTable.formats)
 * @property {boolean} failed the repeat failed
 */

/**
 * @typedef {object} LatencyFigures one operation of one step of one release
 * @property {number} repeats repeats that timed the operation
 * @property {number} failedRepeats of those, repeats that failed and kept their figures (an
 *   insert-benchmark query step whose writers missed their target: its times are real, and
 *   they may be why)
 * @property {number|null} count median operations per repeat
 * @property {Record<string, number|null>} ms per column: the median over those repeats
 */

/**
 * @typedef {object} LatencyRow
 * @property {string} step
 * @property {string|null} engine the runs' engine when the release or its base ran several; else null
 * @property {string} op
 * @property {LatencyFigures|null} release null: the release's runs did not time it
 * @property {LatencyFigures|null} base null without a base, or when the base's runs did not time it
 */

/**
 * @typedef {object} LatencyTable
 * @property {string[]} columns the figures of each operation, in ms
 * @property {string[]} formats how the values were measured: LinkBench's `hdr` (an HDR
 *   histogram, µs resolution) or `bucketed` (ms ranges: each value is its range's upper bound);
 *   the insert benchmark's `fine-2pct` (percentiles within 2 %, avg and max exact)
 * @property {string[]} notes what each format's values can say (FORMAT_NOTES), in formats' order
 * @property {readonly string[]} wholeMsColumns the columns that hold whole-millisecond readings
 *   (the insert benchmark's percentiles and max): printed as whole ms, "< 1" for 0
 * @property {LatencyRow[]} rows in step order, the driver's operation order within a step
 */

/**
 * How each way of measuring limits what a value can say (the resolution of the insert
 * benchmark's and bucketed LinkBench's latencies: ./latency-resolution.js, which judges by it).
 * @type {Record<string, string>}
 */
export const FORMAT_NOTES = {
  hdr: 'an HDR histogram: to the microsecond',
  bucketed: 'ms ranges: each value is the upper bound of its range, so equal values can hide a change within the range',
  'fine-2pct': 'a clock in whole milliseconds: percentiles and max are the whole ms it read (< 1: under one tick; a percentile above 50 ms is within 2 %, its bucket), so a value moves in steps of at least 1 ms and a reading of 1 ms is any time under 2 ms; avg is the mean of the readings, so it can sit above the p95 when a few readings are long',
};

/** The insert benchmark's columns that are whole-millisecond readings (avg is a mean of them). */
const WHOLE_MS_COLUMNS = Object.freeze(['p50', 'p95', 'p99', 'max']);

/** @param {unknown} ms @returns {number|null} */
const reading = (ms) => (typeof ms === 'number' ? wholeMsReading(ms) : null);

/** What each benchmark records of an operation, and how to read it from a repeat. */
const BENCHMARKS = {
  linkbench: {
    columns: ['p25', 'p50', 'p75', 'p95', 'p99', 'max', 'mean'],
    /** @param {Repeat} rep @returns {OperationTimes[]} */
    read(rep) {
      const operations = /** @type {any} */ (rep.details?.linkbench)?.operations ?? [];
      // RANGE_SIZE and the *_NLINKS statistics count rows, not milliseconds.
      return operations.filter((/** @type {any} */ o) => o.kind === 'latency').map((/** @type {any} */ o) => ({
        op: o.op, count: o.count, format: o.format, failed: rep.status !== 'ok',
        ms: { p25: o.percentiles.p25?.ms ?? null, p50: o.percentiles.p50?.ms ?? null, p75: o.percentiles.p75?.ms ?? null,
          p95: o.percentiles.p95?.ms ?? null, p99: o.percentiles.p99?.ms ?? null, max: o.maxMs, mean: o.meanMs },
      }));
    },
  },
  ibench: {
    columns: ['avg', 'p50', 'p95', 'p99', 'max'],
    /** @param {Repeat} rep @returns {OperationTimes[]} */
    read(rep) {
      const response = /** @type {any} */ (rep.details?.ibench)?.responseMs ?? {};
      return ['insert', 'delete', 'query'].filter((kind) => response[kind]).map((kind) => {
        const r = response[kind];
        // The recorded percentiles are bucket edges (1.003 for 1 ms, 0.001 for 0): shown as the
        // readings they stand for, a p95 of "0.001" beside a mean of 0.02 contradicted the data.
        return { op: kind, count: r.count, format: 'fine-2pct', failed: rep.status !== 'ok',
          ms: { avg: r.avgMs, p50: reading(r.p50Ms), p95: reading(r.p95Ms), p99: reading(r.p99Ms), max: r.maxMs } };
      });
    },
  },
};

/**
 * @param {keyof typeof BENCHMARKS} benchmark
 * @param {RunRecord[]} records the release's runs
 * @param {RunRecord[]} baseRecords the base's runs (none without a base)
 * @returns {LatencyTable|null} null when neither side timed an operation of that benchmark
 */
export function latencyTable(benchmark, records, baseRecords) {
  const { columns, read } = BENCHMARKS[benchmark];
  // Runs of several engines (`tagbench run --engine innodb,rocksdb`) are told apart, as the
  // sequence tables tell them apart (build-sequence-data.js splitEngines).
  const byEngine = new Set([...records, ...baseRecords].map((r) => r.config.engine)).size > 1;
  const mine = timesByOperation(records, benchmark, read, byEngine);
  const theirs = timesByOperation(baseRecords, benchmark, read, byEngine);
  const keys = [...new Set([...mine.keys(), ...theirs.keys()])];
  if (keys.length === 0) return null;
  const formats = [...new Set([...mine.values(), ...theirs.values()].flatMap((times) => times.map((t) => t.format)))].sort();
  return {
    columns,
    formats,
    notes: formats.map((f) => FORMAT_NOTES[f] ?? f),
    wholeMsColumns: formats.includes('fine-2pct') ? WHOLE_MS_COLUMNS : [],
    rows: keys.map((key) => {
      const [step, engine, op] = JSON.parse(key);
      return { step, engine, op, release: summarize(mine.get(key), columns), base: summarize(theirs.get(key), columns) };
    }),
  };
}

/**
 * Every repeat's times of one benchmark, per step and operation, in first-seen order (a failed
 * repeat has none unless its driver finished and the failure is a judgement on its figures).
 * @param {RunRecord[]} records
 * @param {string} kind the steps' kind
 * @param {(rep: Repeat) => OperationTimes[]} read
 * @param {boolean} byEngine key by the run's engine too
 * @returns {Map<string, OperationTimes[]>} keyed by JSON [step, engine or null, op]
 */
function timesByOperation(records, kind, read, byEngine) {
  /** @type {Map<string, OperationTimes[]>} */
  const out = new Map();
  for (const record of records) {
    for (const step of record.steps.filter((s) => s.kind === kind)) {
      for (const times of step.repeats.flatMap(read)) {
        const key = JSON.stringify([step.name, byEngine ? record.config.engine : null, times.op]);
        const list = out.get(key);
        if (list) list.push(times);
        else out.set(key, [times]);
      }
    }
  }
  return out;
}

/**
 * @param {OperationTimes[]|undefined} times
 * @param {string[]} columns
 * @returns {LatencyFigures|null}
 */
function summarize(times, columns) {
  if (!times || times.length === 0) return null;
  return {
    repeats: times.length,
    failedRepeats: times.filter((t) => t.failed).length,
    count: medianOfFinite(times.map((t) => t.count)),
    ms: Object.fromEntries(columns.map((c) => [c, medianOfFinite(times.map((t) => t.ms[c]))])),
  };
}

/**
 * The response-time tables of the Markdown report: per benchmark, a row per step, operation and
 * release, the base's row first and each other release's after it (the release page's layout);
 * a release that did not time an operation has no row (never a row of n/a).
 * @param {import('./types.js').ReleaseRecords[]} releases in column order
 * @param {string} baseVersion
 * @returns {string} Markdown, empty when no release timed an operation
 */
export function renderLatencyTables(releases, baseVersion) {
  const baseRecords = releases.find((r) => r.version === baseVersion)?.records ?? [];
  const others = releases.filter((r) => r.version !== baseVersion);
  const out = [];
  for (const [benchmark, title, operation] of /** @type {const} */ ([['linkbench', 'LinkBench', 'operation'], ['ibench', 'Insert benchmark', 'statement']])) {
    // Each release against the base: the base's figures are the same in every one.
    const tables = (others.length > 0 ? others : releases.slice(0, 1)).map((rel) => ({ version: rel.version, table: latencyTable(benchmark, rel.records, others.length > 0 ? baseRecords : []) }));
    const present = tables.filter((t) => t.table !== null);
    if (present.length === 0) continue;
    const columns = /** @type {LatencyTable} */ (present[0].table).columns;
    /** @type {Map<string, {label: string, op: string, base: LatencyFigures|null, releases: {version: string, figures: LatencyFigures|null}[]}>} */
    const rows = new Map();
    for (const { version, table } of present) {
      for (const row of /** @type {LatencyTable} */ (table).rows) {
        const key = JSON.stringify([row.step, row.engine, row.op]);
        const entry = rows.get(key) ?? { label: row.engine ? `${row.step} (${row.engine})` : row.step, op: row.op, base: row.base, releases: [] };
        entry.releases.push({ version, figures: row.release });
        rows.set(key, entry);
      }
    }
    const notes = [...new Set(present.flatMap((t) => /** @type {LatencyTable} */ (t.table).notes))];
    const whole = new Set(present.flatMap((t) => /** @type {LatencyTable} */ (t.table).wholeMsColumns));
    const cells = (/** @type {string} */ label, /** @type {string} */ op, /** @type {string} */ version, /** @type {LatencyFigures} */ f) => [
      label, op, version, f.failedRepeats ? `${f.repeats} (${f.failedRepeats} failed)` : String(f.repeats), formatQps(f.count),
      ...columns.map((c) => (f.ms[c] === null ? '–' : whole.has(c) ? formatWholeMs(f.ms[c]) : formatValue(f.ms[c]))),
    ];
    const lines = [...rows.values()].flatMap((r) => [
      ...(r.base && others.length > 0 ? [cells(r.label, r.op, baseVersion, r.base)] : []),
      ...r.releases.filter((x) => x.figures !== null).map((x) => cells(r.label, r.op, `**${x.version}**`, /** @type {LatencyFigures} */ (x.figures))),
    ]);
    const head = ['step', operation, 'release', 'repeats', 'count per repeat', ...columns.map((c) => `${c} (ms)`)];
    out.push(`### ${title}: response time per ${operation}\n\nMedians over the repeats that timed each ${operation} (ms); ${others.length > 0 ? `the base ${baseVersion} first, each release after it` : 'one release'}. Measured with ${notes.join('; ')}. Shown, not judged.\n\n`
      + `| ${head.join(' | ')} |\n| ${head.map((_, i) => (i < 3 ? '---' : '---:')).join(' | ')} |\n${lines.map((l) => `| ${l.join(' | ')} |\n`).join('')}`);
  }
  return out.join('\n');
}
