/**
 * Shapes of the analysis (typedefs only): the thresholds that produce verdicts, the comparison
 * and its verdicts, baselines and regression issues (the change points: change-points.js).
 * scripts/store/schemas/comparison.schema.json and change-points.schema.json describe the stored
 * ones; test/store/schema-drift.test.js keeps them in step. Re-exported by scripts/types.js.
 *
 * Units are in the names: ...Ms milliseconds, ...S seconds, ...Kb kibibytes, ...Bytes bytes.
 */

export {};

/** @typedef {import('./record.js').ComparisonRef} ComparisonRef */

/**
 * @typedef {object} ThresholdsConfig configs/thresholds.yml (full use in scripts/compare/)
 * @property {number} [confidence] two-sided confidence of the ratio's interval
 * @property {number} [power] power for the minimum detectable effect
 * @property {number} [familyAlpha] family-wise level of the issues a run opens (split between meters, Holm within each)
 * @property {Record<string, number>} [familyAlphaShare] meter -> its fraction of familyAlpha
 * @property {number} [pairedMinRounds] rounds side by side from which a comparison is paired by round (0 = never)
 * @property {Record<string, {warn: number, issue: number}>} groups relative change per group
 * @property {Record<string, {warn: number, issue: number, floor?: number, minDurationS?: number}>} [metrics] other gated metrics
 * @property {Record<string, {warn?: number, issue?: number, policy?: 'open'|'note'|'ignore', metrics?: Record<string, {warn?: number, issue?: number, floor?: number, minDurationS?: number}>}>} [tests] per-test overrides
 * @property {{stallFraction: number, minIntervals: number}} [qos] quality of service from per-second rates
 * @property {{alpha?: number, floorPerOp?: number, floorShare?: number}} [functionFindings] findings per function below the total's threshold (scripts/compare/function-findings.js)
 * @property {{windowLen: number, maxPValue: number, minMagnitude: number}} [changePoints] apache-otava settings
 */

// ---------------------------------------------------------------------------------------------
// Comparison and verdicts (written by `tagbench compare`, read by report and site)

/**
 * @typedef {'regression'|'improvement'|'unchanged'|'inconclusive'|'failed'} VerdictClass
 */

/**
 * @typedef {object} FunctionRise one measure (self or inclusive) of one function
 * @property {number} basePerOp mean over the base rounds, missing rounds at 0
 * @property {number} candidatePerOp mean over the candidate rounds, missing rounds at 0
 * @property {number} deltaPerOp mean paired difference, candidate − base (missing rows at 0, as
 *   the function diff counts them): the size shown
 * @property {number} leastPerOp the same with the base's missing rounds at their cut (the most a
 *   missing row can hide): the least the rise can be, which the floor applies to
 * @property {[number, number]} interval of deltaPerOp at the settings' confidence (paired t)
 * @property {number} pGreater one-sided p-value of the rise (before the split over functions)
 */

/**
 * @typedef {object} FunctionFinding a function whose count rose beyond its noise and the floor
 * @property {string} name as the profiled binary names it (untrusted text)
 * @property {string} object the ELF object (untrusted text)
 * @property {'appeared'|'rose'} kind appeared: no row in any base round
 * @property {'self'|'inclusive'} measure what rose: self (then inclusive may have too), or only inclusive
 * @property {FunctionRise} self
 * @property {FunctionRise} inclusive
 * @property {number} deltaPerOp the rise of the measure, instructions per operation
 * @property {number|null} shareOfFunction deltaPerOp / the base's count of the measure; null when
 *   the function appeared (nothing to be a share of)
 * @property {number} shareOfTotal deltaPerOp / the test's total (its base mean)
 */

/**
 * @typedef {object} TestFunctionFindings the judging of one test's per-function profiles,
 *   round by round (scripts/compare/function-findings.js judgeFunctionProfiles)
 * @property {number} rounds pairs of profiles judged
 * @property {number} judged functions judged (with a name, either side)
 * @property {number} totalPerOp the test's base total the shares are of (query path, else process)
 * @property {number} floorPerOp the floor that applied, instructions per operation
 * @property {FunctionFinding[]} findings largest rise first
 */

