/**
 * Compare a candidate release with a base release: one verdict per reported test and gated
 * metric, from every valid repeat of every run record that stands for each release; and which
 * release is the base of a compare. Pure: records and thresholds in, a Comparison out (the
 * clock is an input).
 */
import { median, sampleStandardDeviation } from 'simple-statistics';
import { formatValue } from '../format-number.js';
import { adjustHolm, minInstancesFor } from './family-wise.js';
import { poolNoise, computeMdeShift, shiftToChange } from './noise.js';
import { UserError } from '../errors.js';
import { METRICS, explainMixedScope } from './metrics.js';
import { findPolicy, findThreshold } from './thresholds.js';
import { computeQos } from './qos.js';
import { classifyMetric } from './classify-metric.js';
import { summarizeRocksdb } from './rocksdb-summary.js';
import { pairByRound } from './paired-shift.js';
import { runGroupKey } from '../run-id.js';
import { withoutWarmup } from './warm-up.js';
import { coarsestResolution, explainQuantized } from './latency-resolution.js';

/** @typedef {import('./types.js').FullVerdict} FullVerdict */
/** @typedef {import('../types.js').Step} Step */

/**
 * @param {import('./types.js').CompareInput} input
 * @returns {import('./types.js').FullComparison}
 * @throws {UserError} when a side has no record, or the records are of different host classes,
 *   suites or products, or a test's group has no threshold
 */
export function compareRuns(input) {
  const { base, candidate, thresholds } = input;
  for (const side of [base, candidate]) {
    if (side.records.length === 0) throw new UserError(`no run record for ${side.version}: run \`tagbench run\` for it first, or check --store / --host-class / --suite`);
  }
  const first = candidate.records[0];
  for (const r of [...base.records, ...candidate.records]) {
    for (const [what, a, b] of /** @type {const} */ ([['host class', r.host.class, first.host.class], ['suite', r.config.suite, first.config.suite], ['product', r.release.product, first.release.product]])) {
      if (a !== b) throw new UserError(`run record ${r.id} has ${what} '${a}' but ${first.id} has '${b}': compare only records of one ${what}`);
    }
  }
  /** @type {FullVerdict[]} */
  const tests = [];
  /** @type {{test: string, metric: string, reason: string}[]} */
  const notJudged = [];
  /** @type {import('../types.js').WarmupExclusion[]} */
  const warmups = [];
  for (const { name, group } of listTests(candidate.records, base.records)) {
    for (const meter of metersOf(METRICS)) {
    const b = collectSide(base.records, name, meter);
    const c = collectSide(candidate.records, name, meter);
    // Once per test: the counters meter reads the same timed repeats.
    const warmup = meter === 'wall' ? summarizeWarmups(name, b.warmups, c.warmups) : null;
    if (warmup) warmups.push(warmup);
    // A meter neither side measured this test with: no verdicts of its metrics, not a failure.
    if ((b.missing && c.missing) || (meter !== 'wall' && (b.missing || c.missing))) continue;
    const firstMetric = METRICS.find((m) => (m.meter ?? 'wall') === meter)?.name;
    const failure = c.failedIn.length > 0 ? `candidate ${candidate.version}: step failed in run ${c.failedIn.join(', ')}${c.reason ? `: ${c.reason}` : ''}` : b.repeats.length === 0 ? `base ${base.version}: no valid repeat${b.reason ? ` (${b.reason})` : b.missing ? ' (test not in its runs)' : ''}` : c.repeats.length === 0 ? `candidate ${candidate.version}: no valid repeat${c.missing ? ' (test not in its runs)' : ''}` : null;
    for (const metric of METRICS.filter((m) => (m.meter ?? 'wall') === meter)) {
      const threshold = findThreshold(thresholds, name, group, metric.name);
      if (!threshold) continue;
      // One failed verdict per test and meter: on its first gated metric.
      if (failure && metric.name !== firstMetric) continue;
      const bi = instanceValues(b, metric, thresholds.qos);
      const ci = instanceValues(c, metric, thresholds.qos);
      const bv = bi && bi.map((x) => x.value);
      const cv = ci && ci.map((x) => x.value);
      if (!failure) {
        // not measured (no efficiency sampler, too few per-second samples): not gated, no verdict
        if (!bv || !cv || bv.length === 0 || cv.length === 0) continue;
        const skip = explainMixedScope(metric, [...b.repeats, ...c.repeats]) ?? explainNotJudged(metric, threshold, bv, cv, [...b.repeats, ...c.repeats]);
        if (skip) {
          notJudged.push({ test: name, metric: metric.name, reason: skip });
          continue;
        }
      }
      // A figure the driver reports in coarse steps is judged at its resolution, or not at all.
      const resolution = !failure && metric.resolution ? coarsestResolution([...b.repeats, ...c.repeats], stepKind([...candidate.records, ...base.records], name), metric.resolution) : null;
      if (resolution) {
        const quantized = explainQuantized(resolution, threshold.issue);
        if (quantized) {
          notJudged.push({ test: name, metric: metric.name, reason: quantized });
          continue;
        }
      }
      // Releases that ran side by side, round by round, are compared round by round.
      const pairs = failure || !bi || !ci || thresholds.pairedMinRounds === 0 ? null : pairByRound(bi, ci);
      const paired = pairs !== null && pairs.length >= thresholds.pairedMinRounds ? pairs : null;
      const classified = classifyMetric({
        metric, threshold, base: bv ?? [], candidate: cv ?? [], confidence: thresholds.confidence, power: thresholds.power, failure,
        history: input.noiseHistory?.[`${name}|${metric.name}${paired ? '|paired' : ''}`] ?? null,
        pairs: paired,
        resolution,
      });
      tests.push({
        test: name,
        group,
        metric: metric.name,
        unit: metric.unit,
        scale: metric.scale,
        higherIsBetter: metric.higherIsBetter,
        threshold: { warn: threshold.warn, issue: threshold.issue },
        // Saved with the verdict, like its thresholds: the report acts on what produced it.
        policy: findPolicy(thresholds, name),
        ...classified,
        ...(resolution ? { resolutionMs: resolution.stepMs } : {}),
      });
    }
    }
  }
  // A confirmation rerun replicates regressions the run's family-wise rule already let through:
  // it is judged test by test (its own chance of agreeing by accident multiplies in).
  const family = input.familyControl === false ? undefined : applyFamilyControl(tests, thresholds.familyAlpha, thresholds.power);
  /** @type {Record<import('../types.js').VerdictClass, number>} */
  const summary = { regression: 0, improvement: 0, unchanged: 0, inconclusive: 0, failed: 0 };
  for (const t of tests) summary[t.verdict]++;
  const rocksdb = summarizeRocksdb(base.records, candidate.records, listTests(candidate.records, base.records).map((t) => t.name));
  return {
    schemaVersion: 1,
    createdAt: input.createdAt,
    hostClass: first.host.class,
    suite: first.config.suite,
    product: first.release.product,
    line: first.release.line,
    base: { version: base.version, runIds: base.records.map((r) => r.id) },
    candidate: { version: candidate.version, runIds: candidate.records.map((r) => r.id) },
    thresholds: /** @type {any} */ (thresholds),
    tests,
    summary,
    ...(family ? { family } : {}),
    notJudged,
    ...(warmups.length > 0 ? { warmups } : {}),
    // Beside the verdicts, outside their family: MyRocks servers' write amplification and stalls.
    ...(rocksdb.length > 0 ? { rocksdb } : {}),
  };
}

