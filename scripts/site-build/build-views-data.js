/**
 * The seed posts' views of issue 12's axes, per site table (product line × host class × suite),
 * beside the table data the line page already reads:
 *
 * - loops (seed 001's qps@N and gb@N): per release, the median QPS of each loop of a long run
 *   and the database size after it, logical and on disk (the `loops` benchmark's steps
 *   `<test>.loopK`, their `details.loops`);
 * - timings (seed 001's DROP TABLE, seed 004's reload time): the seconds of each DDL statement
 *   and each bulk reload (`ddl` and `reload` steps), lower is better, with the verdict on them;
 * - reads (seed 004's IO-bound test): storage reads per operation per test and release, only for
 *   tables whose runs read (the terminal's rule, compare's READS_SHOWN_FROM);
 * - matrices (seed 000's table per cell): the cell series (`<suite>--<dim>-<value>`, one site
 *   table each) grouped under their matrix suite.
 *
 * Pure: table groups and manifest entries in, data objects out (numbers stay numbers).
 */
import { READS_SHOWN_FROM } from '../compare/index.js';
import { median } from './summarize-repeats.js';
import { compareVersions } from '../version-order.js';
import { viewPaths } from '../../site/js/pages/view-paths.js';

/** @import { TableGroup, ReleaseGroup } from './group-tables.js' */
/** @import { Step, Repeat } from '../types.js' */

export const VIEWS_SCHEMA_VERSION = 1;

// Storage reads per operation from which a table's reads are shown: the terminal's own rule,
// so the site and `tagbench compare` show reads/op for the same runs. Re-exported for the pages' tests.
export { READS_SHOWN_FROM };

/** A matrix cell's series: `<suite>--<dim>-<value>[--<dim>-<value>]` (scripts/workload/variants.js). */
const CELL_SERIES = /^(.+?)--(.+-.+)$/;

/**
 * @param {string} suite a stored suite name
 * @returns {{matrix: string, cell: string}|null} null for a suite that is not a matrix cell's series
 */
export function parseCellSeries(suite) {
  const m = CELL_SERIES.exec(suite);
  return m ? { matrix: m[1], cell: m[2] } : null;
}

/**
 * @typedef {object} LoopRelease
 * @property {string} version
 * @property {(number|null)[]} qps median QPS of each loop (aligned with `loops`), null = no ok repeat
 * @property {(number|null)[]} logicalBytes median data + index bytes after each loop
 * @property {(number|null)[]} onDiskBytes median datadir bytes after each loop
 */

/**
 * @typedef {object} LoopSeries the loops of one test
 * @property {string} test the sysbench test each loop runs
 * @property {number[]} loops loop numbers, ascending (1..N)
 * @property {string[]} steps the step (site test) of each loop
 * @property {LoopRelease[]} releases version order
 */

/**
 * @typedef {object} TimingCell one statement on one release
 * @property {number|null} seconds median seconds of the ok repeats (lower is better)
 * @property {number} n ok repeats behind it
 * @property {number|null} clientCpuS median client CPU seconds (reload only)
 * @property {number|null} serverCpuS median server CPU seconds (reload only)
 * @property {{verdict: string, ratio: number|null, baseVersion: string|null}|null} verdict the
 *   compare stage's verdict on the step's duration (latencyP95Ms, lower is better)
 */

/**
 * @typedef {object} TimingRow one timed statement (a DDL statement or a reload form)
 * @property {string} test the step, e.g. `ddl.drop-table`
 * @property {'ddl'|'reload'} kind
 * @property {string|null} statement the SQL (ddl) or dump form (reload)
 * @property {TimingCell[]} cells aligned with the view's `versions`
 */

/**
 * @typedef {object} TableViews data/views/<host>/<product>/<line>/<suite>.json
 * @property {number} schemaVersion
 * @property {string} product
 * @property {string} line
 * @property {string} host
 * @property {string} suite
 * @property {string[]} versions the table's releases, oldest first
 * @property {string|null} defaultBase
 * @property {LoopSeries[]} loops
 * @property {TimingRow[]} timings
 * @property {{tests: {test: string, readsPerOp: (number|null)[]}[]}|null} reads null when no
 *   cell reads READS_SHOWN_FROM or more per operation
 * @property {{matrix: string, cell: string}|null} matrixCell when the suite is a matrix cell's series
 */

