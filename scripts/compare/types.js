/**
 * Typedefs of the compare stage (statistics, thresholds, verdicts, relative tables, change
 * points). The shared Comparison / TestVerdict shapes are in scripts/types.js; the fields the
 * compare stage adds to TestVerdict are described by `VerdictEvidence` below.
 */
export {};

/** @typedef {import('../types.js').VerdictClass} VerdictClass */
/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('../types.js').Repeat} Repeat */
/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('../types.js').Interval} Interval */

/**
 * @typedef {object} LevelThreshold relative change (0.05 = 5 %) for `log` metrics, absolute
 *   change in the metric's unit for `linear` metrics
 * @property {number} warn
 * @property {number} issue
 * @property {number} [floor] below this base median the metric is not gated (e.g. KB written
 *   per op of a read-only test, which is noise around zero)
 * @property {number} [minDurationS] repeats shorter than this do not judge the metric (KB
 *   written per op over a few seconds measures the page cleaner's timing, not the release)
 */

/**
 * @typedef {'open'|'note'|'ignore'} IssuePolicy what a confirmed issue-level regression of a
 *   test does: open a GitHub issue, be noted in the run's issue and summary only, or be ignored
 */

/**
 * @typedef {object} CompareThresholds configs/thresholds.yml, fully resolved with defaults
 * @property {number} confidence two-sided level of the confidence interval (0.90 = 90 %)
 * @property {number} power power used for the minimum detectable effect (0.80)
 * @property {number} familyAlpha family-wise level: the probability that a run opens any issue
 *   on a metric that did not change is at most this (split between the meters, Holm within each)
 * @property {Record<string, number>} [familyAlphaShare] meter -> its fraction of familyAlpha;
 *   meters not listed split what the listed ones leave (./family-wise.js splitFamilyAlpha)
 * @property {number} pairedMinRounds releases that ran side by side with at least this many
 *   rounds are compared round by round (paired); 0 = never paired
 * @property {{alpha: number, floorPerOp: number, floorShare: number}} functionFindings findings per
 *   function below the total's threshold (scripts/compare/function-findings.js): per-test level
 *   split over the functions judged, and the floor of a rise (the larger of floorPerOp and
 *   floorShare of the test's total)
 * @property {Record<string, LevelThreshold>} groups throughput thresholds per reporting group
 * @property {Record<string, Partial<LevelThreshold> & {policy?: IssuePolicy, metrics?: Record<string, Partial<LevelThreshold>>}>} tests
 *   per-test overrides; policy: what a confirmed regression of the test does (open an issue,
 *   note it in the run's report only, or ignore it), default open
 * @property {Record<string, LevelThreshold>} metrics thresholds of the metrics other than throughput
 * @property {QosOptions} qos how per-second rates are summarised
 * @property {{windowLen: number, maxPValue: number, minMagnitude: number}} changePoints
 *   apache-otava options for change points across a release series
 */

/**
 * @typedef {object} QosOptions
 * @property {number} stallFraction a second is a stall second when its rate is below
 *   stallFraction x the median per-second rate of the same repeat
 * @property {number} minIntervals QoS metrics are gated only when every repeat has at least
 *   this many per-second samples
 */

/**
 * @typedef {object} Qos quality of service of one repeat, from its per-second rates
 * @property {number} seconds number of per-second samples
 * @property {number} p1 1st percentile of the per-second rate (R type 7)
 * @property {number} p5
 * @property {number} p50
 * @property {number} cv coefficient of variation (sample sd / mean) of the per-second rate
 * @property {number} stallThreshold rate below which a second counts as stalled
 * @property {{startT: number, lengthS: number}[]} stalls runs of consecutive stalled seconds
 * @property {number} stallCount
 * @property {number} stallS total seconds in stalls
 * @property {number} longestStallS
 * @property {number} stallShare stallS / seconds (0..1)
 */

