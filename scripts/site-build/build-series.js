/**
 * Per-second series files (one per run and reported test), and the slimmed record the rest of
 * the build works from. The series are the bulk of a record (a 600 s server test has 600
 * samples per repeat): the builder writes them as soon as a release's records are read, then
 * drops them, so memory stays bounded by the number of runs, not by their length. Pure.
 */
import { dataPaths } from '../../site/js/paths.js';
import { SCHEMA_VERSION } from './build-table-data.js';

/** @import { RunRecord } from './types.js' */

/**
 * @param {RunRecord} record
 * @returns {Map<string, unknown>} site path -> series file, for each reported step with samples
 */
export function buildSeries(record) {
  /** @type {Map<string, unknown>} */
  const out = new Map();
  for (const step of record.steps) {
    if (!step.reported || !step.repeats.some((rep) => (rep.intervals?.length ?? 0) > 0)) continue;
    out.set(dataPaths.series({ runId: record.id, test: step.name }), {
      schemaVersion: SCHEMA_VERSION,
      runId: record.id,
      product: record.release.product,
      version: record.release.version,
      host: record.host.class,
      suite: record.config.suite,
      test: step.name,
      metric: step.metric,
      // Column-wise (t, qps, latency arrays) to keep the file small.
      repeats: step.repeats.map((rep) => {
        const iv = rep.intervals ?? [];
        // `maxLatencyMs` is the per-second max response time the insert benchmark prints;
        // sysbench's interval latency is its p95. A null latency (LinkBench prints none per
        // second) stays null: the chart draws a gap, not a 0 ms.
        const maxes = iv.map((i) => /** @type {any} */ (i).maxLatencyMs);
        return {
          index: rep.index,
          status: rep.status,
          t: iv.map((i) => i.t),
          qps: iv.map((i) => i.qps),
          latencyMs: iv.map((i) => i.latencyMs),
          maxLatencyMs: maxes.length > 0 && maxes.every((m) => typeof m === 'number') ? maxes : null,
          errors: iv.map((i) => i.errors),
        };
      }),
    });
  }
  return out;
}

/**
 * The record without its per-second samples (everything else kept).
 * @param {RunRecord} record
 * @returns {RunRecord}
 */
export function slimRecord(record) {
  return {
    ...record,
    steps: record.steps.map((step) => ({ ...step, repeats: step.repeats.map((rep) => ({ ...rep, intervals: [] })) })),
  };
}