/**
 * One value per server instance of a side: the median of that instance's repeats (repeats of one
 * process share its memory layout and warm-up, so they are not independent evidence), with the
 * instance's round key (its run's and its round's, shared with the other releases of that run).
 * @param {ReturnType<typeof collectSide>} side
 * @param {import('./types.js').MetricDef} metric
 * @param {import('./types.js').QosOptions} qosOptions
 * @returns {{key: string|null, value: number}[]|null} null when the metric is not measured on this side
 */
function instanceValues(side, metric, qosOptions) {
  /** @type {Map<string, {key: string|null, values: number[]}>} */
  const byInstance = new Map();
  for (const [i, r] of side.repeats.entries()) {
    const qos = metric.qos ? computeQos(r.intervals ?? [], qosOptions) : null;
    if (metric.qos && (!qos || qos.seconds < qosOptions.minIntervals)) return null;
    const v = metric.value(r, qos);
    if (v === null) continue;
    const instance = byInstance.get(side.instanceKeys[i]) ?? { key: side.roundKeys[i], values: [] };
    instance.values.push(v);
    byInstance.set(side.instanceKeys[i], instance);
  }
  return [...byInstance.values()].map(({ key, values }) => ({ key, value: median(values) }));
}

/**
 * Why a gated metric is left unjudged, or null to judge it: a base below the metric's floor;
 * for a metric with a floor, a base within noise of zero (its median less than 2 sd of its
 * instances from zero: a ratio of such values says nothing); repeats shorter than the metric's
 * minimum window.
 * @param {import('./types.js').MetricDef} metric
 * @param {import('./types.js').LevelThreshold} threshold
 * @param {number[]} base instance values
 * @param {number[]} candidate instance values
 * @param {import('../types.js').Repeat[]} repeats both sides' repeats
 * @returns {string|null}
 */
