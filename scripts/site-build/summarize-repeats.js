/**
 * Display summaries of one test of one release: the median of its repeats' throughput (over
 * every run of that release), efficiency, latency and hardware-counter medians, and the median
 * of its counted repeats under each counting meter. This is the only arithmetic the site does
 * on raw numbers besides ratios to a base: verdicts, intervals and detectable effects come from
 * the comparison files.
 */

/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('../types.js').Efficiency} Efficiency */
/** @typedef {import('../types.js').RunRecord} RunRecord */

import { medianOfFinite as median, meterMetrics } from '../compare/index.js';

// The one median of the site's displays and of compare's response-time tables.
export { median };

/**
 * @typedef {object} StepSummary
 * @property {'ok'|'failed'|'skipped'} status ok when at least one repeat is ok
 * @property {string|null} reason why failed/skipped, from the first step that says
 * @property {number|null} median median throughput of the ok repeats
 * @property {number|null} min
 * @property {number|null} max
 * @property {number} n ok repeats
 * @property {number|null} durationS median measured length of the ok repeats (seconds): a step
 *   too short to judge shows it beside its numbers
 * @property {{avg: number|null, p95: number|null, p99: number|null, max: number|null}} latencyMs medians of avg/p95/p99, max of max
 * @property {Record<keyof Efficiency, number|null>|null} efficiency medians per metric, null when no repeat has efficiency
 * @property {number|null} rssKb median mysqld RSS at the end of the repeats
 * @property {Record<string, Record<string, number|null>>|null} timedMeters per meter whose figures the
 *   timed repeats kept (`repeat.meters.<meter>.perOp`: a timed meter's, or a counting meter's
 *   context on the timed repeats), the medians of its per-op figures, each under its own name;
 *   null when no repeat kept any
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
    durationS: median(ok.map((r) => r.durationS)),
    latencyMs: {
      avg: median(ok.map((r) => r.latencyMs?.avg)),
      p95: median(ok.map((r) => r.latencyMs?.p95)),
      p99: median(ok.flatMap((r) => (r.latencyMs?.p99 == null ? [] : [r.latencyMs.p99]))),
      max: maxes.length ? Math.max(...maxes) : null,
    },
    efficiency,
    rssKb: median(ok.flatMap((r) => (r.mysqldRssKb == null ? [] : [r.mysqldRssKb]))),
    timedMeters: summarizeTimedMeters(ok),
  };
}

/**
 * Every meter's per-op figures on the timed repeats, by the meter's name in the record: the site
 * draws one table a meter without knowing any of them.
 * @param {import('../types.js').Repeat[]} ok
 * @returns {StepSummary['timedMeters']}
 */
function summarizeTimedMeters(ok) {
  /** @type {Map<string, Record<string, number|null>[]>} */
  const byMeter = new Map();
  for (const r of ok) {
    for (const [meter, figures] of Object.entries(r.meters ?? {})) {
      const perOp = /** @type {{perOp?: Record<string, number|null>}|undefined} */ (figures)?.perOp;
      if (!perOp) continue;
      if (!byMeter.has(meter)) byMeter.set(meter, []);
      /** @type {Record<string, number|null>[]} */ (byMeter.get(meter)).push(perOp);
    }
  }
  if (byMeter.size === 0) return null;
  // Every figure the meter gave, in the order it gives them: the page labels them by name.
  return Object.fromEntries([...byMeter].map(([meter, perOp]) => {
    const keys = [...new Set(perOp.flatMap((p) => Object.keys(p)))];
    return [meter, Object.fromEntries(keys.map((k) => [k, median(perOp.map((p) => (typeof p[k] === 'number' ? p[k] : null)))]))];
  }));
}

/**
 * Whether a run timed its tests: every run did before meters existed; a run whose meters are
 * counting ones only left its timed steps skipped ("not timed: ..."), and those must not read
 * as failures or stand beside the timed runs' throughput. A counting meter is told by where its
 * figures are (counted repeats in `step.meters.<meter>`), as compare's collectSide tells it.
 * @param {RunRecord} record
 * @returns {boolean}
 */
