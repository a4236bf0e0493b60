/**
 * Where the instructions went: for every instructions-per-operation verdict of a comparison,
 * the difference of the two releases' per-function profiles from the same counted repeats the
 * verdict judged (their raw logs in the store), attached to the verdict as `functions` (the
 * functions that added and removed the most, the share in code without a name). Bounded, so
 * it travels with the stored comparison into the report, the issue and the site.
 */
import { readRawLog } from '../store/index.js';
import { diffProfiles } from '../compare/index.js';

/** Functions kept per direction in a stored verdict. */
const TOP = 10;

/**
 * @param {import('../compare/index.js').FullComparison} comparison updated in place
 * @param {{records: import('../types.js').RunRecord[]}} base
 * @param {{records: import('../types.js').RunRecord[]}} candidate
 * @param {string} storeDir
 * @returns {Promise<number>} how many verdicts got their functions
 */
export async function attachFunctionMoves(comparison, base, candidate, storeDir) {
  let attached = 0;
  for (const verdict of comparison.tests) {
    if (verdict.metric !== 'instructionsPerOp' || verdict.verdict === 'failed') continue;
    const [b, c] = await Promise.all([readProfiles(base.records, verdict.test, storeDir), readProfiles(candidate.records, verdict.test, storeDir)]);
    if (b.length === 0 || c.length === 0) continue;
    const { functions: _all, ...bounded } = diffProfiles(b, c, { top: TOP });
    verdict.functions = bounded;
    attached += 1;
  }
  return attached;
}

/**
 * The compact profiles of a test's valid counted repeats over some records; a profile the store
 * does not hold (published without logs) is left out.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @param {string} storeDir
 * @returns {Promise<import('../compare/index.js').CompactProfile[]>}
 */
async function readProfiles(records, test, storeDir) {
  const out = [];
  for (const r of records) {
    const reps = r.steps.find((s) => s.name === test)?.meters?.instructions?.repeats ?? [];
    for (const rep of reps) {
      if (rep.status !== 'ok' || !rep.profile) continue;
      const text = await readRawLog(storeDir, r.id, rep.profile);
      if (text !== null) out.push(JSON.parse(text));
    }
  }
  return out;
}
