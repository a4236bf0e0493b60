/** Shapes private to the run stage (typedefs only). */
export {};

/**
 * A step as planned by scripts/workload (`planSuite`).
 * @typedef {import('../workload/types.js').StepPlan} StepPlanLike
 */

/**
 * A release taking part in a run, with everything resolved.
 * @typedef {object} RunRelease
 * @property {string} key `product@version`
 * @property {string} product
 * @property {string} version
 * @property {string} line product line the version belongs to
 * @property {string} [label] tells apart two servers of one release in a run
 * @property {Record<string, string>} [serverEnv] extra environment of its servers (a calibration's injected cost)
 * @property {string} [movedFrom] the commit its tag pointed at when it was benchmarked before
 *   (the record's release.movedFrom)
 * @property {import('../types.js').RecordRef} [refRun] the ad-hoc ref run this side belongs to
 *   (the record's release.ref: stored apart, never part of the release series)
 * @property {import('../types.js').InstallResult} install
 */
