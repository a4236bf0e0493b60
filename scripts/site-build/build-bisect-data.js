/**
 * The bisects a release page shows: those whose bad release it is and those that named it the
 * first bad release, with the outcome and every probe's numbers (the same evidence as the issue
 * comment, tagbench report --bisects). Pure.
 */

/** @typedef {import('../store/index.js').BisectReport & {id: string}} StoredBisectReport */

/**
 * @typedef {object} ReleaseBisect one bisect as the release page reads it
 * @property {string} id
 * @property {('bad'|'firstBad')[]} roles what this release was in the bisect
 * @property {string} createdAt
 * @property {string} good name of the good release
 * @property {string} bad name of the bad release
 * @property {string[]} candidates names, oldest first
 * @property {{test: string, metric: string}[]} targets
 * @property {string|null} comparisonId the comparison the tests came from
 * @property {StoredBisectReport['outcome']} outcome
 * @property {string[]} notes
 * @property {{candidate: string, call: string, reason: string, seconds: number, runIds: {good: string[], candidate: string[]},
 *   evidence: {test: string, metric: string, verdict: string|null, level: string|null, ratio: number|null,
 *     ci: [number, number]|null, mde: number|null, instances: [number, number], pairedRounds?: number}[]}[]} probes
 */

/**
 * @param {StoredBisectReport[]} reports the bisects of the page's host class, product and suite
 * @param {string} version the page's release (a plain version: a labelled install has no page of its own)
 * @returns {ReleaseBisect[]} oldest first
 */
export function bisectsForRelease(reports, version) {
  /** @type {ReleaseBisect[]} */
  const out = [];
  for (const r of reports) {
    /** @type {('bad'|'firstBad')[]} */
    const roles = [];
    if (r.bad.name === version) roles.push('bad');
    // A stopped search's firstBad is only the first *known* bad release: not a finding.
    if (r.outcome.status === 'found' && r.outcome.firstBad === version) roles.push('firstBad');
    if (roles.length === 0) continue;
    out.push({
      id: r.id, roles, createdAt: r.createdAt, good: r.good.name, bad: r.bad.name, candidates: r.candidates.map((c) => c.name),
      targets: r.targets, comparisonId: r.source.comparisonId, outcome: r.outcome, notes: r.notes,
      probes: r.probes.map((p) => ({
        candidate: p.candidate, call: p.call, reason: p.reason, seconds: p.seconds, runIds: p.runIds,
        evidence: p.evidence.map((e) => ({ test: e.test, metric: e.metric, verdict: e.verdict, level: e.level, ratio: e.ratio, ci: e.ci, mde: e.mde, instances: e.instances })),
      })),
    });
  }
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}
