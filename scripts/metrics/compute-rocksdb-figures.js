/**
 * RocksDB's own figures over one benchmark step (pure): write amplification, write stalls and
 * the size of the LSM tree at the end, for a MyRocks server.
 *
 * Write amplification = (bytes written by memtable flushes + bytes written by compactions) /
 * bytes the server wrote into RocksDB (keys + values of its writes), all from the Rocksdb_*
 * counters of SHOW GLOBAL STATUS (exact bytes, where the compaction-statistics table prints
 * GB to two decimals). The WAL is left out, as RocksDB's own W-Amp does; it is reported
 * beside. A flush or compaction runs in the background, often after the step that caused it:
 * a short step can show 0 while the postwrite step, which flushes and compacts, shows the
 * deferred work. Each step's figure is what RocksDB wrote during that step, nothing more.
 *
 * Stalls: the Rocksdb_stall_* counters (delays and stops of writes when L0 has too many files,
 * when too many memtables wait for a flush, or when compaction falls behind).
 */
import { parseRocksdbEngineStatus, sumSstProps } from './parse-rocksdb-status.js';

/** @typedef {import('../types.js').RocksdbFigures} RocksdbFigures */

/** The counter that tells a MyRocks server: present in SHOW GLOBAL STATUS only with ha_rocksdb loaded. */
export const ROCKSDB_MARKER = 'Rocksdb_bytes_written';

/**
 * @param {object} input
 * @param {Record<string, string>} input.statusBefore SHOW GLOBAL STATUS before the step, name -> value
 * @param {Record<string, string>} input.statusAfter the same after the step
 * @param {Array<Record<string, unknown>|unknown[]>|null} input.engineStatusAfter rows of SHOW
 *   ENGINE ROCKSDB STATUS after the step (null: not read; levels are then empty)
 * @param {Array<Record<string, unknown>>|null} input.sstPropsAfter rows of
 *   information_schema.ROCKSDB_SST_PROPS after the step (null: not read; sst is then null)
 * @returns {RocksdbFigures|null} null when the status has no Rocksdb_* counters (not a MyRocks server)
 * @throws {Error} when a counter the figures need is missing or not a number on one side only,
 *   or the engine status / SST rows are not what those statements return
 */
export function computeRocksdbFigures({ statusBefore, statusAfter, engineStatusAfter, sstPropsAfter }) {
  if (!(ROCKSDB_MARKER in statusBefore) || !(ROCKSDB_MARKER in statusAfter)) return null;
  const delta = (/** @type {string} */ name) => {
    const a = Number(statusAfter[name]);
    const b = Number(statusBefore[name]);
    if (!Number.isFinite(a) || !Number.isFinite(b) || statusAfter[name] === undefined || statusBefore[name] === undefined) {
      throw new Error(`SHOW GLOBAL STATUS: ${name} missing or not a number (before ${statusBefore[name]}, after ${statusAfter[name]}); is this a MyRocks server?`);
    }
    return a - b;
  };
  const userBytesWritten = delta('Rocksdb_bytes_written');
  const flushBytesWritten = delta('Rocksdb_flush_write_bytes');
  const compactionBytesWritten = delta('Rocksdb_compact_write_bytes');
  /** @type {Record<string, number>} */
  const stallsByCause = {};
  for (const name of Object.keys(statusAfter).sort()) {
    const cause = /^Rocksdb_stall_(.+_(?:slowdowns|stops))$/.exec(name)?.[1];
    if (cause && !cause.startsWith('total_') && name in statusBefore) stallsByCause[cause] = delta(name);
  }
  const engine = engineStatusAfter ? parseRocksdbEngineStatus(engineStatusAfter) : null;
  return {
    userBytesWritten,
    walBytesWritten: delta('Rocksdb_wal_bytes'),
    flushBytesWritten,
    compactionBytesWritten,
    compactionBytesRead: delta('Rocksdb_compact_read_bytes'),
    writeAmp: userBytesWritten > 0 ? (flushBytesWritten + compactionBytesWritten) / userBytesWritten : null,
    stallMicros: delta('Rocksdb_stall_micros'),
    stallSlowdowns: delta('Rocksdb_stall_total_slowdowns'),
    stallStops: delta('Rocksdb_stall_total_stops'),
    stallsByCause,
    memtableBytes: Number(statusAfter.Rocksdb_memtable_total ?? NaN) || 0,
    levels: engine ? sumLevels(engine.columnFamilies) : [],
    sst: sstPropsAfter ? (({ files, bytes, rawBytes }) => ({ files, bytes, rawBytes }))(sumSstProps(sstPropsAfter)) : null,
  };
}

/**
 * The LSM tree's shape over every column family: files and bytes per level (L0 first), as
 * RocksDB prints them (L0 always, the levels between L0 and the bottom one only once used).
 * @param {import('./parse-rocksdb-status.js').ColumnFamilyStats[]} families
 * @returns {{level: string, files: number, bytes: number}[]}
 */
function sumLevels(families) {
  /** @type {Map<string, {level: string, files: number, bytes: number}>} */
  const byLevel = new Map();
  for (const cf of families) {
    for (const l of cf.levels) {
      if (l.level === 'Sum') continue;
      const sum = byLevel.get(l.level) ?? { level: l.level, files: 0, bytes: 0 };
      sum.files += l.files;
      sum.bytes += l.bytes;
      byLevel.set(l.level, sum);
    }
  }
  return [...byLevel.values()].sort((a, b) => Number(a.level.slice(1)) - Number(b.level.slice(1)));
}
