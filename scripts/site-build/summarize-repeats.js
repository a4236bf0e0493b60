/**
 * Display summaries of one test of one release: the median of its repeats' throughput (over
 * every run of that release), efficiency, latency and hardware-counter medians, and the median
 * of its counted repeats' instructions per operation. This is the only arithmetic the site does
 * on raw numbers besides ratios to a base: verdicts, intervals and detectable effects come from
 * the comparison files.
 */

/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('../types.js').Efficiency} Efficiency */
/** @typedef {import('../types.js').RunRecord} RunRecord */

import { medianOfFinite as median } from '../compare/index.js';

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
 * @property {Record<CounterKey, number|null>|null} counters medians of the counters meter's
 *   per-op figures, null when no repeat has them
 */

/** @typedef {'instructionsPerOp'|'cyclesPerOp'|'ipc'|'branchMissesPerOp'|'llcMissesPerOp'} CounterKey */
const COUNTER_KEYS = /** @type {const} */ (['instructionsPerOp', 'cyclesPerOp', 'ipc', 'branchMissesPerOp', 'llcMissesPerOp']);

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
    counters: summarizeCounters(ok),
  };
}

/**
 * @param {import('../types.js').Repeat[]} ok
 * @returns {StepSummary['counters']}
 */
function summarizeCounters(ok) {
  const perOp = ok.flatMap((r) => {
    const c = /** @type {{perOp?: Record<CounterKey, number|null>}|undefined} */ (r.meters?.counters);
    return c?.perOp ? [c.perOp] : [];
  });
  if (perOp.length === 0) return null;
  return /** @type {Record<CounterKey, number|null>} */ (Object.fromEntries(COUNTER_KEYS.map((k) => [k, median(perOp.map((p) => p[k]))])));
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
 * @typedef {object} CountedSummary the instructions meter's counted repeats of one test of one
 *   release, over all its runs
 * @property {'ok'|'failed'|'skipped'} status ok when at least one counted repeat is ok
 * @property {string|null} reason why failed/skipped, from the first meter run that says
 * @property {number|null} median median query-path instructions per operation (inclusive of the dispatch function)
 * @property {number|null} min
 * @property {number|null} max
 * @property {number} n ok counted repeats
 * @property {number} rounds server processes they ran on (a round per run and process)
 * @property {number|null} processMedian median instructions per operation of the whole server process
 * @property {number|null} unnamedMedian of those, median in code without a symbol name
 * @property {string|null} dispatchFunction the function whose inclusive count is the query path
 */

/**
 * Summarize a test's counted repeats (step.meters.instructions) across the runs of a release.
 * @param {Step[]} steps the test's step from each run (timed or not)
 * @returns {CountedSummary|null} null when no run counted the test
 */
export function summarizeCounted(steps) {
  const slots = steps.flatMap((s) => (s.meters?.instructions ? [s.meters.instructions] : []));
  if (slots.length === 0) return null;
  const rounds = new Set();
  /** @type {import('../types.js').InstructionFigures[]} */
  const figures = [];
  slots.forEach((slot, i) => {
    for (const rep of slot.repeats) {
      if (rep.status !== 'ok' || !rep.instructions) continue;
      figures.push(rep.instructions);
      rounds.add(`${i}#${rep.instance}`);
    }
  });
  const paths = figures.map((f) => f.queryPathPerOp);
  const failed = slots.find((s) => s.status !== 'ok');
  return {
    status: figures.length > 0 ? 'ok' : (failed?.status ?? 'failed'),
    reason: failed?.reason ?? (figures.length === 0 ? 'no counted repeat finished ok' : null),
    median: median(paths),
    min: paths.length ? Math.min(...paths) : null,
    max: paths.length ? Math.max(...paths) : null,
    n: figures.length,
    rounds: rounds.size,
    processMedian: median(figures.map((f) => f.processPerOp)),
    unnamedMedian: median(figures.map((f) => f.unnamedSelfPerOp)),
    dispatchFunction: figures[0]?.dispatchFunction ?? null,
  };
}
