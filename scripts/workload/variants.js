/**
 * Suite variants beyond one configuration at one client count (issue 12): concurrency sweeps
 * (`sweep`: a test run at each of a list of client counts, each count its own test), and config
 * matrices (`matrix`: every release run under each cell of my.cnf and table-option variants,
 * each cell its own series). Pure: suite config in, plans or suite configs out.
 *
 * Names (what the store, compare and the site see):
 * - a sweep test is `<test>.c<clients>` (`point-query.c4`), like `.rangeN` for a range size; the
 *   name stays within the characters raw-log file names allow ([A-Za-z0-9._-]);
 * - a matrix cell is its own suite series `<suite>--<dimension>-<value>[--<dimension>-<value>]`
 *   (`matrix-smoke--compression-on`): records, verdicts, baselines and site tables are per
 *   series, so two cells never mix, exactly as two suites never do.
 */
import { UserError } from '../errors.js';

/**
 * @typedef {object} SweepSettings the suite's `sweep` block
 * @property {number[]} clients client counts, each a test of its own
 * @property {string[]} [tests] the sysbench tests swept (default: every measured sysbench test)
 */

/**
 * @typedef {object} MatrixValue one value of a matrix dimension
 * @property {Record<string, string|number>} [mycnf] my.cnf values (as a host class's `mycnf`,
 *   over the host class's)
 * @property {string} [tableOptions] appended to the sysbench tables' definition after the load
 *   (ALTER TABLE sbtestN <tableOptions>)
 */

/**
 * @typedef {object} MatrixCell
 * @property {string} name e.g. `compression-on` or `compression-on--partitioning-hash`
 * @property {Record<string, string>} values dimension -> value
 * @property {string} suiteName the series the cell's records are stored under
 * @property {Record<string, string|number>} mycnf
 * @property {string} tableOptions '' when none
 */

/** Suite keys this module reads (not in the shared SuiteConfig typedef). */
/** @typedef {import('../types.js').SuiteConfig & {sweep?: SweepSettings, matrix?: Record<string, Record<string, MatrixValue>>, mycnf?: Record<string, string|number>, tableOptions?: string, matrixOf?: string}} VariantSuite */

const SWEEP_NAME = /^(.+)\.c([1-9][0-9]*)$/;

/**
 * @param {string} test
 * @param {number} clients
 * @returns {string} `<test>.c<clients>`
 */
export function sweepTestName(test, clients) {
  return `${test}.c${clients}`;
}

/**
 * @param {string} name
 * @returns {{test: string, clients: number}|null} null when the name is not a sweep test's
 */
export function parseSweepTestName(name) {
  const m = SWEEP_NAME.exec(name);
  return m ? { test: m[1], clients: Number(m[2]) } : null;
}

/**
 * The sweep of a suite, checked.
 * @param {VariantSuite} suite
 * @returns {SweepSettings|null}
 * @throws {UserError} naming the suite file and the bad value
 */
export function suiteSweep(suite) {
  const sweep = suite.sweep;
  if (!sweep) return null;
  const where = `configs/suites/${suite.name}.yml: sweep.clients`;
  if (!Array.isArray(sweep.clients) || sweep.clients.length === 0) throw new UserError(`${where} must list at least one client count, e.g. [1, 2, 4]`);
  sweep.clients.forEach((c, i) => {
    if (!Number.isInteger(c) || c < 1) throw new UserError(`${where}[${i}] = ${JSON.stringify(c)}: a client count is a positive integer`);
    if (sweep.clients.indexOf(c) !== i) throw new UserError(`${where}[${i}] = ${c} is listed twice`);
  });
  return sweep;
}

/**
 * Replace each swept sysbench test of a plan by one step per client count (in the order of
 * `sweep.clients`, right where the test was), named `<test>.c<N>`, with `threads: N`. Warm-ups,
 * load and postwrite steps keep the suite's `clients`. `only` may name a swept test (every
 * count) or one count of it (`point-query.c2`).
 * @param {import('./types.js').StepPlan[]} plans planSuite's steps (postwriteAfter not yet set)
 * @param {VariantSuite} suite
 * @param {string[]} sysbenchNames every sysbench step name, for messages
 * @returns {import('./types.js').StepPlan[]}
 * @throws {UserError} when `sweep.tests` names a test that is not a measured sysbench test
 */
export function expandSweep(plans, suite, sysbenchNames) {
  const sweep = suiteSweep(suite);
  if (!sweep) return plans;
  const measured = (/** @type {import('./types.js').StepPlan} */ p) => p.kind === 'sysbench' && p.reported;
  (sweep.tests ?? []).forEach((name, i) => {
    if (!sysbenchNames.includes(name)) {
      throw new UserError(`configs/suites/${suite.name}.yml: sweep.tests[${i}] = '${name}' is not a sysbench test; valid: ${sysbenchNames.join(', ')}`);
    }
  });
  const swept = new Set(sweep.tests ?? plans.filter(measured).map((p) => p.name));
  // `only: [point-query.c2]` keeps that count alone; `only: [point-query]` keeps every count.
  const onlyCounts = new Map();
  for (const name of suite.only ?? []) {
    const parsed = parseSweepTestName(name);
    if (parsed && swept.has(parsed.test)) onlyCounts.set(parsed.test, [...(onlyCounts.get(parsed.test) ?? []), parsed.clients]);
  }
  return plans.flatMap((p) => {
    if (!measured(p) || !swept.has(p.name)) return [p];
    const wholeTest = !suite.only || suite.only.includes(p.name) || !onlyCounts.has(p.name);
    const counts = wholeTest ? sweep.clients : sweep.clients.filter((c) => onlyCounts.get(p.name).includes(c));
    return counts.map((clients) => ({ ...p, name: sweepTestName(p.name, clients), threads: clients, params: { ...p.params } }));
  });
}