/**
 * @typedef {object} MetricDef one gated metric: every fact about it lives here
 * @property {string} name as in TestVerdict.metric and thresholds.yml `metrics`
 * @property {string} unit
 * @property {boolean} higherIsBetter
 * @property {'log'|'linear'} scale log: compared as a ratio (relative thresholds);
 *   linear: compared as a difference (absolute thresholds), for shares that can be zero
 * @property {boolean} qos true when derived from per-second samples
 * @property {(repeat: Repeat, qos: Qos|null) => number|null} value null = not measured
 * @property {string} [meter] the meter that produces the figure (absent: the timed repeat's own
 *   figures, wall's); a timed meter's figures are in Repeat.meters, a counting meter's in its
 *   own counted repeats (Step.meters)
 * @property {string} [label] how readers name a meter's metric (the meter's fact); absent for the
 *   timed repeat's own figures
 * @property {string} [answers] the question the figure answers where a figure of another meter
 *   answers it too (`cpu-cost-per-op`): a timed verdict is then context, not gated, in a test whose
 *   counted verdict on the same question decided (./context-verdicts.js)
 * @property {(repeat: Repeat, kind: string) => import('./latency-resolution.js').LatencyResolution|null} [resolution]
 *   the step a repeat's figure moves in where the driver reports it coarsely (kind: its step's
 *   kind); such a figure is judged at that resolution or not at all (./latency-resolution.js)
 * @property {(repeat: Repeat) => string} [scope] how the repeat's figure was counted, where
 *   tagbench has counted it in more than one way over time (cpuUsPerOp: the step's own processes,
 *   or the whole machine in older records); figures of different scopes are never judged together
 */

/**
 * @typedef {object} SideStats
 * @property {number} median
 * @property {number} min
 * @property {number} max
 * @property {number} n
 */

/**
 * @typedef {object} ShiftInterval exact distribution-free interval of a location shift
 * @property {number} estimate Hodges–Lehmann estimate (median of pairwise differences)
 * @property {number} lo
 * @property {number} hi
 * @property {number} coverage achieved two-sided coverage (>= the requested confidence)
 */

/**
 * @typedef {object} VerdictEvidence fields the compare stage adds to a TestVerdict
 * @property {string} unit
 * @property {'log'|'linear'} scale how ratio / difference and thresholds are read
 * @property {number|null} difference candidate median - base median (metric unit)
 * @property {[number, number]|null} differenceCi interval of the difference (linear metrics)
 * @property {number|null} coverage achieved coverage of the interval (exact rank method)
 * @property {number|null} noiseCv pooled between-instance noise: sd of ln(values) for log
 *   metrics (≈ CV), sd in the metric's unit for linear metrics; pooled with the host's history
 *   of the same test and metric when there is one
 * @property {number|null} [noiseDf] degrees of freedom of noiseCv
 * @property {number|null} [mdeDrop] smallest drop detectable at the configured confidence and
 *   power with these instance counts (relative for log metrics)
 * @property {number|null} [mdeRise] the same for a rise (e^s - 1, larger than the drop)
 * @property {number|null} [pairedRounds] set when the releases ran side by side and the verdict
 *   compares them round by round (paired t on the rounds' differences, scripts/compare/paired-shift.js):
 *   the number of rounds; absent for a verdict on independent instances (exact rank methods)
 * @property {number|null} [pWorse] one-sided p-value that the candidate is worse: exact rank-sum
 *   on the instances, or the paired t test over the rounds when pairedRounds is set
 * @property {number|null} [pAdjusted] pWorse after Holm's adjustment over the gated verdicts of
 *   its meter; an issue needs it at or below the meter's share of familyAlpha (family.meters)
 * @property {number|null} [pBetter] the same test for "the candidate is better": an improvement
 *   at the issue level needs its Holm-adjusted value at or below familyAlpha too
 * @property {number|null} [pAdjustedBetter] pBetter after Holm's adjustment (what an
 *   improvement's reason cites); absent in comparisons written before it was kept
 * @property {number|null} [mdeIssue] smallest change in the bad direction the issue rule (Holm
 *   over the run's verdicts, one-sided, at the configured power) can detect with these instances;
 *   null when the exact test cannot reach that level yet (fewer instances than family.minInstances)
 * @property {string} [label] a meter's metric as readers name it (its fact `label`), stamped with `meter`
 * @property {string} [meter] the meter whose figures it judges (from the records' meterMetrics);
 *   absent on the timed repeat's own figures (throughput, latency, ...). Comparisons stored
 *   before verdicts carried it get it from the store's reader (scripts/store/migrations/)
 * @property {boolean} [counted] true on a counting meter's verdict (its figures are counted
 *   repeats, `step.meters.<meter>`: more timed instances never decide it); absent otherwise
 * @property {{warn: number, issue: number}} threshold the thresholds applied
 * @property {IssuePolicy} [policy] the test's issue policy (findPolicy), stamped by compare;
 *   absent in comparisons written before it was (read those with findVerdictPolicy)
 * @property {'warn'|'issue'|null} level for regression / improvement: which threshold it crossed
 * @property {{verdict: VerdictClass, level: 'warn'|'issue'|null, ratio: number|null, ci: [number, number]|null, reason: string, runIds: {base: string[], candidate: string[]}}} [confirmation]
 *   the rerun's own verdict, set by `tagbench confirm`
 */

