/**
 * The standard sysbench suite (DESIGN.md "The standard suite") as data, and how the sysbench
 * plug-in plans it: every step (or the part `only` keeps) with its script, options and duration
 * resolved from the suite's scale, the load and the postwrite steps included. Pure.
 *
 * Decisions beyond DESIGN.md's table (documented here because the table is silent on them):
 * - Durations: update-*, delete and insert run for W; everything else for R, including
 *   write-only (DESIGN says so) and read-write (mostly range reads, as in the seed posts);
 *   scan.warmpre runs for the suite's scanWarmDurationS.
 * - Own scripts take `--random-points` for IN-list length and `--range-size` for range length
 *   (DESIGN writes `--random-points=100` on range-notcovered-si.pre: a range of 100 values).
 * - read-only-simple/-sum/-order/-distinct are stock oltp_read_only with every other query kind
 *   set to 0, so each transaction runs exactly one range query of that kind (plus BEGIN/COMMIT).
 * - sysbench 1.0.20 has neither --warmup-time nor --rand-type=zipfian (both came in 1.1): the
 *   plug-in warms up with --report-checkpoints (see command.js), and update-zipf is an
 *   own script (lua/update-zipf.lua) doing stock update-nonindex's UPDATE with zipfian ids.
 * - Names: `.warm`/`.warmpre` are not-reported warm-ups, `.pre` is the same test run before the
 *   write phase, `.rangeN` is the range (or IN-list) size when one test runs at several sizes.
 */
import { expandSweep, sweepNames, parseSweepTestName } from '../variants.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').StepGroup} StepGroup */

/**
 * @typedef {object} SuiteEntry
 * @property {string} name
 * @property {'load'|'sysbench'|'postwrite'} kind the sysbench plug-in's own step kinds
 * @property {StepGroup} group
 * @property {boolean} [reported] default: group !== 'setup'
 * @property {string} [script] stock name or own `*.lua`
 * @property {Record<string, string|number|boolean>} [params]
 * @property {'R'|'W'|'scanWarm'|null} [duration]
 * @property {string} [warms] warm-up entries: the test whose cache state they prepare, `*` = every
 *   later test (kept whenever any test is)
 */

const SKIP_TRX = { 'skip-trx': true };
/** @param {'simple'|'sum'|'order'|'distinct'} kind one range kind per transaction, range 1000 */
const oneRangeKind = (kind) => ({
  'range-size': 1000, 'point-selects': 0, 'simple-ranges': 0, 'sum-ranges': 0,
  'order-ranges': 0, 'distinct-ranges': 0, [`${kind}-ranges`]: 1,
});
/**
 * @param {'pk'|'si'} index
 * @param {'covered'|'notcovered'} select
 */
const points = (index, select) => ({ 'key-index': index, select, 'random-points': 100 });
/**
 * @param {'pk'|'si'} index
 * @param {'covered'|'notcovered'} select
 */
const ranges = (index, select) => ({ 'key-index': index, select, 'range-size': 100 });