export function isTimedRun(record) {
  const meters = record.config.meters;
  return !meters || meters.some((m) => !record.steps.some((s) => s.meters?.[m] !== undefined));
}

/**
 * The steps of one test whose throughput a release's summary is made of: those of its timed
 * runs, or, when no run timed it, every step (their "not timed" reason then says why there is
 * no throughput).
 * @param {RunRecord[]} records the release's runs
 * @param {string} test
 * @returns {{steps: Step[], timed: boolean}} timed: some run timed the test
 */
export function throughputSteps(records, test) {
  const timed = records.filter(isTimedRun).flatMap((r) => r.steps.filter((s) => s.name === test));
  if (timed.length > 0) return { steps: timed, timed: true };
  return { steps: records.flatMap((r) => r.steps.filter((s) => s.name === test)), timed: false };
}

/**
 * @typedef {object} CountedSummary one counted meter's repeats of one test of one release, over
 *   all its runs, in the meter's first metric (the one the pages draw a column for)
 * @property {'ok'|'failed'|'skipped'} status ok when at least one counted repeat is ok
 * @property {string|null} reason why failed/skipped, from the first meter run that says
 * @property {string} metric the metric's name, as in its verdicts
 * @property {string} unit
 * @property {string} label how the meter names the metric
 * @property {number|null} median median of the metric over the ok counted repeats
 * @property {number|null} min
 * @property {number|null} max
 * @property {number} n ok counted repeats
 * @property {number} rounds server processes they ran on (a round per run and process)
 * @property {Record<string, number>} medians the median of each of the meter's metrics the repeats gave, by name
 */

/** @typedef {ReturnType<typeof meterMetrics>[number]} CountedMeter */

/**
 * The counting meters of some runs, told by where their figures are (counted repeats in
 * `step.meters.<meter>`), each with its metrics as the records state them (compare's meterMetrics).
 * @param {RunRecord[]} records
 * @returns {CountedMeter[]} in the order the records name them
 */
export function countedMeters(records) {
  return meterMetrics(records).filter((m) => m.counted && m.metrics.length > 0);
}

/**
 * Summarize a test's counted repeats under one meter (step.meters.<meter>) across the runs of a
 * release.
 * @param {Step[]} steps the test's step from each run (timed or not)
 * @param {CountedMeter} meter
 * @returns {CountedSummary|null} null when no run counted the test with this meter
 */
export function summarizeCounted(steps, { meter, metrics }) {
  const slots = steps.flatMap((s) => (s.meters?.[meter] ? [s.meters[meter]] : []));
  if (slots.length === 0) return null;
  const rounds = new Set();
  /** @type {import('../types.js').CountedRepeat[]} */
  const figures = [];
  slots.forEach((slot, i) => {
    for (const rep of slot.repeats) {
      if (rep.status !== 'ok' || !(/** @type {any} */ (rep))[meter]) continue;
      figures.push(rep);
      rounds.add(`${i}#${rep.instance}`);
    }
  });
  const valuesOf = (/** @type {CountedMeter['metrics'][number]} */ m) => figures.map((r) => m.value(/** @type {any} */ (r), null)).filter((v) => v !== null);
  const [shown] = metrics;
  const values = valuesOf(shown);
  const failed = slots.find((s) => s.status !== 'ok');
  return {
    status: figures.length > 0 ? 'ok' : (failed?.status ?? 'failed'),
    reason: failed?.reason ?? (figures.length === 0 ? 'no counted repeat finished ok' : null),
    metric: shown.name, unit: shown.unit, label: shown.label ?? shown.name,
    median: median(values),
    min: values.length ? Math.min(...values) : null,
    max: values.length ? Math.max(...values) : null,
    n: figures.length,
    rounds: rounds.size,
    medians: Object.fromEntries(metrics.map((m) => [m.name, median(valuesOf(m))]).filter(([, v]) => v !== null)),
  };
}
