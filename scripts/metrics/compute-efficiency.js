/**
 * Hardware efficiency per operation (pure), the figures of the seed posts' "efficiency"
 * tables: CPU µs, context switches, storage reads, KB read and KB written per operation.
 *
 * Formula. vmstat and iostat give per-second rates; the step's resource use is the mean rate
 * over the sampled seconds times the window the operations were counted in (W seconds):
 *
 *   cpuUsPerOp     = (serverS + clientS) / wallS × W × 1e6 / ops
 *                    CPU seconds of the step's own processes (StepSamples.processCpu: the
 *                    server, the client and tagbench itself, from /proc; start-sampling.js
 *                    says why not the whole machine's vmstat us+sy). Samples without
 *                    processCpu (not made by startSampling) use the older system-wide form:
 *                    mean((us + sy) / 100) × cores × W × 1e6 / ops
 *   csPerOp        = mean(cs/s) × W / ops                       (system-wide)
 *   readsPerOp     = mean(Σ r/s over counted devices) × W / ops
 *   kbReadPerOp    = mean(Σ rkB/s over counted devices) × W / ops
 *   kbWrittenPerOp = mean(Σ wkB/s over counted devices) × W / ops
 *
 * Counted devices: the block device holding the datadir (from /proc/self/mountinfo and
 * /sys/dev/block), or every real block device when that cannot be told; StepSamples.devices
 * says which (`basis`: 'datadir' | 'all') and how it was found (`note`).
 * Taking mean rate × W rather than summing samples keeps the figure right when the window is
 * not a whole number of seconds, or when the sampler saw a warm-up the op count excludes.
 */

/** @typedef {import('../types.js').Efficiency} Efficiency */
/** @typedef {import('./types.js').StepSamples} StepSamples */

/**
 * @param {StepSamples} samples from startSampling(...).stop()
 * @param {number} operations operations completed in the window (queries; rows for scans)
 * @param {{windowS?: number}} [options] windowS = seconds the operations were counted over;
 *   default samples.durationS (the sampled wall time)
 * @returns {Efficiency|null} null when there is nothing to divide by or nothing sampled:
 *   operations ≤ 0 or not finite, no completed CPU or I/O interval, window ≤ 0, the step's
 *   process CPU unreadable (processCpu null) — never NaN or Infinity
 */
export function computeEfficiency(samples, operations, options = {}) {
  const windowS = options.windowS ?? samples.durationS;
  if (!(operations > 0) || !Number.isFinite(operations)) return null;
  if (!(windowS > 0) || !Number.isFinite(windowS)) return null;
  if (samples.cpu.length === 0 || samples.io.length === 0 || !(samples.cores > 0)) return null;
  const perOp = (/** @type {number} */ meanRate) => (meanRate * windowS) / operations;
  const proc = samples.processCpu;
  if (proc === null || (proc !== undefined && !(proc.wallS > 0))) return null;
  /** @type {Efficiency} */
  const eff = {
    cpuUsPerOp: proc !== undefined
      ? perOp(((proc.serverS + proc.clientS) / proc.wallS) * 1e6)
      : perOp(mean(samples.cpu.map((s) => ((s.usPct + s.syPct) / 100) * samples.cores * 1e6))),
    csPerOp: perOp(mean(samples.cpu.map((s) => s.csPerS))),
    readsPerOp: perOp(mean(samples.io.map((s) => s.readsPerS))),
    kbReadPerOp: perOp(mean(samples.io.map((s) => s.kbReadPerS))),
    kbWrittenPerOp: perOp(mean(samples.io.map((s) => s.kbWrittenPerS))),
  };
  if (![eff.cpuUsPerOp, eff.csPerOp, eff.readsPerOp, eff.kbReadPerOp, eff.kbWrittenPerOp].every((v) => Number.isFinite(v) && v >= 0)) return null;
  // Said in the record, because the two accountings differ several-fold on a busy host and
  // compare must not judge one against the other.
  return proc !== undefined ? { ...eff, cpuScope: 'processes' } : eff;
}

/**
 * @param {number[]} xs non-empty
 */
function mean(xs) {
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}