/**
 * @typedef {object} FunctionMoves the difference of two releases' per-function profiles
 *   (scripts/compare/function-diff.js diffProfiles), bounded to the functions that added and
 *   removed the most (at most 10 each) and the totals
 * @property {ProfileSide} base
 * @property {ProfileSide} candidate
 * @property {string|null} dispatchFunction the query path's function, as the profiles name it
 * @property {number} totalDelta candidate − base instructions per operation, whole process
 * @property {number|null} queryPathDelta null unless both sides have a query path
 * @property {number} unnamedDelta of totalDelta, in code without a symbol name
 * @property {number|null} unnamedShare unnamedDelta / totalDelta; null when the totals are equal
 * @property {{object: string, delta: number}[]} [unnamedByObject] unnamedDelta per ELF object
 *   (mariadbd, libc.so.6; '' where the profiles do not say), largest first; absent in
 *   comparisons stored before it was kept
 * @property {number} otherDelta of the functions below the profiles' share, together
 * @property {FunctionMove[]} added largest self increase first
 * @property {FunctionMove[]} removed largest self decrease first
 * @property {number} addedCount ranked functions with more self instructions, in all
 * @property {number} removedCount ranked functions with fewer, in all
 */

/**
 * @typedef {object} ProfileSide means over one side's counted repeats
 * @property {number} repeats
 * @property {number} totalPerOp
 * @property {number|null} queryPathPerOp
 * @property {number} unnamedSelfPerOp
 */

/**
 * @typedef {object} FunctionMove one function on both sides, per operation
 * @property {string} name
 * @property {string} object
 * @property {{selfPerOp: number, inclusivePerOp: number}} base
 * @property {{selfPerOp: number, inclusivePerOp: number}} candidate
 * @property {number} selfDelta
 * @property {number} inclusiveDelta
 * @property {number} missingRepeats
 * @property {boolean} ranked
 */

/**
 * @typedef {object} Comparison
 * @property {number} schemaVersion
 * @property {string} createdAt
 * @property {string} hostClass
 * @property {{cpuModel: string|null, cores: number|null}} [host] the machine the records ran on:
 *   each fact when every record agrees on it, else null; absent in comparisons made before it was
 *   kept. A calibration that stored other facts is not cited (compare/select-calibration.js)
 * @property {string} suite
 * @property {string} product
 * @property {string} line
 * @property {{version: string, runIds: string[]}} base
 * @property {{version: string, runIds: string[]}} candidate
 * @property {ComparisonRef} [ref] a comparison of an ad-hoc ref run: stored apart
 *   (`refs/verdicts/…`), never a release's verdict; absent in release comparisons
 * @property {ThresholdsConfig} thresholds the thresholds that produced these verdicts
 * @property {TestVerdict[]} tests
 * @property {Record<VerdictClass, number>} summary
 * @property {FamilyControl} [family] how the run's issues are controlled as a whole
 * @property {{test: string, metric: string, reason: string, ratio?: number}[]} [notJudged] gated
 *   metrics left unjudged: below their floor, within noise of zero, measured over too short a
 *   window (or the step's throughput was), quantized; ratio: candidate / base of the medians
 *   over the instances, shown marked as not judged
 * @property {AdaptiveSummary} [adaptive] what the adaptive repeats did, when they ran
 * @property {WarmupExclusion[]} [warmups] tests whose repeats had a warm-up left out of what
 *   was judged (scripts/compare/warm-up.js; absent when none had)
 * @property {RocksdbComparison[]} [rocksdb] RocksDB's own figures per test and side (MyRocks
 *   servers): informational, never a verdict
 * @property {TimedWorkComparison[]} [timedWork] the server's work per operation on the timed
 *   repeats, per test and side (scripts/compare/timed-work.js): context, never a verdict
 * @property {CountedTypeComparison[]} [countedTypes] a counted step's parts counted alone (a
 *   LinkBench request phase's operation types), per type: instructions per operation, base →
 *   candidate with the ratio (scripts/compare/counted-types.js): context, never a verdict
 */

/**
 * @typedef {object} TimedWorkComparison one test's work counters on the timed repeats, both sides
 * @property {string} test
 * @property {{base: number, candidate: number}} repeats valid timed repeats with work figures
 * @property {TimedWorkCounter[]} counters the most moved first
 */

/**
 * @typedef {object} TimedWorkCounter one work counter's medians per operation
 * @property {string} counter its key (products config workCounters: rowsRead, pagesWritten, ...)
 * @property {number|null} base null: no repeat of the side has a figure (see missing)
 * @property {number|null} candidate
 * @property {string} [missing] why a side has no figure (the flavor lacks the counter, the server
 *   reports none)
 */

/**
 * @typedef {object} CountedTypeComparison one counted test's parts (operation types) on both sides
 * @property {string} test
 * @property {string} meter the counting meter
 * @property {string} metric the figure compared (instructionsPerOp)
 * @property {string} unit
 * @property {CountedTypeRow[]} types in the order the parts were counted
 */