/**
 * Names `only` may use because of the sweep: every `<test>.c<N>` of the swept tests.
 * @param {VariantSuite} suite
 * @param {string[]} sysbenchNames
 * @returns {string[]}
 */
export function sweepNames(suite, sysbenchNames) {
  const sweep = suiteSweep(suite);
  if (!sweep) return [];
  const tests = sweep.tests ?? sysbenchNames;
  return tests.flatMap((t) => sweep.clients.map((c) => sweepTestName(t, c)));
}

const TOKEN = /^[a-z0-9]+$/;

/**
 * Every cell of a suite's matrix (the cartesian product of its dimensions, in the order
 * written), or null when the suite has none.
 * @param {VariantSuite} suite
 * @returns {MatrixCell[]|null}
 * @throws {UserError} on a dimension or value name that is not lower-case letters and digits,
 *   a dimension without values, or a value with unknown keys
 */
export function matrixCells(suite) {
  const matrix = suite.matrix;
  if (!matrix) return null;
  const file = `configs/suites/${suite.name}.yml`;
  const dims = Object.entries(matrix);
  if (dims.length === 0) throw new UserError(`${file}: matrix has no dimension; give e.g. {compression: {off: {}, on: {tableOptions: ROW_FORMAT=COMPRESSED}}}`);
  /** @type {MatrixCell[]} */
  let cells = [{ name: '', values: {}, suiteName: suite.name, mycnf: {}, tableOptions: '' }];
  for (const [dim, values] of dims) {
    if (!TOKEN.test(dim)) throw new UserError(`${file}: matrix dimension '${dim}' must be lower-case letters and digits (it becomes part of the series name)`);
    const entries = Object.entries(values ?? {});
    if (entries.length === 0) throw new UserError(`${file}: matrix.${dim} has no values`);
    /** @type {MatrixCell[]} */
    const next = [];
    for (const cell of cells) {
      for (const [value, settings] of entries) {
        if (!TOKEN.test(value)) throw new UserError(`${file}: matrix.${dim} value '${value}' must be lower-case letters and digits (it becomes part of the series name)`);
        const unknown = Object.keys(settings ?? {}).filter((k) => k !== 'mycnf' && k !== 'tableOptions');
        if (unknown.length > 0) throw new UserError(`${file}: matrix.${dim}.${value} has unknown key(s) ${unknown.join(', ')}; valid: mycnf, tableOptions`);
        const part = `${dim}-${value}`;
        const name = cell.name ? `${cell.name}--${part}` : part;
        next.push({
          name,
          values: { ...cell.values, [dim]: value },
          suiteName: `${suite.name}--${name}`,
          mycnf: { ...cell.mycnf, ...(settings?.mycnf ?? {}) },
          tableOptions: [cell.tableOptions, settings?.tableOptions ?? ''].filter((t) => t.trim() !== '').join(' '),
        });
      }
    }
    cells = next;
  }
  return cells;
}

/**
 * The suite one matrix cell runs: named after the cell's series, with the cell's my.cnf values
 * over the suite's own and its table options after the suite's.
 * @param {VariantSuite} suite
 * @param {MatrixCell} cell
 * @returns {VariantSuite}
 */
export function cellSuite(suite, cell) {
  const { matrix, ...rest } = suite;
  const tableOptions = [suite.tableOptions ?? '', cell.tableOptions].filter((t) => t.trim() !== '').join(' ');
  return {
    ...rest,
    name: cell.suiteName,
    description: `${suite.description} (matrix cell ${cell.name})`,
    mycnf: { ...(suite.mycnf ?? {}), ...cell.mycnf },
    ...(tableOptions ? { tableOptions } : {}),
    matrixOf: suite.name,
  };
}

/**
 * The suite a matrix cell's series name stands for (`matrix-smoke--compression-on`), so that
 * whatever reruns a cell's tests (confirm, adaptive repeats, bisect) runs them under that cell.
 * @param {Readonly<Record<string, VariantSuite>>} suites every configured suite
 * @param {string} name
 * @returns {VariantSuite|null} null when no suite's matrix has a cell of that name
 */
export function findCellSuite(suites, name) {
  for (const suite of Object.values(suites)) {
    if (!suite.matrix || !name.startsWith(`${suite.name}--`)) continue;
    const cell = matrixCells(suite)?.find((c) => c.suiteName === name);
    if (cell) return cellSuite(suite, cell);
  }
  return null;
}
