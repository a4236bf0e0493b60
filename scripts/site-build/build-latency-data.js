/**
 * The response times the sequence benchmarks record of each operation, for the release page: the
 * tables of scripts/compare/latency-tables.js (which the Markdown report prints too) for the
 * release and for the release it is compared with. Informational: no verdict is drawn from
 * them. Pure.
 */
import { latencyTable } from '../compare/index.js';

/** @import { LatencyTable } from '../compare/index.js' */
/** @import { TableGroup, ReleaseGroup } from './group-tables.js' */

/**
 * @typedef {object} LatencyData
 * @property {{version: string, source: 'comparison'|'default base'}|null} base the release the
 *   page compares with: its comparison's base, else the line's default base
 * @property {LatencyTable|null} linkbench
 * @property {LatencyTable|null} ibench
 */

/**
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {LatencyData|null} null when no run of the release or its base timed an operation
 */
export function buildLatencyData(table, rel) {
  const base = latencyBase(table, rel);
  const baseRecords = base ? table.releases.find((r) => r.version === base.version)?.records ?? [] : [];
  const linkbench = latencyTable('linkbench', rel.records, baseRecords);
  const ibench = latencyTable('ibench', rel.records, baseRecords);
  if (!linkbench && !ibench) return null;
  return { base, linkbench, ibench };
}

/**
 * The release the page compares with: the one its verdicts used, else the line's default
 * base (the tests table's median ratios are to that one). None for the base itself.
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {LatencyData['base']}
 */
function latencyBase(table, rel) {
  const compared = rel.comparison?.comparison.base.version;
  const version = compared ?? table.defaultBase;
  if (!version || version === rel.version || !table.releases.some((r) => r.version === version)) return null;
  return { version, source: compared ? 'comparison' : 'default base' };
}

