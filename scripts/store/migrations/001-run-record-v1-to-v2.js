/**
 * Run records 1 -> 2: every meter's figures have one home, and a record carries its meters'
 * metric facts. The counters meter's figures move from `repeat.counters` to
 * `repeat.meters.counters` (a timed meter's home; a counting meter's stays `step.meters.<name>`),
 * and a record that names its meters gets `config.meterMetrics`: the metrics of the meters
 * version 1 knew, as those meters stated them when version 2 was made (frozen here: a later
 * change of a meter must not rewrite what old records mean). `answers` was added later: it says
 * which question a figure answers, not what the figure is, so old records get it too (the
 * context rule, scripts/compare/context-verdicts.js, then judges them as it judges new ones).
 */

/** @typedef {{name: string, figure: string, unit: string, higherIsBetter: boolean, scale: 'log'|'linear', label: string, answers?: string}} MetricFact */

/**
 * The metric facts of version 1's meters with metrics (wall's figures are the repeat's own);
 * ./verdict-meters.js reads them for comparisons stored before verdicts named their meter.
 */
export const V1_METER_METRICS = Object.freeze({
  counters: [
    { name: 'counterInstructionsPerOp', figure: 'perOp.instructionsPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', label: 'instructions per op (perf)' },
    { name: 'cyclesPerOp', figure: 'perOp.cyclesPerOp', unit: 'cycles/op', higherIsBetter: false, scale: 'log', label: 'cycles per op' },
    { name: 'ipc', figure: 'perOp.ipc', unit: 'instructions/cycle', higherIsBetter: true, scale: 'log', label: 'instructions per cycle' },
    { name: 'branchMissesPerOp', figure: 'perOp.branchMissesPerOp', unit: 'misses/op', higherIsBetter: false, scale: 'log', label: 'branch misses per op' },
    { name: 'llcMissesPerOp', figure: 'perOp.llcMissesPerOp', unit: 'misses/op', higherIsBetter: false, scale: 'log', label: 'LLC misses per op' },
  ],
  instructions: [
    { name: 'instructionsPerOp', figure: 'queryPathPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', label: 'instructions per op in the query path', answers: 'cpu-cost-per-op' },
    { name: 'processInstructionsPerOp', figure: 'processPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', label: 'instructions per op of the server process' },
  ],
});

/** @type {import('./index.js').Migration} */
export const runRecordV1ToV2 = Object.freeze({
  from: 1,
  to: 2,
  summary: 'counters figures move to repeat.meters.counters; records that name their meters carry their metrics (config.meterMetrics)',
  up(/** @type {any} */ record) {
    /** @type {Record<string, MetricFact[]>} */
    const meterMetrics = {};
    for (const name of record.config?.meters ?? []) {
      const facts = /** @type {Record<string, MetricFact[]>} */ (V1_METER_METRICS)[name];
      if (facts) meterMetrics[name] = facts.map((f) => ({ ...f }));
    }
    const config = Object.keys(meterMetrics).length > 0 ? { ...record.config, meterMetrics } : record.config;
    const steps = (record.steps ?? []).map((/** @type {any} */ step) => ({
      ...step,
      repeats: (step.repeats ?? []).map((/** @type {any} */ rep) => {
        if (rep.counters === undefined) return rep;
        const { counters, ...rest } = rep;
        return { ...rest, meters: { ...(rest.meters ?? {}), counters } };
      }),
    }));
    return { ...record, schemaVersion: 2, config, steps };
  },
});
