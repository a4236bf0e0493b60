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
 * @property {{rounds?: number, repeats?: number, warmupShare?: number}} [counting] counted
 *   repeats of the instructions meter: server processes per release (default 3), repeats per
 *   process (default 1), the uncounted warm-up run as a share of a repeat's events (default 0.3)
 * @property {number} [legBudgetH] hours a benchmark leg may take on a runner of this class;
 *   plans estimated over it are refused before any server starts (scripts/run/estimate.js)
 * @property {{loadRowsPerS?: number, countedInstructionsPerS?: number, countedRepeatOverheadS?: number,
 *   countedServerStartS?: number, sourceBuildS?: number, debInstallS?: number}} [estimate] the rates
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

/**
 * @typedef {object} ThresholdsConfig configs/thresholds.yml (full use in scripts/compare/)
 * @property {number} [confidence] two-sided confidence of the ratio's interval
 * @property {number} [power] power for the minimum detectable effect
 * @property {number} [familyAlpha] family-wise level of the issues a run opens (Holm)
 * @property {number} [pairedMinRounds] rounds side by side from which a comparison is paired by round (0 = never)
 * @property {Record<string, {warn: number, issue: number}>} groups relative change per group
 * @property {Record<string, {warn: number, issue: number, floor?: number, minDurationS?: number}>} [metrics] other gated metrics
 * @property {Record<string, {warn?: number, issue?: number, policy?: 'open'|'note'|'ignore', metrics?: Record<string, {warn?: number, issue?: number, floor?: number, minDurationS?: number}>}>} [tests] per-test overrides
 * @property {{stallFraction: number, minIntervals: number}} [qos] quality of service from per-second rates
 * @property {{windowLen: number, maxPValue: number, minMagnitude: number}} [changePoints] apache-otava settings
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
// Run records (the unit of truth, written by `tagbench run`, stored by scripts/store/)

/**
 * @typedef {object} RunRecord
 * @property {number} schemaVersion
 * @property {string} id unique run id, safe as a file name
 * @property {string} startedAt ISO 8601
 * @property {string|null} finishedAt ISO 8601, null while running
 * @property {'ok'|'failed'|'partial'} status ok = every step ok; failed = some step failed; partial = interrupted
 * @property {string} [reason] why failed/partial
 * @property {RecordRelease} release
 * @property {RecordHost} host
 * @property {RecordConfig} config
 * @property {Step[]} steps in suite order
 * @property {{afterLoad: DbSize|null, atEnd: DbSize|null}} dbSize
 * @property {RecordSamples} [samples] where the per-second samples are stored: on disk the
 *   repeats then have no intervals, and the store's readers put them back from this file; absent
 *   = intervals inline (records written before samples files)
 */

/**
 * @typedef {object} RecordSamples where a record's per-second samples are stored (scripts/store/record-samples.js)
 * @property {string} file the samples file's name, in the record's folder (`<run-id>.samples.json.gz`)
 * @property {number} intervals how many per-second samples it holds, over every step and repeat
 * @property {string} sha256 hex digest of the file's bytes: a reader refuses a file that is not this one
 */

/**
 * @typedef {object} RecordRelease
 * @property {string} product
 * @property {string} line product line name (`10.11`)
 * @property {string} version
 * @property {string|null} tag
 * @property {string|null} commit
 * @property {string} [movedFrom] the commit the release's tag pointed at when it was benchmarked
 *   before: watch saw the tag moved and proposed it again (`run --moved-from`); absent otherwise
 * @property {RecordRef} [ref] the record is of an ad-hoc ref run (`run --ref`), stored apart
 *   (`refs/runs/…`) and never part of a release series; absent in release runs
 * @property {string} provider
 * @property {string|null} buildProfile
 * @property {string[]|null} buildFlags
 * @property {string} binarySha256
 * @property {string} serverVersionString
 * @property {{name: string, version: string}[]} packages
 */

/**
 * @typedef {object} RecordRef the ad-hoc ref run (`run --ref`) a record belongs to, the same on
 *   both sides' records but for role
 * @property {'candidate'|'base'} role the ref under test, or the base run beside it
 * @property {string} name the candidate's ref as given (`pull/123/head`, a branch, a tag, a full
 *   commit id)
 * @property {string} repository where the code was fetched from: a URL without user name or
 *   password, or a local folder
 * @property {number|null} pullRequest the pull request number when the candidate was `pull/N/head`
 * @property {string} commit the candidate's full commit id (the record's own: release.commit)
 * @property {RefBase} base what the candidate is compared with
 */

/**
 * @typedef {object} RefBase the base of a ref run
 * @property {'branched-from'|'pull-request-base'|'named'} how the newest release whose tag is an
 *   ancestor of the candidate; the merge base with --base-ref; the release --base names
 * @property {string} version the base side's version
 * @property {string|null} ref its release tag, or --base-ref as given
 * @property {string} commit its full commit id
 */

