/**
 * Prove the server really uses the storage engine the run asked for. A silently missing
 * plugin or a template that sets another default engine would otherwise benchmark the wrong
 * engine and store the numbers under the right name. For MyRocks, also that every compression
 * the column-family options name is built in: MyRocks starts without a word when one is not
 * (bottommost_compression=kXpressCompression on the Debian 10.11.18 build), and its files then
 * get another compression than the template and the record say.
 */
import { UserError } from '../errors.js';

/** Engine names as information_schema.ENGINES spells them. */
const ENGINE_NAMES = /** @type {const} */ ({ innodb: 'InnoDB', rocksdb: 'ROCKSDB' });

/**
 * @param {(sql: string, params?: unknown[]) => Promise<any>} query runs one statement
 * @param {'innodb'|'rocksdb'} engine
 * @param {{pluginDir: string, version: string}} context for messages
 * @returns {Promise<void>}
 * @throws {UserError} when the engine is missing, disabled, not the default, or a new table
 *   ends up in another engine
 */
export async function verifyEngine(query, engine, { pluginDir, version }) {
  const want = ENGINE_NAMES[engine];
  const rows = await query('SELECT ENGINE, SUPPORT FROM information_schema.ENGINES WHERE UPPER(ENGINE) = UPPER(?)', [want]);
  const support = rows[0]?.SUPPORT ?? null;
  if (support !== 'DEFAULT' && support !== 'YES') {
    const plugin = engine === 'rocksdb' ? ` (plugin ha_rocksdb.so loaded at startup from ${pluginDir})` : '';
    throw new UserError(
      `engine ${engine} is not available in server ${version}${plugin}: information_schema.ENGINES shows ` +
        `${support === null ? 'no such engine' : `SUPPORT=${support}`}; check the error log, or run with another engine`,
    );
  }
  const [{ engine: defaultEngine }] = await query('SELECT @@default_storage_engine AS engine');
  if (String(defaultEngine).toLowerCase() !== engine) {
    throw new UserError(`server ${version} runs with default_storage_engine=${defaultEngine} but engine ${engine} was asked for: remove default-storage-engine from the my.cnf template or set it to ${want}`);
  }
  if (engine === 'rocksdb') await verifyRocksdbCompression(query, version);
  await query('DROP TABLE IF EXISTS sbtest.tagbench_engine_check');
  await query('CREATE TABLE sbtest.tagbench_engine_check (id INT PRIMARY KEY, k INT, KEY (k))');
  try {
    await query('INSERT INTO sbtest.tagbench_engine_check VALUES (1, 10), (2, 20)');
    const [{ n }] = await query('SELECT COUNT(*) AS n FROM sbtest.tagbench_engine_check WHERE k >= 10');
    const [{ ENGINE: used }] = await query(
      "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'tagbench_engine_check'",
    );
    if (String(used).toLowerCase() !== engine || Number(n) !== 2) {
      throw new UserError(`server ${version}: a table created without ENGINE= went to ${used} (rows read back: ${n}), not ${want}; check the my.cnf template and sql_mode`);
    }
  } finally {
    await query('DROP TABLE IF EXISTS sbtest.tagbench_engine_check');
  }
}

/** RocksDB's option names of the compressions, as rocksdb_supported_compression_types spells them. */
const COMPRESSION_NAMES = /** @type {Record<string, string[]>} */ ({
  kSnappyCompression: ['Snappy'], kZlibCompression: ['Zlib'], kBZip2Compression: ['BZip2'],
  kLZ4Compression: ['LZ4'], kLZ4HCCompression: ['LZ4HC'], kXpressCompression: ['Xpress'],
  // Builds with libzstd list only the alias ZSTDNotFinal (Debian's 10.5, 10.11 and 11.8), and
  // write kZSTD files all the same (information_schema.ROCKSDB_SST_PROPS shows ZSTD).
  kZSTD: ['ZSTD', 'ZSTDNotFinal'], kZSTDNotFinalCompression: ['ZSTD', 'ZSTDNotFinal'],
});

/**
 * The compressions named by compression=, bottommost_compression= and compression_per_level=
 * in a column-family options string.
 * @param {string} cfOptions rocksdb_default_cf_options
 * @returns {{option: string, compression: string}[]}
 */
export function namedCompressions(cfOptions) {
  /** @type {{option: string, compression: string}[]} */
  const out = [];
  for (const m of cfOptions.matchAll(/(?:^|[;{])\s*(compression|bottommost_compression|compression_per_level)\s*=\s*([^;}]*)/g)) {
    for (const c of m[2].split(':').map((x) => x.trim()).filter(Boolean)) out.push({ option: m[1], compression: c });
  }
  return out;
}

/**
 * @param {(sql: string, params?: unknown[]) => Promise<any>} query
 * @param {string} version for messages
 * @throws {UserError} when the options name a compression the build lacks, or one RocksDB has no name for
 */
async function verifyRocksdbCompression(query, version) {
  const [row] = await query('SELECT @@rocksdb_default_cf_options AS cf, @@rocksdb_supported_compression_types AS supported');
  const supported = String(row.supported ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  for (const { option, compression } of namedCompressions(String(row.cf ?? ''))) {
    if (compression === 'kNoCompression' || compression === 'kDisableCompressionOption') continue;
    const names = COMPRESSION_NAMES[compression];
    if (!names) {
      throw new UserError(`server ${version}: rocksdb_default_cf_options sets ${option}=${compression}, which is no RocksDB compression; known: ${Object.keys(COMPRESSION_NAMES).join(', ')}, kNoCompression`);
    }
    if (!names.some((n) => supported.includes(n))) {
      throw new UserError(`server ${version}: rocksdb_default_cf_options sets ${option}=${compression}, but this build supports only ${supported.join(', ') || '(none)'} (rocksdb_supported_compression_types); MyRocks would write its files with another compression than the template says: change the my.cnf template`);
    }
  }
}
