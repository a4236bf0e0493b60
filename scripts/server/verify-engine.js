/**
 * Prove the server really uses the storage engine the run asked for. A silently missing
 * plugin or a template that sets another default engine would otherwise benchmark the wrong
 * engine and store the numbers under the right name.
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
