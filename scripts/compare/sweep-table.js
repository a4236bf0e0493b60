/**
 * Concurrency sweeps in seed post 004's form ("1 2 4 8 16 32 clients", a row per release): a
 * swept test runs at each client count as its own test `<test>.c<N>` (verdicts per count, in
 * compare-runs.js like any test); this view gathers those tests back into one table per swept
 * test, a row per release and a column per client count, with each release's ratio to the base
 * at the same count. Pure: a RelativeTable in, tables and text out.
 */
import { formatQps, formatTableRatio } from '../format-number.js';

const SWEEP_NAME = /^(.+)\.c([1-9][0-9]*)$/;

/**
 * The test and client count of a sweep test's name (the names scripts/workload/variants.js gives).
 * @param {string} name
 * @returns {{test: string, clients: number}|null} null when the name is not a sweep test's
 */
export function parseSweepName(name) {
  const m = SWEEP_NAME.exec(name);
  return m ? { test: m[1], clients: Number(m[2]) } : null;
}

/**
 * @typedef {object} SweepCell
 * @property {number} clients
 * @property {number|null} median throughput (median of the repeats), null when none is valid
 * @property {number|null} ratio to the base release at the same client count
 * @property {string} [status] `failed` / `missing` when median is null
 */

/**
 * @typedef {object} SweepTable one swept test
 * @property {string} test the test's own name, e.g. `point-query`
 * @property {string} group
 * @property {string} metric
 * @property {number[]} clients ascending
 * @property {{version: string, cells: SweepCell[]}[]} rows one per release, in the table's column order
 */

/**
 * @param {import('./types.js').RelativeTable} table
 * @returns {SweepTable[]} one per swept test (at least two counts, or one count of a name that
 *   only a sweep gives), in the order their first count appears in the table
 */
export function computeSweepTables(table) {
  /** @type {Map<string, {group: string, metric: string, byClients: Map<number, import('./types.js').RelativeRow>}>} */
  const swept = new Map();
  for (const g of table.groups) {
    for (const row of g.rows) {
      const parsed = parseSweepName(row.test);
      if (!parsed) continue;
      const entry = swept.get(parsed.test) ?? { group: g.group, metric: row.metric, byClients: new Map() };
      entry.byClients.set(parsed.clients, row);
      swept.set(parsed.test, entry);
    }
  }
  return [...swept.entries()].map(([test, { group, metric, byClients }]) => {
    const clients = [...byClients.keys()].sort((a, b) => a - b);
    return {
      test,
      group,
      metric,
      clients,
      rows: table.versions.map((version) => ({
        version,
        cells: clients.map((c) => {
          const cell = /** @type {import('./types.js').RelativeRow} */ (byClients.get(c)).cells[version];
          return { clients: c, median: cell?.stats?.median ?? null, ratio: cell?.ratio ?? null, ...(cell?.stats ? {} : { status: cell?.status ?? 'missing' }) };
        }),
      })),
    };
  });
}

/**
 * @param {SweepTable[]} sweeps
 * @param {{format: 'markdown'|'terminal', base: string, labels?: Record<string, string>}} options
 *   base: the base release's key (its row shows no ratio); labels: row key -> name
 * @returns {string} '' when there is no sweep, else text ending with a newline
 */
export function renderSweepTables(sweeps, options) {
  if (sweeps.length === 0) return '';
  const md = options.format === 'markdown';
  const label = (/** @type {string} */ key) => options.labels?.[key] ?? key;
  const out = [md ? '\n### throughput by clients\n' : '\nthroughput by clients\n'];
  out.push(`Median of the repeats (ratio to ${label(options.base)} at the same client count); each count is a test of its own, with its own verdict.\n`);
  for (const s of sweeps) {
    const header = [s.metric === 'qps' ? s.test : `${s.test} (${s.metric})`, ...s.clients.map((c) => `${c} client${c === 1 ? '' : 's'}`)];
    const body = s.rows.map((r) => [
      r.version === options.base ? `${label(r.version)} (base)` : label(r.version),
      ...r.cells.map((c) => (c.median === null ? c.status ?? 'n/a'
        : r.version === options.base || c.ratio === null ? formatQps(c.median) : `${formatQps(c.median)} (${formatTableRatio(c.ratio)})`)),
    ]);
    out.push(md ? '\n' : '\n');
    if (md) {
      out.push(`| ${header.join(' | ')} |\n|${header.map((_h, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|\n`);
      for (const row of body) out.push(`| ${row.join(' | ')} |\n`);
    } else {
      const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
      const line = (/** @type {string[]} */ cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
      out.push(`${[line(header), ...body.map(line)].join('\n')}\n`);
    }
  }
  return out.join('');
}
