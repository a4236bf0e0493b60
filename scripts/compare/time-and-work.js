/**
 * Time and work side by side: for every test judged by more than one meter, whether the timed
 * verdict (throughput, else latency) and the work verdicts (the counted ones: instructions per
 * operation, the server's own work per operation) agree, and when they do not, which figure moved
 * and what that points to. A test slower with the same work is waiting (I/O, locks, the host)
 * rather than doing more CPU work; a test with more work and the same time hides that work behind
 * its waiting (or the work moved by less than the timed verdict can see). Where the counters meter
 * ran, cycles and IPC per operation say whether the time went on or off the CPU.
 *
 * Figures are told apart by their metric facts, never by a meter's name, so a new meter plugs in:
 * timed figures are the repeats' own rate or latency; work is every counted metric, CPU work when
 * its unit is instructions per operation, the server's own work otherwise; cycles and IPC are the
 * timed metrics in cycles/op and instructions/cycle. Only decided verdicts decide: an undecided
 * figure is reported as undecided and the statement says it cannot tell. Pure: verdicts in,
 * statements (data) out; scripts/compare/render-time-and-work.js words them.
 */
import { OWN_METRICS, isCountedVerdict } from './metrics.js';

/** @typedef {import('../types.js').TestVerdict} Verdict a stored verdict or compare's own (its evidence fields are not read here) */

/**
 * @typedef {'time'|'cpu-work'|'server-work'|'cycles'|'ipc'} FigureRole what a verdict's figure
 *   stands for in the statement
 */

/**
 * @typedef {'worse'|'better'|'none'|'undecided'} Movement worse: slower, or more work (a
 *   regression); better: the mirror; none: unchanged; undecided: inconclusive or failed
 */

/**
 * @typedef {object} Figure one verdict as the statement reads it
 * @property {string} metric
 * @property {FigureRole} role
 * @property {Movement} moved
 * @property {'worse'|'better'|null} lean an unchanged verdict whose interval excludes no change:
 *   the side it moved to, under its warn threshold (null otherwise)
 * @property {Verdict} verdict the verdict itself (its numbers, for the words)
 */

/**
 * @typedef {'waiting'|'less-waiting'|'cpu-speed'|'hidden-work'|'hidden-saving'|'below-time-resolution'|'cpu-work'|'server-work'} PointsTo
 *   waiting: time worse, work not; less-waiting: time better, work not; cpu-speed: time moved,
 *   work not, but cycles per operation moved with time (the same work ran at another speed on
 *   the CPU: not waiting); hidden-work: work rose,
 *   time did not (more than time could have missed); hidden-saving: the mirror; below-time-resolution:
 *   CPU work moved by less than the timed verdict can detect; cpu-work / server-work: both moved
 *   the same way, with the CPU's or the server's own work
 */

/**
 * @typedef {'off-cpu'|'on-cpu'|'stalls'|'steady'|'undecided'} CountersReading what cycles and
 *   IPC per operation say: off-cpu: time moved and cycles did not (the time was spent waiting);
 *   on-cpu: cycles moved with time; stalls: cycles moved and IPC fell (or rose): the same work at
 *   another speed on the CPU (cache misses, memory layout); steady: neither moved
 */

/**
 * @typedef {object} TimeAndWork the statement of one test
 * @property {string} test
 * @property {Figure} time
 * @property {Figure[]} work counted figures, CPU work first
 * @property {Figure|null} cycles
 * @property {Figure|null} ipc
 * @property {'agree'|'disagree'|'undecided'} agreement
 * @property {'time'|'work'|'both'|'neither'|null} moved which side moved; null when undecided
 * @property {PointsTo|null} pointsTo null when nothing moved or undecided
 * @property {CountersReading|null} counters null where the counters meter did not run (where no
 *   counted meter ran, its cycles stand in for the work, and this says what they say)
 */

