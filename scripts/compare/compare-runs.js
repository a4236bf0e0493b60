/**
 * Compare a candidate release with a base release: one verdict per reported test and gated
 * metric, from every valid repeat of every run record that stands for each release; and which
 * release is the base of a compare. Pure: records and thresholds in, a Comparison out (the
 * clock is an input).
 */
import { median, sampleStandardDeviation } from 'simple-statistics';
import { formatValue } from '../format-number.js';
import { applyFamilyControl } from './family-wise.js';
import { poolNoise } from './noise.js';
import { UserError } from '../errors.js';
import { OWN_METRICS, explainMixedScope, meterMetrics, ownFiguresMeter } from './metrics.js';
import { collectSide, listTests, stepKind, instanceValues } from './collect-side.js';
import { findPolicy, findThreshold } from './thresholds.js';
import { classifyMetric } from './classify-metric.js';
import { summarizeRocksdb } from './rocksdb-summary.js';
import { summarizeTimedWork } from './timed-work.js';
import { compareCountedTypes } from './counted-types.js';
import { markContextVerdicts } from './context-verdicts.js';
import { pairByRound } from './paired-shift.js';
import { runGroupKey } from '../run-id.js';
import { coarsestResolution, explainQuantized } from './latency-resolution.js';

/** @typedef {import('./types.js').FullVerdict} FullVerdict */
/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('./collect-side.js').Side} Side */

export { collectSide, listTests } from './collect-side.js';

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
  /** @type {{test: string, metric: string, reason: string, ratio?: number}[]} */
  const notJudged = [];
  /** @type {import('../types.js').WarmupExclusion[]} */
  const warmups = [];
  // The timed repeats' own figures (wall's) first, then every other meter the records carry.
  const groups = [{ meter: null, counted: false, metrics: [...OWN_METRICS] }, ...meterMetrics([...base.records, ...candidate.records])];
  for (const test of listTests(candidate.records, base.records)) {
    /** @type {string|null} why the step's timed repeats are refused (set by its throughput, judged first) */
    let refused = null;
    for (const group of groups) {
      const b = collectSide(base.records, test.name, group.meter, group.counted);
      const c = collectSide(candidate.records, test.name, group.meter, group.counted);
      // Once per test: the other timed meters read the same timed repeats.
      const warmup = group.meter === null ? summarizeWarmups(test.name, b.warmups, c.warmups) : null;
      if (warmup) warmups.push(warmup);
      // A meter neither side measured this test with: no verdicts of its metrics, not a failure.
      if ((b.missing && c.missing) || (group.meter !== null && (b.missing || c.missing))) continue;
      if (group.meter === null) refused = explainStepRefused(thresholds, test, [...b.repeats, ...c.repeats]);
      // Counted repeats are a run of their own (no clock in them): the timed refusal is not theirs.
      const judged = judgeMeter({ input, test, metrics: group.metrics, b, c, refused: group.counted ? null : refused, counted: group.counted });
      // A meter's verdicts say which meter, how readers name the metric and whether its figures
      // are counted repeats (the facts of the records), so readers need no list of meters by name.
      tests.push(...judged.verdicts.map((v) => (group.meter === null ? v : {
        ...v, meter: group.meter, label: group.metrics.find((m) => m.name === v.metric)?.label, ...(group.counted ? { counted: true } : {}),
      })));
      notJudged.push(...judged.notJudged);
    }
  }
  // One question, one gated verdict: a timed figure whose question a counted one decided is context.
  const answers = new Map(groups.flatMap((g) => g.metrics.filter((m) => m.answers).map((m) => [`${g.meter ?? ''}|${m.name}`, m.answers])));
  markContextVerdicts(tests, (v) => answers.get(`${v.meter ?? ''}|${v.metric}`));
  const gated = tests.filter((t) => !t.context);
  // A confirmation rerun replicates regressions the run's family-wise rule already let through:
  // it is judged test by test (its own chance of agreeing by accident multiplies in).
  const family = input.familyControl === false ? undefined : applyFamilyControl(gated, thresholds, ownFiguresMeter([...base.records, ...candidate.records]));
  /** @type {Record<import('../types.js').VerdictClass, number>} */
  const summary = { regression: 0, improvement: 0, unchanged: 0, inconclusive: 0, failed: 0 };
  for (const t of gated) summary[t.verdict]++;
  const testNames = listTests(candidate.records, base.records).map((t) => t.name);
  const rocksdb = summarizeRocksdb(base.records, candidate.records, testNames);
  const timedWork = summarizeTimedWork(base.records, candidate.records, testNames);
  const countedTypes = compareCountedTypes(base.records, candidate.records, testNames, thresholds.confidence);
  return {
    schemaVersion: 1,
    createdAt: input.createdAt,
    hostClass: first.host.class,
    host: sharedHostFacts([...base.records, ...candidate.records]),
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
    ...(timedWork.length > 0 ? { timedWork } : {}),
    ...(countedTypes.length > 0 ? { countedTypes } : {}),
  };
}

/**
 * The machine facts every record of the comparison agrees on, which decide (with the host class)
 * whether a calibration describes this machine.
 * @param {import('../types.js').RunRecord[]} records
 * @returns {{cpuModel: string|null, cores: number|null}} a fact the records disagree on (or lack) is null
 */
function sharedHostFacts(records) {
  const shared = (/** @type {(r: import('../types.js').RunRecord) => string|number|undefined} */ fact) => {
    const values = new Set(records.map(fact));
    const [only] = values;
    return values.size === 1 && only !== undefined ? only : null;
  };
  return { cpuModel: /** @type {string|null} */ (shared((r) => r.host.cpuModel)), cores: /** @type {number|null} */ (shared((r) => r.host.cores)) };
}