function explainNotJudged(metric, threshold, base, candidate, repeats) {
  const fmt = (/** @type {number} */ v) => `${formatValue(v)} ${metric.unit}`;
  const mb = median(base);
  const mc = median(candidate);
  if (threshold.minDurationS !== undefined) {
    const shortest = Math.min(...repeats.map((r) => r.durationS));
    if (shortest < threshold.minDurationS) {
      return `repeats of ${Number(shortest.toFixed(1))} s are shorter than the ${threshold.minDurationS} s this metric needs (base ${fmt(mb)}, candidate ${fmt(mc)})`;
    }
  }
  if (threshold.floor !== undefined && mb < threshold.floor) {
    return `base median ${fmt(mb)} is below the floor ${fmt(threshold.floor)} (candidate ${fmt(mc)})`;
  }
  // Only metrics that can sit near zero (those with a floor: per-op figures) are checked; a
  // noisy throughput is inconclusive, not "near zero".
  if (threshold.floor !== undefined && base.length >= 2) {
    const sd = sampleStandardDeviation(base);
    if (mb < 2 * sd) return `base median ${fmt(mb)} is within 2 sd (${fmt(sd)}) of zero: too noisy for a ratio (candidate ${fmt(mc)})`;
  }
  return null;
}

/**
 * What the warm-up rule left out of one test's repeats, or null when it left out nothing.
 * @param {string} test
 * @param {(import('./warm-up.js').Warmup|null)[]} base per valid repeat of the base
 * @param {(import('./warm-up.js').Warmup|null)[]} candidate
 * @returns {import('../types.js').WarmupExclusion|null}
 */
function summarizeWarmups(test, base, candidate) {
  const all = [...base, ...candidate];
  if (!all.some((w) => w !== null)) return null;
  const seconds = (/** @type {(import('./warm-up.js').Warmup|null)[]} */ list) => list.map((w) => w?.excludedS ?? 0);
  return { test, base: seconds(base), candidate: seconds(candidate), stillRamping: all.filter((w) => w?.stillRamping).length };
}

/**
 * Holm's procedure over every gated verdict that has a p-value: a regression keeps the issue
 * level only when its adjusted p-value is at most alpha; otherwise it stays a warning and says
 * how many instances the exact test needs. Sets pAdjusted on every verdict (mutates `tests`).
 * @param {FullVerdict[]} tests
 * @param {number} alpha
 * @param {number} power for the issue-level detectable effect
 * @returns {import('../types.js').FamilyControl}
 */
function applyFamilyControl(tests, alpha, power) {
  const members = tests.filter((t) => t.pWorse !== null && t.pWorse !== undefined);
  const adjusted = adjustHolm(members.map((t) => /** @type {number} */ (t.pWorse)));
  const adjustedBetter = adjustHolm(members.map((t) => t.pBetter ?? 1));
  const minInstances = minInstancesFor(alpha / Math.max(1, members.length));
  members.forEach((t, i) => {
    t.pAdjusted = adjusted[i];
    t.pAdjustedBetter = adjustedBetter[i];
    t.mdeIssue = issueMde(t, alpha / members.length, power, minInstances);
    const held = t.level === 'issue' && ((t.verdict === 'regression' && adjusted[i] > alpha) || (t.verdict === 'improvement' && adjustedBetter[i] > alpha));
    if (held) {
      const p = t.verdict === 'regression' ? adjusted[i] : adjustedBetter[i];
      t.level = 'warn';
      t.reason += `. Not an issue: Holm-adjusted p ${formatP(p)} over the run's ${members.length} gated verdicts is above ${formatP(alpha)}`
        + (t.pairedRounds
          ? ` (paired over ${t.pairedRounds} rounds; more rounds narrow it)`
          : ` (the exact test needs at least ${minInstances} instances per side for that; ${t.base?.n ?? 0} vs ${t.candidate?.n ?? 0} so far)`);
    }
  });
  return { method: 'holm', alpha, size: members.length, minInstances };
}

/**
 * The detectable change at the level an issue needs: one-sided at alpha / size (Holm's first
 * step, the strictest), at the configured power, from the verdict's own noise and df.
 * @param {FullVerdict} t
 * @param {number} level one-sided
 * @param {number} power
 * @param {number} minInstances below this the exact test cannot reach the level at all (an
 *   unpaired verdict; a paired one has no such floor)
 * @returns {number|null}
 */