/** The timed figures a statement reads, in order of preference: the rate, then the latency. */
const TIME_METRICS = Object.freeze(OWN_METRICS.filter((m) => !m.qos && m.scale === 'log' && (m.unit === 'op/s' || m.unit === 'ms')).map((m) => m.name));

/** Units of the counters meter's figures a statement reads (its metric facts). */
const CYCLES_UNIT = 'cycles/op';
const IPC_UNIT = 'instructions/cycle';
/** Counted figures in this unit are CPU work; any other counted unit is the server's own work. */
const CPU_WORK_UNIT = 'instructions/op';

/**
 * The statement of every test judged by the timed meter and at least one other (a counted meter,
 * or the counters), in the order the tests first appear in the comparison.
 * @param {{tests: Verdict[]}} cmp
 * @param {string} [only] one test's statement alone (a page of one test)
 * @returns {TimeAndWork[]}
 */
export function compareTimeAndWork(cmp, only) {
  const verdicts = only === undefined ? cmp.tests : cmp.tests.filter((t) => t.test === only);
  const names = [...new Set(verdicts.map((t) => t.test))];
  return names.map((name) => judgeTest(name, verdicts.filter((t) => t.test === name))).filter((s) => s !== null);
}

/**
 * @param {string} test
 * @param {Verdict[]} verdicts the test's verdicts
 * @returns {TimeAndWork|null} null when the test has no timed verdict or nothing to set beside it
 */
function judgeTest(test, verdicts) {
  const timed = TIME_METRICS.map((m) => verdicts.find((v) => v.metric === m && !isCountedVerdict(v))).find((v) => v !== undefined);
  if (!timed) return null;
  const counted = verdicts.filter((v) => isCountedVerdict(v));
  const work = [
    ...counted.filter((v) => v.unit === CPU_WORK_UNIT).map((v) => figure(v, 'cpu-work')),
    ...counted.filter((v) => v.unit !== CPU_WORK_UNIT).map((v) => figure(v, 'server-work')),
  ];
  const byUnit = (/** @type {string} */ unit, /** @type {FigureRole} */ role) => {
    const v = verdicts.find((x) => x.unit === unit && !isCountedVerdict(x));
    return v ? figure(v, role) : null;
  };
  const cycles = byUnit(CYCLES_UNIT, 'cycles');
  const ipc = byUnit(IPC_UNIT, 'ipc');
  if (work.length === 0 && cycles === null) return null;
  const time = figure(timed, 'time');
  const judged = work.length > 0 ? judgeAgreement(time, work) : judgeAgreement(time, [cycles ?? time]);
  const counters = cycles ? readCounters(time, work, cycles, ipc) : null;
  // Time moved without the work, but the cycles moved with it: the time was not spent waiting.
  const onCpu = counters === 'stalls' || counters === 'on-cpu';
  const pointsTo = onCpu && (judged.pointsTo === 'waiting' || judged.pointsTo === 'less-waiting') ? 'cpu-speed' : judged.pointsTo;
  return { test, time, work, cycles, ipc, ...judged, pointsTo, counters };
}

/**
 * @param {Verdict} v
 * @param {FigureRole} role
 * @returns {Figure}
 */
function figure(v, role) {
  /** @type {Record<string, Movement>} */
  const moves = { regression: 'worse', improvement: 'better', unchanged: 'none' };
  const moved = moves[v.verdict] ?? 'undecided';
  return { metric: v.metric, role, moved, lean: moved === 'none' ? leanOf(v) : null, verdict: v };
}

/**
 * Which side of no change an interval lies on, in the metric's bad or good direction.
 * @param {Verdict} v
 * @returns {'worse'|'better'|null} null when the interval contains no change (or is missing)
 */
function leanOf(v) {
  const [lo, hi] = v.scale === 'linear' ? v.differenceCi ?? [0, 0] : (v.ci ?? [1, 1]).map((x) => x - 1);
  const up = lo > 0;
  if (!up && !(hi < 0)) return null;
  return up === v.higherIsBetter ? 'better' : 'worse';
}

