/**
 * Compare a candidate release with a base release: one verdict per reported test and gated
 * metric, from every valid repeat of every run record that stands for each release; and which
 * release is the base of a compare. Pure: records and thresholds in, a Comparison out (the
 * clock is an input).
 */
import { median } from 'simple-statistics';
import { UserError } from '../errors.js';
import { METRICS } from './metrics.js';
import { findThreshold } from './thresholds.js';
import { computeQos } from './qos.js';
import { classifyMetric } from './classify-metric.js';

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
  for (const { name, group } of listTests(candidate.records, base.records)) {
    const b = collectSide(base.records, name);
    const c = collectSide(candidate.records, name);
    const failure = c.failedIn.length > 0 ? `candidate ${candidate.version}: step failed in run ${c.failedIn.join(', ')}${c.reason ? `: ${c.reason}` : ''}` : b.repeats.length === 0 ? `base ${base.version}: no valid repeat${b.reason ? ` (${b.reason})` : b.missing ? ' (test not in its runs)' : ''}` : c.repeats.length === 0 ? `candidate ${candidate.version}: no valid repeat${c.missing ? ' (test not in its runs)' : ''}` : null;
    for (const metric of METRICS) {
      const threshold = findThreshold(thresholds, name, group, metric.name);
      if (!threshold) continue;
      if (failure && metric.name !== 'throughput') continue;
      const values = (/** @type {import('../types.js').Repeat[]} */ repeats) => {
        const out = [];
        for (const r of repeats) {
          const qos = metric.qos ? computeQos(r.intervals ?? [], thresholds.qos) : null;
          if (metric.qos && (!qos || qos.seconds < thresholds.qos.minIntervals)) return null;
          const v = metric.value(r, qos);
          if (v !== null) out.push(v);
        }
        return out;
      };
      const bv = values(b.repeats);
      const cv = values(c.repeats);
      if (!failure) {
        // not measured (no efficiency sampler, too few per-second samples): not gated, no verdict
        if (!bv || !cv || bv.length === 0 || cv.length === 0) continue;
        if (threshold.floor !== undefined && median(bv) < threshold.floor && median(cv) < threshold.floor) continue;
      }
      const classified = classifyMetric({ metric, threshold, base: bv ?? [], candidate: cv ?? [], confidence: thresholds.confidence, power: thresholds.power, failure });
      tests.push({
        test: name,
        group,
        metric: metric.name,
        unit: metric.unit,
        scale: metric.scale,
        higherIsBetter: metric.higherIsBetter,
        threshold: { warn: threshold.warn, issue: threshold.issue },
        ...classified,
      });
    }
  }
  /** @type {Record<import('../types.js').VerdictClass, number>} */
  const summary = { regression: 0, improvement: 0, unchanged: 0, inconclusive: 0, failed: 0 };
  for (const t of tests) summary[t.verdict]++;
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
  };
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
 * Valid repeats of one test over the records of one release.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 */
export function collectSide(records, test) {
  /** @type {import('../types.js').Repeat[]} */
  const repeats = [];
  /** @type {string[]} */
  const failedIn = [];
  let reason = '';
  let missing = true;
  for (const r of records) {
    const step = r.steps.find((s) => s.name === test);
    if (!step) continue;
    missing = false;
    if (step.status === 'failed') {
      failedIn.push(r.id);
      reason ||= step.reason ?? '';
      continue;
    }
    if (step.status !== 'ok') continue;
    for (const rep of step.repeats) if (rep.status === 'ok') repeats.push(rep);
  }
  return { repeats, failedIn, reason, missing };
}
