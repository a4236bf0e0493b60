/**
 * One probe of `tagbench bisect`: a candidate and the good release side by side, their repeats
 * alternating (the run stage), the undecided verdicts extended with adaptive repeats as
 * `compare --adaptive` does, and the candidate judged by the verdict rules that open issues
 * (classifyProbe). In a commit bisect each candidate is first built from source, and the good
 * release once from its tag, so both sides are builds of the same profile. A probe that cannot
 * run decides nothing: it comes back undecided with the reason, and the search stops there.
 */
import { classifyProbe, maxProbes } from './bisect-search.js';
import { extendUndecided } from './adaptive-repeats.js';
import { formatElapsed } from './bisect-commits.js';
import { UserError } from '../errors.js';

/** @typedef {import('./bisect-plan.js').BisectPlan} BisectPlan */
/** @typedef {import('./bisect-plan.js').BisectRelease} BisectRelease */
/** @typedef {import('../store/index.js').BisectReport['probes'][number]} ProbeEntry */
/** @typedef {{product: string, version: string, provider?: string, path?: string, label?: string}} RunSpec */

/**
 * @typedef {object} ProbeContext what every probe of a bisect shares
 * @property {BisectPlan} plan
 * @property {Readonly<import('../types.js').Config>} config
 * @property {import('../compare/index.js').CompareThresholds} thresholds
 * @property {Record<string, {sd: number, df: number}>} noiseHistory
 * @property {number} budgetS adaptive repeats per probe
 * @property {number} maxInstances
 * @property {number} [repeats] --repeats
 * @property {number} [portBase] --port-base
 * @property {AbortSignal} signal
 * @property {(text: string) => void} write progress of the runs
 * @property {(message: string) => void} log progress of the bisect
 * @property {() => number} now ms clock
 * @property {number} startedMs when the bisect started
 * @property {typeof import('../run/index.js').runReleases} runReleases
 * @property {typeof import('../install/index.js').installRelease} installRelease
 */

/**
 * A prober for the search: `probe(index)` runs one probe and keeps its entry in `probes`.
 * @param {ProbeContext} ctx
 * @returns {{probe: (index: number) => Promise<'good'|'bad'|'undecided'>, probes: ProbeEntry[]}}
 *   probes: every probe's entry so far, in the order run
 * @throws nothing (probe itself turns every failure into an undecided entry)
 */
export function createProber(ctx) {
  const { plan, log } = ctx;
  /** @type {ProbeEntry[]} */
  const probes = [];
  // The search's bounds, followed here for the progress lines (how many probes are left at most).
  let knownGood = -1;
  let knownBad = plan.candidates.length;
  /** @type {Promise<string>|null} the good release's own build, made once (commit bisects) */
  let goodBuild = null;
  const buildGood = () => (goodBuild ??= buildRef(ctx, undefined, plan.good.version));

  /** @param {number} index */
  const probe = async (index) => {
    const candidate = plan.candidates[index];
    const started = ctx.now();
    const left = maxProbes(knownBad - knownGood - 1);
    log(`probe ${probes.length + 1}: ${plan.commitMode ? `building commit ${candidate.name}` : candidate.name} against ${plan.good.name}, ${listTests(plan).join(', ')}, alternating; candidate ${index + 1} of ${plan.candidates.length}, at most ${left} probe(s) left with this one, ${elapsed(ctx)} so far`);
    /** @type {Omit<ProbeEntry, 'candidate'|'index'|'seconds'>} */
    let measured;
    try {
      const releases = plan.commitMode ? await buildPair(ctx, candidate, buildGood, probes.length + 1) : [specOf(plan.product, plan.good), specOf(plan.product, candidate)];
      measured = await measure(ctx, candidate, releases);
    } catch (err) {
      // A probe that cannot run (an install fails, a server will not start) decides nothing: the
      // search stops there and the report says why, with the probes done so far.
      measured = undecided(`the probe could not run: ${/** @type {Error} */ (err).message}`);
    }
    const { call, reason, runIds, adaptive, evidence } = measured;
    probes.push({ candidate: candidate.name, index, call, reason, seconds: (ctx.now() - started) / 1000, runIds, adaptive, evidence });
    if (call === 'good') knownGood = index;
    if (call === 'bad') knownBad = index;
    log(`probe ${probes.length}: ${candidate.name} is ${call.toUpperCase()}: ${reason} (${elapsed(ctx)} so far)`);
    return call;
  };
  return { probe, probes };
}

/**
 * The tests a probe runs: each target's test once.
 * @param {BisectPlan} plan
 * @returns {string[]}
 */
function listTests(plan) {
  return [...new Set(plan.targets.map((t) => t.test))];
}

/**
 * @param {ProbeContext} ctx
 * @returns {string} time since the bisect started, for progress lines
 */