/**
 * @param {TableGroup} table
 * @returns {TableViews|null} null when the table has none of the views
 */
export function buildTableViews(table) {
  const versions = table.releases.map((r) => r.version);
  const loops = loopSeries(table);
  const timings = timingRows(table);
  const reads = readsView(table);
  const matrixCell = parseCellSeries(table.key.suite);
  if (loops.length === 0 && timings.length === 0 && reads === null && matrixCell === null) return null;
  return {
    schemaVersion: VIEWS_SCHEMA_VERSION,
    ...table.key,
    versions,
    defaultBase: table.defaultBase,
    loops,
    timings,
    reads,
    matrixCell,
  };
}

/**
 * @param {ReleaseGroup} rel
 * @param {string} name
 * @returns {Step[]}
 */
function stepsOf(rel, name) {
  return rel.records.flatMap((r) => r.steps.filter((s) => s.name === name));
}

/**
 * @param {Step[]} steps
 * @returns {Repeat[]}
 */
function okRepeats(steps) {
  return steps.flatMap((s) => s.repeats.filter((rep) => rep.status === 'ok'));
}

/**
 * @param {Repeat} rep
 * @param {string} benchmark
 * @returns {any} the repeat's details under the benchmark's name, or undefined
 */
function detailsOf(rep, benchmark) {
  return /** @type {any} */ (rep.details)?.[benchmark];
}

/**
 * The loops of each long run in the table: steps of kind `loops` (their params say which
 * loop), gathered by the test they run.
 * @param {TableGroup} table
 * @returns {LoopSeries[]}
 */
function loopSeries(table) {
  /** @type {Map<string, Map<number, string>>} test -> loop -> step name */
  const byTest = new Map();
  for (const rel of table.releases) {
    for (const record of rel.records) {
      for (const step of record.steps) {
        if (step.kind !== 'loops' || !step.reported) continue;
        const loop = Number(step.params.loop);
        if (!Number.isInteger(loop) || loop < 1) continue;
        const test = String(step.repeats.map((rep) => detailsOf(rep, 'loops')?.test).find((t) => typeof t === 'string') ?? step.name.replace(/\.loop\d+$/, ''));
        const loopsOfTest = byTest.get(test) ?? new Map();
        loopsOfTest.set(loop, step.name);
        byTest.set(test, loopsOfTest);
      }
    }
  }
  return [...byTest].map(([test, loopMap]) => {
    const loops = [...loopMap.keys()].sort((a, b) => a - b);
    const steps = loops.map((k) => /** @type {string} */ (loopMap.get(k)));
    return {
      test, loops, steps,
      releases: table.releases.map((rel) => {
        const perLoop = steps.map((name) => okRepeats(stepsOf(rel, name)));
        const size = (/** @type {'logicalBytes'|'onDiskBytes'} */ field) => perLoop.map((reps) => median(reps.map((rep) => detailsOf(rep, 'loops')?.dbSize?.[field])));
        return {
          version: rel.version,
          qps: perLoop.map((reps) => median(reps.map((rep) => rep.throughput))),
          logicalBytes: size('logicalBytes'),
          onDiskBytes: size('onDiskBytes'),
        };
      }),
    };
  });
}

/**
 * Seconds of each timed DDL statement and reload: the step's own seconds (details) where the
 * record has them, else its latency (the step's duration in ms, as the runners record it).
 * @param {TableGroup} table
 * @returns {TimingRow[]}
 */
