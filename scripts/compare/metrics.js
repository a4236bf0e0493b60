/**
 * The metrics compare gates, one object each: unit, direction, scale and how to read the value
 * of one repeat. Direction is explicit: throughput and per-second percentiles up is good;
 * latency, CPU and writes per operation, variation, stalls and database size down is good.
 * A step whose figure is a duration (a DDL statement, a reload) reports it as its latency, so
 * latencyP95Ms judges it lower-is-better beside its rate.
 */

import { latencyResolution } from './latency-resolution.js';

/** @typedef {import('./types.js').MetricDef} MetricDef */

/** @type {readonly MetricDef[]} */
export const METRICS = Object.freeze([
  { name: 'throughput', unit: 'op/s', higherIsBetter: true, scale: 'log', qos: false, value: (r) => positive(r.throughput) },
  { name: 'latencyP95Ms', unit: 'ms', higherIsBetter: false, scale: 'log', qos: false, value: (r) => positive(r.latencyMs?.p95), resolution: latencyResolution },
  {
    name: 'cpuUsPerOp', unit: 'µs/op', higherIsBetter: false, scale: 'log', qos: false, value: (r) => positive(r.efficiency?.cpuUsPerOp),
    // Records without cpuScope counted the whole machine's CPU: several-fold the step's own on a busy host.
    scope: (r) => r.efficiency?.cpuScope ?? 'machine',
  },
  { name: 'kbWrittenPerOp', unit: 'KB/op', higherIsBetter: false, scale: 'log', qos: false, value: (r) => positive(r.efficiency?.kbWrittenPerOp) },
  { name: 'qpsP1', unit: 'op/s', higherIsBetter: true, scale: 'log', qos: true, value: (_r, q) => positive(q?.p1) },
  { name: 'qpsP5', unit: 'op/s', higherIsBetter: true, scale: 'log', qos: true, value: (_r, q) => positive(q?.p5) },
  { name: 'qpsP50', unit: 'op/s', higherIsBetter: true, scale: 'log', qos: true, value: (_r, q) => positive(q?.p50) },
  { name: 'qpsCv', unit: 'ratio', higherIsBetter: false, scale: 'linear', qos: true, value: (_r, q) => q?.cv ?? null },
  { name: 'stallShare', unit: 'share of seconds', higherIsBetter: false, scale: 'linear', qos: true, value: (_r, q) => q?.stallShare ?? null },
  // The datadir after the repeat, for sequence benchmarks that measure it (details.<name>.dbSize:
  // the loops benchmark after each loop); gated only where thresholds.yml lists it.
  // The instructions meter's counts (scripts/metrics/meters/instructions.js), per operation: the
  // query path (inclusive of the dispatch function) and the whole server process.
  { name: 'instructionsPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', qos: false, meter: 'instructions', value: (r) => positive(counted(r)?.queryPathPerOp) },
  { name: 'processInstructionsPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', qos: false, meter: 'instructions', value: (r) => positive(counted(r)?.processPerOp) },
  // The counters meter's hardware counters over the timed repeats (perf stat on the server).
  { name: 'counterInstructionsPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', qos: false, meter: 'counters', value: (r) => positive(r.counters?.perOp.instructionsPerOp) },
  { name: 'cyclesPerOp', unit: 'cycles/op', higherIsBetter: false, scale: 'log', qos: false, meter: 'counters', value: (r) => positive(r.counters?.perOp.cyclesPerOp) },
  { name: 'ipc', unit: 'instructions/cycle', higherIsBetter: true, scale: 'log', qos: false, meter: 'counters', value: (r) => positive(r.counters?.perOp.ipc) },
  { name: 'branchMissesPerOp', unit: 'misses/op', higherIsBetter: false, scale: 'log', qos: false, meter: 'counters', value: (r) => positive(r.counters?.perOp.branchMissesPerOp) },
  { name: 'llcMissesPerOp', unit: 'misses/op', higherIsBetter: false, scale: 'log', qos: false, meter: 'counters', value: (r) => positive(r.counters?.perOp.llcMissesPerOp) },
  { name: 'dbOnDiskBytes', unit: 'bytes', higherIsBetter: false, scale: 'log', qos: false, value: (r) => positive(detailsDbSize(r)?.onDiskBytes) },
]);

/** Names of the metrics, for messages and schemas (generated, never copied by hand). */
export const METRIC_NAMES = Object.freeze(METRICS.map((m) => m.name));

/**
 * @param {import('../types.js').Repeat} r a counted repeat where a counting meter's metric reads it
 * @returns {import('../types.js').InstructionFigures|undefined}
 */
function counted(r) {
  return /** @type {import('../types.js').CountedRepeat} */ (/** @type {unknown} */ (r)).instructions;
}

/**
 * The database size a sequence benchmark recorded for the repeat, under its own name.
 * @param {import('../types.js').Repeat} r
 * @returns {{onDiskBytes?: number, logicalBytes?: number}|null}
 */
function detailsDbSize(r) {
  for (const figures of Object.values(r.details ?? {})) {
    const size = /** @type {{dbSize?: {onDiskBytes?: number, logicalBytes?: number}|null}} */ (figures).dbSize;
    if (size) return size;
  }
  return null;
}

/**
 * @param {number|null|undefined} v
 * @returns {number|null} v when it is a positive finite number (ratios need > 0)
 */
function positive(v) {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

/**
 * Why a metric cannot be judged over these repeats because they counted it in different ways,
 * or null when they all counted it alike (or the metric has one way only).
 * @param {MetricDef} metric
 * @param {import('../types.js').Repeat[]} repeats every valid repeat of both sides
 * @returns {string|null}
 */
export function explainMixedScope(metric, repeats) {
  if (!metric.scope) return null;
  const scopeOf = metric.scope;
  // Only repeats that hold a figure: a failed or unmeasured repeat has no way of counting.
  const scopes = [...new Set(repeats.filter((r) => metric.value(r, null) !== null).map((r) => scopeOf(r)))];
  if (scopes.length < 2) return null;
  return `counted in different ways in these runs (${scopes.sort().join(' and ')}): not comparable; rerun the older release with this tagbench`;
}