/** @type {SuiteEntry[]} */
const ENTRIES = [
  { name: 'load', kind: 'load', group: 'setup', script: 'oltp_point_select', duration: null },
  { name: 'point-query.warm', kind: 'sysbench', group: 'setup', script: 'oltp_point_select', params: SKIP_TRX, duration: 'R', warms: '*' },
  { name: 'postwrite.after-load', kind: 'postwrite', group: 'setup', duration: null },
  { name: 'scan.warmpre', kind: 'sysbench', group: 'setup', script: 'scan.lua', duration: 'scanWarm', warms: '*' },
  { name: 'point-query.pre', kind: 'sysbench', group: 'point', script: 'oltp_point_select', params: SKIP_TRX, duration: 'R' },
  { name: 'range-notcovered-si.pre', kind: 'sysbench', group: 'range', script: 'ranges.lua', params: ranges('si', 'notcovered'), duration: 'R' },
  { name: 'update-inlist', kind: 'sysbench', group: 'write', script: 'update-inlist.lua', params: { 'random-points': 10 }, duration: 'W' },
  { name: 'update-index', kind: 'sysbench', group: 'write', script: 'oltp_update_index', duration: 'W' },
  { name: 'update-nonindex', kind: 'sysbench', group: 'write', script: 'oltp_update_non_index', duration: 'W' },
  { name: 'update-one', kind: 'sysbench', group: 'write', script: 'oltp_update_non_index', params: { 'table-size': 1 }, duration: 'W' },
  { name: 'update-zipf', kind: 'sysbench', group: 'write', script: 'update-zipf.lua', params: { 'zipf-exp': 0.8 }, duration: 'W' },
  { name: 'write-only', kind: 'sysbench', group: 'write', script: 'oltp_write_only', params: { 'range-size': 10000 }, duration: 'R' },
  { name: 'read-write.range10', kind: 'sysbench', group: 'write', script: 'oltp_read_write', params: { 'range-size': 10 }, duration: 'R' },
  { name: 'read-write.range100', kind: 'sysbench', group: 'write', script: 'oltp_read_write', params: { 'range-size': 100 }, duration: 'R' },
  { name: 'postwrite.after-read-write', kind: 'postwrite', group: 'setup', duration: null },
  { name: 'scan.warm', kind: 'sysbench', group: 'setup', script: 'scan.lua', duration: 'R', warms: 'scan' },
  { name: 'scan', kind: 'sysbench', group: 'range', script: 'scan.lua', duration: 'R' },
  { name: 'read-only.range10', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: { 'range-size': 10 }, duration: 'R' },
  { name: 'read-only.range100', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: { 'range-size': 100 }, duration: 'R' },
  { name: 'read-only.range10000', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: { 'range-size': 10000 }, duration: 'R' },
  { name: 'read-only-simple', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: oneRangeKind('simple'), duration: 'R' },
  { name: 'read-only-sum', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: oneRangeKind('sum'), duration: 'R' },
  { name: 'read-only-order', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: oneRangeKind('order'), duration: 'R' },
  { name: 'read-only-distinct', kind: 'sysbench', group: 'range-agg', script: 'oltp_read_only', params: oneRangeKind('distinct'), duration: 'R' },
  { name: 'read-only-count', kind: 'sysbench', group: 'range-agg', script: 'ranges.lua', params: { 'key-index': 'pk', select: 'count', 'range-size': 1000 }, duration: 'R' },
  { name: 'point-query', kind: 'sysbench', group: 'point', script: 'oltp_point_select', params: SKIP_TRX, duration: 'R' },
  { name: 'random-points.range10', kind: 'sysbench', group: 'point', script: 'points.lua', params: { 'key-index': 'pk', select: 'all', 'random-points': 10 }, duration: 'R' },
  { name: 'random-points.range100', kind: 'sysbench', group: 'point', script: 'points.lua', params: { 'key-index': 'pk', select: 'all', 'random-points': 100 }, duration: 'R' },
  { name: 'random-points.range1000', kind: 'sysbench', group: 'point', script: 'points.lua', params: { 'key-index': 'pk', select: 'all', 'random-points': 1000 }, duration: 'R' },
  { name: 'hot-points', kind: 'sysbench', group: 'point', script: 'points.lua', params: { 'key-index': 'pk', select: 'all', 'random-points': 100, 'hot-points': true }, duration: 'R' },
  { name: 'points-covered-pk', kind: 'sysbench', group: 'point', script: 'points.lua', params: points('pk', 'covered'), duration: 'R' },
  { name: 'points-notcovered-pk', kind: 'sysbench', group: 'point', script: 'points.lua', params: points('pk', 'notcovered'), duration: 'R' },
  { name: 'range-covered-pk', kind: 'sysbench', group: 'range', script: 'ranges.lua', params: ranges('pk', 'covered'), duration: 'R' },
  { name: 'range-notcovered-pk', kind: 'sysbench', group: 'range', script: 'ranges.lua', params: ranges('pk', 'notcovered'), duration: 'R' },
  { name: 'points-covered-si.warm', kind: 'sysbench', group: 'setup', script: 'points.lua', params: points('si', 'covered'), duration: 'R', warms: 'points-covered-si' },
  { name: 'points-covered-si', kind: 'sysbench', group: 'point', script: 'points.lua', params: points('si', 'covered'), duration: 'R' },
  { name: 'points-notcovered-si', kind: 'sysbench', group: 'point', script: 'points.lua', params: points('si', 'notcovered'), duration: 'R' },
  { name: 'range-covered-si', kind: 'sysbench', group: 'range', script: 'ranges.lua', params: ranges('si', 'covered'), duration: 'R' },
  { name: 'range-notcovered-si', kind: 'sysbench', group: 'range', script: 'ranges.lua', params: ranges('si', 'notcovered'), duration: 'R' },
  { name: 'delete', kind: 'sysbench', group: 'write', script: 'oltp_delete', duration: 'W' },
  { name: 'insert', kind: 'sysbench', group: 'write', script: 'oltp_insert', duration: 'W' },
];

