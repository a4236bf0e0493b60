/**
 * Shapes of the change points of a release series (typedefs only): what
 * scripts/compare/run-change-points.js detects and scripts/store writes under changepoints/.
 * scripts/store/schemas/change-points.schema.json describes the stored file;
 * test/store/schema-drift.test.js keeps them in step. Re-exported by scripts/types.js.
 */

export {};

/**
 * @typedef {object} ChangePoints changepoints/<host-class>/<product>/<line>/<suite>.json:
 *   the change points of one release series. DERIVED data, not a record: each
 *   `tagbench compare` over the whole series regenerates it (run records and comparisons stay
 *   append-only). Schema: scripts/store/schemas/change-points.schema.json.
 * @property {number} schemaVersion
 * @property {string} createdAt ISO 8601, when the compare that computed it ran
 * @property {string} hostClass
 * @property {string} product
 * @property {string} line
 * @property {string} suite
 * @property {ChangePointMethod} method how the change points were found
 * @property {ChangePointRelease[]} releases the series, oldest first, with the runs behind each release
 * @property {ChangePointSeries[]} tests one per test and metric analysed, with or without change points
 */

/**
 * @typedef {object} ChangePointMethod
 * @property {'apache-otava'|'release-series'} tool apache-otava: E-divisive means with a Student
 *   t test (Fleming et al., ICPE 2023), for series of more than 10 releases; release-series: the
 *   dip / step / drift scan of scripts/compare/release-series.js (docs/method.md)
 * @property {string} version the installed otava version, or the rule's version
 * @property {number} [windowLen] otava window_len (points)
 * @property {number} [maxPValue] otava max_pvalue
 * @property {number} [minMagnitude] otava min_magnitude (relative change, 0 = any)
 * @property {number} [alpha] release-series: false-event chance per test series
 * @property {number} [maxEvents] release-series: most events per series
 * @property {number} [simulations] release-series: no-event series simulated for the critical value
 * @property {number} [driftPenalty] release-series: z² a drift must gain over a step or a dip
 */

/**
 * @typedef {object} ChangePointRelease
 * @property {string} version
 * @property {string[]} runIds the run records whose repeats are in the series
 */

/**
 * @typedef {object} ChangePointSeries the series of one test and metric
 * @property {string} test
 * @property {string} metric as TestVerdict.metric (throughput)
 * @property {boolean} higherIsBetter
 * @property {ChangePointSeriesRelease[]} releases releases with at least one valid repeat, in series order
 * @property {DetectedChangePoint[]} changePoints
 */

/**
 * @typedef {object} ChangePointSeriesRelease
 * @property {string} version
 * @property {number} n valid repeats of that release in the series (points)
 */

/**
 * @typedef {object} DetectedChangePoint one change point of one series
 * @property {number} index position in the series (every repeat, releases in order) of the first point after the change
 * @property {string} version the release where the change starts
 * @property {string} previousVersion the release of the point before the change (= version when
 *   atReleaseBoundary is false)
 * @property {boolean} atReleaseBoundary false when otava puts the change between two repeats of
 *   one release (noise inside a release, not a change between releases)
 * @property {number} forwardChangePct mean after / mean before - 1, in percent
 * @property {number} pValue as otava reports it
 * @property {number} meanBefore mean of the segment before the change, in the metric's unit
 *   (release-series: the fitted level before the event)
 * @property {number} meanAfter mean of the segment after (release-series: the level after it;
 *   for a dip, at the dip)
 * @property {'dip'|'step'|'drift'} [kind] release-series only (otava's points are steps)
 * @property {string} [untilVersion] release-series: last release of a drift, the release that
 *   recovered from a dip, the step's own release for a step
 * @property {boolean} [worse] release-series: whether the change is bad for the metric
 * @property {string} [evidence] release-series: levels, release-to-release interval, scan numbers
 */

// ---------------------------------------------------------------------------------------------
// Calibrations (bench/calibrations/<host-class>/<meter>-<suite>-<started>.json, owned by
// scripts/store/calibrations.js; schema scripts/store/schemas/calibration.schema.json)
