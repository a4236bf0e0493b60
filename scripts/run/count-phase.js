/**
 * The counted phase of a run: right after the load, before any timed step changes the data,
 * each counting meter (instructions) gets servers of its own, started under its wrapper on the
 * releases' datadirs (the same rows in each: the load's seed is fixed), and runs every step
 * that can do a fixed amount of work (a sysbench test) as counted repeats: a warm-up run of the
 * same test, then the meter around `countedEvents` events with a fixed seed. Rounds alternate
 * the releases like the timed schedule, one new server process per release and round: counts
 * differ a little between processes (memory layout), so a round is the unit compare pairs.
 *
 * Its repeats go to `step.meters.<meter>` of each release's record, apart from the timed
 * repeats: a count under valgrind is not a throughput, and no reader of timed figures sees them.
 *
 * Why before the timed steps: those write as much as each release manages in its seconds, so
 * after them the releases' tables differ (rows inserted, values updated); counted on such data,
 * two releases would not do the same work. Counted writes use seeds that are the same for every
 * release, so the data stays the same for all of them through the phase.
 */
import { writeRawLog } from '../store/index.js';
import { startServer } from '../server/index.js';
import { getBenchmark } from '../workload/index.js';

/**
 * @typedef {object} CountSettings
 * @property {number} rounds server processes per release (rounds compare pairs)
 * @property {number} repeats counted repeats of each test per process (their median stands for it)
 * @property {number} warmupShare the warm-up run before each repeat, as a share of its events
 */

/**
 * @typedef {object} CountState what the phase needs of one release (run-releases' RunState)
 * @property {import('../types.js').RunRecord} record
 * @property {any} server ServerHandle, replaced by the wrapped one
 * @property {string|null} deadReason
 * @property {import('../types.js').InstallResult} install
 * @property {import('../server/types.js').ServerOptions} serverOptions
 * @property {'innodb'|'rocksdb'} engine
 */

/**
 * @param {import('../metrics/types.js').Meter} meter a counted meter (kind 'counted')
 * @param {object} ctx
 * @param {import('./types.js').StepPlanLike[]} ctx.steps the run's planned steps
 * @param {string[]} ctx.order release keys in run order
 * @param {Map<string, CountState>} ctx.states
 * @param {CountSettings} ctx.settings
 * @param {(opts: import('../server/types.js').ServerOptions) => import('../server/types.js').ServerOptions} ctx.wrap
 *   the server options with the meter's wrapper
 * @param {(product: string) => string} ctx.dispatchFunction the flavor's command-dispatch function
 * @param {(product: string) => import('../metrics/types.js').WorkCounterNames} [ctx.workCounters]
 *   the product's status variables of the work meter's counters
 * @param {{suite: any, host: any}} ctx.plan
 * @param {{storeDir: string, cacheDir: string, signal?: AbortSignal}} ctx.options
 * @param {(t: string) => void} ctx.write
 */