/** DESIGN.md's 38 tests (plus load and the two postwrite steps) in run order. */
/** @type {readonly Readonly<SuiteEntry>[]} */
export const SUITE_ENTRIES = Object.freeze(ENTRIES.map((e) => Object.freeze(e)));

/** Names of every step, in order (for messages and for `only` validation). */
export const STEP_NAMES = Object.freeze(SUITE_ENTRIES.map((e) => e.name));

/** The sysbench tests a sweep may run at several client counts (measured ones, not warm-ups). */
export const MEASURED_SYSBENCH = SUITE_ENTRIES.filter((e) => e.kind === 'sysbench' && (e.reported ?? e.group !== 'setup')).map((e) => e.name);


/**
 * Names `only` may give for the sysbench part of a suite: every step of the standard suite, and
 * every `<test>.c<N>` of its sweep.
 * @param {import('../../types.js').SuiteConfig} suite
 * @returns {string[]}
 * @throws {UserError} for a bad sweep block (variants.js)
 */
export function sysbenchStepNames(suite) {
  return [...STEP_NAMES, ...sweepNames(suite, MEASURED_SYSBENCH)];
}

/**
 * The sysbench steps of a suite, in run order: every step of the standard suite, or with
 * `only` the listed tests plus what they need: `load` always; a warm-up when the test it warms
 * is kept (or when named); a postwrite step when a kept write or load step runs before it (since
 * the previous postwrite) and a kept step runs after it. A sweep test's name (`point-query.c2`)
 * keeps that count of its test (variants.js expandSweep).
 * @param {import('../../types.js').SuiteConfig} suite `only` holds sysbench names only (the
 *   suite composer passes this plug-in its own names)
 * @param {{engine: 'innodb'|'rocksdb'}} opts
 * @returns {StepPlan[]}
 * @throws {UserError} for a bad sweep block
 */
export function planSysbench(suite, { engine }) {
  const only = suite.only?.map((n) => (STEP_NAMES.includes(n) ? n : parseSweepTestName(n)?.test ?? n)).filter((n) => STEP_NAMES.includes(n));
  const entries = selectEntries(only ? { ...suite, only } : suite);
  const plans = expandSweep(entries.map((e) => toPlan(e, suite, engine)), suite, MEASURED_SYSBENCH);
  for (let i = 0; i < plans.length - 1; i += 1) plans[i].postwriteAfter = plans[i + 1].kind === 'postwrite';
  return plans;
}

/**
 * The load step of a suite's sysbench tables (their number, size and engine), whatever its
 * `only` list and its other benchmarks: what prepareTables runs, for this plug-in's own load and
 * for the benchmarks that load sysbench tables of their own (ddl, reload, loops).
 * @param {import('../../types.js').SuiteConfig} suite
 * @param {'innodb'|'rocksdb'} engine
 * @returns {StepPlan}
 */
export function loadStep(suite, engine) {
  const entry = /** @type {SuiteEntry} */ (SUITE_ENTRIES.find((e) => e.kind === 'load'));
  return toPlan(entry, suite, engine);
}

