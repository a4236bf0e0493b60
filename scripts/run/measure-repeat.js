/**
 * One measured repeat of any plug-in's step, through the run's meter: start the meter, run the
 * repeat, stop the meter with what the repeat produced, keep the tool's log, and add the repeat
 * (the tool's status and counts, the meter's figures) to the run record: wall's as the repeat's
 * own fields, every other timed meter's in `repeat.meters.<name>`.
 *
 * The run stage has two entrances of one shape, this one for timed meters and count-phase.js
 * for counting ones: both call the meter's start(target) / stop(repeat) and take its
 * MeterFigures. They stay two because what surrounds the meter differs in kind, not in detail:
 * a timed repeat is one slot of the alternating timed schedule on the run's long-lived servers,
 * while a counted repeat needs servers of its own (restarted under the meter's wrapper each
 * round), the same rows for every release, fixed work with fixed seeds and an uncounted warm-up
 * inside the meter's preparation. One function holding both would be the two joined by an if.
 */
import { writeRawLog } from '../store/index.js';
import { addRepeat } from './record-builder.js';

/**
 * @typedef {object} MeasureContext
 * @property {import('./schedule.js').ScheduledAction} action
 * @property {import('../types.js').RunRecord} record the release's record, updated in place
 * @property {import('../metrics/types.js').MeterTarget} server the release's server
 * @property {import('../metrics/types.js').Meter} meter
 * @property {string} storeDir where the raw logs go
 * @property {AbortSignal} [signal] the run's: an interrupted repeat is never recorded as failed
 * @property {import('../metrics/types.js').WorkCounterNames} [workCounters] the product's names of
 *   the work counters (products config): the wall meter keeps them per op as context
 */

/**
 * @typedef {object} MeasuredResult what the progress line and the failure handling read
 * @property {'ok'|'failed'} status
 * @property {string} [reason]
 * @property {number|null} throughput
 * @property {string} metric
 * @property {number[]} intervals per-second rates (qps)
 * @property {boolean} stateValid the plug-in's word on whether later steps can run
 */

/**
 * @param {MeasureContext} ctx
 * @param {() => Promise<import('../workload/types.js').StepOutcome>} runRepeat one repeat of the step
 * @returns {Promise<MeasuredResult>}
 * @throws what runRepeat throws (a bug), after the meter stopped
 */
export async function measureRepeat({ action, record, server, meter, storeDir, signal, workCounters }, runRepeat) {
  const { step, stepIndex, instance } = action;
  // A warm-up step runs once per instance: its repeats are numbered by instance.
  const repeat = step.reported ? action.repeat : instance;
  // The handle's own members plus the flavor's status names (a plain object: a fresh one per repeat).
  const session = await meter.start(workCounters ? { ...server, workCounters } : server);
  const startedAt = new Date().toISOString();
  /** @type {import('../workload/types.js').StepOutcome} */
  let out;
  try {
    out = await runRepeat();
  } catch (err) {
    await session.stop(null);
    throw err;
  }
  const ok = out.status === 'ok' && !signal?.aborted;
  const figures = await session.stop({
    ok, durationS: out.durationS, throughput: out.throughput, tps: out.tps, latencyMs: out.latencyMs, intervals: out.intervals ?? [],
    ...(typeof step.warmupS === 'number' ? { warmupS: step.warmupS } : {}),
  });
  await writeRawLog(storeDir, record.id, `${step.name}.r${repeat}.txt`, out.rawOutput ?? '');
  /** @type {import('../types.js').Repeat} */
  const rep = {
    index: repeat,
    instance,
    startedAt,
    durationS: out.durationS ?? 0,
    status: ok ? 'ok' : 'failed',
    ...(ok ? {} : { reason: signal?.aborted ? 'interrupted' : out.status === 'failed' ? out.reason : 'failed' }),
    // The meter fills these (and may add its own after them); a field it leaves is empty.
    throughput: null,
    tps: null,
    latencyMs: null,
    errors: out.errors ?? 0,
    reconnects: out.reconnects ?? 0,
    intervals: [],
    efficiency: null,
    mysqldRssKb: null,
    ioDevices: null,
  };
  Object.assign(rep, figures?.repeat ?? {});
  // The other timed meters' figures: one home each, repeat.meters.<name>.
  if (figures?.meters && Object.keys(figures.meters).length > 0) rep.meters = { ...figures.meters };
  // A plug-in's own figures (the insert benchmark's keep-up, histogram, percentiles).
  if (out.details) rep.details = out.details;
  if (!signal?.aborted || ok) {
    const excerpt = ok ? undefined : tail(out.rawOutput ?? '', 15);
    addRepeat(record, stepIndex, rep, excerpt);
  }
  return {
    status: rep.status, ...(rep.reason === undefined ? {} : { reason: rep.reason }), throughput: rep.throughput,
    metric: step.metric, intervals: rep.intervals.map((i) => i.qps), stateValid: out.stateValid,
  };
}

/**
 * @param {string} text
 * @param {number} n
 */
function tail(text, n) {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}
