/**
 * Run records as the input of github-action-benchmark's custom tools, so its charts on the
 * Pages site follow each metric across releases. tagbench's own verdicts stay the only gate:
 * this is a view, the workflow runs the action with its alerting off.
 *
 * What the action (v1.22.0) expects, and what this file relies on:
 *  - `tool: customBiggerIsBetter` or `customSmallerIsBetter`, ONE per action run: the direction
 *    belongs to the whole file, so a file holds one direction and the workflow runs the action
 *    once per direction (`--tool` picks which entries this export writes).
 *  - The file is a JSON array of `{name, value, unit, range?, extra?}` (zod, with coercion:
 *    `value` must coerce to a finite number, so an entry without a value is left out, never
 *    written as null, which would coerce to 0). An empty array fails the action ("No benchmark
 *    result was found"), so an export with no entry fails here first.
 *  - `name` is the key of a chart series: it must not change between releases, so it holds
 *    product line, host class, suite, test and metric, never the version or the run.
 *  - `unit` is compared with the previous entry of the same name; for units in the action's
 *    time families (s, ms, us, ns, ops/…) a change of unit rescales the value. Units here
 *    never change per name (`op/s` and `rows/s` are outside those families; latency is always ms).
 *  - `range` is shown beside the value; when it reads `± <number>` the action rescales it with
 *    the value. Here: `± ` the largest distance of a repeat from the median, so the range
 *    covers every repeat.
 *  - `extra` is free text shown in the chart's tooltip, one item per line.
 * The action adds commit and date itself; several runs of one release in one file would give
 * one name twice, which is refused here.
 */
import { computeQos, METRICS } from '../compare/index.js';
import { UserError } from '../errors.js';

/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('../types.js').Repeat} Repeat */

/** @typedef {'customBiggerIsBetter'|'customSmallerIsBetter'} BenchmarkTool */
export const BENCHMARK_TOOLS = /** @type {const} */ (['customBiggerIsBetter', 'customSmallerIsBetter']);

/**
 * @typedef {object} BenchmarkEntry one element of the action's custom input
 * @property {string} name
 * @property {number} value
 * @property {string} unit
 * @property {string} [range]
 * @property {string} [extra]
 */

/**
 * The exported metrics. Names are part of the chart keys: never rename one. `metric` is the
 * compare stage's metric whose per-repeat value is taken (same definition as the verdicts).
 * @type {readonly {metric: string, label: string, tool: BenchmarkTool}[]}
 */
const EXPORTED = Object.freeze([
  { metric: 'throughput', label: 'throughput', tool: 'customBiggerIsBetter' },
  { metric: 'latencyP95Ms', label: 'latency p95', tool: 'customSmallerIsBetter' },
  { metric: 'cpuUsPerOp', label: 'CPU per operation', tool: 'customSmallerIsBetter' },
  { metric: 'stallShare', label: 'stall share', tool: 'customSmallerIsBetter' },
]);

/**
 * @param {RunRecord[]} records the runs to export (one per release, host class and suite)
 * @param {object} options
 * @param {BenchmarkTool} options.tool which direction's entries
 * @param {{stallFraction: number, minIntervals: number}} options.qos as the compare stage uses it
 *   (configs/thresholds.yml qos), so a stall here is a stall in the verdicts
 * @returns {BenchmarkEntry[]}
 * @throws {UserError} when two records give the same series name, or nothing is left to export
 */
export function exportBenchmarkEntries(records, options) {
  if (!BENCHMARK_TOOLS.includes(options.tool)) throw new UserError(`--tool is '${options.tool}'; valid: ${BENCHMARK_TOOLS.join(', ')}`);
  const exported = EXPORTED.filter((e) => e.tool === options.tool);
  /** @type {Map<string, {entry: BenchmarkEntry, runId: string}>} */
  const byName = new Map();
  for (const record of records) {
    for (const step of record.steps) {
      if (!step.reported || step.status !== 'ok') continue;
      const repeats = step.repeats.filter((r) => r.status === 'ok');
      for (const e of exported) {
        const def = METRICS.find((m) => m.name === e.metric);
        if (!def) throw new Error(`export: compare has no metric ${e.metric}`);
        const values = repeats
          .map((r) => def.value(r, def.qos && r.intervals.length >= options.qos.minIntervals ? computeQos(r.intervals, options.qos) : null))
          .filter(/** @returns {v is number} */ (v) => typeof v === 'number' && Number.isFinite(v));
        if (values.length === 0) continue;
        const name = seriesName(record, step, e.label);
        const seen = byName.get(name);
        if (seen) throw new UserError(`export: runs ${seen.runId} and ${record.id} both give the series '${name}'; export one run per release, host class and suite (--run)`);
        byName.set(name, { entry: toEntry(name, values, unitOf(step, def), record), runId: record.id });
      }
    }
  }
  if (byName.size === 0) throw new UserError(`export: the selected run(s) ${records.map((r) => r.id).join(', ') || '(none)'} have no completed, reported test with a ${options.tool} metric: github-action-benchmark refuses an empty file`);
  return [...byName.values()].map((x) => x.entry);
}

/**
 * @param {RunRecord} record
 * @param {Step} step
 * @param {string} label
 * @returns {string} e.g. `mariadb 10.11 · local · smoke · point-query · throughput`
 */
function seriesName(record, step, label) {
  return [`${record.release.product} ${record.release.line}`, record.host.class, record.config.suite, step.name, label].join(' · ');
}

/**
 * @param {Step} step
 * @param {{name: string, unit: string}} def
 */
function unitOf(step, def) {
  // Scans count rows, the rest queries: the step says which its throughput is.
  if (def.name === 'throughput') return step.metric === 'rows/s' ? 'rows/s' : 'op/s';
  return def.unit;
}

/**
 * @param {string} name
 * @param {number[]} values one per repeat
 * @param {string} unit
 * @param {RunRecord} record
 * @returns {BenchmarkEntry}
 */
function toEntry(name, values, unit, record) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const spread = Math.max(median - sorted[0], sorted[sorted.length - 1] - median);
  return {
    name,
    value: round(median),
    unit,
    range: `± ${round(spread)}`,
    extra: [`release: ${record.release.product} ${record.release.version}`, `host class: ${record.host.class}`, `run: ${record.id}`, `repeats: ${values.length}`].join('\n'),
  };
}

/** @param {number} x */
function round(x) {
  return Number(x.toPrecision(6));
}
