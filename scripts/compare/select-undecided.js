/**
 * Which tests of a comparison more server instances could decide (the adaptive repeats of
 * `tagbench compare --adaptive` run just these). Pure.
 *
 * A verdict is undecided when it is
 *   - inconclusive and its detectable effect is larger than its issue threshold (more instances
 *     narrow the interval; an inconclusive verdict whose MDE is already below the threshold is
 *     a change of about the threshold's size, which more instances would only confirm slowly), or
 *   - a regression past the issue threshold that Holm's step kept at the warn level (the exact
 *     test needs more instances before it can reach the family-wise level).
 * The adaptive rounds are timed rounds: a counting meter's verdicts (`counted`: instructions per
 * op) are never undecided here; their rounds are the run's own.
 */

/** @typedef {import('./types.js').FullVerdict} FullVerdict */

/**
 * @param {FullVerdict} t
 * @returns {boolean}
 */
export function isUndecided(t) {
  // A counting meter's verdict (compareRuns marks it): more timed instances never decide it.
  if (t.counted) return false;
  if (t.verdict === 'inconclusive') return t.mde !== null && t.mde > t.threshold.issue;
  if (t.verdict === 'regression' && t.level === 'warn') {
    const past = t.scale === 'linear'
      ? Math.abs(t.difference ?? 0) >= t.threshold.issue
      : t.ratio !== null && Math.abs(Math.log(t.ratio)) >= Math.abs(Math.log1p(t.higherIsBetter ? -t.threshold.issue : t.threshold.issue));
    return past;
  }
  return false;
}

/**
 * @param {import('./types.js').FullComparison} comparison
 * @param {{maxInstances: number}} limits stop extending a test once both sides have this many
 * @returns {{tests: string[], undecided: FullVerdict[]}} tests most promising first, each once
 */
export function selectUndecided(comparison, limits) {
  const undecided = comparison.tests.filter(isUndecided);
  const room = undecided.filter((t) => Math.min(t.base?.n ?? 0, t.candidate?.n ?? 0) < limits.maxInstances);
  // When the budget cannot take every test, the most promising go first: regressions Holm held
  // back (an issue may be waiting), then the inconclusive verdicts with the smallest MDE
  // relative to their threshold (closest to being settled either way).
  const rank = (/** @type {FullVerdict} */ t) => (t.verdict === 'regression' ? -1 : (t.mde ?? Infinity) / t.threshold.issue);
  const ordered = [...room].sort((a, b) => rank(a) - rank(b));
  return { tests: [...new Set(ordered.map((t) => t.test))], undecided };
}