/**
 * @typedef {object} ComparisonRef the candidate of a ref comparison (`compare --ref`) and its base
 * @property {string} name the candidate's ref as given
 * @property {string} repository URL without credentials, or local folder
 * @property {number|null} pullRequest
 * @property {string} commit the candidate's full commit id
 * @property {RefBase} base
 */

/**
 * @typedef {object} RecordHost
 * @property {string} class
 * @property {string} hostname
 * @property {string} cpuModel
 * @property {number} cores
 * @property {string} kernel
 * @property {number} memoryBytes
 * @property {string|null} governor cpufreq governor, null when not exposed (VMs)
 * @property {boolean|null} turbo null when unknown
 * @property {{serverCpus: string|null, clientCpus: string|null}} pinning
 */

/**
 * @typedef {object} RecordConfig
 * @property {string} suite
 * @property {{tables: number, tableSize: number, clients: number, readDurationS: number, writeDurationS: number, warmupS: number}} scale
 * @property {'innodb'|'rocksdb'} engine
 * @property {{name: string, text: string, sha256: string}} mycnf full rendered my.cnf
 * @property {Record<string, string>} tools tool versions (sysbench, node, tagbench...)
 * @property {number} repeats
 * @property {number} [instances] server instances the repeats were spread over (absent in
 *   records before instances existed: each repeat then counts as its own instance)
 * @property {string[]} [only] the tests this run was limited to (an adaptive extension)
 * @property {string[]} [alternatedWith] versions run alternately in the same job
 * @property {string[]} [meters] the meters that measured this run (absent = `wall` only): `wall`
 *   (and `counters`) on the timed repeats, a counting meter (`instructions`) on its own servers
 * @property {Record<string, MeterSetup>} [meterSetup] per counting meter: how its servers were
 *   started and what its counts depend on
 * @property {Record<string, MeterMetric[]>} [meterMetrics] per meter with metrics of its own (every
 *   meter but wall): the metrics compare judges and the site shows, as the meter stated them when
 *   the run was made; a reader needs no meter registry. Present whenever `meters` names such a meter
 */

/**
 * @typedef {object} MeterMetric one metric of a meter (scripts/metrics/types.js MeterMetric)
 * @property {string} name as in TestVerdict.metric and thresholds.yml `metrics`
 * @property {string} figure dot path of the figure in the meter's figures block of a repeat
 *   (timed: `Repeat.meters.<meter>`; counted: `CountedRepeat.<meter>`)
 * @property {string} unit
 * @property {boolean} higherIsBetter
 * @property {'log'|'linear'} scale
 * @property {string} label how the site names it
 */

/**
 * @typedef {object} MeterSetup
 * @property {string[]} wrapper the command line the server ran under (before the server's own)
 * @property {Record<string, string|number>} mycnf my.cnf values the wrapped server needed
 * @property {{rounds: number, repeats: number, warmupShare: number}} counting server processes
 *   per release, counted repeats per process, warm-up run per repeat as a share of its events
 * @property {Record<string, string>} dependsOn what the counts depend on beyond the release
 *   (CPU model and flags, glibc, valgrind): counts compare only where these are equal
 */

/**
 * @typedef {object} Step
 * @property {string} name test name (`point-query.pre`, `update-index`, ...)
 * @property {string} kind what ran it, in the plug-in name form (`^[a-z][a-z0-9-]*$`): a
 *   benchmark plug-in's name (`sysbench` = a timed sysbench test, `ibench`, `linkbench`, ...: a key
 *   of scripts/workload/registry.js) or a setup step's kind (`load`, `postwrite`); see StepKind in
 *   scripts/workload/types.js
 * @property {'point'|'range'|'range-agg'|'write'|'setup'} group reporting group; setup = not reported
 * @property {boolean} reported false for warm-up steps (not in tables)
 * @property {string} metric what `throughput` means: `qps` or `rows/s` (scan)
 * @property {Record<string, string|number|boolean>} params options passed to the tool
 * @property {'ok'|'failed'|'skipped'} status
 * @property {string} [reason] when failed or skipped
 * @property {string} [logExcerpt] tail of the error log / tool output when failed
 * @property {Repeat[]} repeats
 * @property {Record<string, StepMeterRun>} [meters] counted repeats of the step by meter name
 *   (`instructions`): run on servers of their own right after the load, before the timed repeats; absent when no
 *   counting meter ran it
 */

/**
 * @typedef {object} StepMeterRun a counting meter's repeats of one step
 * @property {'ok'|'failed'|'skipped'} status failed = some repeat failed (the others still count)
 * @property {string} [reason]
 * @property {CountedRepeat[]} repeats
 */

