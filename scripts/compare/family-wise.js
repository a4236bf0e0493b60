/**
 * What reaches a person is controlled over the whole run, not test by test: each gated verdict
 * gets an exact one-sided p-value for "the candidate is worse"; the run's family-wise level
 * (familyAlpha) is split between the meters that judge verdicts in it (Bonferroni: the shares add
 * up to at most familyAlpha, so the chance of any false issue in the run stays at most
 * familyAlpha), and Holm's step-down procedure within each meter, at its share, decides which
 * regressions may open an issue (docs/method.md, "Family-wise control"). Split, because one
 * Holm over every verdict let a meter with hundreds of nearly noise-free counters (the work
 * meter's 253 in the demo) set the level of the few noisy timed verdicts: each timed verdict
 * then needed p < 0.05 / 343 where 48 timed verdicts alone need 0.0167 / 48.
 *
 * The p-value is the exact Wilcoxon rank-sum (Mann–Whitney) test on instance-level values, with
 * mid-ranks for ties. Written here because no well-kept JavaScript library computes it exactly
 * with ties: the small npm Mann–Whitney packages use the normal approximation, which is wrong for
 * 3 to 10 values per side, and simple-statistics' permutation test draws random numbers (the
 * verdicts must be reproducible to the bit). Holm's adjustment comes from @stdlib/stats-padjust.
 */
import padjust from '@stdlib/stats-padjust';
import { computeMdeShift, shiftToChange } from './noise.js';

/** @typedef {import('./types.js').FullVerdict} FullVerdict */

/**
 * Exact one-sided p-value that `y` is shifted below `x` (P(W <= w) for W the sum of y's ranks in
 * the pooled sample), or above it with `direction: 'greater'`. Ties get mid-ranks and the null
 * distribution is that of the actual mid-ranks, so ties make the test conservative, never wrong.
 * @param {number[]} x first sample (base)
 * @param {number[]} y second sample (candidate)
 * @param {'less'|'greater'} direction alternative: y less than x, or greater
 * @returns {number|null} null when a side is empty
 */
export function computeRankSumP(x, y, direction) {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) return null;
  const pooled = [...x.map((v) => ({ v, y: false })), ...y.map((v) => ({ v, y: true }))].sort((a, b) => a.v - b.v);
  // Doubled mid-ranks are integers: exact counting over integer sums.
  /** @type {number[]} */
  const ranks2 = new Array(pooled.length);
  for (let i = 0; i < pooled.length;) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1].v === pooled[i].v) j++;
    for (let k = i; k <= j; k++) ranks2[k] = i + j + 2;
    i = j + 1;
  }
  const observed = pooled.reduce((s, p, i) => (p.y ? s + ranks2[i] : s), 0);
  // counts[k][s] = number of k-subsets of the items seen so far whose doubled ranks sum to s
  const maxSum = ranks2.reduce((a, b) => a + b, 0);
  /** @type {Float64Array[]} */
  const counts = Array.from({ length: n + 1 }, (_, k) => {
    const row = new Float64Array(maxSum + 1);
    if (k === 0) row[0] = 1;
    return row;
  });
  let reach = 0; // largest sum reachable so far
  for (const [i, r] of ranks2.entries()) {
    // In place, larger k first: each item joins a subset at most once (0/1 knapsack order).
    for (let k = Math.min(n, i + 1); k >= 1; k--) {
      const from = counts[k - 1];
      const to = counts[k];
      for (let s = reach; s >= 0; s--) if (from[s] !== 0) to[s + r] += from[s];
    }
    reach += r;
  }
  const dist = counts[n];
  let total = 0;
  let tail = 0;
  for (let s = 0; s <= maxSum; s++) {
    total += dist[s];
    if (direction === 'less' ? s <= observed : s >= observed) tail += dist[s];
  }
  return tail / total;
}

/**
 * Holm-adjusted p-values (each the smallest family-wise level at which that hypothesis is
 * rejected by Holm's step-down procedure).
 * @param {number[]} pValues
 * @returns {number[]} same order
 */
export function adjustHolm(pValues) {
  if (pValues.length === 0) return [];
  return /** @type {number[]} */ (padjust(pValues, 'holm'));
}

/**
 * Smallest number of instances per side for which the exact rank-sum test can reach a
 * one-sided p-value of `alpha` at all (the most extreme ranking has probability 1 / C(2n, n)).
 * @param {number} alpha
 * @returns {number}
 */
export function minInstancesFor(alpha) {
  let n = 1;
  let c = 2; // C(2, 1)
  while (1 / c > alpha && n < 100) {
    n++;
    c = (c * (2 * n) * (2 * n - 1)) / (n * n);
  }
  return n;
}

/**
 * Each meter's level: familyAlpha times its share. A share set in thresholds.yml
 * (familyAlphaShare) holds as set; the meters present without one split what the listed ones
 * present leave, equally (with no share set anywhere: equal shares of familyAlpha). The levels
 * add up to at most familyAlpha (Bonferroni across meters: the chance that any meter raises a
 * false issue is at most the sum of their levels).
 * @param {string[]} meters the meters that judge verdicts in the run, each once
 * @param {number} alpha familyAlpha
 * @param {Record<string, number>} [shares] thresholds.yml familyAlphaShare: meter -> fraction,
 *   validated on load (fractions in (0, 1], sum at most 1)
 * @returns {Map<string, number>} meter -> its level (0 when the listed meters left nothing)
 */
export function splitFamilyAlpha(meters, alpha, shares = {}) {
  const listed = meters.filter((m) => Object.hasOwn(shares, m));
  const unlisted = meters.length - listed.length;
  const left = Math.max(0, 1 - listed.reduce((sum, m) => sum + shares[m], 0));
  return new Map(meters.map((m) => [m, alpha * (Object.hasOwn(shares, m) ? shares[m] : left / unlisted)]));
}