export async function runCountPhase(meter, { steps, order, states, settings, wrap, dispatchFunction, workCounters, plan, options, write }) {
  const counted = steps.map((s, i) => ({ step: s, index: i })).filter(({ step }) => step.measured && step.reported && !step.sequence && step.countedEvents);
  if (counted.length === 0) {
    write(`${meter.name}: no step of this suite can run a fixed amount of work; nothing to count\n`);
    return;
  }
  const warmups = steps.filter((s) => s.measured && !s.reported && !s.sequence && s.countedEvents);
  addSlots(meter, states, counted.map((c) => c.index));
  await prepareSameRows(meter, counted.map((c) => c.step), { order, states, plan, write });
  const total = settings.rounds * order.length * counted.length * settings.repeats;
  let done = 0;
  const startedMs = Date.now();
  for (let round = 0; round < settings.rounds; round += 1) {
    // Alternate which release goes first, as the timed schedule does.
    const keys = round % 2 === 0 ? order : [...order].reverse();
    for (const key of keys) {
      if (options.signal?.aborted) return;
      const state = /** @type {CountState} */ (states.get(key));
      if (state.deadReason) continue;
      write(`${meter.name}: ${key} round ${round + 1} of ${settings.rounds}: start the server under the ${meter.name} meter's wrapper\n`);
      const started = await restartWrapped(state, wrap, meter.name, counted.map((c) => c.index));
      if (!started) continue;
      const bench = (/** @type {string} */ name) => getBenchmark(name);
      /** @type {(work: import('../workload/types.js').FixedWork) => import('../workload/types.js').StepContext} */
      const ctxFor = (work) => ({ suite: plan.suite, engine: state.engine, pass: round, clientCpus: plan.host.pinning.clientCpus, cacheDir: options.cacheDir, signal: options.signal, onProgress: quiet, work });
      // The timed warm-ups (a scan that brings the table into the buffer pool) as counted runs.
      for (const w of warmups) await bench(w.benchmark).runStep(w, state.server, ctxFor({ events: /** @type {number} */ (w.countedEvents), seed: 1 + round }));
      for (const { step, index } of counted) {
        for (let r = 0; r < settings.repeats; r += 1) {
          if (options.signal?.aborted) return;
          const events = /** @type {number} */ (step.countedEvents);
          // Seeds differ by round and repeat (a write repeated with the seed of the one before
          // would rewrite the same values: no row changed, nothing logged, a third fewer
          // instructions) and are the same for every release in a round: paired rounds compare
          // the same work on the same data.
          const warmUp = { events: Math.max(1, Math.ceil(events * settings.warmupShare)), seed: 1000 + 100 * round + r };
          const rep = await countRepeat(meter, state, step, { round, repeat: r, events, warmUp }, {
            run: (work) => bench(step.benchmark).runStep(step, state.server, ctxFor(work)),
            dispatchFunction: dispatchFunction(state.record.release.product),
            workCounters: workCounters?.(state.record.release.product),
            storeDir: options.storeDir,
          });
          const slot = /** @type {import('../types.js').StepMeterRun} */ (state.record.steps[index].meters?.[meter.name]);
          slot.repeats.push(rep);
          if (rep.status !== 'ok' && slot.status === 'ok' && !options.signal?.aborted) {
            slot.status = 'failed';
            slot.reason = rep.reason;
          }
          done += 1;
          const leftS = ((Date.now() - startedMs) / done) * (total - done) / 1000;
          write(`  ${key} ${step.name} round ${round + 1} repeat ${r + 1}: ${describeCounted(meter, rep)} (${done}/${total}, about ${formatLeft(leftS)} left)\n`);
        }
      }
      const health = await state.server.checkHealth();
      if (!health.ok) state.deadReason = `server under ${meter.name} crashed: ${health.reason}`;
      // An idle server under valgrind still runs its background threads, fifty times slower:
      // it would take CPU from the next release's counting. The next round starts its own.
      else await state.server.stop();
    }
  }
  // The run ends with every live release's server up, as after the timed schedule (the size
  // of the database at the end, the error log); plainly, without the meter's wrapper.
  for (const state of states.values()) {
    if (state.deadReason || (await state.server.checkHealth()).ok) continue;
    try {
      state.server = await startServer(state.install, { ...state.serverOptions, reuseDatadir: true });
    } catch (err) {
      state.deadReason = `server would not start again after the ${meter.name} meter: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

/**
 * Every counted step of every release gets the meter's slot (`step.meters.<meter>`), skipped
 * for a release whose server is already dead.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {Map<string, CountState>} states
 * @param {number[]} stepIndexes the counted steps
 */
function addSlots(meter, states, stepIndexes) {
  for (const state of states.values()) {
    for (const index of stepIndexes) {
      const step = state.record.steps[index];
      /** @type {import('../types.js').StepMeterRun} */
      const slot = state.deadReason ? { status: 'skipped', reason: `not counted: ${state.deadReason}`, repeats: [] } : { status: 'ok', repeats: [] };
      step.meters = { ...(step.meters ?? {}), [meter.name]: slot };
    }
  }
}

/**
 * The same rows for every release before anything is counted (sysbench's load is random).
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('./types.js').StepPlanLike[]} steps the counted steps
 * @param {{order: string[], states: Map<string, CountState>, plan: {suite: any}, write: (t: string) => void}} ctx
 */
async function prepareSameRows(meter, steps, { order, states, plan, write }) {
  for (const name of new Set(steps.map((s) => s.benchmark))) {
    const prepare = getBenchmark(name).prepareCounting;
    if (!prepare) continue;
    for (const key of order) {
      const state = /** @type {CountState} */ (states.get(key));
      if (state.deadReason) continue;
      write(`${meter.name}: ${key}: the same ${name} rows as the other releases\n`);
      await prepare(plan.suite, state.server);
    }
  }
}

/**
 * A counted repeat's progress figure: the meter's first metric, as the meter names it.
 * @param {import('../metrics/types.js').Meter} meter
 * @param {import('../types.js').CountedRepeat} rep
 * @returns {string}
 */
function describeCounted(meter, rep) {
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
 * @param {CountState} state
 * @param {import('./types.js').StepPlanLike} step
 * @param {{round: number, repeat: number, events: number, warmUp: import('../workload/types.js').FixedWork}} at the repeat, and its warm-up's work
 * @param {{run: (work: import('../workload/types.js').FixedWork) => Promise<import('../workload/types.js').StepOutcome>, dispatchFunction: string, workCounters?: import('../metrics/types.js').WorkCounterNames, storeDir: string}} io
 * @returns {Promise<import('../types.js').CountedRepeat>}
 */
async function countRepeat(meter, state, step, at, io) {
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
    const warm = await io.run(at.warmUp);
    if (warm.status !== 'ok') warmFailed = warm.reason ?? 'failed';
  };
  const session = await meter.start({ pid: state.server.pid, datadir: state.server.datadir, query: state.server.query, holdPurge: state.server.holdPurge, beforeZero: warmUp, workDir: state.serverOptions.workDir, dispatchFunction: io.dispatchFunction, workCounters: io.workCounters });
  if (!warmed) {
    // A counting meter must call beforeZero: without it the warm-up would be counted.
    await session.stop(null).catch(() => null);
    throw new Error(`the ${meter.name} meter did not run the warm-up before zeroing (MeterTarget.beforeZero)`);
  }
  if (warmFailed) {
    await session.stop(null).catch(() => null);
    return { ...base, durationS: 0, status: 'failed', reason: `warm-up run failed: ${warmFailed}` };
  }
  /** @type {import('../workload/types.js').StepOutcome} */
  let out;
  try {
    out = await io.run({ events, seed });
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
  const logBase = `${step.name}.${meter.name}.i${round}.r${repeat}`;
  await writeRawLog(io.storeDir, state.record.id, `${logBase}.txt`, out.rawOutput ?? '');
  if (!figures || reason) return { ...base, durationS: out.durationS ?? 0, status: 'failed', reason: reason ?? 'no figures' };
  const profileLog = `${logBase}.profile.json`;
  if (figures.profile) await writeRawLog(io.storeDir, state.record.id, profileLog, `${JSON.stringify(figures.profile)}\n`);
  return {
    ...base,
    durationS: out.durationS ?? 0,
    status: 'ok',
    operations: /** @type {number} */ (out.operations),
    ...(/** @type {Partial<import('../types.js').CountedRepeat>} */ (figures.repeat)),
    ...(figures.profile ? { profile: profileLog } : {}),
  };
}

/**
 * Stop the release's server and start it again on the same datadir under the meter's wrapper.
 * @param {CountState} state
 * @param {(opts: import('../server/types.js').ServerOptions) => import('../server/types.js').ServerOptions} wrap
 * @param {string} meterName
 * @param {number[]} stepIndexes the counted steps (failed with the reason when it will not start)
 * @returns {Promise<boolean>}
 */
async function restartWrapped(state, wrap, meterName, stepIndexes) {
  await state.server.stop();
  try {
    state.server = await startServer(state.install, wrap({ ...state.serverOptions, reuseDatadir: true }));
    return true;
  } catch (err) {
    const reason = `server would not start under the ${meterName} meter: ${err instanceof Error ? err.message : String(err)}`;
    state.deadReason = reason;
    for (const i of stepIndexes) {
      const slot = state.record.steps[i].meters?.[meterName];
      if (slot) Object.assign(slot, { status: 'failed', reason });
    }
    return false;
  }
}

/** @param {number} s */
function formatLeft(s) {
  return s >= 90 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`;
}

/** The tools' own progress lines are kept in the raw logs. */
function quiet() {}
