/**
 * Runs of a release whose tag was moved: once a run was made because the tag moved
 * (release.movedFrom, set by `tagbench run --moved-from` for what watch proposed again), the
 * release is that commit, and earlier runs of another commit stand for a build the tag no longer
 * names. Tables, verdicts and the site count the release's current commit only. Pure.
 */

/** @typedef {import('../types.js').RunRecord} RunRecord */

/**
 * Split a release's runs: those of the commit its tag points at now, and those superseded by a
 * move. Only a run made because the tag moved supersedes: runs of other commits for other
 * reasons (a bisect's probes, a branch build) stay.
 * @param {RunRecord[]} records one release's runs, any order (kept)
 * @returns {{records: RunRecord[], superseded: RunRecord[]}}
 */
export function splitSuperseded(records) {
  /** @type {RunRecord|null} */
  let mover = null;
  for (const r of records) {
    if (r.release.movedFrom && r.release.commit && (!mover || r.startedAt > mover.startedAt)) mover = r;
  }
  if (!mover) return { records, superseded: [] };
  const commit = mover.release.commit;
  const startedAt = mover.startedAt;
  const old = (/** @type {RunRecord} */ r) => r.startedAt < startedAt && r.release.commit !== null && r.release.commit !== commit;
  return { records: records.filter((r) => !old(r)), superseded: records.filter(old) };
}
