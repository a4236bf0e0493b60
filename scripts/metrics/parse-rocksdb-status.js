/**
 * Parsers of MyRocks' own reports (pure): the rows of SHOW ENGINE ROCKSDB STATUS (the DB
 * statistics, one compaction-statistics table per column family, the STATISTICS counters) and
 * the rows of information_schema.ROCKSDB_SST_PROPS. Tested on output captured from real
 * MariaDB 10.5, 10.11 and 11.8 servers (test/fixtures/metrics/rocksdb/, capture script
 * test/metrics/rocksdb-capture-fixtures.js).
 *
 * Columns are found by their header names, not by position: RocksDB adds columns between
 * releases (11.8's tables end with Rblob(GB) Wblob(GB), 10.5's do not).
 */

/**
 * @typedef {object} CompactionLevel one row of a "Compaction Stats" level table
 * @property {string} level `L0`..`L6`, or `Sum` (all levels); the `Int` row (since the last
 *   report) is left out: its interval is whatever the previous SHOW ENGINE ROCKSDB STATUS left
 * @property {number} files SST files in the level
 * @property {number} compactingFiles of those, being compacted now
 * @property {number} bytes size of the level (RocksDB prints it rounded to 2 decimals of its unit)
 * @property {number|null} writeAmp the W-Amp column: bytes written to the level / bytes read from the level above
 * @property {number|null} writeGb the Write(GB) column: bytes written by flushes and compactions into the level
 */

/**
 * @typedef {object} ColumnFamilyStats the CF_COMPACTION report of one column family
 * @property {string} name column family (`default` holds every table without a COMMENT 'cf_name')
 * @property {CompactionLevel[]} levels the level rows, then `Sum`
 * @property {number|null} flushGb `Flush(GB): cumulative` since the server started
 * @property {{writeGb: number, readGb: number, seconds: number}|null} compaction `Cumulative compaction:`
 * @property {Record<string, number>} stalls `Stalls(count):` cumulative counts by cause, names
 *   with `_` for spaces (`level0_slowdown`, `stop_for_pending_compaction_bytes`, ...)
 */

/**
 * @typedef {object} DbStats the DBSTATS report (whole database, cumulative since start)
 * @property {number|null} uptimeS
 * @property {number|null} ingestGb `Cumulative writes: ... ingest: X GB`
 * @property {number|null} walWrittenGb `Cumulative WAL: ... written: X GB`
 * @property {number|null} stallS `Cumulative stall: H:M:S`, in seconds
 * @property {number|null} stallPct `Cumulative stall: ..., X percent` of the uptime
 */

/**
 * @typedef {object} RocksdbEngineStatus
 * @property {DbStats|null} dbStats
 * @property {ColumnFamilyStats[]} columnFamilies
 * @property {Record<string, number>} counters the STATISTICS counters (`rocksdb.stall.micros` -> n)
 */

/** Bytes per unit of RocksDB's human-readable sizes. */
const UNIT_BYTES = /** @type {Record<string, number>} */ ({ B: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40, PB: 2 ** 50 });

/**
 * @param {Array<Record<string, unknown>|unknown[]>} rows SHOW ENGINE ROCKSDB STATUS as objects
 *   `{Type, Name, Status}` (mysql2's default) or as `[Type, Name, Status]` arrays
 * @returns {RocksdbEngineStatus}
 * @throws {Error} when the rows are not SHOW ENGINE ROCKSDB STATUS rows (no Status text), or a
 *   compaction table has none of the columns this parser reads
 */
export function parseRocksdbEngineStatus(rows) {
  /** @type {RocksdbEngineStatus} */
  const out = { dbStats: null, columnFamilies: [], counters: {} };
  for (const row of rows) {
    const [type, name, text] = Array.isArray(row) ? row : [row.Type, row.Name, row.Status];
    if (typeof type !== 'string' || typeof text !== 'string') {
      throw new Error(`not a SHOW ENGINE ROCKSDB STATUS row (want Type, Name and Status text): ${JSON.stringify(row).slice(0, 200)}`);
    }
    if (type === 'DBSTATS') out.dbStats = parseDbStats(text);
    else if (type === 'CF_COMPACTION') out.columnFamilies.push(parseCompactionStats(String(name), text));
    else if (type === 'STATISTICS') out.counters = parseStatisticsCounters(text);
  }
  return out;
}

/**
 * @param {string} text the Status of the DBSTATS row
 * @returns {DbStats}
 */
export function parseDbStats(text) {
  const num = (/** @type {RegExp} */ re) => {
    const m = re.exec(text);
    return m ? Number(m[1]) : null;
  };
  const stall = /^Cumulative stall: (\d+):(\d+):([\d.]+) H:M:S, ([\d.]+) percent/m.exec(text);
  return {
    uptimeS: num(/^Uptime\(secs\): ([\d.]+) total/m),
    ingestGb: gbOf(/^Cumulative writes: .*ingest: ([\d.]+) (\w+),/m.exec(text)),
    walWrittenGb: gbOf(/^Cumulative WAL: .*written: ([\d.]+) (\w+),/m.exec(text)),
    stallS: stall ? Number(stall[1]) * 3600 + Number(stall[2]) * 60 + Number(stall[3]) : null,
    stallPct: stall ? Number(stall[4]) : null,
  };
}

/**
 * @param {RegExpExecArray|null} m value in group 1, unit (GB, MB...) in group 2
 * @returns {number|null} in GB
 */
function gbOf(m) {
  if (!m) return null;
  const bytes = UNIT_BYTES[m[2]];
  return bytes === undefined ? null : (Number(m[1]) * bytes) / UNIT_BYTES.GB;
}

