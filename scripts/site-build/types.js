/**
 * Shapes of the site stage: what the builder reads (SiteInput) and the JSON files it writes
 * under data/ for the pages (every file carries schemaVersion; numbers stay numbers and are
 * formatted only in the browser). The pages read exactly these shapes.
 */
export {};

/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('../types.js').Comparison} Comparison */
/** @typedef {import('../types.js').TestVerdict} TestVerdict */
/** @typedef {import('../types.js').FunctionMoves} FunctionMoves */
/** @typedef {import('../types.js').VerdictClass} VerdictClass */
/** @typedef {import('../store/index.js').ChangePoints} ChangePoints */
/** @typedef {import('../types.js').Baseline} Baseline */
/** @typedef {import('../types.js').IssueRef} IssueRef */

/**
 * @typedef {object} StoredComparison a comparison file with where it came from
 * @property {string} id file name without .json (the comparison id)
 * @property {Comparison} comparison
 * @property {import('../compare/index.js').Suspect[]} [suspects] its inconclusive verdicts that
 *   lean the bad way (compare's findSuspects), found from the full verdicts before the site
 *   slims them
 * @property {string} [howSure] how sure its verdicts are (compare's describeHowSure), worded from
 *   the full verdicts and the host class's stored calibrations before the site slims them
 * @property {ReturnType<typeof import('../compare/index.js').computeRunDesigns>} [runDesigns]
 *   each meter's headline metric and the design of its verdicts (paired rounds or instances),
 *   kept from the full verdicts: what a calibration must share to be cited for them
 */

/**
 * @typedef {object} SiteInput one slice of the store (its runs, comparisons, change points and
 *   bisects) and what the site reads beside it
 * @property {RunRecord[]} records
 * @property {StoredComparison[]} comparisons
 * @property {Baseline[]} baselines
 * @property {IssueRef[]} issues
 * @property {Record<string, {displayName: string, baseVersions: Record<string, string>}>} products
 *   product id -> display name and line -> configured base version (from configs/, optional)
 * @property {ChangePoints[]} [changePoints] the change-point files of the store (compare stage,
 *   apache-otava), one per product line × host class × suite; none = no marks
 * @property {(import('../store/index.js').BisectReport & {id: string})[]} [bisects] the bisect reports
 *   (tagbench bisect) of the slice; their bad and first bad releases' pages show them
 * @property {ReturnType<typeof import('./build-calibration-data.js').hostCalibration>} [calibration]
 *   the slice's host class's calibration (bench/calibration-<host>.json): the release pages say
 *   how sure their verdicts are from it
 * @property {DeletedTags|null} [deletedTags] tags upstream deleted (`tagbench watch
 *   --deleted-tags-out`): the pages of releases whose runs name one say "tag deleted"
 * @property {Set<string>} [detailVersions] the versions whose "where the instructions went"
 *   tables get a file of their own (tagbench site --detail-releases); absent = every version
 */

/**
 * @typedef {object} DeletedTags the file `tagbench watch --deleted-tags-out` writes (the site reads
 *   no upstream itself)
 * @property {string} checkedAt when watch read upstream's tags (ISO 8601)
 * @property {{product: string, tag: string}[]} deleted
 */

/**
 * @typedef {object} ReleaseTagStatus what happened to a release's tag upstream (release data `tag`)
 * @property {{runId: string, tag: string|null, from: string, to: string|null}[]} moved runs made
 *   because the tag had moved: "moved from <from> to <to>" (the record's release.movedFrom, release.commit)
 * @property {{tags: string[], checkedAt: string}|null} deleted the release's tags upstream no
 *   longer has, when watch last looked; null when none (or not known)
 */

/**
 * @typedef {object} TableRelease one column of a table
 * @property {string} version
 * @property {string|null} date finishedAt of the newest run, ISO 8601
 * @property {{id: string, status: string, startedAt: string, record: string}[]} runs
 * @property {{id: string, baseVersion: string, createdAt: string, summary: Record<string, number>, file: string}|null} comparison
 *   the newest comparison whose candidate is this release
 */

/** @typedef {import('../compare/index.js').ShownRatio} ShownRatio */

