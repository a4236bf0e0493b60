/**
 * Display summaries of one test of one release: the median of its repeats' throughput (over
 * every run of that release), efficiency and latency medians. This is the only arithmetic
 * the site does on raw numbers besides ratios to a base: verdicts, intervals and detectable
 * effects come from the comparison files.
 */

/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('../types.js').Efficiency} Efficiency */

/**
 * Median of a list of numbers (mean of the two middle values when the count is even).
 * @param {(number|null|undefined)[]} values non-numbers are left out
 * @returns {number|null} null when no number is left
 */
export function median(values) {
  const xs = /** @type {number[]} */ (values.filter((v) => typeof v === 'number' && Number.isFinite(v))).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/**
 * @typedef {object} StepSummary
 * @property {'ok'|'failed'|'skipped'} status ok when at least one repeat is ok
 * @property {string|null} reason why failed/skipped, from the first step that says
 * @property {number|null} median median throughput of the ok repeats
 * @property {number|null} min
 * @property {number|null} max
 * @property {number} n ok repeats
 * @property {{avg: number|null, p95: number|null, p99: number|null, max: number|null}} latencyMs medians of avg/p95/p99, max of max
 * @property {Record<keyof Efficiency, number|null>|null} efficiency medians per metric, null when no repeat has efficiency
 * @property {number|null} rssKb median mysqld RSS at the end of the repeats
 */

const EFFICIENCY_KEYS = /** @type {const} */ (['cpuUsPerOp', 'csPerOp', 'readsPerOp', 'kbReadPerOp', 'kbWrittenPerOp']);

/**
 * Summarize the same test across the runs of one release.
 * @param {Step[]} steps the step of that test from each run (any order)
 * @returns {StepSummary}
 */
export function summarizeRepeats(steps) {
  const ok = steps.flatMap((s) => (s.repeats ?? []).filter((r) => r.status === 'ok'));
  // A failed repeat carries a null throughput; ok ones always have a number.
  const values = /** @type {number[]} */ (ok.map((r) => r.throughput).filter((v) => typeof v === 'number'));
  const failedStep = steps.find((s) => s.status !== 'ok');
  const status = ok.length > 0 ? 'ok' : (failedStep?.status ?? 'failed');
  /** @type {StepSummary['efficiency']} */
  let efficiency = null;
  const withEff = ok.filter((r) => r.efficiency);
  if (withEff.length > 0) {
    efficiency = /** @type {Record<keyof Efficiency, number|null>} */ ({});
    for (const key of EFFICIENCY_KEYS) efficiency[key] = median(withEff.map((r) => /** @type {Efficiency} */ (r.efficiency)[key]));
  }
  const maxes = ok.map((r) => r.latencyMs?.max).filter((v) => typeof v === 'number');
  return {
    status: /** @type {'ok'|'failed'|'skipped'} */ (status),
    reason: failedStep?.reason ?? (ok.length === 0 ? 'no repeat finished ok' : null),
    median: median(values),
    min: values.length ? Math.min(...values) : null,
    max: values.length ? Math.max(...values) : null,
    n: ok.length,
    latencyMs: {
      avg: median(ok.map((r) => r.latencyMs?.avg)),
      p95: median(ok.map((r) => r.latencyMs?.p95)),
      p99: median(ok.flatMap((r) => (r.latencyMs?.p99 == null ? [] : [r.latencyMs.p99]))),
      max: maxes.length ? Math.max(...maxes) : null,
    },
    efficiency,
    rssKb: median(ok.flatMap((r) => (r.mysqldRssKb == null ? [] : [r.mysqldRssKb]))),
  };
}
