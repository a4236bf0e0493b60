/**
 * The search of `tagbench bisect`, without I/O: which candidate to probe next, what a probe's
 * comparison says about a candidate (good, bad or undecided, by the verdict rules that open
 * issues), and the outcome. The probe itself (servers, adaptive repeats) is passed in, so the
 * search can be tested with made-up outcomes.
 *
 * The candidates are the releases strictly between the good and the bad release, oldest first.
 * The search keeps two bounds: the last release known good (the good release to begin with)
 * and the first known bad (the bad release), and probes the middle candidate between them
 * until they are neighbours. A probe that cannot tell stops the search there: a guess would
 * send every later step to the wrong half.
 */

/**
 * @typedef {object} BisectTarget one regressed test and metric the search follows
 * @property {string} test
 * @property {string} metric `throughput`, or another gated metric of the regression
 */

/**
 * @typedef {object} TargetEvidence what a probe measured for one target
 * @property {string} test
 * @property {string} metric
 * @property {'good'|'bad'|'undecided'} call
 * @property {string|null} verdict the comparison's verdict (null: no result)
 * @property {'warn'|'issue'|null} level
 * @property {number|null} ratio candidate median / good median
 * @property {[number, number]|null} ci interval of the ratio
 * @property {number|null} mde minimum detectable effect in the bad direction
 * @property {[number, number]} instances server instances of the good release and of the candidate
 * @property {number} [pairedRounds] set when the verdict was paired by round (both ran side by side
 *   in that many rounds)
 * @property {string} reason the comparison's reason, or why there is none
 */

/**
 * @typedef {object} ProbeCall
 * @property {'good'|'bad'|'undecided'} call
 * @property {string} reason one sentence: why
 * @property {TargetEvidence[]} evidence
 */

/**
 * The targets of a comparison of the bad release against the good one: every regression at the
 * issue level, and, when the comparison was confirmed, only the confirmed ones (what opened the
 * issue).
 * @param {import('../compare/index.js').FullComparison} comparison
 * @returns {BisectTarget[]} in the comparison's order
 */
export function findBisectTargets(comparison) {
  const confirmed = comparison.tests.some((t) => t.confirmed !== undefined);
  return comparison.tests
    .filter((t) => t.verdict === 'regression' && t.level === 'issue' && (!confirmed || t.confirmed === true))
    .map((t) => ({ test: t.test, metric: t.metric }));
}

/**
 * What a probe's comparison (candidate against the good release) says, target by target:
 * an issue-level regression is bad (the same test and metric got worse, as in the bad release);
 * unchanged or improved within the thresholds is good; anything else (inconclusive, a
 * regression only at the warn level or held back by the family-wise rule, a failed test, no
 * result) is undecided. The candidate is good or bad only when every target says so.
 * @param {import('../compare/index.js').FullComparison} comparison
 * @param {BisectTarget[]} targets
 * @returns {ProbeCall}
 */
export function classifyProbe(comparison, targets) {
  if (targets.length === 0) throw new Error('classifyProbe: no targets (a bug in the caller)');
  /** @type {TargetEvidence[]} */
  const evidence = targets.map(({ test, metric }) => {
    const v = comparison.tests.find((t) => t.test === test && t.metric === metric);
    if (!v) {
      // Left unjudged by compare's rules (too short, quantized coarser than the threshold, ...): say why.
      const unjudged = comparison.notJudged?.find((n) => n.test === test && n.metric === metric);
      const reason = unjudged ? `not judged: ${unjudged.reason}` : 'the probe has no result for this test and metric';
      return { test, metric, call: 'undecided', verdict: null, level: null, ratio: null, ci: null, mde: null, instances: [0, 0], reason };
    }
    /** @type {'good'|'bad'|'undecided'} */
    const call = v.verdict === 'regression' ? (v.level === 'issue' ? 'bad' : 'undecided')
      : v.verdict === 'unchanged' || v.verdict === 'improvement' ? 'good' : 'undecided';
    return {
      test, metric, call, verdict: v.verdict, level: v.level ?? null, ratio: v.ratio, ci: v.ci, mde: v.mde ?? null,
      instances: [v.base?.n ?? 0, v.candidate?.n ?? 0], ...(v.pairedRounds ? { pairedRounds: v.pairedRounds } : {}), reason: v.reason,
    };
  });
  const named = (/** @type {TargetEvidence[]} */ list) => list.map((e) => `${e.test} ${e.metric}`).join(', ');
  const undecided = evidence.filter((e) => e.call === 'undecided');
  if (undecided.length > 0) {
    const why = undecided.map((e) => `${e.test} ${e.metric}: ${describeUndecided(e)}`).join('; ');
    return { call: 'undecided', reason: `not enough evidence to call it good or bad (${why})`, evidence };
  }
  const bad = evidence.filter((e) => e.call === 'bad');
  if (bad.length === evidence.length) return { call: 'bad', reason: `regression at the issue level, as in the bad release: ${named(bad)}`, evidence };
  if (bad.length === 0) return { call: 'good', reason: `unchanged or better within the thresholds: ${named(evidence)}`, evidence };
  const good = evidence.filter((e) => e.call === 'good');
  return {
    call: 'undecided',
    reason: `the tests disagree: ${named(bad)} regressed, ${named(good)} did not; the regressions may come from different changes, so bisect them one at a time (--only)`,
    evidence,
  };
}

