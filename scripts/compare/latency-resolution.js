/**
 * The resolution of a repeat's latency figure: the step its value moves in, where the driver
 * reports it from a clock or a histogram coarser than the figure's digits. The insert benchmark
 * times each operation in whole milliseconds, so a query p95 of 1.003 ms is "1 ms" in every
 * repeat and can only move by 100 %: judged as it stands it gave "unchanged [1.00, 1.00], MDE
 * 0 %". One rule for every verdict (compare, and bisect through it; docs/method.md "Quantized
 * latencies"): a latency whose step is at least the issue threshold is not judged; a finer one
 * is judged with its interval widened by one step each way and a detectable change of at least
 * one step. Pure.
 */

/**
 * @typedef {object} LatencyResolution
 * @property {number} stepMs the step the figure moves in, ms
 * @property {string} source why, in a few words (the clock or histogram)
 * @property {boolean} [wholeMs] the driver's clock reads whole milliseconds: the figure's digits
 *   past the whole ms are a histogram bucket's edge, not a time anything took (wholeMsReading)
 */

/** sysbench's latency histogram: 1024 cells from 0.001 ms to 100 s on a log scale (1.8 % each). */
const SYSBENCH_CELL_GROWTH = Math.exp(Math.log(100000 / 0.001) / 1023) - 1;
/** The insert benchmark's percentile buckets (scripts/workload/ibench/ibench-stats.js): 2 % wide. */
const IBENCH_BUCKET_GROWTH = 0.02;
/** LinkBench's HDR histograms keep 3 significant digits. */
const HDR_GROWTH = 0.001;

/**
 * @param {import('../types.js').Repeat} repeat a valid timed repeat
 * @param {string} kind its step's kind (`sysbench`, `ibench`, `linkbench`, ...)
 * @returns {LatencyResolution|null} null when the figure has no p95 or no known coarse step
 *   (a duration timed by a high-resolution clock: DDL, reload)
 */
export function latencyResolution(repeat, kind) {
  const p95 = repeat.latencyMs?.p95;
  if (typeof p95 !== 'number' || !(p95 > 0)) return null;
  const details = /** @type {Record<string, any>} */ (repeat.details ?? {});
  if (details.ibench) {
    // Percentiles are the upper edges of 2 % buckets over whole milliseconds; a step without
    // response times (l.x: its figure is its duration) was timed by the same clock.
    const bucket = details.ibench.responseMs ? IBENCH_BUCKET_GROWTH * p95 : 0;
    return { stepMs: Math.max(1, bucket), source: 'the insert benchmark times each operation in whole milliseconds', wholeMs: true };
  }
  if (details.linkbench) {
    /** @type {{percentiles?: {p95?: {ms: number, bucketMs: [number, number]|null}}}[]} */
    const ops = details.linkbench.operations ?? [];
    const worst = ops.map((o) => o.percentiles?.p95).find((p) => p?.ms === p95);
    if (worst?.bucketMs) return { stepMs: worst.bucketMs[1] - worst.bucketMs[0], source: 'LinkBench\'s bucketed latency histogram' };
    return details.linkbench.latencyFormat === 'hdr' ? { stepMs: HDR_GROWTH * p95, source: 'LinkBench\'s HDR histogram (3 significant digits)' } : null;
  }
  if (kind === 'sysbench') {
    return { stepMs: Math.max(0.01, SYSBENCH_CELL_GROWTH * p95), source: 'sysbench prints percentiles to 0.01 ms from histogram cells 1.8 % wide' };
  }
  return null;
}

/**
 * The coarsest step of a figure over the repeats of both sides, relative to each repeat's value.
 * @param {import('../types.js').Repeat[]} repeats
 * @param {string} kind the step's kind
 * @param {(repeat: import('../types.js').Repeat, kind: string) => LatencyResolution|null} resolve
 *   the metric's own (MetricDef.resolution: latencyResolution for the p95 latency)
 * @returns {(LatencyResolution & {relative: number, valueMs: number})|null} valueMs: the
 *   figure of the repeat whose step is the coarsest
 */
export function coarsestResolution(repeats, kind, resolve) {
  /** @type {(LatencyResolution & {relative: number, valueMs: number})|null} */
  let coarsest = null;
  for (const r of repeats) {
    const res = resolve(r, kind);
    if (!res) continue;
    const valueMs = /** @type {number} */ (r.latencyMs?.p95);
    const relative = res.stepMs / valueMs;
    if (!coarsest || relative > coarsest.relative) coarsest = { ...res, relative, valueMs };
  }
  return coarsest;
}

/**
 * Why a quantized latency is not judged, or null to judge it (at its resolution).
 * @param {LatencyResolution & {relative: number, valueMs: number}} res
 * @param {number} issue the metric's issue threshold (relative)
 * @returns {string|null}
 */
export function explainQuantized(res, issue) {
  if (res.relative < issue) return null;
  // Said at the clock's resolution: "a p95 of 4.01 ms" was a bucket's edge over a 4 ms reading.
  const shownMs = res.wholeMs ? wholeMsReading(res.valueMs) : res.valueMs;
  const value = res.wholeMs ? formatWholeMs(shownMs, ' ms') : formatMs(shownMs);
  return `quantized: ${res.source}, so a p95 of ${value} moves in steps of ${formatMs(res.stepMs)} (${describeStep(res.stepMs, shownMs)}), coarser than the ${Math.round(issue * 100)} % an issue needs: shown, not judged`;
}

/**
 * A step relative to the value it quantizes: a percentage up to 100 %, past it how many times the
 * value ("(100000 %)" said nothing a reader could use of a 0.001 ms p95 in 1 ms steps), and of a
 * reading under one step, that the step is more than the whole value.
 * @param {number} stepMs
 * @param {number} valueMs the value as shown
 * @returns {string}
 */
function describeStep(stepMs, valueMs) {
  if (!(valueMs > 0)) return 'more than the whole value';
  const relative = stepMs / valueMs;
  return relative <= 1 ? `${Math.round(relative * 100)} %` : `${Number(relative.toPrecision(2))} × the value`;
}

/**
 * The whole milliseconds a percentile of whole-millisecond readings stands for. The insert
 * benchmark's percentiles are the upper edges of 2 % buckets (scripts/workload/ibench/ibench-stats.js):
 * never below the reading they hold and less than 2 % above it, so a reading of 1 ms comes out as
 * 1.003 and one of 0 ms as 0.001 (its first bucket's edge). Under 51 ms a bucket holds at most
 * one whole ms, the floor of its edge; past it the floor is still inside the bucket.
 * @param {number} edgeMs the percentile as recorded
 * @returns {number} whole ms (0: the clock read under one tick)
 */
export function wholeMsReading(edgeMs) {
  return Math.floor(edgeMs + 1e-9);
}

/**
 * A whole-millisecond figure as a reader should see it: "< 1" for a reading under one tick of
 * the clock (was "0.001"), else its whole ms; a median of two repeats can fall half-way.
 * @param {number} ms a wholeMsReading, or a median of them
 * @param {string} [unit] appended, e.g. ' ms'
 * @returns {string}
 */
export function formatWholeMs(ms, unit = '') {
  if (ms === 0) return `< 1${unit}`;
  return `${Number.isInteger(ms) ? String(ms) : ms.toFixed(1)}${unit}`;
}

/**
 * @param {number} ms
 * @returns {string}
 */
export function formatMs(ms) {
  return `${Number(ms.toPrecision(3))} ms`;
}
