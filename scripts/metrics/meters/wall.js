/**
 * The `wall` meter: wall-clock figures of a repeat. Throughput, latency and per-second rates are
 * the benchmark tool's own (what a user feels); around the repeat the samplers (vmstat, iostat,
 * mysqld RSS, SHOW GLOBAL STATUS, RocksDB's figures: start-sampling.js) give the efficiency per
 * operation over the tool's measured window (compute-efficiency.js), and the status change
 * divided by the work meter's counter names (the product's workCounters, when the run stage
 * hands them over) as context: the repeat's `meters.work` (meters/work.js says why it is never
 * gated). The server starts plainly.
 */
import { startSampling } from '../start-sampling.js';
import { computeEfficiency } from '../compute-efficiency.js';
import { computeTimedWorkFigures } from './work.js';

/** @typedef {import('../types.js').MeterFigures} MeterFigures */
/** @typedef {import('../types.js').MeteredRepeat} MeteredRepeat */

/** @satisfies {import('../types.js').Meter} */
export const wall = Object.freeze({
  name: 'wall',
  kind: 'timed',
  // Its figures are the repeat's own fields (throughput, latency, efficiency): compare's METRICS
  // judge them, so it names no metrics of its own.
  metrics: [],
  needs: { tools: [], wrappedServer: false },
  /**
   * @param {import('../types.js').MeterTarget} target
   * @returns {Promise<import('../types.js').MeterSession>}
   */
  async start(target) {
    const sampling = await startSampling({ pid: target.pid, datadir: target.datadir, query: target.query, intervalS: 1 });
    return {
      async stop(repeat) {
        // Stop the samplers even when the repeat threw, or vmstat/iostat would outlive it.
        const samples = await sampling.stop();
        return repeat === null ? null : wallFigures(samples, repeat, target.workCounters);
      },
    };
  },
});

/**
 * The record's figures of one repeat from the samples and the tool's outcome. Pure.
 * @param {import('../types.js').StepSamples} samples
 * @param {MeteredRepeat} repeat
 * @param {import('../types.js').WorkCounterNames} [workCounters] the product's names of the work
 *   counters; absent: no `meters.work`
 * @returns {MeterFigures}
 */
export function wallFigures(samples, repeat, workCounters) {
  const { ok } = repeat;
  const ops = ok && repeat.throughput !== null ? repeat.throughput * repeat.durationS : 0;
  // The samplers also saw the warm-up and the connect: count only the tool's measured window.
  const efficiency = ok ? computeEfficiency(samples, ops, { windowS: repeat.durationS }) : null;
  // The tool ran its warm-up and its window inside the sampled seconds (start and connect too).
  const workS = repeat.warmupS === undefined ? samples.durationS : Math.min(samples.durationS, repeat.durationS + repeat.warmupS);
  const work = ok && workCounters && samples.status
    ? computeTimedWorkFigures({ idle: samples.status.idle, before: samples.status.before, after: samples.status.after, names: workCounters, operations: ops, windowS: repeat.durationS, sampledS: samples.durationS, workS })
    : null;
  return {
    meter: 'wall',
    ...(work ? { meters: { work } } : {}),
    // The per-op figures only (cpuScope says how cpuUsPerOp was counted; it stays in the repeat's efficiency).
    perOp: efficiency ? { cpuUsPerOp: efficiency.cpuUsPerOp, csPerOp: efficiency.csPerOp, readsPerOp: efficiency.readsPerOp, kbReadPerOp: efficiency.kbReadPerOp, kbWrittenPerOp: efficiency.kbWrittenPerOp } : {},
    repeat: {
      throughput: ok ? repeat.throughput : null,
      tps: ok ? repeat.tps : null,
      latencyMs: ok ? repeat.latencyMs : null,
      intervals: repeat.intervals,
      efficiency,
      mysqldRssKb: samples.rssKb ?? null,
      ioDevices: samples.devices ? { basis: samples.devices.basis, devices: [...samples.devices.devices] } : null,
      // MyRocks servers: write amplification, stalls and the LSM tree over the repeat.
      ...(samples.rocksdb !== undefined ? { rocksdb: samples.rocksdb } : {}),
    },
  };
}
