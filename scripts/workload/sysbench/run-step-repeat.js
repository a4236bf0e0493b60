/**
 * One repeat of one timed suite step: run sysbench, parse it, and turn the outcome into a
 * Repeat-like result. Expected failures (server gone, timeout, FATAL, cut-off output) come back
 * as `status: 'failed'` with a reason and the raw output; nothing here throws for them.
 */
import { buildCommand } from './command.js';
import { parseSysbench } from './parse-sysbench.js';
import { spawnSysbench } from '../spawn-sysbench.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').RunOptions} RunOptions */
/** @typedef {import('../types.js').RepeatResult} RepeatResult */

/**
 * Run one repeat of a sysbench step against a server.
 * @param {StepPlan} step a `kind: 'sysbench'` entry of planSuite()
 * @param {BenchTarget} target connection (a scripts/server handle fits)
 * @param {RunOptions} [opts] pinning, timeout margin, abort signal, executable
 * @returns {Promise<RepeatResult>} ok: throughput in the step's metric (> 0), qps, tps, latency
 *   (ms), totals, per-second intervals, measured durationS, argv, rawOutput; failed: reason,
 *   wall-clock durationS, the intervals seen before the failure, argv, rawOutput
 * @throws {Error} only for a step that is not a sysbench step (a bug in the caller)
 */
export async function runStepRepeat(step, target, opts = {}) {
  if (step.kind !== 'sysbench') throw new Error(`runStepRepeat: step ${step.name} is a ${step.kind} step, not sysbench`);
  const work = opts.work;
  const argv = buildCommand(step, target, work ? { work } : {});
  if (opts.sysbenchBin) argv[0] = opts.sysbenchBin;
  const runS = work ? 0 : step.warmupS + step.durationS;
  // Enough for connect + a slow last event (a full scan of a large table) on a loaded host. A
  // counted repeat has no time limit and runs under valgrind (some 50 times slower): its
  // events are sized to take seconds, and a quarter of an hour means something is stuck.
  const timeoutS = work ? 900 : runS + (opts.timeoutMarginS ?? 30 + 0.2 * runS);
  const startedAt = new Date().toISOString();
  const onProgress = opts.onProgress;
  const res = await spawnSysbench(argv, {
    clientCpus: opts.clientCpus ?? null,
    timeoutS,
    signal: opts.signal,
    onLine: onProgress ? (l) => { if (l.startsWith('FATAL') || l.startsWith('[')) onProgress(`${step.name}: ${l}`); } : undefined,
  });
  const parsed = parseSysbench(res.output);
  // The raw log says which row count a scan's rows/s was computed with.
  const note = step.metric === 'rows/s' ? `\ntagbench: rows/s = events/s x ${step.rowsPerEvent} rows per event (rows per table: counted before the repeat, else the configured table size)\n` : '';
  const base = { startedAt, argv: res.argv, rawOutput: res.output + note };
  /** @param {string} reason @returns {RepeatResult} */
  const failed = (reason) => ({
    ...base, status: 'failed', reason, durationS: res.elapsedS, throughput: null, qps: null, tps: null,
    latencyMs: null, errors: 0, reconnects: 0, intervals: parsed.intervals,
  });

  if (res.spawnError) return failed(`cannot start ${argv[0]}: ${res.spawnError}; install sysbench 1.0.x (bash setup/bench.sh)`);
  if (res.aborted) return failed(`aborted after ${res.elapsedS} s (run interrupted)`);
  if (res.timedOut) return failed(`timed out: killed after ${Math.round(timeoutS)} s (${work ? `${work.events} counted events` : `warm-up + duration ${runS} s + margin`})${parsed.ok ? '' : `; ${parsed.reason}`}`);
  if (!parsed.ok) {
    // Messages from outside sysbench (taskset, the loader) are not FATAL lines: show the last one.
    const last = /^(FATAL|invalid option|PANIC)/m.test(res.output) ? '' : lastLine(res.output);
    return failed(`${parsed.reason}${exitText(res)}${last ? `; last output line: ${last}` : ''}`);
  }
  if (res.exitCode !== 0) return failed(`sysbench printed a summary but ${exitText(res).slice(2)}`);
  const throughput = step.metric === 'rows/s' ? parsed.tps * step.rowsPerEvent : parsed.qps;
  if (!(throughput > 0)) return failed(`no valid throughput (${step.metric} = ${throughput})`);
  const operations = step.metric === 'rows/s' ? parsed.transactions * step.rowsPerEvent : parsed.queries.total;
  if (work && parsed.transactions !== work.events) return failed(`sysbench ran ${parsed.transactions} events, not the ${work.events} a counted repeat needs`);
  return {
    ...base,
    status: 'ok',
    // Rates are per measured second; events/rates gives the time the summary really covers.
    durationS: parsed.measuredS,
    throughput: round3(throughput),
    qps: parsed.qps,
    tps: parsed.tps,
    latencyMs: { avg: parsed.latencyMs.avg, p95: parsed.latencyMs.p95, p99: null, max: parsed.latencyMs.max },
    errors: parsed.errors,
    reconnects: parsed.reconnects,
    intervals: parsed.intervals,
    operations,
  };
}

/**
 * A scan's rows per event as its tables hold them right before a timed repeat: the mean of
 * SELECT COUNT(*) over the tables (each event scans one, picked at random), so that rows/s is
 * the rows the scan read a second and not the configured table size (a table that grew by an
 * earlier insert test read 7x more than it claimed, issue 35). Any other step comes back as it
 * is. Runs before the meter starts: the counts are not part of the measured work.
 * @param {StepPlan} step
 * @param {BenchTarget} target needs `query` for a scan
 * @returns {Promise<StepPlan>}
 * @throws {Error} a scan without a query function, or a count that fails (naming the table)
 */
export async function countScanRows(step, target) {
  if (step.metric !== 'rows/s') return step;
  if (!target.query) throw new Error(`step ${step.name}: counting the rows a scan reads needs the target's query function (a scripts/server handle)`);
  let rows = 0;
  for (let i = 1; i <= step.tables; i += 1) {
    const table = `sbtest${i}`;
    const result = await target.query(`SELECT COUNT(*) AS n FROM ${table}`).catch((err) => {
      throw new Error(`step ${step.name}: cannot count the rows of ${table}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    });
    rows += Number(result[0].n);
  }
  return { ...step, rowsPerEvent: rows / step.tables };
}

/** @param {import('../spawn-sysbench.js').SpawnResult} res */
function exitText(res) {
  if (res.signal) return `; sysbench was killed by ${res.signal}`;
  if (res.exitCode !== 0) return `; sysbench exited with code ${res.exitCode}`;
  return '';
}

/** @param {string} text */
function lastLine(text) {
  return text.trimEnd().split('\n').at(-1)?.trim() ?? '';
}

/** @param {number} x */
function round3(x) {
  return Math.round(x * 1000) / 1000;
}
