/**
 * The standard sysbench suite (DESIGN.md "The standard suite") as data, and planSuite(), which
 * turns a suite config into the ordered list of steps the orchestrator walks through. Pure.
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
 *   runner warms up with --report-checkpoints (see runners/sysbench.js), and update-zipf is an
 *   own script (lua/update-zipf.lua) doing stock update-nonindex's UPDATE with zipfian ids.
 * - Names: `.warm`/`.warmpre` are not-reported warm-ups, `.pre` is the same test run before the
 *   write phase, `.rangeN` is the range (or IN-list) size when one test runs at several sizes.
 */
import { UserError } from '../errors.js';
import { getSequenceBenchmark, SEQUENCES } from './registry.js';
import { expandSweep, sweepNames, parseSweepTestName } from './variants.js';

/** @typedef {import('./types.js').StepPlan} StepPlan */
/** @typedef {import('./types.js').StepGroup} StepGroup */

/**
 * @typedef {object} SuiteEntry
 * @property {string} name
 * @property {'load'|'sysbench'|'postwrite'} kind the sysbench suite's kinds (sequence benchmarks plan their own steps)
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
const MEASURED_SYSBENCH = SUITE_ENTRIES.filter((e) => e.kind === 'sysbench' && (e.reported ?? e.group !== 'setup')).map((e) => e.name);

/** The benchmarks a suite runs when it does not say (`benchmarks` in the suite YAML). */
export const DEFAULT_BENCHMARKS = Object.freeze(['sysbench']);

/**
 * Build the ordered plan of a suite: the steps of every benchmark it names in `benchmarks`
 * (default: the sysbench suite only), in that order. For sysbench: every step of the standard
 * suite (or of `suite.only`), with its script, options and duration resolved from the suite's
 * scale; for a sequence benchmark (the insert benchmark): its whole sequence.
 *
 * `only` keeps the listed tests in suite order, plus what they need: `load` always; a warm-up
 * when the test it warms is kept (or when named); a postwrite step when a kept write or load
 * step runs before it (since the previous postwrite) and a kept step runs after it. A sequence
 * benchmark's steps depend on each other, so naming any of them keeps its whole sequence; a
 * benchmark none of whose steps is named is left out.
 *
 * @param {import('../types.js').SuiteConfig} suite validated suite config (configs/suites/*.yml)
 * @param {{engine?: 'innodb'|'rocksdb'}} [opts] storage engine of the tables (default innodb)
 * @returns {StepPlan[]} in run order
 * @throws {UserError} when `only` names an unknown test, `benchmarks` an unknown benchmark, or
 *   the engine is unknown
 */
export function planSuite(suite, opts = {}) {
  const engine = opts.engine ?? 'innodb';
  if (engine !== 'innodb' && engine !== 'rocksdb') {
    throw new UserError(`unknown engine '${engine}' for suite '${suite.name}'; valid: innodb, rocksdb`);
  }
  const benchmarks = suiteBenchmarks(suite);
  /** @type {{name: string, steps: StepPlan[]}[]} */
  const parts = benchmarks.map((name) => (name === 'sysbench' ? { name, steps: [] }
    : { name, steps: getSequenceBenchmark(name).planSteps(suite, { engine }) }));
  const known = parts.flatMap((p) => (p.name === 'sysbench' ? [...STEP_NAMES, ...sweepNames(suite, MEASURED_SYSBENCH)] : p.steps.map((s) => s.name)));
  const clash = known.find((n, i) => known.indexOf(n) !== i);
  if (clash) throw new Error(`step name '${clash}' is planned twice in suite '${suite.name}' (two benchmarks use it)`);
  if (suite.only) {
    const unknown = suite.only
      .map((name, i) => ({ name, i }))
      .filter(({ name }) => !known.includes(name));
    if (unknown.length > 0) {
      const list = unknown.map(({ name, i }) => `suites.${suite.name}.only[${i}] = '${name}'`).join(', ');
      throw new UserError(`unknown test name in configs/suites/${suite.name}.yml: ${list}; valid names: ${known.join(', ')}. Fix the name or remove it from 'only'.`);
    }
  }
  /** @type {StepPlan[]} */
  const plans = [];
  for (const part of parts) {
    if (part.name === 'sysbench') {
      // A sweep test's name (`point-query.c2`) selects its test; expandSweep keeps its count.
      const only = suite.only?.map((n) => (STEP_NAMES.includes(n) ? n : parseSweepTestName(n)?.test ?? n)).filter((n) => STEP_NAMES.includes(n));
      if (suite.only && only?.length === 0 && benchmarks.length > 1) continue;
      const entries = selectEntries(only ? { ...suite, only } : suite);
      plans.push(...expandSweep(entries.map((e) => toPlan(e, suite, engine)), suite, MEASURED_SYSBENCH));
    } else if (!suite.only || part.steps.some((s) => suite.only?.includes(s.name))) {
      plans.push(...part.steps);
    }
  }
  for (let i = 0; i < plans.length - 1; i += 1) plans[i].postwriteAfter = plans[i + 1].kind === 'postwrite';
  return plans;
}

/**
 * The sysbench load step of a suite (its tables, sizes and engine), whatever its `only` list and
 * its other benchmarks: the run stage loads the tables before any sysbench step.
 * @param {import('../types.js').SuiteConfig} suite
 * @param {'innodb'|'rocksdb'} engine
 * @returns {StepPlan}
 */
export function loadStepOf(suite, engine) {
  const { only: _only, ...all } = suite;
  const sysbenchOnly = /** @type {import('../types.js').SuiteConfig} */ ({ ...all, benchmarks: ['sysbench'] });
  const load = planSuite(sysbenchOnly, { engine }).find((s) => s.kind === 'load');
  if (!load) throw new Error(`suite '${suite.name}' plans no load step`);
  return load;
}

/**
 * The benchmarks a suite runs, in order, checked against the known ones.
 * @param {import('../types.js').SuiteConfig} suite
 * @returns {string[]}
 * @throws {UserError} naming the suite file and the unknown entry
 */
export function suiteBenchmarks(suite) {
  const named = /** @type {{benchmarks?: string[]}} */ (suite).benchmarks ?? [...DEFAULT_BENCHMARKS];
  const valid = ['sysbench', ...Object.keys(SEQUENCES)];
  named.forEach((name, i) => {
    if (!valid.includes(name)) {
      throw new UserError(`unknown benchmark in configs/suites/${suite.name}.yml: benchmarks[${i}] = '${name}'; valid: ${valid.join(', ')}`);
    }
  });
  return named;
}

/**
 * @param {import('../types.js').SuiteConfig} suite
 * @returns {SuiteEntry[]}
 */
function selectEntries(suite) {
  if (!suite.only) return [...SUITE_ENTRIES];
  // planSuite has checked every name and passes only the sysbench ones.
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
 * @param {import('../types.js').SuiteConfig} suite
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
  };
}
