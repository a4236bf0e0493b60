/**
 * The insert benchmark's and LinkBench's views of a table, for the line and release pages: per
 * insert-benchmark step and release its rate, keep-up and the per-second series file of the
 * repeat the chart shows (the one of median rate: seed 002's insert rate per second, a line per
 * release or engine), and LinkBench's seed 000 table. The numbers come from the compare stage
 * (computeSequenceTables), so the site and `tagbench compare` never disagree. Pure.
 */
import { computeSequenceTables } from '../compare/index.js';
import { dataPaths } from '../../site/js/paths.js';

/** @import { TableGroup } from './group-tables.js' */

/**
 * @typedef {object} SequenceView
 * @property {{test: string, rateField: 'inserts'|'queries'|null, releases: {version: string, repeats: number, rate: number|null, seconds: number|null, keepUp: {share: number, sustained: boolean, failedRepeats: number}|null, series: string|null, repeat: number|null}[]}[]} insert
 *   every insert-benchmark step; `series` = the charted repeat's per-second file (its `qps` is
 *   the step's own rate: inserts/s for l.i*, queries/s for q*), `repeat` its index there
 * @property {import('../compare/index.js').SequenceTables['linkbench']} linkbench
 */

/**
 * @param {TableGroup} table records may be slimmed of their samples (only throughput, status
 *   and details are read here)
 * @param {Set<string>} seriesPaths per-second series files that exist (see buildSeries)
 * @returns {SequenceView|null} null when the table has neither benchmark
 */
export function buildSequenceData(table, seriesPaths) {
  // Stalls need the per-second samples the slimmed records no longer hold: the pages chart the
  // series files instead, and `tagbench compare` prints the stall figures.
  const tables = computeSequenceTables(splitEngines(table.releases), { stallFraction: 0.5 });
  if (tables.insert.length === 0 && !tables.linkbench) return null;
  return {
    insert: tables.insert.map((step) => ({
      test: step.test,
      rateField: step.rateField,
      releases: step.releases.map((r) => {
        const path = r.representative ? dataPaths.series({ runId: r.representative.runId, test: step.test }) : null;
        const series = path && seriesPaths.has(path) ? path : null;
        return {
          version: r.version, repeats: r.repeats, rate: r.rate, seconds: r.seconds, keepUp: r.keepUp,
          series, repeat: series && r.representative ? r.representative.index : null,
        };
      }),
    })),
    linkbench: tables.linkbench,
  };
}

/**
 * A line per release, or per release and engine when the table holds runs of several engines
 * (`tagbench run --engine innodb,rocksdb`: seed 002's InnoDB and MyRocks lines), named as
 * `tagbench compare --releases` names them (`10.11.18#rocksdb`).
 * @param {TableGroup['releases']} releases
 * @returns {{version: string, records: import('./types.js').RunRecord[]}[]}
 */
export function splitEngines(releases) {
  const engines = [...new Set(releases.flatMap((r) => r.records.map((rec) => rec.config.engine)))].sort();
  if (engines.length <= 1) return releases;
  return releases.flatMap((r) => engines.map((engine) => ({ version: `${r.version}#${engine}`, records: r.records.filter((rec) => rec.config.engine === engine) }))
    .filter((x) => x.records.length > 0));
}