/**
 * The run's family-wise control: every verdict with a p-value is a member of its meter's family
 * (the timed repeats' own figures are the meter the records name for them, ownMeter); each
 * meter's family gets its level (splitFamilyAlpha) and Holm within it sets pAdjusted,
 * pAdjustedBetter and mdeIssue on every member and keeps a regression or improvement at the
 * issue level only when its adjusted p-value is at most that level, else turns it to warn and
 * says why (mutates `tests`).
 * @param {FullVerdict[]} tests
 * @param {{familyAlpha: number, power: number, familyAlphaShare?: Record<string, number>}} thresholds
 * @param {string|null} ownMeter the meter of the verdicts without one (null: the records name none)
 * @returns {import('../types.js').FamilyControl}
 */
export function applyFamilyControl(tests, thresholds, ownMeter) {
  const members = tests.filter((t) => t.pWorse !== null && t.pWorse !== undefined);
  /** @type {Map<string, FullVerdict[]>} */
  const byMeter = new Map();
  for (const t of members) {
    const meter = t.meter ?? ownMeter ?? '';
    byMeter.set(meter, [...(byMeter.get(meter) ?? []), t]);
  }
  const levels = splitFamilyAlpha([...byMeter.keys()], thresholds.familyAlpha, thresholds.familyAlphaShare);
  const meters = [...byMeter].map(([meter, verdicts]) => {
    const alpha = /** @type {number} */ (levels.get(meter));
    const minInstances = holdWithin(verdicts, { alpha, familyAlpha: thresholds.familyAlpha, power: thresholds.power, name: meter ? `meter ${meter}` : 'the timed repeats\' own figures' });
    return { meter: meter || null, share: alpha / thresholds.familyAlpha, alpha, size: verdicts.length, minInstances };
  });
  // The strictest floor of any meter: what an unpaired verdict of the run may need at most.
  const minInstances = Math.max(minInstancesFor(thresholds.familyAlpha / Math.max(1, members.length)), ...meters.map((m) => m.minInstances));
  return { method: 'holm', alpha: thresholds.familyAlpha, size: members.length, minInstances, meters };
}

/**
 * Holm's procedure over one meter's verdicts at its level (see applyFamilyControl).
 * @param {FullVerdict[]} verdicts
 * @param {{alpha: number, familyAlpha: number, power: number, name: string}} at the meter's
 *   level, the run's, the power of the issue-level detectable change, the meter in words
 * @returns {number} instances per side the exact test needs before it can reach alpha / size
 */
function holdWithin(verdicts, { alpha, familyAlpha, power, name }) {
  const adjusted = adjustHolm(verdicts.map((t) => /** @type {number} */ (t.pWorse)));
  const adjustedBetter = adjustHolm(verdicts.map((t) => t.pBetter ?? 1));
  const minInstances = minInstancesFor(alpha / verdicts.length);
  verdicts.forEach((t, i) => {
    t.pAdjusted = adjusted[i];
    t.pAdjustedBetter = adjustedBetter[i];
    t.mdeIssue = issueMde(t, alpha / verdicts.length, power, minInstances);
    const held = t.level === 'issue' && ((t.verdict === 'regression' && adjusted[i] > alpha) || (t.verdict === 'improvement' && adjustedBetter[i] > alpha));
    if (!held) return;
    const p = t.verdict === 'regression' ? adjusted[i] : adjustedBetter[i];
    t.level = 'warn';
    // One meter alone holds the whole level: then its family is the run's.
    const family = alpha === familyAlpha ? `the run's ${verdicts.length} gated verdicts is above ${formatP(alpha)}`
      : alpha === 0 ? `the ${verdicts.length} gated verdicts of ${name}: the meter has no share of the run's family-wise ${formatP(familyAlpha)} (thresholds.yml familyAlphaShare gives the others all of it)`
        : `the ${verdicts.length} gated verdicts of ${name} is above ${formatP(alpha)}, its share of the run's family-wise ${formatP(familyAlpha)}`;
    t.reason += `. Not an issue: Holm-adjusted p ${formatP(p)} over ${family}`
      + (t.pairedRounds
        ? ` (paired over ${t.pairedRounds} rounds; more rounds narrow it)`
        : ` (the exact test needs at least ${minInstances} instances per side for that; ${t.base?.n ?? 0} vs ${t.candidate?.n ?? 0} so far)`);
  });
  return minInstances;
}

/**
 * The detectable change at the level an issue needs: one-sided at the meter's alpha / size
 * (Holm's first step, the strictest), at the configured power, from the verdict's own noise and df.
 * @param {FullVerdict} t
 * @param {number} level one-sided
 * @param {number} power
 * @param {number} minInstances below this the exact test cannot reach the level at all (an
 *   unpaired verdict; a paired one has no such floor)
 * @returns {number|null} null when no change can reach the level (a meter left no share, too few instances)
 */
function issueMde(t, level, power, minInstances) {
  const m = t.base?.n ?? 0;
  const n = t.candidate?.n ?? 0;
  // The paired t test has no floor on its p-value; the exact rank-sum test does.
  if (level <= 0 || t.noiseCv === null || !t.noiseDf || (!t.pairedRounds && Math.min(m, n) < minInstances)) return null;
  const shift = computeMdeShift(t.noiseCv, m, n, 1 - 2 * level, power, t.noiseDf);
  if (shift === null) return null;
  return t.scale === 'log' ? shiftToChange(shift, t.higherIsBetter ? 'drop' : 'rise') : shift;
}

/** @param {number} p */
function formatP(p) {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
