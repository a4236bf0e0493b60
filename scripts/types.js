/**
 * Shared data shapes of tagbench (typedefs only). Stages talk to each other through these
 * records, never through each other's internals. The JSON Schemas in scripts/store/schemas/
 * describe the same shapes for files on disk; test/store/schema-drift.test.js keeps them in step.
 *
 * Units are in the names: ...Ms milliseconds, ...S seconds, ...Kb kibibytes, ...Bytes bytes.
 */

export {};

// ---------------------------------------------------------------------------------------------
// Configuration (configs/*.yml, loaded and validated by scripts/config/)

/**
 * @typedef {object} Config everything under configs/, loaded and validated once by
 *   scripts/config/ (loadConfig) and handed to the stages frozen
 * @property {string} root project root the configs were read from
 * @property {Readonly<Record<string, ProductConfig>>} products
 * @property {Readonly<Record<string, HostClass>>} hosts
 * @property {Readonly<Record<string, SuiteConfig>>} suites
 * @property {Readonly<Record<string, string>>} mycnf template name -> template text (configs/mycnf/*.cnf)
 * @property {ThresholdsConfig} thresholds
 */

/**
 * @typedef {object} ProductConfig configs/products/<name>.yml
 * @property {string} name product id used everywhere (`mariadb`, `mysql`, ...)
 * @property {'mariadb'|'mysql'} flavor which server family: decides binaries and init commands
 * @property {string} displayName
 * @property {string} [dispatchFunction] the command-dispatch function whose inclusive
 *   instructions are the instructions meter's query path (default dispatch_command)
 * @property {Record<string, string|string[]|{missing: string}>} [workCounters] the work meter's
 *   counters (scripts/metrics/meters/work.js) -> the status variable(s) summed for each, or why
 *   the flavor has none
 * @property {string} [gitUrl] upstream repository for `tagbench watch`
 * @property {('innodb'|'rocksdb')[]} [engines] engines this product can run (default innodb)
 * @property {ProductLine[]} lines release lines (product line = product + line name)
 * @property {Record<string, DebVersionSource>} [deb] version -> Debian suite and packages
 */

/**
 * @typedef {object} ProductLine
 * @property {string} name e.g. `10.11`, `8.4`
 * @property {string} tagPattern regular expression over upstream tag names, first group = version
 * @property {string} [baseVersion] default base release for relative tables
 * @property {string} [minVersion] oldest version `tagbench watch` proposes (default: baseVersion)
 */

/**
 * @typedef {object} DebVersionSource
 * @property {string} suite Debian suite that ships this exact version (bookworm, bullseye, trixie, sid, bookworm-security)
 * @property {string} [packageVersion] exact Debian package version (e.g. `1:10.11.18-0+deb12u1`)
 */

/**
 * @typedef {object} HostClass configs/hosts/<name>.yml
 * @property {string} name
 * @property {string} description
 * @property {string[]} labels self-hosted runner labels of this class
 * @property {string} scale default suite scale preset name
 * @property {number} repeats repeats per test
 * @property {number} [instances] server instances (rounds, each a restart on the same datadir)
 *   the repeats of a run are spread over; default 2 (never more than repeats)
 * @property {{budgetS?: number, maxInstances?: number}} [adaptive] more repeats for undecided
 *   verdicts (`tagbench compare --adaptive`): time budget in seconds (default 900) and most
 *   server instances per release and test (default 12)
 * @property {MeterName[]} [meters] how runs on this class measure (default [wall]); a suite's
 *   meters and `run --meter` replace them
 * @property {{rounds?: number, repeats?: number, warmupShare?: number, parallel?: number, alone?: string[], shards?: number}} [counting] counted
 *   repeats of the instructions meter: server processes per release (default 3), repeats per
 *   process (default 1), the uncounted warm-up run as a share of a repeat's events (default 0.3),
 *   counting servers at once (default: this machine's cores, as many as its memory holds:
 *   scripts/run/count-schedule.js), tests counted one server at a time (default none), count
 *   jobs a workflow leg splits its counted phase into (default 1: the bench job counts;
 *   scripts/workflow/benchmark-plan.js planCountShards)
 * @property {number} [legBudgetH] hours a benchmark leg may take on a runner of this class;
 *   plans estimated over it are refused before any server starts (scripts/run/estimate.js)
 * @property {{loadRowsPerS?: number, countedInstructionsPerS?: number, countedRepeatOverheadS?: number,
 *   countedServerStartS?: number, countedSequenceStepS?: number, sourceBuildS?: number, debInstallS?: number, datadirCopyMBps?: number}} [estimate] the rates
 *   of the time estimate on this class's runners (defaults: estimate.js ESTIMATE_DEFAULTS)
 * @property {{serverCpus: string|null, clientCpus: string|null}} pinning taskset CPU lists, null = no pinning
 * @property {{smt?: 'on'|'off'|'any'}} [tuning] host tuning a runner of this class must have (doctor --strict)
 * @property {Record<string, string|number>} mycnf my.cnf overrides (e.g. innodb_buffer_pool_size)
 * @property {string} [workDir] where datadirs live on this host class
 * @property {{product: string, version: string}} [reference] release rerun in every benchmark
 *   cycle to watch the host itself: its drift is a host change (scripts/compare/host-drift.js)
 */

