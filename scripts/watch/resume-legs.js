/**
 * Which failed legs are resumed rather than run again from the start. A bench job that died
 * publishes the run records that finished before it did (benchmark.yml's checkpoints, through
 * remember-failure), but never a comparison: the comparison is what only a finished leg
 * publishes. So a leg with failed attempts, no comparison of its release, and a finished (`ok`)
 * record of its release from a run that had a base beside it is proposed again as a resume of
 * those records. Pure: reads the results index's entries only.
 */
import { runGroupKey } from '../run-id.js';

/**
 * @typedef {object} IndexRunLike what index.json lists of a run record
 * @property {string} id
 * @property {string} hostClass
 * @property {string} product
 * @property {string} version
 * @property {string} suite
 * @property {string} status
 * @property {string} startedAt
 */

/**
 * @typedef {object} IndexComparisonLike what index.json lists of a comparison
 * @property {string} hostClass
 * @property {string} product
 * @property {string} suite
 * @property {string} candidateVersion
 */

/**
 * The run ids a failed leg resumes from, or null when it has nothing to resume (it runs from the
 * start, or is benchmarked already).
 * - Finished legs have a comparison of their release: nothing to resume.
 * - The newest `ok` record of the release started before the leg's last failed attempt, in a run
 *   that also measured another release (its base), is the leg's run: it and that run's other
 *   `ok` records are resumed. A `partial` or `failed` one is not: its release runs again, unless
 *   an earlier resumed attempt ran it again and finished it (its newest `ok` record started after
 *   the leg's run and before the failure).
 * - A run of the release alone (a line's first release has no base) is the leg's whole result:
 *   nothing to resume, the leg is benchmarked (as it was before checkpoints).
 * - The host class's reference release, when the leg runs it on its own: its newest `ok` record
 *   started after the leg's run and before the failed attempt. (Another leg of this host class
 *   may have measured it in that window too; either is a point of this cycle in the host series.)
 * @param {{hostClass: string, product: string, version: string, suite: string}} leg
 * @param {{runs: IndexRunLike[], comparisons: IndexComparisonLike[]}} index
 * @param {{lastAt: string}|undefined} attempts the leg's failed attempts (index.json `attempts`)
 * @param {{product: string, version: string}|undefined} reference the host class's reference release
 * @returns {string[]|null} run ids, the release's own first
 */
export function findResume(leg, index, attempts, reference) {
  if (!attempts) return null;
  const same = (/** @type {{hostClass: string, product: string, suite: string}} */ x) => x.hostClass === leg.hostClass && x.product === leg.product && x.suite === leg.suite;
  if (index.comparisons.some((c) => same(c) && c.candidateVersion === leg.version)) return null;
  const before = (/** @type {IndexRunLike} */ r) => r.startedAt < attempts.lastAt;
  const own = index.runs
    .filter((r) => same(r) && r.version === leg.version && r.status === 'ok' && before(r))
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id))[0];
  const group = own ? runGroupKey(own) : null;
  if (!own || !group) return null;
  const others = index.runs.filter((r) => r.id !== own.id && runGroupKey(r) === group && r.hostClass === leg.hostClass && r.suite === leg.suite);
  if (others.length === 0) return null;
  // A release of the leg that has no finished record in the leg's run, finished later (a resumed
  // attempt's run of it, the reference's own run): its newest such record.
  const finishedLater = (/** @type {{product: string, version: string}} */ rel) => index.runs
    .filter((r) => r.hostClass === leg.hostClass && r.suite === leg.suite && r.product === rel.product && r.version === rel.version
      && r.status === 'ok' && r.startedAt > own.startedAt && before(r))
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id))[0];
  const ids = [own.id];
  for (const r of others) {
    const done = r.status === 'ok' ? r : finishedLater(r);
    if (done && !ids.includes(done.id)) ids.push(done.id);
  }
  const measured = new Set([own, ...others].map((r) => `${r.product}@${r.version}`));
  if (reference && !measured.has(`${reference.product}@${reference.version}`)) {
    const ref = finishedLater(reference);
    if (ref) ids.push(ref.id);
  }
  return ids;
}
