/**
 * Database size, logical and on disk: how much the benchmark tables hold, and how much the
 * datadir takes (logs, undo, doublewrite and SST files included).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { UserError } from '../errors.js';
import { sumSstProps } from './parse-rocksdb-status.js';

const run = promisify(execFile);

/** @typedef {import('../types.js').DbSize} DbSize */

/**
 * @param {{datadir: string, query: import('./types.js').QueryFn, database: string}} options
 *   datadir of the server; query runs SQL on it; database = the benchmark schema (`sbtest`)
 * @returns {Promise<DbSize>} logicalBytes = Σ data_length + index_length over the schema's
 *   tables (information_schema.TABLES); onDiskBytes = allocated size of the datadir (`du -s -B1`)
 * @throws {UserError} on a database name that is not a plain identifier, or when du cannot read the datadir
 */
export async function measureDbSize({ datadir, query, database }) {
  // The query function takes no parameters, so the name goes into a literal: allow only the
  // characters an unquoted identifier may hold, which need no escaping.
  if (!/^[A-Za-z0-9_$]+$/.test(database)) {
    throw new UserError(`measureDbSize: database name ${JSON.stringify(database)} must be a plain identifier (letters, digits, _ and $)`);
  }
  const rows = await query(
    `SELECT COALESCE(SUM(data_length + index_length), 0) AS bytes FROM information_schema.TABLES WHERE table_schema = '${database}'`,
  );
  const first = rows[0];
  const logicalBytes = Number(Array.isArray(first) ? first[0] : first?.bytes);
  if (!Number.isFinite(logicalBytes)) throw new Error(`measureDbSize: information_schema.TABLES gave no size for ${database}: ${JSON.stringify(first)}`);
  return { logicalBytes: Math.round(logicalBytes), onDiskBytes: await duBytes(datadir) };
}

/**
 * Bytes one database's own files take on disk, without the datadir's shared files (redo logs,
 * undo, the system tablespace: at a small scale they dwarf the data and hide its growth).
 * InnoDB (file-per-table): the database's folder, by du. MyRocks keeps every table of the server
 * in one key-value store, so its figure is the live SST files' bytes as the server lists them
 * (information_schema.ROCKSDB_SST_PROPS, the same rows the RocksDB figures of every repeat sum:
 * one consistent list, where du of the folder would race compaction): the database's own only
 * when no other MyRocks table holds data, which is so for a benchmark's private server.
 * Information schema's TABLES sizes are no substitute: InnoDB's are sampled statistics, 3x
 * apart for the same rows on two servers (a LinkBench load of 50k links read 11.6 and 41.6 MiB).
 * @param {{datadir: string, query: import('./types.js').QueryFn, database: string, engine: 'innodb'|'rocksdb'}} options
 * @returns {Promise<number>} bytes
 * @throws {UserError} on a database name that is not a plain identifier, or a folder du cannot read
 */
export async function measureDatabaseFiles({ datadir, query, database, engine }) {
  if (!/^[A-Za-z0-9_$]+$/.test(database)) {
    throw new UserError(`measureDatabaseFiles: database name ${JSON.stringify(database)} must be a plain identifier (letters, digits, _ and $)`);
  }
  if (engine === 'innodb') return duBytes(join(datadir, database));
  return sumSstProps(await query('SELECT * FROM information_schema.ROCKSDB_SST_PROPS')).bytes;
}

/**
 * Allocated bytes under `dir`. du (coreutils) rather than a hand-written walk: it handles
 * hard links, sparse files and unreadable entries the way users expect. A file removed while
 * du walks (temporary tables) makes du exit 1 but still print a total, which we keep.
 * @param {string} dir
 * @returns {Promise<number>}
 */
async function duBytes(dir) {
  /** @type {string} */
  let stdout;
  try {
    ({ stdout } = await run('du', ['-s', '-B1', dir], { env: { ...process.env, LC_ALL: 'C' } }));
  } catch (err) {
    const e = /** @type {{stdout?: string, stderr?: string, message: string}} */ (err);
    stdout = e.stdout ?? '';
    if (!/^\d+\s/.test(stdout)) {
      throw new UserError(`du could not measure ${dir}: ${(e.stderr || e.message).trim()}; check the path exists and is readable`, { cause: err });
    }
  }
  return Number(stdout.split(/\s/)[0]);
}
