/**
 * Adaptive repeats: while a comparison has verdicts more instances could decide
 * (scripts/compare/select-undecided.js), run just those tests again, both releases alternating,
 * on fresh server instances, and compare again with every record so far; stop when every
 * verdict is decided, a test reaches the host class's most instances, or the time budget is
 * spent. Each round is an ordinary run record limited to those tests (`config.only`), stored
 * like any other, so the evidence behind a verdict is always in the store.
 */
import { runReleases } from '../run/index.js';
import { compareRuns, selectUndecided, isUndecided } from '../compare/index.js';

/** Instances (restarts) per release in one extension round: two per round keeps the load cost low. */
const INSTANCES_PER_ROUND = 2;
/** Defaults when the host class says nothing (configs/hosts/*.yml `adaptive`). */
export const ADAPTIVE_DEFAULTS = Object.freeze({ budgetS: 900, maxInstances: 12 });

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

/**
 * @param {import('../compare/index.js').ReleaseRecords} base
 * @param {import('../compare/index.js').ReleaseRecords} candidate
 * @param {string} createdAt
 * @param {AdaptiveContext} ctx
 * @returns {Promise<{comparison: import('../compare/index.js').FullComparison, base: import('../compare/index.js').ReleaseRecords, candidate: import('../compare/index.js').ReleaseRecords}>}
 *   the final comparison (with `adaptive` set) and both sides' records including the new rounds
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
  const suite = ctx.config.suites[ctx.suite];
  // Seconds per test per round (both releases, every instance of the round) and per round on top
  // (loads, starts, restarts, warm-ups): estimated from the suite, then from the rounds run.
  let perTestS = 2 * INSTANCES_PER_ROUND * (Math.max(suite?.readDurationS ?? 0, suite?.writeDurationS ?? 0) + (suite?.warmupS ?? 0) + 1);
  let roundOverheadS = 60;
  while (!stopped) {
    const { tests: wanted } = selectUndecided(comparison, { maxInstances: ctx.maxInstances });
    if (wanted.length === 0) {
      stopped = selectUndecided(comparison, { maxInstances: Infinity }).undecided.length === 0 ? 'every verdict decided' : `the undecided tests have ${ctx.maxInstances} instances per side (the host class's most)`;
      break;
    }
    const elapsedS = (now() - started) / 1000;
    // As many of the most promising tests as the rest of the budget takes.
    const fit = Math.floor((ctx.budgetS - elapsedS - roundOverheadS) / perTestS);
    if (fit < 1) {
      stopped = `the ${ctx.budgetS} s budget is spent (${Math.round(elapsedS)} s so far; a round of one test takes about ${Math.round(roundOverheadS + perTestS)} s)`;
      break;
    }
    if (ctx.signal?.aborted) {
      stopped = 'interrupted';
      break;
    }
    const tests = wanted.slice(0, fit);
    rounds++;
    ctx.write(`adaptive round ${rounds}: ${tests.length} of ${wanted.length} undecided test(s), ${INSTANCES_PER_ROUND} more instances each: ${tests.join(', ')}\n`);
    const roundStart = now();
    const outcome = await runReleases(ctx.config, {
      releases: ctx.releases ?? [{ product: ctx.product, version: base.version }, { product: ctx.product, version: candidate.version }],
      suite: ctx.suite,
      hostClass: ctx.hostClass,
      only: tests,
      repeats: INSTANCES_PER_ROUND,
      instances: INSTANCES_PER_ROUND,
      storeDir: ctx.storeDir,
      workDir: ctx.workDir,
      cacheDir: ctx.cacheDir,
      ...(ctx.portBase ? { portBase: ctx.portBase } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      write: (t) => ctx.write(`    ${t}`),
    });
    // The next round's estimate follows this round's pace.
    const pace = ((now() - roundStart) / 1000) / (roundOverheadS + tests.length * perTestS);
    perTestS *= pace;
    roundOverheadS *= pace;
    const [b, c] = outcome.records;
    // A partial or failed round adds what it measured; compareRuns reads only valid repeats.
    base = { ...base, records: [...base.records, b] };
    candidate = { ...candidate, records: [...candidate.records, c] };
    comparison = compare();
    if (outcome.interrupted) stopped = 'interrupted';
  }
  // Decided: unchanged, an improvement, or a regression Holm's step no longer holds back.
  const isDecided = (/** @type {import('../compare/index.js').FullVerdict} */ t) => t.verdict === 'unchanged' || t.verdict === 'improvement' || (t.verdict === 'regression' && !isUndecided(t));
  const resolved = comparison.tests.filter((t) => keys.has(`${t.test}|${t.metric}`) && isDecided(t)).length;
  /** @type {Record<string, number>} */
  const instancesNeeded = {};
  for (const t of comparison.tests) {
    if (!keys.has(`${t.test}|${t.metric}`)) continue;
    instancesNeeded[t.test] = Math.max(instancesNeeded[t.test] ?? 0, Math.min(t.base?.n ?? 0, t.candidate?.n ?? 0));
  }
  comparison = {
    ...comparison,
    adaptive: {
      rounds,
      seconds: Math.round((now() - started) / 1000),
      budgetS: ctx.budgetS,
      undecidedBefore: keys.size,
      resolved,
      instancesNeeded,
      stopped,
    },
  };
  return { comparison, base, candidate };
}
