/**
 * Typedefs of the store stage's own file formats. The change-point file is written by compare
 * and read by the site, so these belong with the shared contracts of scripts/types.js; they
 * live here until that file takes them (test/store/schema-drift.test.js reads both files).
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
 * @property {'apache-otava'} tool E-divisive means with a Student t test (Fleming et al., ICPE 2023)
 * @property {string} version the installed otava version
 * @property {number} windowLen otava window_len (points)
 * @property {number} maxPValue otava max_pvalue
 * @property {number} minMagnitude otava min_magnitude (relative change, 0 = any)
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
 * @property {number} meanAfter mean of the segment after
 */
