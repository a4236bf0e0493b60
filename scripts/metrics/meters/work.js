/**
 * The `work` meter: the server's own work per operation, from its status counters (SHOW GLOBAL
 * STATUS) read around a counted repeat's fixed amount of work: rows read, index lookups and
 * scans, temporary tables and sorts (a plan change shows here first), buffer-pool requests and
 * misses, pages read, written and created, redo bytes, fsyncs and, on MyRocks, bytes written,
 * compacted and stalls. Each counter is one metric, lower is better, per operation.
 *
 * Why counted and without a wrapper: the same events with the same seed on the same rows do the
 * same logical work in every release, so the rows and lookups are exact counts and a change is a
 * change of the release (a plan, a read path), not of the host; a plain server is enough (status
 * counters cost nothing to read) and it is fast, unlike a count under valgrind.
 *
 * Which status variable stands for a counter differs by flavor (MariaDB's Rows_read, MySQL's
 * Innodb_rows_read; MySQL's Innodb_os_log_fsyncs, which MariaDB lacks): the product's
 * `workCounters` (configs/products) names them, and the run stage hands them over as
 * MeterTarget.workCounters. A counter the flavor lacks, or the server does not report (a MyRocks
 * counter on an InnoDB-only server), is null with the reason, never 0.
 *
 * Around the count the server is settled twice (purge done, dirty pages written): before, so the
 * warm-up's and earlier tests' background work is not counted; after, so the pages and redo the
 * work itself made are counted in full rather than as far as the page cleaner happened to get
 * (which would make pages written a measure of timing). Purge of the work's own changes is
 * therefore counted too: it is work the release does per write.
 *
 * On the timed repeats: context, never a meter of its own and never gated. The timed repeats run
 * as much work as each release manages in their seconds, on data the releases have changed
 * differently, with the page cleaner writing whenever it likes, so the same counters over them
 * say what the server did beside the timed verdict but cannot be judged. Wall's samplers already
 * read SHOW GLOBAL STATUS around every timed repeat (start-sampling.js); the wall meter divides
 * that change by the same names (computeTimedWorkFigures below) and keeps it as the repeat's
 * `meters.work`, which is cheaper than a second meter reading the same status again.
 */
/** @typedef {import('../types.js').WorkCounterNames} WorkCounterNames */
/** @typedef {import('../types.js').WorkFigures} WorkFigures */
/** @typedef {import('../../types.js').TimedWorkFigures} TimedWorkFigures */

/**
 * The counters, in the order the report shows them: key (the product config's `workCounters`
 * key and the figure's name), metric name, unit, label; `settled`: the engine's counters, read
 * once purge and the page cleaner have finished the work's changes (the others are read right
 * after the work: the settling's own polls would count in them); `linear`: a counter that is 0
 * when all is well (joins without an index, temporary tables on disk, sort merge passes, buffer
 * pool misses, pages read): judged as a difference per op, since its change from 0 is the
 * signal and a ratio to 0 says nothing.
 * @type {readonly {key: string, settled?: boolean, linear?: boolean, metric: string, unit: string, label: string}[]}
 */
