/**
 * RocksDB's own figures beside the verdicts: per test and side, the medians of write
 * amplification, write-stall seconds and SST space over the repeats that carry them (MyRocks
 * servers, scripts/metrics/compute-rocksdb-figures.js). Informational only: never gated, so the
 * family of verdicts the run's issues are controlled over (Holm) stays the same. Pure.
 */
import { median } from 'simple-statistics';

/** @typedef {import('../types.js').RocksdbComparison} RocksdbComparison */
/** @typedef {import('../types.js').RocksdbSide} RocksdbSide */

/**
 * @param {import('../types.js').RunRecord[]} base
 * @param {import('../types.js').RunRecord[]} candidate
 * @param {string[]} tests reported tests, in the comparison's order
 * @returns {RocksdbComparison[]} one row per test where a side has figures; empty when neither does
 */
export function summarizeRocksdb(base, candidate, tests) {
  /** @type {RocksdbComparison[]} */
  const rows = [];
  for (const test of tests) {
    const b = summarizeSide(base, test);
    const c = summarizeSide(candidate, test);
    if (b || c) rows.push({ test, base: b, candidate: c });
  }
  return rows;
}

/**
 * @param {import('../types.js').RunRecord[]} records one side's
 * @param {string} test
 * @returns {RocksdbSide|null} null when no valid repeat of the test has RocksDB figures
 */
function summarizeSide(records, test) {
  const figures = records.flatMap((r) => r.steps.filter((s) => s.name === test && s.status === 'ok'))
    .flatMap((s) => s.repeats.filter((rep) => rep.status === 'ok'))
    .map((rep) => rep.rocksdb)
    .filter((f) => f !== undefined && f !== null);
  if (figures.length === 0) return null;
  const medianOrNull = (/** @type {number[]} */ xs) => (xs.length > 0 ? median(xs) : null);
  return {
    repeats: figures.length,
    writeAmp: medianOrNull(figures.map((f) => f.writeAmp).filter((x) => x !== null)),
    stallS: median(figures.map((f) => f.stallMicros / 1e6)),
    // SST files' bytes on disk per byte of the keys and values they hold: compression below 1,
    // stale versions the compactions have not dropped yet above.
    spaceAmp: medianOrNull(figures.flatMap((f) => (f.sst && f.sst.rawBytes > 0 ? [f.sst.bytes / f.sst.rawBytes] : []))),
  };
}
