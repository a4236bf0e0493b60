/** Shapes private to the run stage (typedefs only). */
export {};

/**
 * What the run stage needs to know of a step planned by scripts/bench (`planSuite`).
 * @typedef {object} StepPlanLike
 * @property {string} name
 * @property {'sysbench'|'load'|'postwrite'|'ibench'|'linkbench'} kind
 * @property {'point'|'range'|'range-agg'|'write'|'setup'} group
 * @property {boolean} reported
 * @property {boolean} [runOnce] true for load, postwrite and warm-ups: one run per release, no repeats
 * @property {string} metric
 * @property {number} [durationS]
 * @property {number} [warmupS]
 * @property {Record<string, string|number|boolean>} [params]
 */

/**
 * A release taking part in a run, with everything resolved.
 * @typedef {object} RunRelease
 * @property {string} key `product@version`
 * @property {string} product
 * @property {string} version
 * @property {string} line product line the version belongs to
 * @property {import('../types.js').InstallResult} install
 */