function issueMde(t, level, power, minInstances) {
  const m = t.base?.n ?? 0;
  const n = t.candidate?.n ?? 0;
  // The paired t test has no floor on its p-value; the exact rank-sum test does.
  if (t.noiseCv === null || !t.noiseDf || (!t.pairedRounds && Math.min(m, n) < minInstances)) return null;
  const shift = computeMdeShift(t.noiseCv, m, n, 1 - 2 * level, power, t.noiseDf);
  if (shift === null) return null;
  return t.scale === 'log' ? shiftToChange(shift, t.higherIsBetter ? 'drop' : 'rise') : shift;
}

/** @param {number} p */
function formatP(p) {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/**
 * Noise of every test and metric on a host class, pooled over earlier runs: within each run and
 * release, the spread of its instance values (transformed: ln for log metrics). Feeds the
 * detectable effect of a comparison (CompareInput.noiseHistory). Pure.
 * @param {import('../types.js').RunRecord[]} records earlier records of one host class and suite
 * @param {import('./types.js').CompareThresholds} thresholds
 * @returns {Record<string, {sd: number, df: number}>} by `test|metric`, and by
 *   `test|metric|paired` the noise a comparison paired by round sees (per side: sd of the
 *   round's difference / √2)
 */
export function estimateNoiseHistory(records, thresholds) {
  /** @type {Map<string, number[][]>} */
  const groups = new Map();
  for (const record of records) {
    for (const { name } of listTests([record], [])) {
      const side = collectSide([record], name);
      if (side.repeats.length < 2) continue;
      for (const metric of METRICS) {
        const values = instanceValues(side, metric, thresholds.qos)?.map((x) => x.value);
        if (!values || values.length < 2) continue;
        const t = metric.scale === 'log' ? values.filter((v) => v > 0).map(Math.log) : values;
        const key = `${name}|${metric.name}`;
        groups.set(key, [...(groups.get(key) ?? []), t]);
      }
    }
  }
  // Paired: records of one run (side by side, round by round), each against the run's first
  // record, the spread of the rounds' differences about their own mean (a real change between
  // the two moves the mean, not the spread). Kept per side like the unpaired figure (sd of the
  // difference / √2), so the two combine and size the MDE alike. Later records of a run share
  // the first one's values: their df count a little more than they are worth.
  /** @type {Map<string, import('../types.js').RunRecord[]>} */
  const runs = new Map();
  for (const record of records) {
    const run = runGroupKey(record);
    if (run !== null) runs.set(run, [...(runs.get(run) ?? []), record]);
  }
  for (const [first, ...others] of runs.values()) {
    for (const other of others) {
      for (const { name } of listTests([first, other], [])) {
        const [a, b] = [collectSide([first], name), collectSide([other], name)];
        for (const metric of METRICS) {
          const av = instanceValues(a, metric, thresholds.qos);
          const bv = instanceValues(b, metric, thresholds.qos);
          const pairs = av && bv ? pairByRound(av, bv) : null;
          if (!pairs || pairs.length < 2) continue;
          const d = metric.scale === 'log'
            ? pairs.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => (Math.log(y) - Math.log(x)) / Math.SQRT2)
            : pairs.map(([x, y]) => (y - x) / Math.SQRT2);
          const key = `${name}|${metric.name}|paired`;
          groups.set(key, [...(groups.get(key) ?? []), d]);
        }
      }
    }
  }
  /** @type {Record<string, {sd: number, df: number}>} */
  const out = {};
  for (const [key, g] of groups) {
    const pooled = poolNoise(g);
    if (pooled) out[key] = pooled;
  }
  return out;
}

/**
 * Which release is the base of a compare: --base, else the baseline file's, else the line's
 * baseVersion when it is among the versions, else the first (the order of versions is
 * scripts/version-order.js).
 * @param {{explicit?: string, baseline?: string|null, lineBase?: string, versions: string[]}} c
 *   versions in column order
 * @returns {{version: string, source: 'option'|'baseline'|'line'|'first'}}
 */
export function chooseBase(c) {
  if (c.explicit) return { version: c.explicit, source: 'option' };
  if (c.baseline) return { version: c.baseline, source: 'baseline' };
  if (c.lineBase && c.versions.includes(c.lineBase)) return { version: c.lineBase, source: 'line' };
  return { version: c.versions[0], source: 'first' };
}

/**
 * The meters whose figures the metrics read, wall first.
 * @param {readonly import('./types.js').MetricDef[]} metrics
 * @returns {string[]}
 */
function metersOf(metrics) {
  return [...new Set(['wall', ...metrics.map((m) => m.meter ?? 'wall')])];
}

/**
 * The kind of a test's step (sysbench, ibench, ...), from the first record that ran it.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @returns {string}
 */