/**
 * @typedef {string} MeterName a key of scripts/metrics/meters/registry.js's map (the schemas check
 *   only its form, `^[a-z][a-z0-9-]*$`; the config and the CLI check it against the registry)
 */

/**
 * @typedef {object} SuiteConfig configs/suites/<name>.yml
 * @property {string} name
 * @property {string} description
 * @property {MeterName[]} [meters] how runs of this suite measure (replaces the host class's)
 * @property {number} tables
 * @property {number} tableSize rows per table
 * @property {number} clients
 * @property {number} readDurationS R
 * @property {number} writeDurationS W
 * @property {number} warmupS sysbench --warmup-time
 * @property {number} scanWarmDurationS duration of scan.warmpre
 * @property {number} restS rest after postwrite
 * @property {string[]} [only] run only these tests (names), in suite order
 * @property {'innodb'|'rocksdb'} [engine] storage engine of the suite's runs (default innodb);
 *   an explicit engine of the run or of a release wins
 * @property {string[]} [benchmarks] the benchmark plug-ins it runs, in order (names of
 *   scripts/workload/registry.js, checked when the suite is planned); default: the registry's
 *   DEFAULT_BENCHMARKS
 */

// ---------------------------------------------------------------------------------------------
// Install stage

/**
 * @typedef {object} ReleaseSpec what to install
 * @property {string} product
 * @property {string} version
 * @property {string} provider `deb` | `path` | `source` | `tarball` (scripts/install/registry.js)
 * @property {string} [path] prefix (`path`), tarball file (`tarball`), or git repository / mirror (`source`)
 * @property {string} [suite] Debian suite override for `deb`
 */

/**
 * @typedef {object} InstallResult an installed release, ready for scripts/server/
 * @property {'installed'|'skipped'|'failed'} status skipped = already in the cache
 * @property {string} product
 * @property {'mariadb'|'mysql'} flavor
 * @property {string} version
 * @property {string} provider
 * @property {string} prefix install prefix (contains usr/sbin/mariadbd or usr/sbin/mysqld)
 * @property {InstallBinaries} bin absolute paths
 * @property {string} pluginDir
 * @property {string} shareDir lc-messages-dir / charsets parent
 * @property {Record<string, string>} env extra environment for every process of this release
 * @property {Provenance} provenance
 * @property {string} [reason] when failed
 */

/**
 * @typedef {object} InstallBinaries
 * @property {string} server mariadbd / mysqld
 * @property {string|null} installDb mariadb-install-db (MariaDB) or null (MySQL uses --initialize-insecure)
 * @property {string} client mariadb / mysql
 * @property {string} admin mariadb-admin / mysqladmin
 */

/**
 * @typedef {object} Provenance
 * @property {string} product
 * @property {string} version
 * @property {string} provider
 * @property {string|null} debianSuite
 * @property {{name: string, version: string, sha256?: string}[]} packages
 * @property {string} serverSha256 sha256 of the server binary as installed
 * @property {string} serverVersionString what `mariadbd --version` printed
 * @property {string|null} tag upstream tag, when known
 * @property {string|null} commit upstream commit, when known
 * @property {string|null} buildProfile
 * @property {string[]|null} buildFlags
 * @property {string[]} patchedElf files whose interpreter/rpath were rewritten (foreign suites)
 */

// ---------------------------------------------------------------------------------------------
// Run records (scripts/types/record.js) and the analysis: thresholds, comparisons, verdicts,
// baselines, change points (scripts/types/comparison.js), re-exported so every stage imports
// its shapes from this one file.

