/**
 * Read what a report needs: comparisons (named files, or the newest per release from a results
 * store) and the run records they reference (for provenance), through the store. No GitHub here.
 */
import { readComparisonFile, readComparisons, readRecords } from '../store/index.js';
import { compareVersions } from '../version-order.js';

/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('../types.js').RunRecord} RunRecord */

/**
 * @param {{files?: string[], storeDir: string, filter?: {hostClass?: string, product?: string, version?: string, suite?: string}}} source
 *   named comparison files, or else every comparison in the store matching the filter
 * @returns {Promise<Comparison[]>} oldest release first; from a store only the newest
 *   comparison per (product, line, release, host class, suite): a confirmation writes a newer one
 * @throws {UserError} naming a file that is missing, does not parse or is not a valid comparison
 */
export async function readReportComparisons(source) {
  /** @type {Comparison[]} */
  let comparisons;
  if (source.files && source.files.length > 0) {
    comparisons = await Promise.all(source.files.map(readComparisonFile));
  } else {
    const all = await readComparisons(source.storeDir, source.filter ?? {});
    /** @type {Map<string, Comparison>} */
    const newest = new Map();
    for (const c of all) {
      const key = [c.product, c.line, c.candidate.version, c.hostClass, c.suite].join('\u0000');
      const seen = newest.get(key);
      if (!seen || seen.createdAt <= c.createdAt) newest.set(key, c);
    }
    comparisons = [...newest.values()];
  }
  return comparisons.sort((a, b) => compareVersions(a.candidate.version, b.candidate.version) || a.createdAt.localeCompare(b.createdAt));
}

/**
 * The run records the comparisons reference, by id. Missing ones are simply absent: the issue
 * says which provenance could not be found rather than failing the whole report.
 * @param {Comparison[]} comparisons
 * @param {string} storeDir
 * @returns {Promise<Map<string, RunRecord>>}
 * @throws {UserError} when a referenced record exists but is unreadable
 */
export async function readReferencedRecords(comparisons, storeDir) {
  const ids = [...new Set(comparisons.flatMap((c) => [...c.base.runIds, ...c.candidate.runIds]))];
  if (ids.length === 0) return new Map();
  const records = await readRecords(storeDir, { ids });
  return new Map(records.map((r) => [r.id, r]));
}