/**
 * @param {TargetEvidence} e an undecided target
 * @returns {string}
 */
function describeUndecided(e) {
  if (e.verdict === null) return e.reason;
  if (e.verdict === 'regression') return 'a regression below the issue level (smaller than the issue threshold, or the family-wise rule needs more instances)';
  if (e.verdict === 'failed') return `the test failed (${e.reason})`;
  const sample = e.pairedRounds ? `${e.pairedRounds} rounds, paired` : `${e.instances[0]} vs ${e.instances[1]} instances`;
  return `${e.verdict} with ${sample} (the interval spans the threshold)`;
}

/**
 * @typedef {object} SearchStep
 * @property {number} index the candidate probed (0-based, in candidate order)
 * @property {'good'|'bad'|'undecided'} call
 */

/**
 * @typedef {object} SearchOutcome
 * @property {'found'|'stopped'} status found: lastGood and firstBad are neighbours; stopped: a
 *   probe was undecided (or the search was interrupted) and the first bad one lies in between
 * @property {number} lastGood index of the last release known good, -1 = the good release
 * @property {number} firstBad index of the first release known bad, candidates.length = the bad release
 * @property {SearchStep[]} steps in the order they were probed
 */

/**
 * Binary search for the first bad candidate. `probe` is called with a candidate's index, one
 * at a time; the search stops at the first undecided probe, or when `shouldStop` says so
 * between probes (an interrupt).
 * @param {number} count number of candidates between the good and the bad release
 * @param {(index: number) => Promise<'good'|'bad'|'undecided'>} probe
 * @param {{shouldStop?: () => boolean}} [options]
 * @returns {Promise<SearchOutcome>}
 */
export async function searchFirstBad(count, probe, options = {}) {
  if (!Number.isInteger(count) || count < 0) throw new Error(`searchFirstBad: count must be a whole number, got ${count}`);
  let lastGood = -1;
  let firstBad = count;
  /** @type {SearchStep[]} */
  const steps = [];
  while (firstBad - lastGood > 1) {
    if (options.shouldStop?.()) return { status: 'stopped', lastGood, firstBad, steps };
    const index = nextProbe(lastGood, firstBad);
    const call = await probe(index);
    steps.push({ index, call });
    if (call === 'undecided') return { status: 'stopped', lastGood, firstBad, steps };
    if (call === 'good') lastGood = index;
    else firstBad = index;
  }
  return { status: 'found', lastGood, firstBad, steps };
}

/**
 * The candidate between the bounds to probe next: the middle one, the earlier of two middles.
 * @param {number} lastGood
 * @param {number} firstBad
 * @returns {number}
 */
export function nextProbe(lastGood, firstBad) {
  return Math.floor((lastGood + firstBad) / 2);
}

/**
 * The most probes a search over `count` candidates can take when every probe decides.
 * @param {number} count
 * @returns {number}
 */
export function maxProbes(count) {
  return count === 0 ? 0 : Math.ceil(Math.log2(count + 1));
}