/**
 * The verdicts of one test on the metrics of one meter (or of the timed repeats' own figures).
 * @param {object} at
 * @param {import('./types.js').CompareInput} at.input
 * @param {{name: string, group: string}} at.test
 * @param {readonly import('./types.js').MetricDef[]} at.metrics the meter's metrics
 * @param {Side} at.b the base's side
 * @param {Side} at.c the candidate's side
 * @param {string|null} [at.refused] why these repeats are refused for the step's throughput
 *   (too short): then no other metric is judged on them either
 * @param {boolean} [at.counted] the meter's figures are counted repeats
 * @returns {{verdicts: FullVerdict[], notJudged: {test: string, metric: string, reason: string, ratio?: number}[]}}
 */
function judgeMeter({ input, test, metrics, b, c, refused = null, counted = false }) {
  const { base, candidate, thresholds } = input;
  const { name, group } = test;
  /** @type {FullVerdict[]} */
  const verdicts = [];
  /** @type {{test: string, metric: string, reason: string, ratio?: number}[]} */
  const notJudged = [];
  const firstMetric = metrics[0]?.name;
  const failure = c.failedIn.length > 0 ? `candidate ${candidate.version}: step failed in run ${c.failedIn.join(', ')}${c.reason ? `: ${c.reason}` : ''}` : b.repeats.length === 0 ? `base ${base.version}: no valid repeat${b.reason ? ` (${b.reason})` : b.missing ? ' (test not in its runs)' : ''}` : c.repeats.length === 0 ? `candidate ${candidate.version}: no valid repeat${c.missing ? ' (test not in its runs)' : ''}` : null;
  const repeats = [...b.repeats, ...c.repeats];
  for (const metric of metrics) {
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
      const skip = explainMixedScope(metric, repeats) ?? explainNotJudged(metric, threshold, bv, cv, repeats) ?? (refused && `not judged on the repeats the step's throughput is refused for (${refused})`);
      if (skip) {
        notJudged.push({ test: name, metric: metric.name, reason: skip, ...(metric.scale === 'log' ? medianRatio(bv, cv) : {}) });
        continue;
      }
    }
    // A figure the driver reports in coarse steps is judged at its resolution, or not at all.
    const resolution = !failure && metric.resolution ? coarsestResolution(repeats, stepKind([...candidate.records, ...base.records], name), metric.resolution) : null;
    const quantized = resolution ? explainQuantized(resolution, threshold.issue) : null;
    if (quantized) {
      notJudged.push({ test: name, metric: metric.name, reason: quantized, ...(metric.scale === 'log' ? medianRatio(bv, cv) : {}) });
      continue;
    }
    // Releases that ran side by side, round by round, are compared round by round.
    const pairs = failure || !bi || !ci || thresholds.pairedMinRounds === 0 ? null : pairByRound(bi, ci);
    const paired = pairs !== null && pairs.length >= thresholds.pairedMinRounds ? pairs : null;
    const classified = classifyMetric({
      metric, threshold, base: bv ?? [], candidate: cv ?? [], confidence: thresholds.confidence, power: thresholds.power, failure,
      history: input.noiseHistory?.[`${name}|${metric.name}${paired ? '|paired' : ''}`] ?? null,
      pairs: paired,
      resolution,
      counted,
    });
    verdicts.push({
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
  return { verdicts, notJudged };
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
 * The ratio a log-scale metric left unjudged is shown with (marked as such): candidate / base of the
 * medians of the instances' values, the figures a verdict would have started from.
 * @param {number[]|null} base
 * @param {number[]|null} candidate
 * @returns {{ratio?: number}} empty when a side has no positive median
 */
function medianRatio(base, candidate) {
  if (!base?.length || !candidate?.length) return {};
  const [mb, mc] = [median(base), median(candidate)];
  return mb > 0 && mc > 0 ? { ratio: mc / mb } : {};
}

/**
 * Why a step's timed repeats are too short to judge, by its throughput's minDurationS, or null.
 * A repeat too short for its rate is too short for every figure taken over it: a per-op CPU
 * figure exists only for the repeats long enough to sample (dropping exactly the fastest ones),
 * and a step of one statement has one latency, that statement's duration. So the refusal is the
 * step's, not the throughput's alone.
 * @param {import('./types.js').CompareThresholds} thresholds
 * @param {{name: string, group: string}} test
 * @param {import('../types.js').Repeat[]} repeats both sides' valid timed repeats
 * @returns {string|null}
 */
export function explainStepRefused(thresholds, test, repeats) {
  const minDurationS = findThreshold(thresholds, test.name, test.group, 'throughput')?.minDurationS;
  if (minDurationS === undefined || repeats.length === 0) return null;
  const shortest = Math.min(...repeats.map((r) => r.durationS));
  return shortest < minDurationS ? `repeats of ${Number(shortest.toFixed(1))} s are shorter than the ${minDurationS} s its throughput needs` : null;
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
  // The metrics of the timed repeats: their own figures and the timed meters' (counted repeats have their own noise).
  const timedMetrics = [...OWN_METRICS, ...meterMetrics(records).filter((m) => !m.counted).flatMap((m) => m.metrics)];
  for (const record of records) {
    for (const { name } of listTests([record], [])) {
      const side = collectSide([record], name);
      if (side.repeats.length < 2) continue;
      for (const metric of timedMetrics) {
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
        for (const metric of timedMetrics) {
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

