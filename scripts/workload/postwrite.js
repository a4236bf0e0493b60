/**
 * The "postwrite" step between phases of the suite: write back what the previous phase left
 * dirty, refresh optimizer statistics, then rest, so the next test starts from the same state
 * on every release (as in the seed author's scripts).
 *
 * - InnoDB: set innodb_max_dirty_pages_pct_lwm and innodb_max_dirty_pages_pct to 0, which makes
 *   the page cleaner flush continuously, poll Innodb_buffer_pool_pages_dirty until it is about 0
 *   (or the timeout), then restore both values as they were.
 * - MyRocks: flush the memtables and compact L0, with whichever of the `*_now` variables this
 *   release has (they differ between MariaDB's and Facebook's MyRocks), then poll
 *   information_schema.ROCKSDB_CFSTATS until no column family has a memtable flush or a
 *   compaction pending (or the timeout): the `*_now` variables only schedule the work, and a
 *   compaction still running would take CPU and IO from the next test.
 * - Both: ANALYZE TABLE on the benchmark's tables (sbtest1..N unless given), then sleep `restS`.
 * Knows nothing of the server but `query(sql)`, which must run in the benchmark database.
 */

/** @typedef {import('./types.js').PostwriteResult} PostwriteResult */

/**
 * @typedef {object} PostwriteOptions
 * @property {AbortSignal} [signal] stops waiting and resting (settings are still restored)
 * @property {number} [flushTimeoutS] give up waiting for dirty pages (InnoDB) or pending
 *   flushes and compactions (MyRocks) after this (default 600)
 * @property {number} [pollS] seconds between polls (default 1)
 * @property {(line: string) => void} [onProgress] progress lines (default: stderr)
 * @property {string[]} [tables] tables to ANALYZE (default the sysbench tables sbtest1..N of the
 *   suite); other benchmarks (the insert benchmark's pi1..N) name theirs
 */

/**
 * Run the postwrite step.
 * @param {(sql: string) => Promise<any>} query runs one statement, resolves to rows (array of
 *   objects) for SELECT/SHOW; a scripts/server handle's `query` fits
 * @param {'innodb'|'rocksdb'} engine storage engine of the sbtest tables
 * @param {import('../types.js').SuiteConfig} suite for `tables` and `restS`
 * @param {PostwriteOptions} [opts]
 * @returns {Promise<PostwriteResult>} status failed when a statement failed (reason names it);
 *   a flush still unfinished at the timeout (InnoDB dirty pages; MyRocks flushes or compactions
 *   pending, by column family) is ok with `flushComplete: false` and a note
 * @throws never for server errors: they come back as status failed
 */
export async function runPostwrite(query, engine, suite, opts = {}) {
  const progress = opts.onProgress ?? ((/** @type {string} */ l) => process.stderr.write(`${l}\n`));
  /** @type {string[]} */
  const statements = [];
  const q = async (/** @type {string} */ sql) => { statements.push(sql); return query(sql); };
  const started = Date.now();
  /** @type {{flushS: number, dirtyPagesAtEnd: number|null, flushComplete: boolean, note?: string}} */
  let flush = { flushS: 0, dirtyPagesAtEnd: null, flushComplete: true };
  try {
    flush = engine === 'rocksdb' ? await flushRocksdb(q, opts, progress) : await flushInnodb(q, opts, progress);
    const tables = opts.tables ?? Array.from({ length: suite.tables }, (_, i) => `sbtest${i + 1}`);
    const rows = await q(`ANALYZE TABLE ${tables.join(', ')}`);
    const bad = (Array.isArray(rows) ? rows : []).filter((r) => /error/i.test(String(r.Msg_type)));
    if (bad.length > 0) throw new Error(`ANALYZE TABLE: ${bad.map((r) => `${r.Table}: ${r.Msg_text}`).join('; ')}`);
    if (suite.restS > 0) {
      progress(`postwrite: resting ${suite.restS} s`);
      await sleep(suite.restS * 1000, opts.signal);
    }
    return { status: 'ok', engine, ...flush, statements };
  } catch (err) {
    const last = statements.at(-1) ?? '(none)';
    return {
      status: 'failed', reason: `postwrite failed at \`${last}\`: ${err instanceof Error ? err.message : String(err)}`,
      engine, ...flush, flushS: flush.flushS || (Date.now() - started) / 1000, statements,
    };
  }
}

/**
 * @param {(sql: string) => Promise<any>} q
 * @param {PostwriteOptions} opts
 * @param {(line: string) => void} progress
 */