/**
 * @param {import('../../types.js').SuiteConfig} suite
 * @returns {SuiteEntry[]}
 */
function selectEntries(suite) {
  if (!suite.only) return [...SUITE_ENTRIES];
  // The suite composer has checked every name and passes only the sysbench ones.
  const wanted = new Set(suite.only);
  const keep = SUITE_ENTRIES.filter((e) => e.kind === 'load' || wanted.has(e.name)
    || e.warms === '*' || (e.warms !== undefined && wanted.has(e.warms)));
  // A postwrite stays only between a kept step that dirtied pages and a kept step that reads.
  /** @type {SuiteEntry[]} */
  const out = [];
  let dirty = false;
  for (const e of SUITE_ENTRIES) {
    if (e.kind === 'postwrite') {
      const later = SUITE_ENTRIES.slice(SUITE_ENTRIES.indexOf(e) + 1).some((x) => keep.includes(x));
      if ((dirty || wanted.has(e.name)) && later) { out.push(e); dirty = false; }
      continue;
    }
    if (!keep.includes(e)) continue;
    out.push(e);
    if (e.kind === 'load' || e.group === 'write') dirty = true;
  }
  return out;
}

/**
 * @param {SuiteEntry} e
 * @param {import('../../types.js').SuiteConfig} suite
 * @param {'innodb'|'rocksdb'} engine
 * @returns {StepPlan}
 */
function toPlan(e, suite, engine) {
  const isTest = e.kind === 'sysbench';
  const durationS = e.duration === 'R' ? suite.readDurationS
    : e.duration === 'W' ? suite.writeDurationS
      : e.duration === 'scanWarm' ? suite.scanWarmDurationS : 0;
  const isScan = e.script === 'scan.lua';
  /** @type {Record<string, string|number|boolean>} */
  const params = isTest ? { 'rand-type': 'uniform', ...(e.params ?? {}) } : { ...(e.params ?? {}) };
  return {
    name: e.name,
    kind: e.kind,
    benchmark: 'sysbench',
    measured: isTest,
    ...(e.kind === 'load' ? { loadsData: true } : {}),
    group: e.group,
    reported: e.reported ?? e.group !== 'setup',
    runOnce: e.group === 'setup',
    metric: isScan ? 'rows/s' : 'qps',
    script: e.script ?? null,
    scriptSource: e.script === undefined ? null : e.script.endsWith('.lua') ? 'own' : 'stock',
    params,
    durationS,
    warmupS: isTest ? suite.warmupS : 0,
    threads: suite.clients,
    tables: suite.tables,
    tableSize: suite.tableSize,
    engine,
    rowsPerEvent: isScan ? suite.tableSize : 0,
    postwriteAfter: false,
    restS: e.kind === 'postwrite' ? suite.restS : 0,
    ...(isTest && countable(e, suite) ? { countedEvents: countedEvents(e), countedInstructions: countedInstructions(e, suite) } : {}),
    ...(e.kind === 'load' ? { workRows: suite.tables * suite.tableSize } : {}),
  };
}

/**
 * Whether a step runs counted at this suite's size. A counted scan reads the whole table under
 * valgrind three times plus its warm-up (about 1,900 instructions a row on MariaDB 10.11): at
 * 50M rows that is hours per server process, so past COUNTED_SCAN_MAX_ROWS rows the scans run
 * timed only, and the counted phase's other tests start from a colder buffer pool.
 * @param {SuiteEntry} e
 * @param {import('../../types.js').SuiteConfig} suite
 */
function countable(e, suite) {
  return e.script !== 'scan.lua' || suite.tables * suite.tableSize <= COUNTED_SCAN_MAX_ROWS;
}

/** Rows past which scans are not counted (countable); 1M rows: about 2 min a counted scan repeat. */
export const COUNTED_SCAN_MAX_ROWS = 1_000_000;

/**
 * Instructions of the whole server process per event, measured under callgrind on MariaDB
 * 10.11.18 at 1 table x 20,000 rows (the run of bench/instructions-releases.md: instructions of
 * the process over a counted repeat / its events, first server process). Used only to estimate
 * how long the counted phase takes (scripts/run/estimate.js), never as a result. Scans: per row.
 * Warm-ups take their test's figure.
 */
