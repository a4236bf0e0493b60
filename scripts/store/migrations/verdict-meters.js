/**
 * A comparison's verdicts name their meter and their metric's label and say whether its figures
 * are counted repeats (`meter`, `label`, `counted`: compare stamps them from the records' meter facts). Comparisons stored
 * before it did lack them; the store's readers fill them in here from version 1's meters, frozen
 * (./001-run-record-v1-to-v2.js), so no reader needs a list of meters by name. The format stays
 * at version 1: both fields are optional, and a file is never rewritten for them.
 */
import { V1_METER_METRICS } from './001-run-record-v1-to-v2.js';

/**
 * Version 1's meters whose figures were counted repeats (`step.meters.<meter>`), frozen with their
 * metrics: the only counting meter then; every later one's verdicts carry `counted` themselves.
 */
const V1_COUNTING_METERS = Object.freeze(new Set(['instructions']));

/** metric name -> its version 1 meter and unit */
const V1_METRIC_METERS = new Map(Object.entries(V1_METER_METRICS).flatMap(([meter, metrics]) => metrics.map((m) => [m.name, { meter, unit: m.unit, label: m.label }])));

/**
 * The comparison with every verdict of a version 1 meter's metric marked with its meter and label
 * (and `counted`, and its unit where it lacks one), as compare marks them now. Verdicts that name
 * their meter, and those of the timed repeat's own figures, are left as they are.
 * @template {{tests?: Array<{metric: string, meter?: string, label?: string, counted?: boolean, unit?: string}>}} C
 * @param {C} comparison as parsed (not edited)
 * @returns {C}
 */
export function markVerdictMeters(comparison) {
  if (!Array.isArray(comparison.tests) || !comparison.tests.some((v) => v.meter === undefined && V1_METRIC_METERS.has(v.metric))) return comparison;
  const tests = comparison.tests.map((v) => {
    const facts = v.meter === undefined ? V1_METRIC_METERS.get(v.metric) : undefined;
    if (!facts) return v;
    return { ...v, unit: v.unit ?? facts.unit, meter: facts.meter, label: v.label ?? facts.label, ...(V1_COUNTING_METERS.has(facts.meter) ? { counted: true } : {}) };
  });
  return { ...comparison, tests };
}