async function flushInnodb(q, opts, progress) {
  const [saved] = await q('SELECT @@GLOBAL.innodb_max_dirty_pages_pct AS pct, @@GLOBAL.innodb_max_dirty_pages_pct_lwm AS lwm');
  const started = Date.now();
  const timeoutMs = (opts.flushTimeoutS ?? 600) * 1000;
  let dirty = null;
  let total = 0;
  try {
    // lwm first: it may not exceed pct on some releases.
    await q('SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0');
    await q('SET GLOBAL innodb_max_dirty_pages_pct = 0');
    let lastReport = started;
    for (;;) {
      ({ dirty, total } = await readDirty(q));
      // "About 0": background threads (purge, statistics) keep dirtying a few pages, so exact 0
      // may never come; 0.1 % of the pool (at least 16 pages) is well below any measurable effect.
      if (dirty <= Math.max(16, total / 1000)) break;
      if (Date.now() - started >= timeoutMs || opts.signal?.aborted) break;
      if (Date.now() - lastReport >= 10_000) {
        progress(`postwrite: ${dirty} dirty pages left (${Math.round((Date.now() - started) / 1000)} s)`);
        lastReport = Date.now();
      }
      await sleep((opts.pollS ?? 1) * 1000, opts.signal);
    }
  } finally {
    await q(`SET GLOBAL innodb_max_dirty_pages_pct = ${Number(saved.pct)}`);
    await q(`SET GLOBAL innodb_max_dirty_pages_pct_lwm = ${Number(saved.lwm)}`);
  }
  const flushS = (Date.now() - started) / 1000;
  const flushComplete = dirty !== null && dirty <= Math.max(16, total / 1000);
  return {
    flushS, dirtyPagesAtEnd: dirty, flushComplete,
    ...(flushComplete ? {} : { note: `${dirty} dirty pages still in the buffer pool after ${Math.round(flushS)} s` }),
  };
}

/**
 * @param {(sql: string) => Promise<any>} q
 * @returns {Promise<{dirty: number, total: number}>}
 */
async function readDirty(q) {
  const rows = await q("SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')");
  /** @type {Record<string, number>} */
  const v = {};
  for (const r of rows) v[String(r.Variable_name).toLowerCase()] = Number(r.Value);
  return { dirty: v.innodb_buffer_pool_pages_dirty ?? 0, total: v.innodb_buffer_pool_pages_total ?? 0 };
}

/**
 * MariaDB's MyRocks has rocksdb_force_flush_memtable_and_lzero_now (flush + L0 compaction in
 * one); Facebook's has rocksdb_force_flush_memtable_now and rocksdb_compact_lzero_now. Then
 * waits for the background work (see the module comment).
 * @param {(sql: string) => Promise<any>} q
 * @param {PostwriteOptions} opts
 * @param {(line: string) => void} progress
 */
async function flushRocksdb(q, opts, progress) {
  const started = Date.now();
  const rows = await q("SHOW GLOBAL VARIABLES LIKE 'rocksdb\\_%\\_now'");
  const have = new Set((Array.isArray(rows) ? rows : []).map((r) => String(r.Variable_name).toLowerCase()));
  if (have.size === 0) throw new Error('no rocksdb_*_now variables: is the MyRocks plugin loaded?');
  if (have.has('rocksdb_force_flush_memtable_and_lzero_now')) {
    await q('SET GLOBAL rocksdb_force_flush_memtable_and_lzero_now = 1');
  } else {
    if (have.has('rocksdb_force_flush_memtable_now')) await q('SET GLOBAL rocksdb_force_flush_memtable_now = 1');
    if (have.has('rocksdb_compact_lzero_now')) await q('SET GLOBAL rocksdb_compact_lzero_now = 1');
  }
  const timeoutMs = (opts.flushTimeoutS ?? 600) * 1000;
  let lastReport = started;
  for (;;) {
    const pending = await readRocksdbPending(q);
    if (pending.length === 0) return { flushS: (Date.now() - started) / 1000, dirtyPagesAtEnd: null, flushComplete: true };
    const flushS = (Date.now() - started) / 1000;
    const what = pending.map((p) => `${p.cf} ${p.stat} ${p.value}`).join(', ');
    if (Date.now() - started >= timeoutMs || opts.signal?.aborted) {
      return { flushS, dirtyPagesAtEnd: null, flushComplete: false, note: `RocksDB work still pending after ${Math.round(flushS)} s (ROCKSDB_CFSTATS: ${what})` };
    }
    if (Date.now() - lastReport >= 10_000) {
      progress(`postwrite: RocksDB ${what} (${Math.round(flushS)} s)`);
      lastReport = Date.now();
    }
    await sleep((opts.pollS ?? 1) * 1000, opts.signal);
  }
}

/** Pending background work per column family that the postwrite waits out. */
const ROCKSDB_PENDING_STATS = ['MEM_TABLE_FLUSH_PENDING', 'COMPACTION_PENDING'];

/**
 * @param {(sql: string) => Promise<any>} q
 * @returns {Promise<{cf: string, stat: string, value: number}[]>} the non-zero ones
 * @throws {Error} when ROCKSDB_CFSTATS has none of the stats (nothing to wait on would look
 *   like a finished flush)
 */
async function readRocksdbPending(q) {
  const rows = await q(`SELECT CF_NAME, STAT_TYPE, VALUE FROM information_schema.ROCKSDB_CFSTATS WHERE STAT_TYPE IN (${ROCKSDB_PENDING_STATS.map((t) => `'${t}'`).join(', ')})`);
  const list = Array.isArray(rows) ? rows : [];
  if (list.length === 0) throw new Error(`information_schema.ROCKSDB_CFSTATS has no ${ROCKSDB_PENDING_STATS.join(' nor ')} row: cannot tell when RocksDB's flush and compaction are done`);
  return list.map((r) => ({ cf: String(r.CF_NAME), stat: String(r.STAT_TYPE), value: Number(r.VALUE) })).filter((p) => p.value !== 0);
}

/**
 * @param {number} ms
 * @param {AbortSignal} [signal] resolves early when aborted
 * @returns {Promise<void>}
 */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) { resolve(); return; }
    const t = setTimeout(done, ms);
    function done() { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); }
    signal?.addEventListener('abort', done, { once: true });
  });
}