/**
 * @typedef {object} CountedRepeat one repeat of a fixed amount of work under a counting meter
 * @property {number} index 0-based repeat within its server process
 * @property {number} instance 0-based round: the server process (one per release and round)
 * @property {string} startedAt
 * @property {string} meter the meter that produced the figures (`instructions`)
 * @property {number} events the tool's events (sysbench --events)
 * @property {number} seed the tool's random seed (the same for every release)
 * @property {number} durationS wall seconds of the counted run (under the meter: not a speed)
 * @property {'ok'|'failed'} status
 * @property {string} [reason]
 * @property {number} [operations] operations in the step's metric (queries; rows of a scan)
 * @property {InstructionFigures} [instructions] the instructions meter's figures
 * @property {string} [profile] raw log holding the repeat's per-function profile (JSON, per op)
 */

/**
 * @typedef {object} InstructionFigures instructions per operation counted by callgrind
 * @property {number} operations what the counts were divided by
 * @property {number} queryPathPerOp inclusive count of the dispatch function: the query path
 * @property {number} processPerOp every instruction of the server process over the repeat, all threads
 * @property {number} unnamedSelfPerOp of processPerOp, in code without a symbol name (stripped binaries)
 * @property {string} dispatchFunction the function whose inclusive count is the query path
 * @property {number} countedS wall seconds between zeroing and dumping the counters
 * @property {number|null} [purgeWaitS] seconds waited for InnoDB's purge of earlier writes before
 *   zeroing (its progress changed the query path's count); null = not waited (absent in the first records)
 * @property {boolean} [purgeHeld] a read view kept InnoDB's purge from running while counted (absent in
 *   records before it: purge then raced the client's writes)
 * @property {number|null} [flushWaitS] seconds waited for the buffer pool's dirty pages to be written
 *   before zeroing (a page flush during the count did part of the commit's log write in the page
 *   cleaner); null = not waited (absent in records before it)
 */

/**
 * @typedef {object} Repeat
 * @property {number} index 0-based repeat number
 * @property {number} [instance] 0-based server instance of the run that produced it (a restart
 *   starts a new instance); absent in older records
 * @property {string} startedAt
 * @property {number} durationS measured duration
 * @property {'ok'|'failed'} status
 * @property {string} [reason]
 * @property {number|null} throughput per second, in the step's metric (qps, or rows/s for scans); null when the repeat failed (never 0 for a failure)
 * @property {number|null} tps transactions per second (sysbench), 0 when not applicable, null when failed
 * @property {{avg: number, p95: number, p99: number|null, max: number}|null} latencyMs per event; null when the repeat failed
 * @property {number} errors
 * @property {number} reconnects
 * @property {Interval[]} intervals per-second rates
 * @property {Efficiency|null} efficiency
 * @property {number|null} mysqldRssKb at the end of the repeat
 * @property {{basis: 'datadir'|'all', devices: string[]}|null} [ioDevices] which block devices the per-op I/O figures count
 * @property {Record<string, object>} [details] a sequence benchmark's own figures, under its name
 *   (`ibench`: scripts/workload/README.md); absent for sysbench steps
 * @property {RocksdbFigures|null} [rocksdb] RocksDB's own figures over the repeat (MyRocks
 *   servers only; absent for InnoDB and in older records; null when they could not be read)
 * @property {Record<string, object>} [meters] the figures of the timed meters other than wall, by
 *   meter name (`counters`: CounterFigures); absent when the run had none (schemaVersion 1 kept
 *   the counters meter's figures in `counters`: the store's migration moved them here)
 */

/**
 * @typedef {object} CounterFigures the counters meter's figures of one timed repeat
 * @property {number} windowS seconds perf counted (enable ack to disable ack)
 * @property {number} measuredS the tool's measured window the per-op figures are scaled to
 * @property {number} operations ops = throughput × measuredS
 * @property {string|null} llcMissesEvent which event llcMissesPerOp counts: LLC-load-misses
 *   (demand loads) when counted, else cache-misses; null: neither was requested
 * @property {CounterEvent[]} events every requested event, in request order
 * @property {string[]} notSupported events perf printed as `<not supported>`
 * @property {string[]} notCounted events perf printed as `<not counted>`
 * @property {Record<string, number>} scaledFigures figure -> lowest % running among its events,
 *   for figures computed from multiplexed (< 100 %) counts only
 * @property {Record<string, string>} missingFigures figure -> why it is null
 * @property {CounterPerOp} perOp the figures compare gates
 */

/**
 * @typedef {object} CounterPerOp per operation of the timed repeat; null = not counted (the reason
 *   is in missingFigures)
 * @property {number|null} instructionsPerOp
 * @property {number|null} cyclesPerOp
 * @property {number|null} ipc instructions per cycle
 * @property {number|null} branchMissesPerOp
 * @property {number|null} llcMissesPerOp
 */

