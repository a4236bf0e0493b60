/**
 * Where the count went: for every verdict of a counted meter's first metric (its headline
 * figure; the instructions meter's query path) whose counted repeats kept a per-function profile,
 * the difference of the two releases' profiles from the same counted repeats the verdict judged
 * (their raw logs in the store), attached to the verdict as `functions` (the
 * functions that added and removed the most, the share in code without a name), and, where the
 * releases ran side by side, the functions judged round by round (`functionFindings`: those that
 * rose beyond their noise or appeared, even under the total's threshold). Bounded, so both travel
 * with the stored comparison into the report, the issue and the site.
 */
import { readRawLog } from '../store/index.js';
import { diffProfiles, judgeFunctionProfiles } from '../compare/index.js';
import { runGroupKey } from '../run-id.js';

/** Functions kept per direction in a stored verdict. */
const TOP = 10;
/** Findings kept per test in a stored verdict (largest rise first): a report lists names, not a profile. */
const TOP_FINDINGS = 20;

/**
 * @param {import('../compare/index.js').FullComparison} comparison updated in place
 * @param {{records: import('../types.js').RunRecord[]}} base
 * @param {{records: import('../types.js').RunRecord[]}} candidate
 * @param {string} storeDir
 * @returns {Promise<number>} how many verdicts got their functions
 */
export async function attachFunctionMoves(comparison, base, candidate, storeDir) {
  let attached = 0;
  const records = [...base.records, ...candidate.records];
  for (const verdict of comparison.tests) {
    const meter = verdict.counted ? verdict.meter : null;
    if (!meter || verdict.verdict === 'failed' || verdict.metric !== firstMetric(records, meter)) continue;
    const [b, c] = await Promise.all([readProfiles(base.records, verdict.test, meter, storeDir), readProfiles(candidate.records, verdict.test, meter, storeDir)]);
    if (b.length === 0 || c.length === 0) continue;
    const { functions: _all, ...bounded } = diffProfiles(b.map((x) => x.profile), c.map((x) => x.profile), { top: TOP });
    verdict.functions = bounded;
    const judged = judgeFunctionProfiles(pairProfiles(b, c), { ...comparison.thresholds.functionFindings, confidence: comparison.thresholds.confidence });
    if (judged) verdict.functionFindings = { ...judged, findings: judged.findings.slice(0, TOP_FINDINGS) };
    attached += 1;
  }
  return attached;
}

/**
 * A meter's first metric, from the facts the records carry (config.meterMetrics): the figure
 * the meter leads with, and the one its profile's difference is attached to.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} meter
 * @returns {string|undefined}
 */
function firstMetric(records, meter) {
  for (const r of records) {
    const name = r.config.meterMetrics?.[meter]?.[0]?.name;
    if (name) return name;
  }
  return undefined;
}

/**
 * @typedef {object} KeyedProfile
 * @property {string|null} round the round the profile's process ran in, shared with the other
 *   releases of its run (`<run>#<instance>#<repeat>`), null when the record's id has no run
 * @property {import('../compare/index.js').CompactProfile} profile
 */

/**
 * The compact profiles of a test's valid counted repeats over some records, with their rounds; a
 * profile the store does not hold (published without logs) is left out.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @param {string} meter the counted meter whose repeats kept the profiles
 * @param {string} storeDir
 * @returns {Promise<KeyedProfile[]>}
 */
async function readProfiles(records, test, meter, storeDir) {
  const out = [];
  for (const r of records) {
    const reps = r.steps.find((s) => s.name === test)?.meters?.[meter]?.repeats ?? [];
    const run = runGroupKey(r);
    for (const rep of reps) {
      if (rep.status !== 'ok' || !rep.profile) continue;
      const text = await readRawLog(storeDir, r.id, rep.profile);
      if (text !== null) out.push({ round: run === null ? null : `${run}#${rep.instance}#${rep.index}`, profile: JSON.parse(text) });
    }
  }
  return out;
}

/**
 * The rounds both releases have a profile of: judged side by side, the round's conditions (its
 * seed, the datadirs both servers changed alike) cancel. Profiles of a base measured in other
 * runs pair with nothing, and are then not judged per function.
 * @param {KeyedProfile[]} base
 * @param {KeyedProfile[]} candidate
 * @returns {import('../compare/index.js').ProfileRound[]}
 */
function pairProfiles(base, candidate) {
  const byRound = new Map(candidate.filter((c) => c.round !== null).map((c) => [c.round, c.profile]));
  return base.flatMap((b) => {
    const c = b.round === null ? undefined : byRound.get(b.round);
    return c ? [{ base: b.profile, candidate: c }] : [];
  });
}