/** @typedef {import('../types.js').TestVerdict & VerdictEvidence} FullVerdict */

/**
 * @typedef {object} ReleaseRecords all run records that stand for one release
 * @property {string} version
 * @property {RunRecord[]} records
 */

/**
 * @typedef {object} CompareInput
 * @property {ReleaseRecords} base
 * @property {ReleaseRecords} candidate
 * @property {CompareThresholds} thresholds
 * @property {string} createdAt ISO 8601 (passed in: the core reads no clock)
 * @property {Record<string, {sd: number, df: number}>} [noiseHistory] noise per `test|metric`
 *   pooled over earlier runs on the host class (estimateNoiseHistory), for the detectable effect
 * @property {boolean} [familyControl] false for a confirmation rerun: no Holm step (default true)
 */

/**
 * @typedef {object} RelativeCell
 * @property {SideStats|null} stats median with min-max over repeats (null = no valid result)
 * @property {number|null} ratio to the base release: the throughput verdict's own estimate where
 *   the table was given one (the same number as the verdict tables), else median / median
 * @property {'verdict'|'medians'} [ratioFrom] which of the two `ratio` is (absent: medians)
 * @property {string} [refused] why compare refused to judge this release's test (too short a
 *   step, quantized, failed): its ratio is shown marked and left out of the group mean
 * @property {string} [status] `failed` / `missing` when stats is null
 * @property {number} [readsPerOp] median storage reads per operation of the repeats (absent when
 *   no repeat has efficiency figures)
 */

/**
 * @typedef {object} RelativeRow
 * @property {string} test
 * @property {string} group
 * @property {string} metric `qps` or `rows/s`
 * @property {Record<string, RelativeCell>} cells by version
 */

/**
 * @typedef {object} RelativeTable
 * @property {string} product
 * @property {string} line
 * @property {string} base version of the base release
 * @property {string[]} versions in column order
 * @property {{group: string, rows: RelativeRow[], geomean: Record<string, number|null>}[]} groups
 *   geomean = geometric mean of the group's ratios per version (null when no ratio)
 * @property {{low: number, high: number}} marks ratios below low / above high are marked
 * @property {'verdict'|'medians'|'mixed'} [ratiosFrom] where the table's ratios come from: the
 *   verdicts' estimates, medians, or both (verdicts where there was one)
 */

/**
 * @typedef {import('../types.js').DetectedChangePoint & {test: string, metric: string,
 *   kind?: 'dip'|'step'|'drift', untilVersion?: string, worse?: boolean, evidence?: string}} ChangePoint
 *   one change point of one test's series (the stored file groups them per test). Points of the
 *   release-series rule (scripts/compare/release-series.js) add: `kind`; `untilVersion`, the
 *   last release of a drift, the release that recovered from a dip (= version for a step);
 *   `worse`, whether the change is bad for the metric; `evidence`, one sentence with the levels,
 *   the release-to-release interval and the scan's numbers. For them `meanBefore` / `meanAfter`
 *   are the fitted levels (geometric, from the releases' medians) before and after, `pValue` the
 *   scan's simulated p-value, and `index` the first repeat of `version`. apache-otava's points
 *   have none of the added fields.
 */

/**
 * @typedef {object} ChangePointReport
 * @property {'ok'|'unavailable'} status unavailable = the detector could not run
 * @property {string} note how it was computed, or why not
 * @property {ChangePoint[]} changePoints never inside a release (atReleaseBoundary is true)
 * @property {import('../types.js').ChangePointMethod|null} method apache-otava's settings when
 *   it ran (series longer than 10 releases); null otherwise
 * @property {{name: 'release-series', version: string, alpha: number, maxEvents: number, simulations: number, driftPenalty: number, maxReleases: number}|null} [rule]
 *   the release-series rule's settings when it found the points; null or absent otherwise
 * @property {Omit<import('../types.js').ChangePointSeries, 'changePoints'>[]} series every
 *   series analysed, with the releases that gave it points
 */

/** @typedef {Omit<import('../types.js').Comparison, 'tests'> & {tests: FullVerdict[]}} FullComparison */