/**
 * Which way the decided work figures went together.
 * @param {Figure[]} work
 * @returns {'worse'|'better'|'none'|'mixed'|'undecided'}
 */
function workMovement(work) {
  const decided = work.filter((f) => f.moved !== 'undecided');
  if (decided.length === 0) return 'undecided';
  const worse = decided.some((f) => f.moved === 'worse');
  const better = decided.some((f) => f.moved === 'better');
  return worse && better ? 'mixed' : worse ? 'worse' : better ? 'better' : 'none';
}

/**
 * Agreement of time with the work figures (decided ones only).
 * @param {Figure} time
 * @param {Figure[]} work
 * @returns {Pick<TimeAndWork, 'agreement'|'moved'|'pointsTo'>}
 */
function judgeAgreement(time, work) {
  const w = workMovement(work);
  if (time.moved === 'undecided' || w === 'undecided') return { agreement: 'undecided', moved: null, pointsTo: null };
  const t = time.moved;
  if (t === 'none' && w === 'none') return { agreement: 'agree', moved: 'neither', pointsTo: null };
  // Work that moved the way time did: the time follows it (the server's own work first: rows,
  // pages and redo say more about where time goes than instructions do).
  // A time that moved under its threshold (its interval excludes no change) moved all the same:
  // its thresholds are wider than the work's, so work past its own threshold may move it that little.
  const way = t === 'none' ? time.lean : t;
  const along = way === null ? [] : work.filter((f) => f.moved === way);
  if (along.length > 0) return { agreement: 'agree', moved: 'both', pointsTo: along.some((f) => f.role === 'server-work') ? 'server-work' : 'cpu-work' };
  if (t !== 'none') return { agreement: 'disagree', moved: 'time', pointsTo: t === 'worse' ? 'waiting' : 'less-waiting' };
  // Time unchanged, work moved: if only CPU work moved, and by less than the smallest change the
  // timed verdict can detect, the timed verdict could not have seen it: no disagreement.
  const movedWork = work.filter((f) => f.moved === 'worse' || f.moved === 'better');
  const detectable = time.verdict.mde;
  const unseen = typeof detectable === 'number' && movedWork.every((f) => f.role !== 'server-work' && Math.abs(relativeChange(f)) < detectable);
  if (unseen) return { agreement: 'agree', moved: 'work', pointsTo: 'below-time-resolution' };
  return { agreement: 'disagree', moved: 'work', pointsTo: w === 'better' ? 'hidden-saving' : 'hidden-work' };
}

/**
 * @param {Figure} f
 * @returns {number} ratio − 1 (0 without a ratio)
 */
function relativeChange(f) {
  return typeof f.verdict.ratio === 'number' ? f.verdict.ratio - 1 : 0;
}

/**
 * What cycles and IPC per operation say about where the time went.
 * @param {Figure} time
 * @param {Figure[]} work
 * @param {Figure} cycles
 * @param {Figure|null} ipc
 * @returns {CountersReading}
 */
function readCounters(time, work, cycles, ipc) {
  if (cycles.moved === 'undecided') return 'undecided';
  const timeMoved = time.moved === 'worse' || time.moved === 'better';
  if (cycles.moved === 'none') return timeMoved ? 'off-cpu' : 'steady';
  // Fewer cycles while it got slower (or the mirror): the time went somewhere off the CPU.
  if (timeMoved && cycles.moved !== time.moved) return 'off-cpu';
  // Cycles moved: IPC moving against them with the same instructions is the CPU's speed, not its work.
  const cpuWork = work.filter((f) => f.role === 'cpu-work');
  const sameInstructions = cpuWork.length > 0 && cpuWork.every((f) => f.moved === 'none');
  if (ipc && (ipc.moved === 'worse' || ipc.moved === 'better') && (sameInstructions || cpuWork.length === 0)) return 'stalls';
  return 'on-cpu';
}