/**
 * @typedef {object} CountedTypeRow one part (operation type) counted alone
 * @property {string} type `GET_LINKS_LIST`, `ADD_LINK`, ...
 * @property {number|null} base median per operation over the side's rounds; null: not counted there
 * @property {number|null} candidate
 * @property {number} rounds rounds with a figure on both sides (paired by round when the
 *   releases ran side by side)
 * @property {number|null} ratio paired: the geometric mean of the rounds' ratios; otherwise
 *   candidate median / base median; null without a figure on a side
 * @property {[number, number]|null} ci the paired t interval of the ratio at the comparison's
 *   confidence; null with fewer than 2 paired rounds
 */

/**
 * @typedef {object} WarmupExclusion the first seconds of a test's repeats left out of its
 *   judged figures because the per-second rate was still climbing (docs/method.md, "Warm-up")
 * @property {string} test
 * @property {number[]} base seconds left out of each valid repeat of the base, in repeat order (0 = none)
 * @property {number[]} candidate the same for the candidate
 * @property {number} stillRamping repeats (both sides) whose rate had not reached its steady
 *   level by half-time: their second half was judged
 */

/**
 * @typedef {object} RocksdbComparison one test's RocksDB figures on both sides (scripts/compare/rocksdb-summary.js)
 * @property {string} test
 * @property {RocksdbSide|null} base null when the base's repeats have none (an InnoDB server)
 * @property {RocksdbSide|null} candidate
 */

/**
 * @typedef {object} RocksdbSide medians over one side's valid repeats with RocksDB figures
 * @property {number} repeats how many
 * @property {number|null} writeAmp (flush + compaction bytes) / user bytes; null when no repeat wrote
 * @property {number} stallS seconds writes were delayed or stopped
 * @property {number|null} spaceAmp SST bytes on disk / raw keys + values they hold; null without SST figures
 */

/**
 * @typedef {object} FamilyControl
 * @property {'holm'} method
 * @property {number} alpha family-wise level (thresholds.yml familyAlpha)
 * @property {number} size gated verdicts in the family
 * @property {number} minInstances instances per side the exact test needs before the most
 *   extreme result can pass alpha / size (the first Holm step); with meters, the largest of theirs
 * @property {FamilyMeter[]} [meters] alpha split between the meters (Bonferroni), Holm within
 *   each at its level; absent in comparisons made with one Holm over every verdict
 */

/**
 * @typedef {object} FamilyMeter one meter's part of the run's family-wise control
 * @property {string|null} meter its name (null: the timed repeats' own figures of records that
 *   name no meter)
 * @property {number} share its fraction of the run's alpha
 * @property {number} alpha its level: the run's alpha x share; Holm over its verdicts at this
 * @property {number} size its gated verdicts
 * @property {number} minInstances instances per side the exact test needs before the most
 *   extreme result can pass alpha / size
 */

/**
 * @typedef {object} AdaptiveSummary
 * @property {number} rounds extension rounds run
 * @property {number} seconds wall time they took
 * @property {number} budgetS the budget they had
 * @property {number} undecidedBefore undecided verdicts before the first round
 * @property {number} resolved of those, decided by the extra instances
 * @property {Record<string, number>} instancesNeeded per test: instances per side its verdicts
 *   were decided with (or had when the budget ran out)
 * @property {string} stopped why the rounds stopped
 */

/**
 * @typedef {object} TestVerdict
 * @property {string} test
 * @property {string} group
 * @property {string} metric `throughput`, `cpuUsPerOp`, `kbWrittenPerOp`, `stalls`, ...
 * @property {boolean} higherIsBetter
 * @property {{median: number, min: number, max: number, n: number}|null} base
 * @property {{median: number, min: number, max: number, n: number}|null} candidate
 * @property {number|null} ratio candidate median / base median
 * @property {[number, number]|null} ci confidence interval of the ratio
 * @property {number|null} mde minimum detectable relative effect on this host in the bad direction (a drop for throughput, a rise for latency; absolute, in the metric's unit, for linear metrics)
 * @property {VerdictClass} verdict
 * @property {string} reason the numbers that justify the verdict, in words
 * @property {boolean} [confirmed] set by `tagbench confirm`
 * @property {boolean} [context] true on a timed verdict shown, not gated: a counted verdict of its
 *   test answering the same question decided (scripts/compare/context-verdicts.js); outside the
 *   family and `summary`, never at the issue level
 * @property {string} [unit] the metric's unit (op/s, ms, µs/op, KB/op, ratio, share of seconds)
 * @property {'log'|'linear'} [scale] log: ratio + relative thresholds; linear (qpsCv, stallShare): difference + absolute thresholds, ci null
 * @property {number|null} [difference] candidate median - base median (metric unit)
 * @property {[number, number]|null} [differenceCi] interval of the difference (linear metrics)
 * @property {number|null} [coverage] achieved two-sided coverage of the exact rank interval
 * @property {number|null} [noiseCv] pooled within-release sd of ln(values) (≈ CV); sd in the unit for linear metrics
 * @property {{warn: number, issue: number}} [threshold] thresholds applied
 * @property {'open'|'note'|'ignore'} [policy] the test's issue policy (thresholds.yml `tests.<name>.policy`, default open) when the verdict was made; absent in comparisons written before it was stamped (then the comparison's thresholds say it)
 * @property {'warn'|'issue'|null} [level] threshold crossed by a regression/improvement
 * @property {{verdict: VerdictClass, level: 'warn'|'issue'|null, ratio: number|null, ci: [number, number]|null, reason: string, runIds: {base: string[], candidate: string[]}}} [confirmation] the rerun's own verdict (tagbench confirm)
 * @property {FunctionMoves} [functions] instructionsPerOp verdicts: where the instructions went,
 *   from the per-function profiles of the counted repeats judged (scripts/compare/function-diff.js)
 * @property {TestFunctionFindings} [functionFindings]
 *   instructionsPerOp verdicts paired by round: the functions whose self or inclusive instructions
 *   per operation rose beyond their noise across the rounds, or that appeared, even under the
 *   total's threshold (scripts/compare/function-findings.js); never opens an issue
 * @property {number} [resolutionMs] a quantized latency's step (the coarsest of its repeats, ms):
 *   its interval was widened by one step each way and its MDE is at least one step
 *   (scripts/compare/latency-resolution.js); absent for figures without a known coarse step
 */