export const WORK_COUNTERS = Object.freeze([
  { key: 'rowsRead', metric: 'rowsReadPerOp', unit: 'rows/op', label: 'rows read per op' },
  { key: 'indexLookups', metric: 'indexLookupsPerOp', unit: 'lookups/op', label: 'index lookups per op' },
  { key: 'indexNextReads', metric: 'indexNextReadsPerOp', unit: 'rows/op', label: 'rows read along an index per op' },
  { key: 'indexScans', metric: 'indexScansPerOp', unit: 'scans/op', label: 'full index scans started per op' },
  { key: 'tableScanRows', metric: 'tableScanRowsPerOp', unit: 'rows/op', label: 'rows read by table scans per op' },
  { key: 'positionReads', metric: 'positionReadsPerOp', unit: 'rows/op', label: 'rows read by position per op' },
  { key: 'tableScans', metric: 'tableScansPerOp', unit: 'scans/op', label: 'joins that scanned a table per op' },
  { key: 'fullJoins', linear: true, metric: 'fullJoinsPerOp', unit: 'joins/op', label: 'joins without an index per op' },
  { key: 'tmpTables', metric: 'tmpTablesPerOp', unit: 'tables/op', label: 'temporary tables per op' },
  { key: 'tmpDiskTables', linear: true, metric: 'tmpDiskTablesPerOp', unit: 'tables/op', label: 'temporary tables on disk per op' },
  { key: 'sortRows', metric: 'sortRowsPerOp', unit: 'rows/op', label: 'rows sorted per op' },
  { key: 'sortMergePasses', linear: true, metric: 'sortMergePassesPerOp', unit: 'passes/op', label: 'sort merge passes per op' },
  { key: 'bufferPoolRequests', settled: true, metric: 'bufferPoolRequestsPerOp', unit: 'pages/op', label: 'buffer pool page requests per op' },
  { key: 'bufferPoolMisses', linear: true, settled: true, metric: 'bufferPoolMissesPerOp', unit: 'pages/op', label: 'buffer pool misses (reads from disk) per op' },
  { key: 'pagesRead', linear: true, settled: true, metric: 'pagesReadPerOp', unit: 'pages/op', label: 'pages read per op' },
  { key: 'pagesWritten', settled: true, metric: 'pagesWrittenPerOp', unit: 'pages/op', label: 'pages written per op' },
  { key: 'pagesCreated', settled: true, metric: 'pagesCreatedPerOp', unit: 'pages/op', label: 'pages created per op' },
  { key: 'redoBytes', settled: true, metric: 'redoBytesPerOp', unit: 'bytes/op', label: 'redo bytes written per op' },
  { key: 'redoLsnBytes', settled: true, metric: 'redoLsnBytesPerOp', unit: 'bytes/op', label: 'redo generated per op (LSN advance)' },
  { key: 'dataFsyncs', settled: true, metric: 'dataFsyncsPerOp', unit: 'fsyncs/op', label: 'data file fsyncs per op' },
  { key: 'logFsyncs', settled: true, metric: 'logFsyncsPerOp', unit: 'fsyncs/op', label: 'redo log fsyncs per op' },
  { key: 'rocksdbBytesWritten', settled: true, metric: 'rocksdbBytesWrittenPerOp', unit: 'bytes/op', label: 'bytes written into RocksDB per op' },
  { key: 'rocksdbCompactBytesWritten', settled: true, metric: 'rocksdbCompactBytesWrittenPerOp', unit: 'bytes/op', label: 'RocksDB compaction bytes written per op' },
  { key: 'rocksdbStalls', settled: true, metric: 'rocksdbStallsPerOp', unit: 'stalls/op', label: 'RocksDB write stalls per op' },
]);

/** @satisfies {import('../types.js').Meter} */
export const work = Object.freeze({
  name: 'work',
  kind: 'counted',
  // Per operation of a counted repeat, from countedRepeat.work.perOp; fewer is better for every one.
  metrics: /** @type {import('../types.js').MeterMetric[]} */ (WORK_COUNTERS.map((c) => ({
    name: c.metric, figure: `perOp.${c.key}`, unit: c.unit, higherIsBetter: false, scale: c.linear ? 'linear' : 'log', label: c.label,
  }))),
  needs: { tools: [], wrappedServer: false },
  start: startWork,
  countedPace: () => WORK_PACE,
});

/**
 * The work meter's pace (plain servers; a host class's rates are callgrind's and do not apply).
 * Measured in the demo of 2026-11-28 on this project's 2-vCPU VM (results/logs of run
 * 20261128T144206Z-*-f91051): its seven read tests' counted repeats ended 0.06-0.12 s apart, the
 * insert's 2.3 s after the last (the settling waits for purge and the page cleaner), and a stop
 * and a start of a plain server between rounds took about 3 s; the whole phase (both releases,
 * three rounds, the rows made the same) took 39 s, from the last counted repeat under callgrind
 * at 14:44:51 to the last of this meter at 14:45:30 (the host's load was not recorded; the VM was
 * shared with other work then, so this is a basis for an estimate, not a measured result). Rounded
 * towards slower, as ESTIMATE_DEFAULTS are: the demo's suite is estimated at about a minute.
 * @type {Readonly<import('../types.js').CountedPace>}
 */
