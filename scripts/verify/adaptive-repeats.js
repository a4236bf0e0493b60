/**
 * Adaptive repeats: while a comparison has verdicts more instances could decide
 * (scripts/compare/select-undecided.js), run just those tests again, both releases alternating,
 * on fresh server instances, and compare again with every record so far; stop when every
 * verdict is decided, a test reaches the host class's most instances, or the time budget is
 * spent. Each round is an ordinary run record limited to those tests (`config.only`), stored
 * like any other, so the evidence behind a verdict is always in the store.
 */
import { runReleases, estimateTestsRun, overBudget, DEFAULT_METERS } from '../run/index.js';
import { compareRuns, selectUndecided, isUndecided } from '../compare/index.js';

/** Instances (restarts) per release in one extension round: two per round keeps the load cost low. */
const INSTANCES_PER_ROUND = 2;
/** Defaults when the host class says nothing (configs/hosts/*.yml `adaptive`). */
const ADAPTIVE_DEFAULTS = Object.freeze({ budgetS: 900, maxInstances: 12 });

/**
 * The limits of adaptive repeats on a host class: compare --adaptive, bisect's probes and
 * calibrate's runs stop at the same ones.
 * @param {import('../types.js').HostClass|undefined} host the host class (configs/hosts/*.yml `adaptive`)
 * @param {number|string} [budgetOption] --adaptive-budget in seconds, instead of the host class's
 * @returns {{budgetS: number, maxInstances: number}} seconds per comparison, and most server
 *   instances per release and test
 * @throws nothing
 */
export function resolveAdaptiveLimits(host, budgetOption) {
  return {
    budgetS: Number(budgetOption ?? host?.adaptive?.budgetS ?? ADAPTIVE_DEFAULTS.budgetS),
    maxInstances: host?.adaptive?.maxInstances ?? ADAPTIVE_DEFAULTS.maxInstances,
  };
}

/**
 * @typedef {object} AdaptiveContext
 * @property {import('../types.js').Config} config
 * @property {import('../compare/index.js').CompareThresholds} thresholds
 * @property {string} product
 * @property {string} suite
 * @property {string} hostClass
 * @property {string} storeDir
 * @property {string} workDir
 * @property {string} cacheDir
 * @property {Record<string, {sd: number, df: number}>} [noiseHistory]
 * @property {number} budgetS
 * @property {number} maxInstances
 * @property {number} [portBase]
 * @property {AbortSignal} [signal]
 * @property {{product: string, version: string, provider?: string, path?: string, label?: string}[]} [releases]
 *   how to run base and candidate (default: product@version each; a calibration passes labelled
 *   installs side by side)
 * @property {(text: string) => void} write progress
 * @property {() => number} [now] ms clock (tests)
 */

/** @typedef {import('../compare/index.js').ReleaseRecords} ReleaseRecords */
/** @typedef {import('../compare/index.js').FullComparison} FullComparison */

/**
 * How long a round of some tests will take: the run's own estimate of it (estimateTestsRun, the
 * estimator `run` and `plan` use), times the pace the rounds so far ran at against their estimate
 * (1 before the first round).
 * @typedef {{estimateS: (tests: string[]) => number, factor: number}} RoundPace
 */

/**
 * Compare base and candidate, and run more instances of the undecided tests until every verdict
 * is decided, a test has the most instances, the budget is spent or the signal aborts.
 * @param {ReleaseRecords} base
 * @param {ReleaseRecords} candidate
 * @param {string} createdAt ISO time the comparison carries
 * @param {AdaptiveContext} ctx
 * @returns {Promise<{comparison: FullComparison, base: ReleaseRecords, candidate: ReleaseRecords}>}
 *   the final comparison (with `adaptive` set) and both sides' records including the new rounds
 * @throws {import('../errors.js').UserError} when a round cannot start its servers
 */
export async function extendUndecided(base, candidate, createdAt, ctx) {
  const now = ctx.now ?? Date.now;
  const started = now();
  const compare = () => compareRuns({ base, candidate, thresholds: ctx.thresholds, createdAt, noiseHistory: ctx.noiseHistory });
  let comparison = compare();
  const first = selectUndecided(comparison, { maxInstances: ctx.maxInstances });
  const keys = new Set(first.undecided.map((t) => `${t.test}|${t.metric}`));
  let rounds = 0;
  let stopped = first.undecided.length === 0 ? 'nothing undecided' : '';
  /** @type {RoundPace} */
  const pace = { estimateS: (tests) => estimateRound(ctx, tests), factor: 1 };
  while (!stopped) {
    const next = pickRoundTests(comparison, ctx, pace, () => (now() - started) / 1000);
    if ('stopped' in next) {
      stopped = next.stopped;
      break;
    }
    rounds++;
    ctx.write(`adaptive round ${rounds}: ${next.tests.length} of ${next.wanted.length} undecided test(s), ${INSTANCES_PER_ROUND} more instances each: ${next.tests.join(', ')}\n`);
    const roundStart = now();
    const outcome = await runRound(ctx, base, candidate, next.tests);
    // The next round's estimate follows this round's pace.
    if (next.estimatedS > 0) pace.factor = ((now() - roundStart) / 1000) / next.estimatedS;
    const [b, c] = outcome.records;
    // A partial or failed round adds what it measured; compareRuns reads only valid repeats.
    base = { ...base, records: [...base.records, b] };
    candidate = { ...candidate, records: [...candidate.records, c] };
    comparison = compare();
    if (outcome.interrupted) stopped = 'interrupted';
  }
  const adaptive = summarizeRounds(comparison, keys, { rounds, seconds: Math.round((now() - started) / 1000), budgetS: ctx.budgetS, stopped });
  return { comparison: { ...comparison, adaptive }, base, candidate };
}

