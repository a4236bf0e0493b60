/**
 * Resuming a run (`tagbench run --resume-from <run ids>`): a leg that died after some of its
 * releases finished is resumed from their published records (fetched into the store by
 * `tagbench store fetch`), and only the releases without a finished record run again. Pure: the
 * caller reads the records.
 */
import { UserError } from '../errors.js';
import { runIdLabel } from '../run-id.js';
import { DEFAULT_METERS } from '../metrics/index.js';

/**
 * @typedef {object} ResumeExpectation what a record must have been run with to stand for this run
 * @property {string} hostClass
 * @property {string} suite
 * @property {number} repeats
 * @property {number} instances
 * @property {string[]} only the run's --only, [] = every test
 * @property {(key: string) => string} mycnfOf the my.cnf template this run gives a release
 * @property {string[]} meters the run's meters
 */

/**
 * @typedef {object} ResumeChoice
 * @property {{key: string, record: import('../types.js').RunRecord}[]} resumed releases that have a
 *   finished record already: not run again
 * @property {string[]} toRun keys of the releases to run
 * @property {string[]} notes why a given record is not resumed from
 */

/**
 * Which releases of a run have a finished record among `records` (the ids given to --resume-from)
 * and so are not run again. Only a record with status `ok` counts: a `partial` one (interrupted)
 * or a `failed` one is history, and its release runs again. A finished record measured another
 * way than this run would (other repeats, instances, tests, my.cnf or meters) is refused: its
 * release would be compared with a base measured otherwise, and running it again would leave two
 * records of the release in the store for compare to mix.
 * @param {{key: string, product: string, version: string, label?: string, provider?: string}[]} releases
 *   the run's releases (provider: only compared when the request names one)
 * @param {string[]} ids the run ids given to --resume-from
 * @param {import('../types.js').RunRecord[]} records the store's records of those ids
 * @param {ResumeExpectation} expected
 * @returns {ResumeChoice}
 * @throws {UserError} naming an id the store does not hold, or a finished record measured
 *   otherwise than this run, with the difference
 */
export function chooseResumed(releases, ids, records, expected) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new UserError(`--resume-from: no run record ${missing.map((id) => `'${id}'`).join(', ')} in the store: fetch it first (tagbench store fetch --runs ...), or leave it out`);
  }
  /** @type {ResumeChoice['resumed']} */
  const resumed = [];
  /** @type {string[]} */
  const notes = [];
  const used = new Set();
  for (const rel of releases) {
    const matching = ids.map((id) => /** @type {import('../types.js').RunRecord} */ (byId.get(id))).filter((r) => !used.has(r.id)
      && r.release.product === rel.product && r.release.version === rel.version && (runIdLabel(r) ?? undefined) === (rel.label || undefined)
      && (!rel.provider || r.release.provider === rel.provider));
    for (const record of matching) {
      used.add(record.id);
      const differs = describeDifference(record, rel.key, expected);
      if (record.status !== 'ok') notes.push(`${rel.key}: run record ${record.id} is ${record.status}${record.reason ? ` (${record.reason})` : ''}: not a finished one, the release runs again`);
      else if (differs) throw new UserError(`--resume-from: run record ${record.id} of ${rel.key} was measured with ${differs}; a resumed run measures as the run it resumes: give the same options, or run without --resume-from (a new run of every release)`);
      else if (!resumed.some((x) => x.key === rel.key)) resumed.push({ key: rel.key, record });
    }
  }
  // One list serves every run of a leg (the releases' run, the reference's run, a matrix suite's
  // cells): a record of another run's release is that run's to resume.
  for (const id of ids.filter((i) => !used.has(i))) notes.push(`run record ${id} is of no release of this run (${releases.map((r) => r.key).join(', ')}): left for the run it belongs to`);
  const done = new Set(resumed.map((x) => x.key));
  return { resumed, toRun: releases.map((r) => r.key).filter((k) => !done.has(k)), notes };
}

/**
 * @param {import('../types.js').RunRecord} record
 * @param {string} key
 * @param {ResumeExpectation} expected
 * @returns {string|null} how the record was measured otherwise than this run would, in words
 */
function describeDifference(record, key, expected) {
  const c = record.config;
  const only = [...(c.only ?? [])].sort().join(',');
  const want = [...expected.only].sort().join(',');
  /** @type {[string, unknown, unknown][]} */
  const fields = [
    ['host class', record.host.class, expected.hostClass],
    ['suite', c.suite, expected.suite],
    ['repeats', c.repeats, expected.repeats],
    ['instances', c.instances, expected.instances],
    ['tests', only || 'all', want || 'all'],
    ['my.cnf', c.mycnf.name, expected.mycnfOf(key)],
    ['meters', (c.meters ?? DEFAULT_METERS).join(','), expected.meters.join(',')],
  ];
  const diffs = fields.filter(([, got, wanted]) => got !== wanted).map(([what, got, wanted]) => `${what} ${got} (this run: ${wanted})`);
  return diffs.length > 0 ? diffs.join(', ') : null;
}