// A sequence's step on a plain server: 1-3 s, LinkBench's up to 12 s (the budget branch's demo run, under load).
const WORK_PACE = Object.freeze({ instructionsPerS: 1e9, repeatOverheadS: 0.4, serverStartS: 4, servers: 'on plain servers', sequenceStepS: 4 });

/**
 * Run the warm-up, settle the server, read its status twice (the second read's change from the
 * first is what one read itself adds); stop() reads it right after the work, settles, reads again.
 * @param {import('../types.js').MeterTarget} target
 * @returns {Promise<import('../types.js').MeterSession>}
 * @throws {Error} when the target has no query function (status counters are read through it) or
 *   no flushDirtyPages
 */
async function startWork(target) {
  const query = target.query;
  if (!query) throw new Error('the work meter needs the server\'s query function (it reads SHOW GLOBAL STATUS)');
  const flush = target.flushDirtyPages;
  if (!flush) throw new Error('the work meter needs the server\'s flushDirtyPages (it writes the dirty pages before and after the count)');
  const names = target.workCounters ?? {};
  await target.beforeZero?.();
  const settledBeforeS = await settle(query, flush);
  const idle = await readStatus(query);
  const before = await readStatus(query);
  return {
    async stop(repeat) {
      if (repeat === null || !repeat.ok || !repeat.operations) return null;
      const after = await readStatus(query);
      const settledAfterS = await settle(query, flush);
      const settled = await readStatus(query);
      const figures = computeWorkFigures({ idle, before, after, settled, names, operations: repeat.operations });
      figures.settleS = { before: round1(settledBeforeS), after: round1(settledAfterS) };
      return { meter: 'work', perOp: figures.perOp, repeat: { work: figures } };
    },
  };
}

/**
 * Purge finished and every dirty page written (InnoDB; a MyRocks-only server answers the
 * first with an error and has no dirty pages to wait for).
 * @param {import('../types.js').QueryFn} query
 * @param {() => Promise<number>} flushDirtyPages the server handle's
 * @returns {Promise<number>} seconds it took
 */
async function settle(query, flushDirtyPages) {
  const purgeS = await waitForPurgeIdle(query).catch(() => 0);
  const flushS = await flushDirtyPages().catch(() => 0);
  return purgeS + flushS;
}

/** How long to wait for purge at most; and how long its history must stay put to count as done. */
const PURGE_LIMIT_S = 60;
const PURGE_STILL_S = 2;

/**
 * Wait until purge has nothing left to do. MariaDB waits server-side (innodb_max_purge_lag_wait=0,
 * 10.5.7 on). MySQL has no such wait, and its history list length does not reach 0: MySQL 9.7.4
 * kept 41 after the demo's load, unchanged for minutes, so a wait for 0 (the instructions meter's)
 * would wait its whole limit twice per repeat. Here purge is done when the length is 0 or has not
 * gone down for PURGE_STILL_S.
 * @param {import('../types.js').QueryFn} query
 * @returns {Promise<number>} seconds waited
 */
