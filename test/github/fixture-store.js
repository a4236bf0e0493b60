/**
 * The hand-built results store of the github tests (test/fixtures/github/store): three releases
 * of mariadb 10.11 on host class `local`, suite `smoke`. 10.11.19 has two confirmed
 * regressions (point-query and update-index throughput) and an unconfirmed one; 10.11.20
 * recovers both. Files follow the RunRecord / Comparison typedefs and validate against the
 * store's schemas.
 */
import { fileURLToPath } from 'node:url';
import { readComparisons, readRecords } from '../../scripts/store/index.js';

export const FIXTURE_STORE = fileURLToPath(new URL('../fixtures/github/store/', import.meta.url));

/**
 * @returns {Promise<{c19: import('../../scripts/types.js').Comparison, c20: import('../../scripts/types.js').Comparison, records: Map<string, import('../../scripts/types.js').RunRecord>}>}
 */
export async function loadFixtures() {
  const comparisons = await readComparisons(FIXTURE_STORE);
  const c19 = comparisons.find((c) => c.candidate.version === '10.11.19');
  const c20 = comparisons.find((c) => c.candidate.version === '10.11.20');
  if (!c19 || !c20) throw new Error(`fixture store ${FIXTURE_STORE} lacks the 10.11.19 / 10.11.20 comparisons`);
  const records = new Map((await readRecords(FIXTURE_STORE)).map((r) => [r.id, r]));
  return { c19, c20, records };
}