function elapsed(ctx) {
  return formatElapsed((ctx.now() - ctx.startedMs) / 1000);
}

/**
 * A probe's entry that decides nothing.
 * @param {string} reason
 * @returns {Omit<ProbeEntry, 'candidate'|'index'|'seconds'>}
 */
function undecided(reason) {
  return { call: 'undecided', reason, runIds: { good: [], candidate: [] }, adaptive: null, evidence: [] };
}

/**
 * Run the good release and the candidate side by side, extend the undecided verdicts, and judge.
 * @param {ProbeContext} ctx
 * @param {BisectRelease} candidate
 * @param {RunSpec[]} releases how to run the good release and the candidate
 * @returns {Promise<Omit<ProbeEntry, 'candidate'|'index'|'seconds'>>}
 * @throws {UserError} when a server cannot be installed or started
 */
async function measure(ctx, candidate, releases) {
  const { plan, config, signal, write } = ctx;
  const { product, suite, hostClass, storeDir, workDir, cacheDir, good, targets } = plan;
  const outcome = await ctx.runReleases(config, {
    releases, suite, hostClass, only: listTests(plan), storeDir, workDir, cacheDir, signal, write,
    ...(ctx.repeats !== undefined ? { repeats: ctx.repeats } : {}),
    ...(ctx.portBase !== undefined ? { portBase: ctx.portBase } : {}),
  });
  if (outcome.interrupted || outcome.records.length !== 2) {
    return undecided(outcome.interrupted ? 'interrupted before the probe finished' : `the run returned ${outcome.records.length} records, not 2`);
  }
  const [goodRecord, candidateRecord] = outcome.records;
  const extended = await extendUndecided({ version: good.name, records: [goodRecord] }, { version: candidate.name, records: [candidateRecord] }, new Date(ctx.now()).toISOString(), {
    config, thresholds: ctx.thresholds, product, suite, hostClass, storeDir, workDir, cacheDir, noiseHistory: ctx.noiseHistory,
    budgetS: ctx.budgetS, maxInstances: ctx.maxInstances, releases, signal, write,
    ...(ctx.portBase !== undefined ? { portBase: ctx.portBase } : {}),
  });
  const judged = classifyProbe(extended.comparison, targets);
  return {
    call: judged.call, reason: judged.reason,
    runIds: { good: extended.base.records.map((r) => r.id), candidate: extended.candidate.records.map((r) => r.id) },
    adaptive: extended.comparison.adaptive ? { ...extended.comparison.adaptive } : null,
    evidence: judged.evidence,
  };
}

/**
 * A commit probe's two sides: the good release built from its tag (once per bisect) and the
 * candidate commit, both source builds of the same profile, run as the installs on disk they are.
 * @param {ProbeContext} ctx
 * @param {BisectRelease & {sha?: string}} candidate
 * @param {() => Promise<string>} buildGood the good release's build (made on first call)
 * @param {number} number the probe's number, for the progress line
 * @returns {Promise<RunSpec[]>}
 * @throws {UserError} when a build fails
 */
async function buildPair(ctx, candidate, buildGood, number) {
  const { product, good } = ctx.plan;
  const goodPrefix = await buildGood();
  const candidatePrefix = await buildRef(ctx, candidate.sha, candidate.version);
  ctx.log(`probe ${number}: commit ${candidate.label} built (${elapsed(ctx)} so far); running it`);
  return [
    { product, version: good.version, provider: 'path', path: goodPrefix },
    { product, version: candidate.version, provider: 'path', path: candidatePrefix, label: /** @type {string} */ (candidate.label) },
  ];
}

/**
 * Build one ref (a commit, or the good release's tag when ref is undefined) through the
 * install stage's source provider; the install cache keys a commit by its ref.
 * @param {ProbeContext} ctx
 * @param {string|undefined} ref
 * @param {string} version
 * @returns {Promise<string>} the installed prefix
 * @throws {UserError} when the build fails (the probe is then undecided)
 */
async function buildRef(ctx, ref, version) {
  const { product, cacheDir, mirror } = ctx.plan;
  const result = await ctx.installRelease({ product, version, provider: 'source', ...(ref ? { ref } : {}), ...(mirror ? { path: mirror } : {}) }, { config: ctx.config, cacheDir, log: (m) => ctx.log(m) });
  if (result.status === 'failed') throw new UserError(`the build of ${ref ? `commit ${ref}` : `${product} ${version}`} failed: ${result.reason}`);
  return result.prefix;
}

/**
 * A release as runReleases takes it: the deb provider is the default and is left out.
 * @param {string} product
 * @param {BisectRelease} r
 * @returns {RunSpec}
 */
function specOf(product, r) {
  return { product, version: r.version, ...(r.provider === 'deb' ? {} : { provider: r.provider }), ...(r.path ? { path: r.path } : {}), ...(r.label ? { label: r.label } : {}) };
}