// ---------------------------------------------------------------------------------------------
// Baselines (baselines/<host-class>/<product>/<line>/<suite>.yml, owned by scripts/store/baselines.js)

/**
 * @typedef {object} Baseline the accepted reference release of one product line, suite and host
 *   class. Written only by `tagbench baseline promote`; a run never changes it. Schema:
 *   scripts/store/schemas/baseline.schema.json.
 * @property {1} schemaVersion
 * @property {string} hostClass
 * @property {string} product
 * @property {string} line
 * @property {string} suite
 * @property {string} version the accepted reference release
 * @property {string[]} runIds the run records that stand for it (compare reads only these for the base)
 * @property {string} promotedAt ISO 8601
 * @property {{version: string, runIds: string[]}|null} [previous] the baseline this one replaced
 * @property {string} [note] why it was promoted
 */

/**
 * @typedef {object} IssueRef one regression issue of tagbench on GitHub, as `tagbench issues`
 *   lists them for the site (owned by scripts/store/issue-list.js)
 * @property {string} product
 * @property {string} line
 * @property {string} version
 * @property {string} hostClass
 * @property {string} suite
 * @property {number} number
 * @property {string} url
 * @property {'open'|'closed'} state
 * @property {string} title
 */

// ---------------------------------------------------------------------------------------------
// Change points of a release series (written by `tagbench compare`, read by the site)

/**
 * @typedef {object} Calibration one calibration of one meter on one host class: the conditions
 *   it ran under (which decide whether a run may cite it) and what it caught
 * @property {number} schemaVersion 1
 * @property {string} hostClass
 * @property {{cores: number|null, cpuModel: string|null}|null} host the runs' host facts
 * @property {string} meter the meter calibrated (`wall`: the timed repeats' own figures)
 * @property {'timed'|'counted'} kind
 * @property {string} metric whose verdicts judged detection (`throughput`, `instructionsPerOp`)
 * @property {string} suite
 * @property {string[]} tests
 * @property {string} product
 * @property {string} version
 * @property {{paired: boolean, instances: number}} design how its verdicts were made (CalibrationDesign)
 * @property {{maxOneMinute: number|null, conditions: string|null}} load the highest load average
 *   recorded (null: none recorded) and the report's own words on the machine. Despite its name:
 *   the one-minute figure where the report kept one (counted reports), but the five-minute figure
 *   after each run for timed reports, which keep only that (verify/calibrate/timed.js)
 * @property {string} startedAt ISO 8601, its first run's start
 * @property {string} measuredAt ISO 8601, its last run's end: the age is counted from here
 * @property {{runs: number, runsWithFalseIssue: number, upper95: number}} falseIssues A/A runs
 * @property {{size: number, trials: number, detected: number}[]} detection per injected size (a
 *   share: CPU slowdown for timed, added instructions for counted), smallest first: trials, and
 *   confirmed issue-level regressions among them
 * @property {string} source the report it was condensed from, relative to the project
 */

/**
 * @typedef {object} CalibrationDesign how a calibration's (or a run's) verdicts were made
 * @property {boolean} paired paired by round (releases side by side)
 * @property {number} instances instances per side (rounds when paired)
 */
