/**
 * Which calibration a run may cite for one metric's verdicts: only one that measured what the run
 * measured, the way the run measured it. A calibration's detection rate is a property of its host
 * class, its meter (the metric it judged) and its design (paired by round or not, instances per
 * side): 20 trials of 5 unpaired instances say nothing of a run of 3 paired rounds, and a rate
 * measured on a faster or quieter machine says nothing of this one. So a calibration is cited only
 * when all three match, and the CPU model and core count where the calibration stored them (one
 * host class may hold machines of several kinds), and it was measured at most
 * CALIBRATION_MAX_AGE_DAYS before the run;
 * otherwise the run says it has none, and why the others were passed over. Pure: the run's
 * date is the comparison's, never the clock.
 */

/** @typedef {import('../types.js').Calibration} Calibration */
/** @typedef {import('../types.js').CalibrationDesign} CalibrationDesign */

/**
 * The oldest calibration a run cites, in days before the run. A month: the host images, kernel,
 * valgrind and the meters' own code change within weeks here (the instructions meter's counting
 * changed three times in the week of 2026-11-23), and each change can move both noise and
 * detection; a calibration older than that describes a host the run may not have had.
 */
export const CALIBRATION_MAX_AGE_DAYS = 30;

const DAY_MS = 86_400_000;

/**
 * The design most of a metric's verdicts were made with: paired by round (instances = rounds)
 * or not (instances = the smaller side), the most common over the verdicts.
 * @param {{metric: string, pairedRounds?: number|null, base: {n: number}|null, candidate: {n: number}|null}[]} verdicts
 * @param {string} metric
 * @returns {CalibrationDesign|null} null when no verdict of the metric has instances
 */
export function computeRunDesign(verdicts, metric) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const v of verdicts) {
    if (v.metric !== metric || !v.base || !v.candidate) continue;
    const design = v.pairedRounds ? { paired: true, instances: v.pairedRounds } : { paired: false, instances: Math.min(v.base.n, v.candidate.n) };
    const key = JSON.stringify(design);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const top = [...seen].sort((a, b) => b[1] - a[1])[0];
  return top ? JSON.parse(top[0]) : null;
}

/**
 * @param {CalibrationDesign} design
 * @returns {string} e.g. "3 rounds paired", "5 instances per side"
 */
export function describeDesign(design) {
  return design.paired ? `${design.instances} rounds paired` : `${design.instances} instances per side`;
}

/**
 * @typedef {object} CalibrationChoice
 * @property {Calibration|null} calibration the newest that matches; null when none does
 * @property {number|null} ageDays whole days from its last run to the run's comparison
 * @property {string[]} passedOver why each calibration of the host class was not cited, e.g.
 *   "2026-11-23 (smoke): another design (5 instances per side)"
 */

/**
 * The calibration a run's verdicts of one metric may cite.
 * @param {Calibration[]} calibrations the host class's (any order)
 * @param {{hostClass: string, host?: {cpuModel: string|null, cores: number|null}, metric: string, meter?: string, design: CalibrationDesign|null, at: string}} run
 *   at: the comparison's createdAt (ISO 8601); meter: the verdicts' meter where they name one;
 *   host: the machine facts of its records (absent in comparisons made before they were kept)
 * @param {number} [maxAgeDays]
 * @returns {CalibrationChoice}
 */
export function selectCalibration(calibrations, run, maxAgeDays = CALIBRATION_MAX_AGE_DAYS) {
  const at = Date.parse(run.at);
  /** @type {{calibration: Calibration, ageDays: number}[]} */
  const matching = [];
  const passedOver = [];
  for (const c of calibrations) {
    // Another metric's calibration (another meter's) is no candidate at all: not listed.
    if (c.metric !== run.metric) continue;
    const ageDays = Math.floor((at - Date.parse(c.measuredAt)) / DAY_MS);
    const why = mismatch(c, run, ageDays, maxAgeDays);
    if (why) passedOver.push(`${c.measuredAt.slice(0, 10)} (${c.suite}): ${why}`);
    else matching.push({ calibration: c, ageDays });
  }
  // The newest: it measured the host and the meter closest to how the run found them.
  const best = matching.sort((a, b) => (a.calibration.measuredAt > b.calibration.measuredAt ? -1 : a.calibration.measuredAt < b.calibration.measuredAt ? 1 : 0))[0];
  return { calibration: best?.calibration ?? null, ageDays: best?.ageDays ?? null, passedOver };
}

/**
 * @param {Calibration} c
 * @param {{hostClass: string, host?: {cpuModel: string|null, cores: number|null}, meter?: string, design: CalibrationDesign|null}} run
 * @param {number} ageDays
 * @param {number} maxAgeDays
 * @returns {string|null} why it may not be cited; null when it may
 */
function mismatch(c, run, ageDays, maxAgeDays) {
  if (c.hostClass !== run.hostClass) return `another host class (${c.hostClass})`;
  // Compared where both sides know the fact: a calibration that stored none, or a comparison made
  // before comparisons kept them, has nothing to hold against the other.
  const cpu = c.host?.cpuModel ?? null;
  const cores = c.host?.cores ?? null;
  if (cpu !== null && run.host?.cpuModel && cpu !== run.host.cpuModel) return `another CPU model (${cpu}, this run ${run.host.cpuModel})`;
  if (cores !== null && run.host?.cores && cores !== run.host.cores) return `another core count (${cores}, this run ${run.host.cores})`;
  // A metric belongs to one meter, so the metric decided already; where the verdicts name their
  // meter it must agree as well (a meter renamed, or two meters giving one metric).
  if (run.meter !== undefined && c.meter !== run.meter) return `another meter (${c.meter})`;
  if (!run.design || c.design.paired !== run.design.paired || c.design.instances !== run.design.instances) return `another design (${describeDesign(c.design)})`;
  if (ageDays < 0) return 'measured after this run';
  if (ageDays > maxAgeDays) return `${ageDays} days old, over the ${maxAgeDays} a calibration is cited for`;
  return null;
}