const INSTRUCTIONS_PER_EVENT = Object.freeze({
  'point-query': 64_767, 'range-notcovered-si': 1_151_098, 'update-inlist': 421_473, 'update-index': 120_052,
  'update-nonindex': 114_824, 'update-one': 114_501, 'update-zipf': 114_907, 'write-only': 434_247,
  'read-write.range10': 1_702_170, 'read-write.range100': 3_075_556, 'scan': 1_920, 'read-only.range10': 1_200_477,
  'read-only.range100': 2_602_574, 'read-only.range10000': 94_546_053, 'read-only-simple': 2_691_349,
  'read-only-sum': 2_198_457, 'read-only-order': 4_188_337, 'read-only-distinct': 6_823_291, 'read-only-count': 1_921_575,
  'random-points.range10': 251_024, 'random-points.range100': 1_892_982, 'random-points.range1000': 17_083_868,
  'hot-points': 1_886_086, 'points-covered-pk': 1_712_053, 'points-notcovered-pk': 1_787_040, 'range-covered-pk': 301_191,
  'range-notcovered-pk': 385_701, 'points-covered-si': 3_634_903, 'points-notcovered-si': 4_466_869,
  'range-covered-si': 344_494, 'delete': 123_362, 'insert': 133_243,
});

/**
 * Instructions one counted repeat of the step is expected to run (its warm-up run excluded):
 * its events times the measured figure per event, 1.5 times that on tables larger than the
 * 20,000 rows it was measured at (deeper trees, page reads from a cold buffer pool: a margin, not
 * a measurement). An estimate for planning (scripts/run/estimate.js), never a result.
 * @param {SuiteEntry} e
 * @param {import('../../types.js').SuiteConfig} suite
 * @returns {number}
 */
function countedInstructions(e, suite) {
  const base = e.name.replace(/\.(pre|warm|warmpre)$/, '');
  const perEvent = /** @type {Record<string, number>} */ (INSTRUCTIONS_PER_EVENT)[base] ?? INSTRUCTIONS_PER_EVENT['read-only.range10000'];
  const rows = e.script === 'scan.lua' ? suite.tableSize : 1;
  const margin = suite.tableSize > 20_000 ? 1.5 : 1;
  return Math.round(countedEvents(e) * perEvent * rows * margin);
}

/**
 * Events of one counted repeat (the instructions meter: a fixed amount of work instead of a
 * timed window), sized so a repeat counts some 20-100 million instructions: enough that the
 * per-operation figure is stable to well under 0.1 % on reads, little enough that it takes a
 * second or two under valgrind. The sizes follow the work per event: a point select is about
 * 42 thousand instructions on MariaDB 10.11, an oltp_read_only transaction 2.3 million, a range
 * of 10,000 rows far more. They do not scale with the table: a counted figure is per operation.
 * @param {SuiteEntry} e a sysbench test or warm-up
 * @returns {number}
 */
function countedEvents(e) {
  const p = e.params ?? {};
  const n = (/** @type {string} */ k) => (typeof p[k] === 'number' ? /** @type {number} */ (p[k]) : 0);
  if (e.script === 'scan.lua') return 3;
  if (e.script === 'oltp_point_select') return 1000;
  if (e.script === 'points.lua') return Math.max(10, Math.round(5000 / Math.max(1, n('random-points'))));
  if (e.script === 'ranges.lua') return Math.max(10, Math.round(10000 / Math.max(1, n('range-size'))));
  // Stock oltp_read_only / oltp_read_write: 10 point selects and four ranges per transaction by
  // default (range-size 100), one range of 1,000 in the read-only-<kind> tests.
  if (e.script === 'oltp_read_only' || e.script === 'oltp_read_write') return Math.max(3, Math.round(4000 / Math.max(100, n('range-size') || 100)));
  if (e.script === 'oltp_write_only' || e.script === 'update-inlist.lua') return 200;
  return 500;
}