/**
 * @param {string} name column family
 * @param {string} text the Status of its CF_COMPACTION row
 * @returns {ColumnFamilyStats}
 * @throws {Error} when the level table's header lacks Level, Files or Size
 */
export function parseCompactionStats(name, text) {
  const lines = text.split('\n');
  // The first table is by level; a second one (by priority) follows with the same header.
  const headerAt = lines.findIndex((l) => /^Level\s+Files\s+Size\b/.test(l));
  /** @type {CompactionLevel[]} */
  const levels = [];
  if (headerAt >= 0) {
    // Size is printed as two words ("19.24 MB"); the header names it once.
    const columns = lines[headerAt].trim().split(/\s+/);
    const after = columns.slice(columns.indexOf('Size') + 1);
    for (const line of lines.slice(headerAt + 2)) {
      const m = /^\s*(L\d+|Sum|Int)\s+(\d+)\/(\d+)\s+([\d.]+)\s+([KMGTP]?B)\s+(.*)$/.exec(line);
      if (!m) break;
      if (m[1] === 'Int') continue;
      const rest = m[6].trim().split(/\s+/);
      const column = (/** @type {string} */ header) => {
        const i = after.indexOf(header);
        const v = i >= 0 ? Number(rest[i]) : NaN;
        return Number.isFinite(v) ? v : null;
      };
      levels.push({
        level: m[1], files: Number(m[2]), compactingFiles: Number(m[3]),
        bytes: Math.round(Number(m[4]) * (UNIT_BYTES[m[5]] ?? NaN)),
        writeAmp: column('W-Amp'), writeGb: column('Write(GB)'),
      });
    }
  } else if (/Compaction Stats/.test(text)) {
    throw new Error(`compaction stats of column family ${name}: no "Level Files Size" header line; RocksDB changed its report format`);
  }
  const flush = /^Flush\(GB\): cumulative ([\d.]+)/m.exec(text);
  const comp = /^Cumulative compaction: ([\d.]+) GB write, [\d.]+ MB\/s write, ([\d.]+) GB read, [\d.]+ MB\/s read, ([\d.]+) seconds/m.exec(text);
  return {
    name, levels,
    flushGb: flush ? Number(flush[1]) : null,
    compaction: comp ? { writeGb: Number(comp[1]), readGb: Number(comp[2]), seconds: Number(comp[3]) } : null,
    stalls: parseStallCounts(text),
  };
}

/**
 * `Stalls(count): 0 level0_slowdown, 0 level0_slowdown_with_compaction, ..., interval 0 total count`
 * @param {string} text
 * @returns {Record<string, number>} cause -> cumulative count (the trailing interval total left out)
 */
function parseStallCounts(text) {
  const line = /^Stalls\(count\): (.*)$/m.exec(text);
  /** @type {Record<string, number>} */
  const out = {};
  if (!line) return out;
  for (const item of line[1].split(',')) {
    const m = /^\s*(\d+) (.+?)\s*$/.exec(item);
    if (m) out[m[2].replace(/\s+/g, '_')] = Number(m[1]);
  }
  return out;
}

/**
 * `rocksdb.stall.micros COUNT : 0` lines of the STATISTICS row (histograms, which print
 * percentiles before their COUNT, are left out).
 * @param {string} text
 * @returns {Record<string, number>}
 */
export function parseStatisticsCounters(text) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const m of text.matchAll(/^(rocksdb\.[\w.-]+) COUNT : (\d+)\s*$/gm)) out[m[1]] = Number(m[2]);
  return out;
}

/**
 * @typedef {object} SstTotals what the live SST files hold (information_schema.ROCKSDB_SST_PROPS)
 * @property {number} files
 * @property {number} bytes on disk: data + index + filter blocks
 * @property {number} rawBytes keys + values before compression (older versions of a row not
 *   yet compacted away count too)
 * @property {Record<string, number>} bytesByCompression on-disk bytes per COMPRESSION_ALGO
 */

/**
 * @param {Array<Record<string, unknown>>} rows SELECT * FROM information_schema.ROCKSDB_SST_PROPS
 * @returns {SstTotals}
 * @throws {Error} when a row lacks the size columns
 */
export function sumSstProps(rows) {
  /** @type {SstTotals} */
  const out = { files: 0, bytes: 0, rawBytes: 0, bytesByCompression: {} };
  for (const row of rows) {
    const n = (/** @type {string} */ col) => {
      const v = Number(row[col] ?? 0);
      if (!Number.isFinite(v)) throw new Error(`ROCKSDB_SST_PROPS row ${String(row.SST_NAME)}: ${col} is not a number (${String(row[col])})`);
      return v;
    };
    if (!('DATA_BLOCK_SIZE' in row) || !('RAW_KEY_SIZE' in row)) {
      throw new Error(`not an information_schema.ROCKSDB_SST_PROPS row (no DATA_BLOCK_SIZE / RAW_KEY_SIZE): ${JSON.stringify(row).slice(0, 200)}`);
    }
    const bytes = n('DATA_BLOCK_SIZE') + n('INDEX_BLOCK_SIZE') + n('FILTER_BLOCK_SIZE');
    out.files += 1;
    out.bytes += bytes;
    out.rawBytes += n('RAW_KEY_SIZE') + n('RAW_VALUE_SIZE');
    const algo = String(row.COMPRESSION_ALGO ?? 'unknown');
    out.bytesByCompression[algo] = (out.bytesByCompression[algo] ?? 0) + bytes;
  }
  return out;
}
