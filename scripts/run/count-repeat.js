/**
 * One counted repeat of the counted phase (count-phase.js): the meter around a fixed amount of
 * work, after the meter's preparation and the step's warm-up, its profile kept as a raw log; and
 * how a counted repeat reads in the progress lines.
 */
import { writeRawLog } from '../store/index.js';

/**
 * A counted repeat's progress figure: the meter's first metric, as the meter names it.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('../types.js').CountedRepeat} rep
 * @returns {string}
 */
export function describeCounted(meter, rep) {
  if (rep.status !== 'ok') return `failed: ${rep.reason}`;
  const first = meter.metrics[0];
  /** @type {unknown} */
  let v = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (rep))[meter.name];
  for (const key of first ? first.figure.split('.') : []) v = v !== null && typeof v === 'object' ? /** @type {Record<string, unknown>} */ (v)[key] : undefined;
  return first && typeof v === 'number' ? `${Math.round(v).toLocaleString('en-US')} ${first.unit} (${first.label})` : 'counted';
}

/**
 * One counted repeat: the meter around a fixed amount of work, its profile kept as a raw log.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./count-phase.js').CountState} state
 * @param {import('./types.js').StepPlanLike} step
 * @param {{round: number, repeat: number, events: number, warmUp: import('../workload/types.js').FixedWork|null, part?: string}} at
 *   the repeat, and its warm-up's work (null: none, a sequence step: its own earlier steps are
 *   what it starts from, and a warm-up run of it would change the data); part: one of the
 *   step's countedParts, run alone (its logs are named after it)
 * @param {{run: (work: import('../workload/types.js').FixedWork) => Promise<import('../workload/types.js').StepOutcome>, dispatchFunction: string, workCounters?: import('../metrics/types.js').WorkCounterNames, storeDir: string}} io
 * @returns {Promise<{repeat: import('../types.js').CountedRepeat, stateValid: boolean}>} the
 *   counted repeat, and whether the data is still what the later steps of a sequence need
 *   (false: the counted step, or its warm-up, failed that way)
 */
export async function countRepeat(meter, state, step, at, io) {
  const { round, repeat, events } = at;
  const seed = 7 + 100 * round + repeat;
  const startedAt = new Date().toISOString();
  const base = { index: repeat, instance: round, startedAt, meter: meter.name, events, seed };
  /** @type {string|null} */
  let warmFailed = null;
  let warmed = false;
  // The warm-up runs inside the meter's preparation (after its waits, under its purge hold,
  // before zeroing): a warm-up write racing purge left pages laid out differently per server.
  const warmUp = async () => {
    warmed = true;
    if (!at.warmUp) return;
    const warm = await io.run(at.warmUp);
    if (warm.status !== 'ok') warmFailed = warm.reason ?? 'failed';
  };
  const session = await meter.start({ pid: state.server.pid, datadir: state.server.datadir, query: state.server.query, holdPurge: state.server.holdPurge, flushDirtyPages: state.server.flushDirtyPages, beforeZero: warmUp, workDir: state.serverOptions.workDir, dispatchFunction: io.dispatchFunction, workCounters: io.workCounters });
  if (!warmed) {
    // A counting meter must call beforeZero: without it the warm-up would be counted.
    await session.stop(null).catch(() => null);
    throw new Error(`the ${meter.name} meter did not run the warm-up before zeroing (MeterTarget.beforeZero)`);
  }
  if (warmFailed) {
    await session.stop(null).catch(() => null);
    return { repeat: { ...base, durationS: 0, status: 'failed', reason: `warm-up run failed: ${warmFailed}` }, stateValid: false };
  }
  /** @type {import('../workload/types.js').StepOutcome} */
  let out;
  try {
    out = await io.run({ events, seed, ...(at.part ? { part: at.part } : {}) });
  } catch (err) {
    await session.stop(null).catch(() => null);
    throw err;
  }
  const ok = out.status === 'ok';
  /** @type {import('../metrics/types.js').MeterFigures|null} */
  let figures = null;
  /** @type {string|undefined} */
  let reason = ok ? undefined : out.reason ?? 'failed';
  try {
    figures = await session.stop({ ok, durationS: out.durationS, throughput: out.throughput, tps: out.tps, latencyMs: out.latencyMs, intervals: [], operations: out.operations });
  } catch (err) {
    reason = `${meter.name} meter: ${err instanceof Error ? err.message : String(err)}`;
  }
  const logBase = `${step.name}${at.part ? `.${at.part}` : ''}.${meter.name}.i${round}.r${repeat}`;
  await writeRawLog(io.storeDir, state.record.id, `${logBase}.txt`, out.rawOutput ?? '');
  if (!figures || reason) return { repeat: { ...base, durationS: out.durationS ?? 0, status: 'failed', reason: reason ?? 'no figures' }, stateValid: out.stateValid };
  const profileLog = `${logBase}.profile.json`;
  if (figures.profile) await writeRawLog(io.storeDir, state.record.id, profileLog, `${JSON.stringify(figures.profile)}\n`);
  return {
    repeat: {
      ...base,
      durationS: out.durationS ?? 0,
      status: 'ok',
      operations: /** @type {number} */ (out.operations),
      ...(out.operationsByType ? { operationsByType: out.operationsByType } : {}),
      ...(/** @type {Partial<import('../types.js').CountedRepeat>} */ (figures.repeat)),
      ...(figures.profile ? { profile: profileLog } : {}),
    },
    stateValid: true,
  };
}

