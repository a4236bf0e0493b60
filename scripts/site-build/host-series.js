/**
 * Host series of a table's runs for the per-test history charts: where the host facts of the
 * runs changed, the history starts a new series (the chart breaks its line there) instead of
 * silently continuing across new hardware, kernel or BIOS settings. Pure.
 */
import { splitHostSegments } from '../compare/index.js';

/** @import { RunRecord } from './types.js' */
/** @typedef {ReturnType<typeof splitHostSegments>[number]} HostSegment */

/** @param {RunRecord[]} records @returns {RunRecord[]} oldest first */
function byTime(records) {
  return [...records].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
}

/**
 * Host series of a table's releases, for the per-test history: series split where the host
 * facts of the table's runs change (in time), and each release placed in the series of its
 * first run, where it entered the history (releases are benchmarked as they come out, so the
 * column order follows time); a release whose runs span several series (a rerun after the
 * change, the host class's reference release) says so.
 * @param {{version: string, records: RunRecord[]}[]} releases in column order
 * @returns {{segments: HostSegment[], byVersion: Map<string, {series: number, mixed: number[]}>}}
 */
export function releaseHostSeries(releases) {
  const segments = splitHostSegments(releases.flatMap((r) => r.records));
  /** @type {Map<string, number>} */
  const segmentOf = new Map(segments.flatMap((s) => s.runIds.map((id) => /** @type {[string, number]} */ ([id, s.index]))));
  /** @type {Map<string, {series: number, mixed: number[]}>} */
  const byVersion = new Map();
  for (const rel of releases) {
    if (rel.records.length === 0) continue;
    const indexes = [...new Set(rel.records.map((r) => /** @type {number} */ (segmentOf.get(r.id))))].sort((a, b) => a - b);
    byVersion.set(rel.version, { series: /** @type {number} */ (segmentOf.get(byTime(rel.records)[0].id)), mixed: indexes.length > 1 ? indexes : [] });
  }
  return { segments, byVersion };
}