async function waitForPurgeIdle(query) {
  const started = Date.now();
  try {
    await query('SET GLOBAL innodb_max_purge_lag_wait=0');
    return (Date.now() - started) / 1000;
  } catch {
    // not MariaDB: poll below
  }
  let last = Infinity;
  let stillSince = Date.now();
  while ((Date.now() - started) / 1000 < PURGE_LIMIT_S) {
    const rows = await query('SHOW ENGINE INNODB STATUS');
    const text = String(Object.values(rows[0] ?? {}).at(-1) ?? '');
    const length = Number(/History list length (\d+)/.exec(text)?.[1] ?? 0);
    if (length === 0) break;
    if (length < last) {
      last = length;
      stillSince = Date.now();
    } else if ((Date.now() - stillSince) / 1000 >= PURGE_STILL_S) {
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return (Date.now() - started) / 1000;
}

/**
 * @param {import('../types.js').QueryFn} query
 * @returns {Promise<Record<string, string>>} every global status variable, name -> value
 */
async function readStatus(query) {
  const rows = await query('SHOW GLOBAL STATUS');
  /** @type {Record<string, string>} */
  const out = {};
  for (const row of rows) {
    const [name, value] = Array.isArray(row) ? row : [row.Variable_name, row.Value];
    out[String(name)] = String(value);
  }
  return out;
}

/**
 * The work figures of one counted repeat from four readings of the status. Pure.
 *
 * SHOW GLOBAL STATUS counts itself: MariaDB answers it from a temporary table it then scans
 * (Created_tmp_tables, Select_scan and Handler_read_rnd_next go up by one, one and the number
 * of variables), and so do the settling's polls, whose number depends on timing. Two readings
 * in a row hold the end of one read and the start of the next, exactly as the readings around
 * the work do; so the counters read right after the work (`after - before`) have that change
 * (`before - idle`) taken off, and come out exact. The engine's counters (settled) are read after
 * the settling (`settled - before`): no status read touches InnoDB's pages, redo or fsyncs.
 *
 * Status names are matched without regard to case, as the server itself does (SHOW STATUS LIKE,
 * performance_schema): MariaDB prints MyRocks counters as `Rocksdb_…`, Percona as `rocksdb_…`.
 * @param {object} at readings of SHOW GLOBAL STATUS, name -> value
 * @param {Record<string, string>} at.idle a reading right before `before`, nothing run between
 * @param {Record<string, string>} at.before before the work
 * @param {Record<string, string>} at.after right after the work
 * @param {Record<string, string>} at.settled after purge and the page cleaner finished
 * @param {WorkCounterNames} at.names the product's workCounters: counter key -> status
 *   names (summed) or `{missing: reason}` for a counter the flavor lacks
 * @param {number} at.operations the repeat's operations (the divisor)
 * @returns {WorkFigures} perOp: counter key -> per-op figure or null; totals: the changes;
 *   missing: counter key -> why it is null
 * @throws {Error} for operations that are not a positive number
 */
export function computeWorkFigures({ idle, before, after, settled, names, operations }) {
  if (!(operations > 0)) throw new Error(`work meter: operations must be a positive number; got ${operations}`);
  const lower = (/** @type {Record<string, string>} */ s) => new Map(Object.entries(s).map(([k, v]) => [k.toLowerCase(), v]));
  const [i, b, a, z] = [idle, before, after, settled].map(lower);
  /** @type {Record<string, number|null>} */
  const perOp = {};
  /** @type {Record<string, number>} */
  const totals = {};
  /** @type {Record<string, string>} */
  const missing = {};
  for (const { key, settled: engine } of WORK_COUNTERS) {
    const entry = names[key];
    const change = engine ? counterDelta(entry, b, z) : counterDelta(entry, b, a);
    const ownRead = engine ? 0 : counterDelta(entry, i, b);
    const why = typeof change === 'string' ? change : typeof ownRead === 'string' ? ownRead : null;
    const delta = /** @type {number} */ (change) - /** @type {number} */ (ownRead);
    if (why === null && delta < 0) {
      perOp[key] = null;
      missing[key] = `changed by ${change} over the work, less than one status read itself adds (${ownRead})`;
    } else if (why !== null) {
      perOp[key] = null;
      missing[key] = why;
    } else {
      totals[key] = delta;
      perOp[key] = delta / operations;
    }
  }
  return { operations, perOp, totals, missing };
}

/**
 * The work counters over one timed repeat, per operation: context beside the timed verdict. Pure.
 *
 * The status was read when the samplers started and after they stopped, so its change holds the
 * tool's start, connect and warm-up beside the measured window the operations were counted in.
 * The change is taken as a rate over the seconds the tool worked (its warm-up plus its window,
 * when the step says its warm-up; else the sampled seconds, as the wall meter's efficiency
 * figures do) and applied to the measured window: perOp = change / workS × windowS / operations.
 * Exact when the warm-up runs at the window's rate; a slower warm-up makes the figures a little
 * low, and so do the start and connect when the sampled seconds stand in (point selects on the
 * 2-core VM, 2 s repeats, no warm-up: 0.90-0.93 rows per op by the sampled seconds, for the 1 row
 * each reads), the same for both releases. Engine counters are read right after the work, not settled: pages the
 * page cleaner writes later are not in them, which is one reason these figures are never gated.
 * Each status read adds its own temporary table and scan of the status variables (see
 * computeWorkFigures): given a read right before `before`, that change is taken off the
 * counters the server's status reads touch (not the engine's), as the counted repeats do.
 * @param {object} at
 * @param {Record<string, string>} [at.idle] a read right before `before`, nothing run between
 * @param {Record<string, string>} at.before SHOW GLOBAL STATUS when sampling started
 * @param {Record<string, string>} at.after after sampling stopped
 * @param {WorkCounterNames} at.names the product's workCounters
 * @param {number} at.operations operations of the measured window (throughput × windowS)
 * @param {number} at.windowS the tool's measured window, seconds
 * @param {number} at.sampledS seconds between the two status reads (the samplers' duration)
 * @param {number} [at.workS] seconds the tool worked within them (warm-up + window); default sampledS
 * @returns {TimedWorkFigures|null} null when there is nothing to divide by (no operations, no
 *   window); a counter without a figure is null in perOp with its reason in missing, never 0
 */
export function computeTimedWorkFigures({ idle, before, after, names, operations, windowS, sampledS, workS = sampledS }) {
  if (!(operations > 0) || !(windowS > 0) || !(sampledS > 0) || !(workS > 0)) return null;
  const lower = (/** @type {Record<string, string>} */ s) => new Map(Object.entries(s).map(([k, v]) => [k.toLowerCase(), v]));
  const [b, a] = [before, after].map(lower);
  const i = idle ? lower(idle) : null;
  const scale = windowS / workS / operations;
  /** @type {Record<string, number|null>} */
  const perOp = {};
  /** @type {Record<string, string>} */
  const missing = {};
  for (const { key, settled: engine } of WORK_COUNTERS) {
    const change = counterDelta(names[key], b, a);
    const ownRead = i && !engine ? counterDelta(names[key], i, b) : 0;
    // The read's own change is unknown only when `change` is too (the same names).
    const delta = typeof change === 'number' ? change - (typeof ownRead === 'number' ? ownRead : 0) : null;
    perOp[key] = delta !== null && delta >= 0 ? delta * scale : null;
    if (typeof change === 'string') missing[key] = change;
    else if (delta !== null && delta < 0) missing[key] = `changed by ${change} over the repeat, less than one status read itself adds (${ownRead})`;
  }
  return { operations, windowS: round3(windowS), sampledS: round3(sampledS), workS: round3(workS), perOp, missing };
}

/**
 * @param {WorkCounterNames[string]|undefined} entry
 * @param {Map<string, string>} before lower-cased name -> value
 * @param {Map<string, string>} after
 * @returns {number|string} the summed change, or why there is none
 */
function counterDelta(entry, before, after) {
  if (entry === undefined) return 'the product config names no status variable for it (workCounters)';
  if (!Array.isArray(entry) && typeof entry === 'object') return entry.missing;
  let sum = 0;
  for (const name of Array.isArray(entry) ? entry : [entry]) {
    const [x, y] = [before.get(name.toLowerCase()), after.get(name.toLowerCase())];
    if (x === undefined || y === undefined) return `the server reports no status variable ${name}`;
    const d = Number(y) - Number(x);
    if (!Number.isFinite(d)) return `status variable ${name} is not a number (${x} -> ${y})`;
    // A counter that went down was reset (FLUSH STATUS) or wrapped: its change is unknown.
    if (d < 0) return `status variable ${name} went down (${x} -> ${y}): reset during the count`;
    sum += d;
  }
  return sum;
}

/** @param {number} s */
function round3(s) {
  return Math.round(s * 1000) / 1000;
}

/** @param {number} s */
function round1(s) {
  return Math.round(s * 10) / 10;
}