function stepKind(records, test) {
  for (const r of records) {
    const step = r.steps.find((s) => s.name === test);
    if (step) return step.kind;
  }
  return '';
}

/**
 * Reported tests in suite order (candidate's order first, then tests only the base ran).
 * @param {import('../types.js').RunRecord[]} a
 * @param {import('../types.js').RunRecord[]} b
 * @returns {{name: string, group: string}[]}
 */
export function listTests(a, b) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (const r of [...a, ...b]) {
    for (const s of r.steps) if (s.reported && s.group !== 'setup' && !seen.has(s.name)) seen.set(s.name, s.group);
  }
  return [...seen].map(([name, group]) => ({ name, group }));
}

/**
 * Valid repeats of one test over the records of one release: the timed repeats (wall and
 * counters figures) as compare judges them, without their warm-up (./warm-up.js), or a
 * counting meter's counted repeats (`step.meters.<meter>`).
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @param {string} [meter] the meter whose figures are wanted (default wall)
 * @returns {{repeats: import('../types.js').Repeat[], warmups: (import('./warm-up.js').Warmup|null)[], instanceKeys: string[], roundKeys: (string|null)[], failedIn: string[], reason: string, missing: boolean}}
 *   warmups: what was left out of each repeat (null: nothing)
 */
export function collectSide(records, test, meter = 'wall') {
  if (meter !== 'wall' && meter !== 'counters') return collectCounted(records, test, meter);
  /** @type {import('../types.js').Repeat[]} */
  const repeats = [];
  /** @type {(import('./warm-up.js').Warmup|null)[]} */
  const warmups = [];
  /** @type {string[]} which server instance produced each repeat: `<run id>#<instance>` */
  const instanceKeys = [];
  /** @type {(string|null)[]} the round of each repeat, `<run>#<instance>` (shared by the releases of that run), null when unknown */
  const roundKeys = [];
  /** @type {string[]} */
  const failedIn = [];
  let reason = '';
  let missing = true;
  for (const r of records) {
    const step = r.steps.find((s) => s.name === test);
    // A run whose meters had no timed one ran its tests counted only: not timed there.
    if (!step || (step.status === 'skipped' && r.config.meters && !r.config.meters.some((m) => m === 'wall' || m === 'counters'))) continue;
    missing = false;
    if (step.status === 'failed') {
      failedIn.push(r.id);
      reason ||= step.reason ?? '';
      continue;
    }
    if (step.status !== 'ok') continue;
    for (const rep of step.repeats) {
      if (rep.status !== 'ok') continue;
      const judged = withoutWarmup(rep);
      repeats.push(judged.repeat);
      warmups.push(judged.warmup);
      // Records made before instances existed: each repeat stands for itself, as it was judged then.
      instanceKeys.push(`${r.id}#${rep.instance ?? `repeat-${rep.index}`}`);
      const run = runGroupKey(r);
      roundKeys.push(run === null || rep.instance === undefined ? null : `${run}#${rep.instance}`);
    }
  }
  return { repeats, warmups, instanceKeys, roundKeys, failedIn, reason, missing };
}

/**
 * A counting meter's repeats of one test (instructions): each round is one server process per
 * release, so the round key pairs the releases' processes of that round. A record without the
 * meter's run of the test counts as missing, never as failed: the meter was not asked for there.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @param {string} meter
 */
function collectCounted(records, test, meter) {
  /** @type {import('../types.js').CountedRepeat[]} */
  const repeats = [];
  /** @type {string[]} */
  const instanceKeys = [];
  /** @type {(string|null)[]} */
  const roundKeys = [];
  /** @type {string[]} */
  const failedIn = [];
  let reason = '';
  let missing = true;
  for (const r of records) {
    const slot = r.steps.find((s) => s.name === test)?.meters?.[meter];
    if (!slot) continue;
    missing = false;
    const ok = slot.repeats.filter((rep) => rep.status === 'ok');
    // Some repeats failing leaves the others valid; none valid is a failure of the test.
    if (ok.length === 0 && slot.status !== 'skipped') {
      failedIn.push(r.id);
      reason ||= slot.reason ?? '';
      continue;
    }
    const run = runGroupKey(r);
    for (const rep of ok) {
      repeats.push(rep);
      instanceKeys.push(`${r.id}#${meter}#${rep.instance}`);
      roundKeys.push(run === null ? null : `${run}#${meter}#${rep.instance}`);
    }
  }
  // Counted repeats stand where timed ones do; their metrics read only their own fields.
  return { repeats: /** @type {any[]} */ (repeats), warmups: repeats.map(() => null), instanceKeys, roundKeys, failedIn, reason, missing };
}
