/**
 * Findings per function, below the total's threshold: the per-function profiles of the counted
 * rounds of one test, judged function by function. Pure.
 *
 * Why: the counted meter resolves far less than its thresholds. A cost of 0.1 % of a point select
 * added in one function is a 0.1 % move of the test's total, under every warn level, but it is a
 * new function (or +5 % of one) in the profile. A function is a finding when, paired by round
 * (each round's two server processes ran side by side: the same events, the same seed), its self
 * or its inclusive instructions per operation rose in the candidate beyond its own noise across
 * the rounds, by at least the floor; one that appeared (no row in any base round) is judged the
 * same way. Findings never open an issue: they are listed, with their size.
 *
 * The test: a paired t over the rounds' differences (compare/paired-shift.js, as the totals use),
 * one-sided, at `alpha` divided by the number of functions and measures judged in the test
 * (Bonferroni: a test judges hundreds of functions, and a finding per run in every A/A run would
 * make the list worthless). The floor, max(floorPerOp, floorShare × the test's total), keeps
 * tiny functions from flooding the list: counts of background threads move by a few
 * instructions per operation between two servers of one release (bench/function-findings.md).
 *
 * A function missing from a round's profile ran below that profile's cut (its minShare of the
 * total) or not at all: it counts 0 there, and its rise must clear the floor even with the base's
 * missing rounds taken at the cut (the most they can hide), so a rise is never made up by the cut.
 *
 * Inclusive counts nest: a callee's rise lifts every caller's inclusive count up to the thread's
 * start. A function whose self count did not rise is a finding by its inclusive count only when
 * that rise is not already explained by the self findings and by inclusive findings of functions
 * with a smaller inclusive count (callees come before callers): the deepest named function that
 * carries a rise of code without a name (Debian binaries name only exported functions).
 */
import { computePairedShift } from './paired-shift.js';
import { OTHER } from './function-diff.js';
import { THRESHOLD_DEFAULTS } from './thresholds.js';

/** @typedef {import('./function-diff.js').CompactProfile} CompactProfile */

/** How callgrind names a function without a symbol: its address, which no reader can use. */
const ADDRESS = /^0x[0-9a-fA-F]+$/;

/**
 * @typedef {object} FunctionFindingSettings configs/thresholds.yml `functionFindings`
 * @property {number} alpha one-sided level per test, split over every function and measure it
 *   judges (Bonferroni)
 * @property {number} floorPerOp smallest rise, in instructions per operation, that is a finding
 * @property {number} floorShare smallest rise as a share of the test's total (0.0002 = 0.02 %)
 * @property {number} confidence two-sided confidence of the interval shown with each finding
 */

/**
 * @typedef {object} ProfileRound the two releases' profiles of one round of one test
 * @property {CompactProfile} base
 * @property {CompactProfile} candidate
 */

/** @typedef {import('../types.js').FunctionRise} FunctionRise */
/** @typedef {import('../types.js').FunctionFinding} FunctionFinding */
/** @typedef {import('../types.js').TestFunctionFindings} TestFunctionFindings */

/**
 * Judge one test's per-function profiles, round by round.
 * @param {ProfileRound[]} rounds one pair per round in which both releases have a profile
 * @param {Partial<FunctionFindingSettings>} given what thresholds.yml (or a stored comparison's
 *   thresholds) says; the rest from THRESHOLD_DEFAULTS
 * @returns {TestFunctionFindings|null} null with fewer than 2 rounds (no spread to judge against)
 */