/**
 * The tests of the next round: as many of the most promising undecided tests as the budget left
 * takes by the round's estimate; or why there is no next round. A round that would overrun the
 * budget is not started (it cannot be cut short without losing what it measured).
 * @param {FullComparison} comparison the comparison so far
 * @param {AdaptiveContext} ctx
 * @param {RoundPace} pace
 * @param {() => number} elapsedS seconds since the extension started (read only when needed)
 * @returns {{tests: string[], wanted: string[], estimatedS: number}|{stopped: string}} wanted:
 *   every test more instances could decide, most promising first; estimatedS: the round's
 *   estimate before the pace correction
 */
function pickRoundTests(comparison, ctx, pace, elapsedS) {
  const { tests: wanted } = selectUndecided(comparison, { maxInstances: ctx.maxInstances });
  if (wanted.length === 0) {
    return { stopped: selectUndecided(comparison, { maxInstances: Infinity }).undecided.length === 0 ? 'every verdict decided' : `the undecided tests have ${ctx.maxInstances} instances per side (the host class's most)` };
  }
  if (ctx.signal?.aborted) return { stopped: 'interrupted' };
  const elapsed = elapsedS();
  const budget = { elapsedS: elapsed, budgetS: ctx.budgetS, budgetName: "--adaptive-budget, else the host class's adaptive.budgetS" };
  for (let k = wanted.length; k >= 1; k -= 1) {
    const estimatedS = pace.estimateS(wanted.slice(0, k));
    if (!overBudget({ what: '', estimatedS: estimatedS * pace.factor, ...budget })) return { tests: wanted.slice(0, k), wanted, estimatedS };
  }
  const one = wanted.slice(0, 1);
  const what = `the next adaptive round (1 test, ${one[0]}, ${INSTANCES_PER_ROUND} more instances per release)`;
  return { stopped: `${overBudget({ what, estimatedS: pace.estimateS(one) * pace.factor, ...budget })}${pace.factor === 1 ? '' : ` (the estimate times ${pace.factor.toFixed(2)}, the pace of the rounds so far)`}` };
}

/**
 * A round's estimate: the run's own estimate of both releases running just these tests on
 * fresh instances with the timed meters (runRound).
 * @param {AdaptiveContext} ctx
 * @param {string[]} tests
 * @returns {number} seconds
 */
function estimateRound(ctx, tests) {
  return estimateTestsRun(ctx.config, {
    suite: ctx.suite, hostClass: ctx.hostClass, only: tests, releases: ctx.releases?.length ?? 2,
    repeats: INSTANCES_PER_ROUND, instances: INSTANCES_PER_ROUND, meters: [...DEFAULT_METERS],
  }).totalS;
}

/**
 * One round: both releases alternating on fresh server instances, only the given tests.
 * @param {AdaptiveContext} ctx
 * @param {ReleaseRecords} base
 * @param {ReleaseRecords} candidate
 * @param {string[]} tests
 * @returns {ReturnType<typeof runReleases>}
 */
function runRound(ctx, base, candidate, tests) {
  return runReleases(ctx.config, {
    releases: ctx.releases ?? [{ product: ctx.product, version: base.version }, { product: ctx.product, version: candidate.version }],
    suite: ctx.suite,
    hostClass: ctx.hostClass,
    only: tests,
    // Timed rounds only, measured as a run that names no meter (the default meters are timed): they
    // decide timed verdicts (select-undecided.js), whatever the suite's meters.
    meters: [...DEFAULT_METERS],
    repeats: INSTANCES_PER_ROUND,
    instances: INSTANCES_PER_ROUND,
    storeDir: ctx.storeDir,
    workDir: ctx.workDir,
    cacheDir: ctx.cacheDir,
    ...(ctx.portBase ? { portBase: ctx.portBase } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    write: (t) => ctx.write(`    ${t}`),
  });
}

/**
 * The comparison's `adaptive` field: what the rounds did and how many of the tests undecided at
 * the start they decided.
 * @param {FullComparison} comparison the final comparison
 * @param {Set<string>} keys `test|metric` of the verdicts undecided at the start
 * @param {{rounds: number, seconds: number, budgetS: number, stopped: string}} run
 * @returns {NonNullable<FullComparison['adaptive']>}
 */
function summarizeRounds(comparison, keys, { rounds, seconds, budgetS, stopped }) {
  // Decided: unchanged, an improvement, or a regression Holm's step no longer holds back.
  const isDecided = (/** @type {import('../compare/index.js').FullVerdict} */ t) => t.verdict === 'unchanged' || t.verdict === 'improvement' || (t.verdict === 'regression' && !isUndecided(t));
  const resolved = comparison.tests.filter((t) => keys.has(`${t.test}|${t.metric}`) && isDecided(t)).length;
  /** @type {Record<string, number>} */
  const instancesNeeded = {};
  for (const t of comparison.tests) {
    if (!keys.has(`${t.test}|${t.metric}`)) continue;
    instancesNeeded[t.test] = Math.max(instancesNeeded[t.test] ?? 0, Math.min(t.base?.n ?? 0, t.candidate?.n ?? 0));
  }
  return { rounds, seconds, budgetS, undecidedBefore: keys.size, resolved, instancesNeeded, stopped };
}