/** @typedef {import('./types/record.js').RunRecord} RunRecord */
/** @typedef {import('./types/record.js').RecordSamples} RecordSamples */
/** @typedef {import('./types/record.js').RecordRelease} RecordRelease */
/** @typedef {import('./types/record.js').RecordRef} RecordRef */
/** @typedef {import('./types/record.js').RefBase} RefBase */
/** @typedef {import('./types/record.js').ComparisonRef} ComparisonRef */
/** @typedef {import('./types/record.js').RecordHost} RecordHost */
/** @typedef {import('./types/record.js').RecordConfig} RecordConfig */
/** @typedef {import('./types/record.js').MeterSetup} MeterSetup */
/** @typedef {import('./types/record.js').MeterMetric} MeterMetric */
/** @typedef {import('./types/record.js').Step} Step */
/** @typedef {import('./types/record.js').StepMeterRun} StepMeterRun */
/** @typedef {import('./types/record.js').CountedRepeat} CountedRepeat */
/** @typedef {import('./types/record.js').InstructionFigures} InstructionFigures */
/** @typedef {import('./types/record.js').Repeat} Repeat */
/** @typedef {import('./types/record.js').CounterFigures} CounterFigures */
/** @typedef {import('./types/record.js').TimedWorkFigures} TimedWorkFigures */
/** @typedef {import('./types/record.js').CounterPerOp} CounterPerOp */
/** @typedef {import('./types/record.js').CounterEvent} CounterEvent */
/** @typedef {import('./types/record.js').Interval} Interval */
/** @typedef {import('./types/record.js').Efficiency} Efficiency */
/** @typedef {import('./types/record.js').RocksdbFigures} RocksdbFigures */
/** @typedef {import('./types/record.js').DbSize} DbSize */
/** @typedef {import('./types/comparison.js').ThresholdsConfig} ThresholdsConfig */
/** @typedef {import('./types/comparison.js').VerdictClass} VerdictClass */
/** @typedef {import('./types/comparison.js').FunctionMoves} FunctionMoves */
/** @typedef {import('./types/comparison.js').FunctionRise} FunctionRise */
/** @typedef {import('./types/comparison.js').FunctionFinding} FunctionFinding */
/** @typedef {import('./types/comparison.js').TestFunctionFindings} TestFunctionFindings */
/** @typedef {import('./types/comparison.js').ProfileSide} ProfileSide */
/** @typedef {import('./types/comparison.js').FunctionMove} FunctionMove */
/** @typedef {import('./types/comparison.js').Comparison} Comparison */
/** @typedef {import('./types/comparison.js').WarmupExclusion} WarmupExclusion */
/** @typedef {import('./types/comparison.js').RocksdbComparison} RocksdbComparison */
/** @typedef {import('./types/comparison.js').RocksdbSide} RocksdbSide */
/** @typedef {import('./types/comparison.js').TimedWorkComparison} TimedWorkComparison */
/** @typedef {import('./types/comparison.js').TimedWorkCounter} TimedWorkCounter */
/** @typedef {import('./types/comparison.js').CountedTypeComparison} CountedTypeComparison */
/** @typedef {import('./types/comparison.js').CountedTypeRow} CountedTypeRow */
/** @typedef {import('./types/comparison.js').FamilyControl} FamilyControl */
/** @typedef {import('./types/comparison.js').FamilyMeter} FamilyMeter */
/** @typedef {import('./types/comparison.js').AdaptiveSummary} AdaptiveSummary */
/** @typedef {import('./types/comparison.js').TestVerdict} TestVerdict */
/** @typedef {import('./types/comparison.js').Baseline} Baseline */
/** @typedef {import('./types/comparison.js').IssueRef} IssueRef */
/** @typedef {import('./types/change-points.js').ChangePoints} ChangePoints */
/** @typedef {import('./types/change-points.js').ChangePointMethod} ChangePointMethod */
/** @typedef {import('./types/change-points.js').ChangePointRelease} ChangePointRelease */
/** @typedef {import('./types/change-points.js').ChangePointSeries} ChangePointSeries */
/** @typedef {import('./types/change-points.js').ChangePointSeriesRelease} ChangePointSeriesRelease */
/** @typedef {import('./types/change-points.js').DetectedChangePoint} DetectedChangePoint */
/** @typedef {import('./types/comparison.js').Calibration} Calibration */
/** @typedef {import('./types/comparison.js').CalibrationDesign} CalibrationDesign */