export function judgeFunctionProfiles(rounds, given) {
  if (rounds.length < 2) return null;
  /** @type {FunctionFindingSettings} */
  const settings = { ...THRESHOLD_DEFAULTS.functionFindings, confidence: THRESHOLD_DEFAULTS.confidence,
    // A key a stored comparison lacks comes as undefined: the default stands then.
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  const totalPerOp = testTotal(rounds.map((r) => r.base));
  const floorPerOp = Math.max(settings.floorPerOp, settings.floorShare * totalPerOp);
  const series = functionSeries(rounds);
  // Two measures of every named function: the split of alpha is over all of them.
  const alphaEach = settings.alpha / Math.max(1, 2 * series.size);
  /** @type {FunctionFinding[]} */
  const selfFindings = [];
  /** @type {{finding: FunctionFinding, inclusiveBasePerOp: number}[]} */
  const inclusiveOnly = [];
  for (const s of series.values()) {
    const self = rise(s.self, settings.confidence);
    const inclusive = rise(s.inclusive, settings.confidence);
    const finding = (/** @type {'self'|'inclusive'} */ measure, /** @type {FunctionRise} */ r) => ({
      name: s.name, object: s.object, kind: s.appeared ? 'appeared' : 'rose', measure, self, inclusive,
      deltaPerOp: r.deltaPerOp,
      shareOfFunction: s.appeared || r.basePerOp <= 0 ? null : r.deltaPerOp / r.basePerOp,
      shareOfTotal: totalPerOp > 0 ? r.deltaPerOp / totalPerOp : 0,
    });
    if (isRise(self, alphaEach, floorPerOp)) selfFindings.push(/** @type {FunctionFinding} */ (finding('self', self)));
    else if (isRise(inclusive, alphaEach, floorPerOp)) inclusiveOnly.push({ finding: /** @type {FunctionFinding} */ (finding('inclusive', inclusive)), inclusiveBasePerOp: inclusive.basePerOp });
  }
  const findings = [...selfFindings, ...unexplainedInclusive(selfFindings, inclusiveOnly, floorPerOp)];
  findings.sort((a, b) => b.deltaPerOp - a.deltaPerOp || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { rounds: rounds.length, judged: series.size, totalPerOp, floorPerOp, findings };
}

/**
 * Inclusive-only rises not explained by what is already named: callees (smaller inclusive
 * counts) first, each kept when its rise exceeds the named rises so far by at least the floor.
 * A heuristic without the call graph (the compact profile keeps none): rises that nest add up
 * to the deepest one's, so its callers are explained by it.
 * @param {FunctionFinding[]} selfFindings
 * @param {{finding: FunctionFinding, inclusiveBasePerOp: number}[]} candidates
 * @param {number} floorPerOp
 * @returns {FunctionFinding[]}
 */
function unexplainedInclusive(selfFindings, candidates, floorPerOp) {
  let named = selfFindings.reduce((sum, f) => sum + f.deltaPerOp, 0);
  const kept = [];
  for (const c of [...candidates].sort((a, b) => a.inclusiveBasePerOp - b.inclusiveBasePerOp)) {
    if (c.finding.deltaPerOp - named < floorPerOp) continue;
    kept.push(c.finding);
    // Taken as apart from what was named before (the larger sum): a caller must then rise by
    // more than all of them to be named too. Without the call graph, fewer names, never more.
    named += c.finding.deltaPerOp;
  }
  return kept;
}

/**
 * @param {FunctionRise} r
 * @param {number} alphaEach
 * @param {number} floorPerOp
 */
function isRise(r, alphaEach, floorPerOp) {
  // The least the rise can be must clear the floor: a profile's cut never makes up a finding.
  return r.leastPerOp >= floorPerOp && r.pGreater < alphaEach;
}

/**
 * @typedef {object} Series one named function's values in every round
 * @property {string} name
 * @property {string} object
 * @property {boolean} appeared no base round has a row for it
 * @property {{base: number, candidate: number, baseAtCut: number}[]} self per round
 * @property {{base: number, candidate: number, baseAtCut: number}[]} inclusive per round
 */

/**
 * Every named function of either side, with its value in each round (0 where a round has no row;
 * baseAtCut: the base's value with a missing row at that profile's cut).
 * @param {ProfileRound[]} rounds
 * @returns {Map<string, Series>}
 */
function functionSeries(rounds) {
  /** @type {Map<string, Series>} */
  const out = new Map();
  const indexed = rounds.map((r) => ({ base: byKey(r.base), candidate: byKey(r.candidate), baseCut: (r.base.minShare ?? 0) * r.base.totalPerOp }));
  for (const r of indexed) {
    for (const [key, f] of [...r.base, ...r.candidate]) {
      if (out.has(key) || f.name === OTHER || ADDRESS.test(f.name)) continue;
      const at = (/** @type {'selfPerOp'|'inclusivePerOp'} */ field) => indexed.map((x) => {
        const b = x.base.get(key);
        return { base: b?.[field] ?? 0, candidate: x.candidate.get(key)?.[field] ?? 0, baseAtCut: b ? b[field] : x.baseCut };
      });
      out.set(key, { name: f.name, object: f.object, appeared: indexed.every((x) => !x.base.has(key)), self: at('selfPerOp'), inclusive: at('inclusivePerOp') });
    }
  }
  return out;
}

/**
 * @param {CompactProfile} p
 * @returns {Map<string, CompactProfile['functions'][number]>}
 */
function byKey(p) {
  return new Map(p.functions.map((f) => [`${f.object}\t${f.name}`, f]));
}

/**
 * The rise of one measure: its size and its test from the rounds' differences, a missing row at 0
 * (as the function diff counts it), and the least it can be, with the base's missing rows at
 * their cut. Why not test the least rise itself: the cut is a share of each round's total, which
 * background threads move by up to 12 % between processes; that spread is the cut's, not the
 * function's, and would hide a function that appeared in every round.
 * @param {{base: number, candidate: number, baseAtCut: number}[]} values
 * @param {number} confidence
 * @returns {FunctionRise}
 */
function rise(values, confidence) {
  const shift = /** @type {import('./paired-shift.js').PairedShift} */ (computePairedShift(values.map((v) => [v.base, v.candidate]), confidence, 'difference'));
  return {
    basePerOp: round(mean(values.map((v) => v.base))),
    candidatePerOp: round(mean(values.map((v) => v.candidate))),
    deltaPerOp: round(shift.estimate),
    leastPerOp: round(mean(values.map((v) => v.candidate - v.baseAtCut))),
    interval: [round(shift.lo), round(shift.hi)],
    pGreater: shift.pGreater,
  };
}

/**
 * The test's total the shares are of: the gated figure, the query path's instructions per
 * operation, when every base round has it; else the whole process's.
 * @param {CompactProfile[]} profiles
 */
function testTotal(profiles) {
  const paths = profiles.map((p) => p.queryPathPerOp);
  return round(paths.every((v) => typeof v === 'number') ? mean(/** @type {number[]} */ (paths)) : mean(profiles.map((p) => p.totalPerOp)));
}

/** @param {number[]} xs */
function mean(xs) {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** @param {number} v */
function round(v) {
  return Math.round(v * 100) / 100;
}