/**
 * @typedef {object} CounterEvent one requested event over the repeat
 * @property {string} event as requested (`instructions`)
 * @property {string|null} printedAs as perf printed it when that differs (`instructions:u`), else null
 * @property {'counted'|'not supported'|'not counted'|'absent'} status absent = perf printed no
 *   line for it (it died, or named the event differently)
 * @property {number|null} count over perf's window (scaled by perf when multiplexed)
 * @property {string} unit perf's unit of count (`msec` for task-clock, '' for plain counts)
 * @property {number|null} runningPct % of the window the event was on a counter
 * @property {boolean} scaled runningPct < 100: count is perf's estimate from part of the window
 * @property {boolean} userOnly perf counted user space only (`:u`: perf_event_paranoid forbids
 *   kernel counting to a non-root user)
 */

/**
 * @typedef {object} Interval one --report-interval line
 * @property {number} t seconds since start
 * @property {number} qps
 * @property {number} tps
 * @property {number|null} latencyMs the interval's percentile latency (sysbench prints p95); null
 *   when the driver reports no per-second latency (LinkBench)
 * @property {number} errors per second
 * @property {number} [inserts] sequence benchmarks: rows inserted in this second
 * @property {number} [deletes] sequence benchmarks: rows deleted in this second
 * @property {number} [queries] sequence benchmarks: queries completed in this second
 * @property {number} [insertMaxMs] sequence benchmarks: slowest INSERT completed in this second
 * @property {number} [deleteMaxMs] sequence benchmarks: slowest DELETE completed in this second
 * @property {number} [queryMaxMs] sequence benchmarks: slowest query completed in this second
 */

/**
 * @typedef {object} Efficiency per operation (operation = query, or row for scans)
 * @property {number} cpuUsPerOp CPU time (user + system) in µs per op: of the step's own processes
 *   (the server, all its threads; tagbench and the tool processes it ran) when cpuScope is
 *   'processes', else (records before that existed) the whole machine's vmstat us+sy × cores
 * @property {'processes'} [cpuScope] how cpuUsPerOp was counted: 'processes' = the step's own
 *   processes from /proc; absent = the whole machine (older records)
 * @property {number} csPerOp context switches per op
 * @property {number} readsPerOp storage reads per op
 * @property {number} kbReadPerOp
 * @property {number} kbWrittenPerOp
 */

/**
 * @typedef {object} RocksdbFigures RocksDB's own figures over one repeat (scripts/metrics/compute-rocksdb-figures.js)
 * @property {number} userBytesWritten keys + values the server wrote into RocksDB
 * @property {number} walBytesWritten bytes written to the WAL
 * @property {number} flushBytesWritten bytes memtable flushes wrote to SST files
 * @property {number} compactionBytesWritten bytes compactions wrote
 * @property {number} compactionBytesRead bytes compactions read
 * @property {number|null} writeAmp (flush + compaction bytes written) / user bytes written; null when nothing was written
 * @property {number} stallMicros time writes were delayed or stopped
 * @property {number} stallSlowdowns writes delayed
 * @property {number} stallStops writes stopped
 * @property {Record<string, number>} stallsByCause Rocksdb_stall_<cause> deltas (l0_file_count_limit_slowdowns, memtable_limit_stops, ...)
 * @property {number} memtableBytes memtable size at the end (written, not yet flushed)
 * @property {{level: string, files: number, bytes: number}[]} levels LSM tree at the end: files and bytes per level, every column family
 * @property {{files: number, bytes: number, rawBytes: number}|null} sst live SST files at the end: on-disk bytes and the keys + values they hold uncompressed
 */

/**
 * @typedef {object} DbSize
 * @property {number} logicalBytes data_length + index_length over the benchmark tables
 * @property {number} onDiskBytes size of the datadir
 */

// ---------------------------------------------------------------------------------------------
// Comparison and verdicts (written by `tagbench compare`, read by report and site)

/**
 * @typedef {'regression'|'improvement'|'unchanged'|'inconclusive'|'failed'} VerdictClass
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
 * @property {{test: string, metric: string, reason: string}[]} [notJudged] gated metrics left
 *   unjudged: below their floor, within noise of zero, or measured over too short a window
 * @property {AdaptiveSummary} [adaptive] what the adaptive repeats did, when they ran
 * @property {WarmupExclusion[]} [warmups] tests whose repeats had a warm-up left out of what
 *   was judged (scripts/compare/warm-up.js; absent when none had)
 * @property {RocksdbComparison[]} [rocksdb] RocksDB's own figures per test and side (MyRocks
 *   servers): informational, never a verdict
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
 *   extreme result can pass alpha / size (the first Holm step)
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
