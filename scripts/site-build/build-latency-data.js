/**
 * The response times the sequence benchmarks record of each operation, for the release page:
 * LinkBench's per-operation latencies (ADD_LINK, GET_NODE, … p25–p99, max, mean) and the
 * insert benchmark's response times per statement kind (insert, delete, query: avg, p50–p99,
 * max), per step, for the release and for the release it is compared with. Informational: no
 * verdict is drawn from them. Pure.
 */
import { median } from './summarize-repeats.js';

/** @import { RunRecord, Repeat } from '../types.js' */
/** @import { TableGroup, ReleaseGroup } from './group-tables.js' */

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
 * @property {LatencyRow[]} rows in step order, the driver's operation order within a step
 */

/**
 * @typedef {object} LatencyData
 * @property {{version: string, source: 'comparison'|'default base'}|null} base the release the
 *   page compares with: its comparison's base, else the line's default base
 * @property {LatencyTable|null} linkbench
 * @property {LatencyTable|null} ibench
 */

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
        return { op: kind, count: r.count, format: 'fine-2pct', failed: rep.status !== 'ok', ms: { avg: r.avgMs, p50: r.p50Ms, p95: r.p95Ms, p99: r.p99Ms, max: r.maxMs } };
      });
    },
  },
};

/**
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {LatencyData|null} null when no run of the release or its base timed an operation
 */
export function buildLatencyData(table, rel) {
  const base = latencyBase(table, rel);
  const baseRecords = base ? table.releases.find((r) => r.version === base.version)?.records ?? [] : [];
  const linkbench = latencyTable('linkbench', rel.records, baseRecords);
  const ibench = latencyTable('ibench', rel.records, baseRecords);
  if (!linkbench && !ibench) return null;
  return { base, linkbench, ibench };
}

/**
 * The release the page compares with: the one its verdicts used, else the line's default
 * base (the tests table's median ratios are to that one). None for the base itself.
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {LatencyData['base']}
 */
function latencyBase(table, rel) {
  const compared = rel.comparison?.comparison.base.version;
  const version = compared ?? table.defaultBase;
  if (!version || version === rel.version || !table.releases.some((r) => r.version === version)) return null;
  return { version, source: compared ? 'comparison' : 'default base' };
}

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
  const formats = new Set([...mine.values(), ...theirs.values()].flatMap((times) => times.map((t) => t.format)));
  return {
    columns,
    formats: [...formats].sort(),
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
    count: median(times.map((t) => t.count)),
    ms: Object.fromEntries(columns.map((c) => [c, median(times.map((t) => t.ms[c]))])),
  };
}