function timingRows(table) {
  /** @type {TimingRow[]} */
  const rows = [];
  for (const t of table.tests) {
    const kind = stepKind(table, t.name);
    if (kind !== 'ddl' && kind !== 'reload') continue;
    let statement = /** @type {string|null} */ (null);
    const cells = table.releases.map((rel) => {
      const reps = okRepeats(stepsOf(rel, t.name));
      for (const rep of reps) {
        const d = detailsOf(rep, kind);
        statement ??= kind === 'ddl' ? (d?.statement ?? null) : (d?.form ?? null);
      }
      const verdict = (rel.comparison?.comparison.tests ?? []).find((v) => v.test === t.name && v.metric === 'latencyP95Ms') ?? null;
      return {
        seconds: median(reps.map((rep) => {
          const s = detailsOf(rep, kind)?.seconds;
          if (typeof s === 'number') return s;
          return typeof rep.latencyMs?.avg === 'number' ? rep.latencyMs.avg / 1000 : null;
        })),
        n: reps.length,
        clientCpuS: kind === 'reload' ? median(reps.map((rep) => detailsOf(rep, 'reload')?.clientCpuS)) : null,
        serverCpuS: kind === 'reload' ? median(reps.map((rep) => detailsOf(rep, 'reload')?.serverCpuS)) : null,
        verdict: verdict ? { verdict: verdict.verdict, ratio: verdict.ratio, baseVersion: rel.comparison?.comparison.base.version ?? null } : null,
      };
    });
    rows.push({ test: t.name, kind, statement, cells });
  }
  return rows;
}

/**
 * @param {TableGroup} table
 * @param {string} name
 * @returns {string|null} the kind of the step of that name in the newest record that has it
 */
function stepKind(table, name) {
  for (const rel of [...table.releases].reverse()) {
    for (const record of rel.records) {
      const step = record.steps.find((s) => s.name === name);
      if (step) return step.kind;
    }
  }
  return null;
}

/**
 * @param {TableGroup} table
 * @returns {TableViews['reads']}
 */
function readsView(table) {
  const tests = table.tests.map((t) => ({
    test: t.name,
    readsPerOp: table.releases.map((rel) => median(okRepeats(stepsOf(rel, t.name))
      .filter((rep) => rep.throughput !== null).map((rep) => rep.efficiency?.readsPerOp))),
  }));
  const reads = tests.some((t) => t.readsPerOp.some((v) => v !== null && v >= READS_SHOWN_FROM));
  return reads ? { tests } : null;
}

/**
 * @typedef {object} MatrixGroup the cells of one matrix suite in one product line on one host class
 * @property {string} product
 * @property {string} productName
 * @property {string} line
 * @property {string} host
 * @property {string} suite the matrix suite, e.g. `matrix-smoke`
 * @property {{cell: string, series: string, table: string}[]} cells by cell name; table = site path of its table data
 */

/**
 * @typedef {object} ViewsIndex data/views/index.json: which tables have views, and the matrices
 * @property {number} schemaVersion
 * @property {{product: string, line: string, host: string, suite: string, file: string, loops: boolean, timings: boolean, reads: boolean}[]} tables
 * @property {MatrixGroup[]} matrices
 */

/**
 * @param {TableViews[]} views every table's views (buildTableViews, non-null)
 * @param {{product: string, productName: string, line: string, host: string, suite: string, files: {table: string}}[]} entries the manifest's table entries
 * @returns {ViewsIndex}
 */
export function buildViewsIndex(views, entries) {
  /** @type {Map<string, MatrixGroup>} */
  const matrices = new Map();
  for (const e of entries) {
    const cell = parseCellSeries(e.suite);
    if (!cell) continue;
    const id = JSON.stringify([e.product, e.line, e.host, cell.matrix]);
    const group = matrices.get(id) ?? { product: e.product, productName: e.productName, line: e.line, host: e.host, suite: cell.matrix, cells: [] };
    group.cells.push({ cell: cell.cell, series: e.suite, table: e.files.table });
    matrices.set(id, group);
  }
  for (const g of matrices.values()) g.cells.sort((a, b) => a.cell.localeCompare(b.cell));
  return {
    schemaVersion: VIEWS_SCHEMA_VERSION,
    tables: views.map((v) => ({
      product: v.product, line: v.line, host: v.host, suite: v.suite, file: viewPaths.table(v),
      loops: v.loops.length > 0, timings: v.timings.length > 0, reads: v.reads !== null,
    })),
    matrices: [...matrices.values()].sort((a, b) => a.product.localeCompare(b.product) || compareVersions(a.line, b.line) ||
      a.host.localeCompare(b.host) || a.suite.localeCompare(b.suite)),
  };
}

/**
 * The views of every table of one slice of the store.
 * @param {TableGroup[]} groups the slice's tables, as computeSlice grouped them
 * @returns {TableViews[]} the tables that have any view
 */
export function buildSliceViews(groups) {
  return groups.map(buildTableViews).filter((v) => v !== null);
}