/**
 * @typedef {object} TableTest one row of a table
 * @property {string} name
 * @property {string} group
 * @property {string} metric `qps` or `rows/s`
 * @property {(number|null)[]} values median throughput per release (aligned with releases), null = no ok repeat
 * @property {number[]} n ok repeats behind each value
 * @property {(VerdictClass|null)[]} verdicts throughput verdict per release from its comparison, null = none
 * @property {([number, number, number]|null)[]} intervals that verdict's own ratio (paired by
 *   round) and interval, `[ratio, low, high]` to four decimals, against the comparison's base
 *   (releases[i].comparison); null = no verdict or no interval
 * @property {(ShownRatio|null)[]} shown the ratio every page prints for the release against its
 *   comparison's base (releases[i].comparison.baseVersion): the verdict's estimate, or the
 *   medians' ratio marked not judged with why (scripts/compare/shown-ratio.js); null = no
 *   comparison
 * @property {Record<string, {metric: string, unit: string, label: string, values: (number|null)[], n: number[], verdicts: (VerdictClass|null)[], shown: (ShownRatio|null)[]}>} [counted]
 *   each counting meter's figures per release (aligned with releases), by meter name: the median
 *   of its first metric over the counted repeats, how many, and that metric's verdict; a meter
 *   is absent when no release of the table counted the test with it, the field when none did
 */

/**
 * @typedef {object} TestChangePoints the `changePoints` of data/tests/…/<test>.json: the
 *   stored change points (compare stage, apache-otava) of one test's throughput
 * @property {string} createdAt when the compare that computed them ran
 * @property {ChangePoints['method']} method
 * @property {string[]} releases the series they were computed over, oldest first (newer
 *   releases of the table were not part of it)
 * @property {string} file site path of the change-point file's copy
 * @property {boolean} analysed false when the file has no series of this test
 * @property {boolean} higherIsBetter direction of the metric
 * @property {import('../store/index.js').DetectedChangePoint[]} points
 */

/**
 * @typedef {object} TableData data/tables/<host>/<product>/<line>/<suite>.json
 * @property {number} schemaVersion
 * @property {string} product
 * @property {string} productName
 * @property {string} line
 * @property {string} host
 * @property {string} suite
 * @property {string|null} defaultBase version the ratios use unless the reader picks another
 * @property {string} defaultBaseSource `baseline`, `config` or `oldest`: why that release
 * @property {TableRelease[]} releases in version order, oldest first
 * @property {{name: string, label: string, tests: string[]}[]} groups reporting groups, in suite order
 * @property {TableTest[]} tests in suite order
 * @property {string} csv path of the CSV download
 * @property {TableSweep[]} [sweeps] concurrency sweeps (only when the suite has one)
 */

/**
 * @typedef {object} TableSweep one test run at several client counts, each count a test of
 *   its own (`point-query.c4`): the line page charts throughput by clients
 * @property {string} test the swept test, e.g. `point-query`
 * @property {string} metric
 * @property {number[]} clients ascending
 * @property {string[]} tests the test of each count (names in `tests`), in the same order
 */

/**
 * @typedef {object} BelowThreshold the release page's "Below the threshold, named": functions
 *   whose instructions per operation rose beyond their noise (compare's function findings),
 *   whatever the tests' totals did; listed, never an issue by themselves
 * @property {number} testsJudged instruction verdicts judged per function
 * @property {number} more functions found but not listed (in the comparison file)
 * @property {{name: string, object: string, change: string, tests: {test: string, deltaPerOp: number, shareOfTotal: number}[]}[]} functions
 *   largest share of a test's total first; name and object are untrusted text
 */

/**
 * @typedef {object} FunctionsData data/functions/<host>/<product>/<version>/<suite>.json: where
 *   the instructions went in a release's comparison, per test with an instructionsPerOp verdict
 *   that has it (the release page draws one chart each)
 * @property {number} schemaVersion
 * @property {string} host
 * @property {string} product
 * @property {string} version the candidate
 * @property {string} suite
 * @property {string} comparisonId
 * @property {string} baseVersion
 * @property {{test: string, functions: FunctionMoves, words: {listed: string|null, unnamed: string}}[]} tests
 *   the functions rows keep name, object, both sides' self and inclusive counts and the deltas;
 *   words: compare's label of a list explaining under half of the difference (null otherwise)
 *   and its sentence on the code without a name (which objects, the command that names it)
 */
