/**
 * Thresholds: defaults, and the lookup of the warn / issue levels of one test and metric.
 * Throughput uses its reporting group's levels (configs/thresholds.yml `groups`), every other
 * metric its `metrics` entry; `tests.<name>` overrides either, `tests.<name>.metrics.<metric>`
 * the other metrics of that test.
 */
import { UserError } from '../errors.js';

/** Defaults for keys thresholds.yml may leave out (documented in configs/thresholds.yml). */
export const THRESHOLD_DEFAULTS = Object.freeze({
  confidence: 0.9,
  power: 0.8,
  familyAlpha: 0.05,
  pairedMinRounds: 3,
  // Documented in configs/thresholds.yml (`functionFindings`), measured in bench/function-findings.md.
  functionFindings: Object.freeze({ alpha: 0.01, floorPerOp: 5, floorShare: 0.0002 }),
  qos: Object.freeze({ stallFraction: 0.5, minIntervals: 10 }),
  // apache-otava's own AnalysisOptions defaults
  changePoints: Object.freeze({ windowLen: 50, maxPValue: 0.001, minMagnitude: 0 }),
});

/**
 * Fill defaults into thresholds as loaded from configs/thresholds.yml (already schema-checked).
 * @param {import('../types.js').ThresholdsConfig & Record<string, any>} config
 * @param {string} [file] where it came from, for messages
 * @returns {import('./types.js').CompareThresholds}
 * @throws {UserError} when an issue level is below its warn level (listing every such entry), or
 *   the meters' shares of familyAlpha add up to more than 1
 */
export function resolveThresholds(config, file = 'configs/thresholds.yml') {
  /** @type {string[]} */
  const errors = [];
  /**
   * @param {string} path
   * @param {{warn?: number, issue?: number}|undefined} t
   */
  const check = (path, t) => {
    if (t?.warn !== undefined && t.issue !== undefined && t.issue < t.warn) errors.push(`'${path}': issue ${t.issue} is below warn ${t.warn}`);
  };
  for (const [k, v] of Object.entries(config.groups ?? {})) check(`groups.${k}`, v);
  for (const [k, v] of Object.entries(config.metrics ?? {})) check(`metrics.${k}`, v);
  for (const [k, v] of Object.entries(config.tests ?? {})) {
    check(`tests.${k}`, v);
    for (const [m, mv] of Object.entries(/** @type {any} */ (v).metrics ?? {})) check(`tests.${k}.metrics.${m}`, /** @type {any} */ (mv));
  }
  if (errors.length > 0) throw new UserError(`${file}: ${errors.join('; ')}. The issue level must be at least the warn level: raise issue or lower warn.`);
  // The schema checks each fraction and each meter's name; their sum is a fact of the whole map.
  // Above 1 the meters' levels would add up to more than familyAlpha: no longer a bound per run.
  const shares = Object.entries(config.familyAlphaShare ?? {});
  const sum = shares.reduce((s, [, v]) => s + v, 0);
  if (sum > 1 + 1e-9) {
    throw new UserError(`${file}: field 'familyAlphaShare' (${shares.map(([m, v]) => `${m}: ${v}`).join(', ')}) adds up to ${Number(sum.toFixed(6))}; the meters' shares of familyAlpha must add up to at most 1: lower some share.`);
  }
  return {
    confidence: config.confidence ?? THRESHOLD_DEFAULTS.confidence,
    power: config.power ?? THRESHOLD_DEFAULTS.power,
    familyAlpha: config.familyAlpha ?? THRESHOLD_DEFAULTS.familyAlpha,
    ...(shares.length > 0 ? { familyAlphaShare: Object.fromEntries(shares) } : {}),
    pairedMinRounds: config.pairedMinRounds ?? THRESHOLD_DEFAULTS.pairedMinRounds,
    functionFindings: { ...THRESHOLD_DEFAULTS.functionFindings, ...(config.functionFindings ?? {}) },
    groups: config.groups,
    tests: config.tests ?? {},
    metrics: config.metrics ?? {},
    qos: { ...THRESHOLD_DEFAULTS.qos, ...(config.qos ?? {}) },
    changePoints: { ...THRESHOLD_DEFAULTS.changePoints, ...(config.changePoints ?? {}) },
  };
}

/** What a confirmed regression of a test may do (thresholds.yml `tests.<name>.policy`). */
const ISSUE_POLICIES = Object.freeze(/** @type {const} */ (['open', 'note', 'ignore']));

/**
 * What a confirmed regression of a test does (thresholds.yml `tests.<name>.policy`): compare
 * stamps it on each verdict as `policy`. Also reads the thresholds stored in comparisons written
 * before verdicts carried it (findVerdictPolicy), which no schema checked for the key: a
 * missing or unknown value counts as the default, `open`, rather than silencing a regression.
 * @param {{tests?: Record<string, {policy?: unknown}>}|undefined} thresholds resolved
 *   (CompareThresholds) or as stored in a comparison (`tests` may be absent)
 * @param {string} test
 * @returns {import('./types.js').IssuePolicy}
 */
export function findPolicy(thresholds, test) {
  return knownPolicy(thresholds?.tests?.[test]?.policy);
}

/**
 * The issue policy of one stored verdict: the `policy` compare stamped on it, or, for a
 * comparison written before verdicts carried one, what its thresholds say for the test
 * (findPolicy), which is what that comparison's report read then. An unknown value counts as
 * `open`.
 * @param {{test: string, policy?: unknown}} verdict
 * @param {{tests?: Record<string, {policy?: unknown}>}|undefined} thresholds the comparison's
 * @returns {import('./types.js').IssuePolicy}
 */
export function findVerdictPolicy(verdict, thresholds) {
  return verdict.policy === undefined ? findPolicy(thresholds, verdict.test) : knownPolicy(verdict.policy);
}

/**
 * @param {unknown} policy
 * @returns {import('./types.js').IssuePolicy}
 */
function knownPolicy(policy) {
  return ISSUE_POLICIES.find((p) => p === policy) ?? 'open';
}

/**
 * @param {import('./types.js').CompareThresholds} thresholds
 * @param {string} test
 * @param {string} group
 * @param {string} metric
 * @returns {import('./types.js').LevelThreshold|null} null when the metric has no threshold
 *   (it is then not gated)
 * @throws {UserError} when the test's group has no throughput threshold
 */
export function findThreshold(thresholds, test, group, metric) {
  const override = thresholds.tests[test];
  if (metric === 'throughput') {
    const base = thresholds.groups[group];
    if (!base) {
      throw new UserError(`configs/thresholds.yml: no entry 'groups.${group}' for test '${test}'; groups defined: ${Object.keys(thresholds.groups).join(', ')}. Add '${group}: { warn: …, issue: … }' under groups.`);
    }
    return { ...base, ...pick(override) };
  }
  const base = thresholds.metrics[metric];
  if (!base) return null;
  return { ...base, ...pick(override?.metrics?.[metric]) };
}

/**
 * @param {Partial<import('./types.js').LevelThreshold>|undefined} o
 * @returns {Partial<import('./types.js').LevelThreshold>}
 */
function pick(o) {
  /** @type {Partial<import('./types.js').LevelThreshold>} */
  const out = {};
  if (o?.warn !== undefined) out.warn = o.warn;
  if (o?.issue !== undefined) out.issue = o.issue;
  if (o?.floor !== undefined) out.floor = o.floor;
  if (o?.minDurationS !== undefined) out.minDurationS = o.minDurationS;
  return out;
}
