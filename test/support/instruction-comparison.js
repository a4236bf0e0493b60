/**
 * A comparison with an instructions-per-operation verdict as the pipeline writes it: run records
 * whose counted repeats carry the compact profiles of real callgrind dumps of MariaDB 10.11.18
 * running point selects (test/fixtures/callgrind), stored as raw logs; the candidate's profiles
 * made to spend more in one function; compareRuns judges with the project's thresholds and
 * attachFunctionMoves attaches where the instructions went from the stored profiles.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseCallgrind } from '../../scripts/metrics/parse-callgrind.js';
import { summarizeProfile } from '../../scripts/metrics/summarize-profile.js';
import { writeRawLog } from '../../scripts/store/index.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { attachFunctionMoves } from '../../scripts/verify/attach-function-moves.js';
import { loadConfig } from '../../scripts/config/index.js';
import { recordMeterMetrics } from '../../scripts/metrics/index.js';
import { makeRecord } from '../compare/make-record.js';

const FIX = new URL('../fixtures/callgrind/', import.meta.url);
/** @param {string} n */
const profileOf = (n) => summarizeProfile(parseCallgrind(gunzipSync(readFileSync(new URL(`callgrind-3.19.0-mariadb-10.11.18-point-select-200-${n}.out.gz`, FIX))).toString('utf8')), { ops: 200, dispatchFunction: 'dispatch_command' });

/** @typedef {ReturnType<typeof profileOf>} Profile */

/** The two real profiles (p1 and p2 differ by process: their totals by 12 %). */
export const REAL_PROFILES = [profileOf('p1'), profileOf('p2')];

/**
 * A candidate profile: the real one with a function that adds `added` self instructions per
 * query under the dispatch function (its inclusive and the totals rise with it).
 * @param {Profile} p
 * @param {string} name
 * @param {number} added per query
 * @returns {Profile}
 */
export function injectCost(p, name, added) {
  return {
    ...p,
    totalPerOp: p.totalPerOp + added,
    queryPathPerOp: /** @type {number} */ (p.queryPathPerOp) + added,
    functions: [...p.functions.map((f) => (f.name.startsWith('dispatch_command') ? { ...f, inclusivePerOp: f.inclusivePerOp + added } : f)), { name, object: 'inject-cost.so', selfPerOp: added, inclusivePerOp: added }],
  };
}

/**
 * A run record of one test (point-query) whose counted repeats carry these profiles, stored as
 * the run's raw logs in storeDir.
 * @param {string} version
 * @param {Profile[]} profiles one per round
 * @param {string} storeDir
 * @param {string} [test]
 */
export async function recordWithProfiles(version, profiles, storeDir, test = 'point-query') {
  const id = `20260101T000000Z-local-mariadb-${version}-smoke-abc123`;
  const r = makeRecord({ id, version, steps: [{ name: test, throughput: [100, 100, 100], instances: [0, 1, 2] }] });
  r.config.meters = ['wall', 'instructions'];
  // What the run stage writes beside them: the meters' metric facts, which compare reads.
  r.config.meterMetrics = recordMeterMetrics(r.config.meters);
  r.steps[0].meters = { instructions: { status: 'ok', repeats: [] } };
  for (const [round, p] of profiles.entries()) {
    const profile = `${test}.instructions.i${round}.r0.profile.json`;
    await writeRawLog(storeDir, id, profile, JSON.stringify(p));
    r.steps[0].meters.instructions.repeats.push({
      index: 0, instance: round, startedAt: '2026-01-01T00:00:00Z', meter: 'instructions', events: 1000, seed: 7, durationS: 1, status: 'ok', operations: 200,
      instructions: { operations: 200, queryPathPerOp: /** @type {number} */ (p.queryPathPerOp), processPerOp: p.totalPerOp, unnamedSelfPerOp: p.unnamedSelfPerOp, dispatchFunction: 'dispatch_command', countedS: 1 },
      profile,
    });
  }
  return r;
}

/**
 * The comparison of 10.11.19 (candidate profiles from `candidateRounds`) with 10.11.18 (p1, p2,
 * p1), judged by compare and with where the instructions went attached.
 * @param {string} storeDir
 * @param {Profile[]} candidateRounds
 */
export async function compareInstructionRuns(storeDir, candidateRounds) {
  const config = await loadConfig(new URL('../..', import.meta.url).pathname);
  const rounds = [REAL_PROFILES[0], REAL_PROFILES[1], REAL_PROFILES[0]];
  const base = { version: '10.11.18', records: [await recordWithProfiles('10.11.18', rounds, storeDir)] };
  const candidate = { version: '10.11.19', records: [await recordWithProfiles('10.11.19', candidateRounds, storeDir)] };
  const comparison = compareRuns({ base, candidate, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-01-01T00:00:00Z' });
  await attachFunctionMoves(comparison, base, candidate, storeDir);
  return { comparison, base, candidate };
}
