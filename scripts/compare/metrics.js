/**
 * The metrics compare gates on the timed repeats' own figures (the default meter's and the
 * benchmark tool's), one object each: unit, direction, scale and how to read the value of one
 * repeat; the other meters' metrics come from the records (meterMetrics below), so no meter is
 * named here. Direction is explicit: throughput and per-second percentiles up is good;
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
    // The question a counted meter may answer exactly (its metric states the same `answers`).
    answers: 'cpu-cost-per-op',
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
  { name: 'dbOnDiskBytes', unit: 'bytes', higherIsBetter: false, scale: 'log', qos: false, value: (r) => positive(detailsDbSize(r)?.onDiskBytes) },
]);

/**
 * Whether a verdict (or a suspect) is of a counted metric: its figures are counted repeats whose
 * ratios move by hundredths of a percent, so readers print them with more decimals. compare
 * marks such verdicts (`counted`, from where the records keep the meter's figures); the store's
 * reader marks those of comparisons stored before it did (scripts/store/migrations/).
 * @param {{metric: string, counted?: boolean}} v
 * @returns {boolean}
 */
export function isCountedVerdict(v) {
  return v.counted === true;
}

/**
 * The metrics of the timed repeats' own figures: every row of METRICS (the other meters' come
 * from the records, meterMetrics below).
 */
export const OWN_METRICS = METRICS;

/** Names of the metrics, for messages and schemas (generated, never copied by hand). */
export const METRIC_NAMES = Object.freeze(METRICS.map((m) => m.name));

/**
 * @typedef {object} MeterMetrics the metrics of one meter other than wall, read from the records
 * @property {string} meter its name
 * @property {boolean} counted its figures are in counted repeats (`step.meters.<meter>`), else
 *   in the timed repeats (`repeat.meters.<meter>`)
 * @property {MetricDef[]} metrics
 */

/**
 * The metrics of the records' meters other than wall, from the facts each record carries
 * (config.meterMetrics: what the meter stated when the run was made), so compare needs no meter
 * registry. Which road a meter's figures take is told by where they are: a meter with counted
 * repeats in some step of these records is a counting meter. Counting meters come first, then
 * the timed ones, each in the order the records name them (the order verdicts were always in).
 * @param {import('../types.js').RunRecord[]} records every record of the comparison (both sides)
 * @returns {MeterMetrics[]}
 */
export function meterMetrics(records) {
  /** @type {Map<string, import('../types.js').MeterMetric[]>} */
  const facts = new Map();
  for (const r of records) {
    for (const [meter, metrics] of Object.entries(r.config.meterMetrics ?? {})) if (!facts.has(meter)) facts.set(meter, metrics);
  }
  const all = [...facts].map(([meter, metrics]) => ({
    meter,
    // A counting meter says so in config.meterSetup even where it left no counted repeat (a run
    // stopped before its counted phase): its figures on the timed repeats (work's) are never judged.
    counted: records.some((r) => r.config.meterSetup?.[meter] !== undefined || r.steps.some((s) => s.meters?.[meter] !== undefined)),
    metrics: metrics.map((f) => toMetricDef(meter, f)),
  }));
  return [...all.filter((m) => m.counted), ...all.filter((m) => !m.counted)];
}

/**
 * The meter whose figures are the timed repeats' own (the metrics above, METRICS): among the
 * meters the records name (config.meters), the one that states no metrics of its own
 * (config.meterMetrics lists every meter that does), so its name comes from the records, never
 * from here. The run's family-wise level is split by meter (./family-wise.js), and the verdicts
 * without a `meter` belong to this one.
 * @param {import('../types.js').RunRecord[]} records every record of the comparison
 * @returns {string|null} null when the records name no such meter (made before meters were
 *   named) or several
 */
export function ownFiguresMeter(records) {
  const named = new Set(records.flatMap((r) => (r.config.meters ?? []).filter((m) => !Object.hasOwn(r.config.meterMetrics ?? {}, m))));
  return named.size === 1 ? [...named][0] : null;
}

/**
 * @param {string} meter
 * @param {import('../types.js').MeterMetric} fact
 * @returns {MetricDef}
 */
function toMetricDef(meter, fact) {
  const path = fact.figure.split('.');
  return {
    name: fact.name, unit: fact.unit, higherIsBetter: fact.higherIsBetter, scale: fact.scale, qos: false, meter, label: fact.label,
    ...(fact.answers ? { answers: fact.answers } : {}),
    value: (r) => {
      // A timed repeat keeps the meter's figures in meters.<meter>, a counted one in <meter>.
      const block = r.meters?.[meter] ?? /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (r))[meter];
      /** @type {unknown} */
      let v = block;
      for (const key of path) v = v !== null && typeof v === 'object' ? /** @type {Record<string, unknown>} */ (v)[key] : undefined;
      // A ratio needs a positive figure; a difference does not: a linear figure of 0 (a counter
      // of work the base never does, such as buffer pool misses) is a value, and its rise judged.
      if (fact.scale === 'linear') return typeof v === 'number' && Number.isFinite(v) ? v : null;
      return positive(typeof v === 'number' ? v : null);
    },
  };
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
