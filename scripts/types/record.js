/**
 * Shapes of a run record (typedefs only): what `tagbench run` writes and scripts/store/ stores,
 * down to one repeat's figures. scripts/store/schemas/run-record.schema.json describes the same
 * shapes on disk; test/store/schema-drift.test.js keeps them in step. Re-exported by
 * scripts/types.js, where the other stages import them from.
 *
 * Units are in the names: ...Ms milliseconds, ...S seconds, ...Kb kibibytes, ...Bytes bytes.
 */

export {};

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
 * @property {string} [answers] the question the figure answers where another meter's answers it
 *   too (scripts/metrics/types.js MeterMetric)
 */

/**
 * @typedef {object} MeterSetup
 * @property {string[]} wrapper the command line the server ran under (before the server's own)
 * @property {Record<string, string|number>} mycnf my.cnf values the wrapped server needed
 * @property {{rounds: number, repeats: number, warmupShare: number, parallel?: number, shard?: {index: number, of: number}}} counting server processes
 *   per release, counted repeats per process, warm-up run per repeat as a share of its events;
 *   parallel: counting servers that ran at once (absent in older records: one); shard: the share
 *   of the counted tests this run counted (`run --count-shard k/n`, k 1-based), absent: all
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
 * @property {string} [alone] why the step was counted with no other counting server running
 *   (the host class's `counting.alone`); absent: beside the other releases' servers when the run
 *   counted several at once (config.meterSetup.<meter>.counting.parallel)
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
 * @property {Record<string, CountedRepeat>} [byType] the step's parts counted apart after it, each
 *   in a meter window of its own (a LinkBench request phase: each operation type alone, its
 *   figures per operation of that type), by part name
 * @property {Record<string, number>} [operationsByType] operations of each type, when the tool
 *   reports them (a LinkBench phase: GET_LINKS_LIST, ADD_LINK, ..., LOAD_LINKS_BULK): both
 *   releases' counts are then seen to be of the same work
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
 *   meter name (`counters`: CounterFigures; `work`: TimedWorkFigures, the server's status
 *   counters over the repeat, context only); absent when the run had none (schemaVersion 1 kept
 *   the counters meter's figures in `counters`: the store's migration moved them here)
 */

/**
 * @typedef {object} TimedWorkFigures the work meter's counters over one timed repeat, per
 *   operation (scripts/metrics/meters/work.js computeTimedWorkFigures): context beside the timed
 *   verdict, never gated (each release does as much work as it manages in the repeat's seconds)
 * @property {number} operations the measured window's operations (throughput × windowS)
 * @property {number} windowS the tool's measured window, seconds
 * @property {number} sampledS seconds between the two status reads (start, connect and warm-up
 *   included)
 * @property {number} workS seconds the change is taken as a rate over, then applied to windowS:
 *   the tool's warm-up plus windowS when the step says its warm-up, else sampledS
 * @property {Record<string, number|null>} perOp counter key (the product's workCounters) ->
 *   change per operation; null: see missing
 * @property {Record<string, string>} missing counter key -> why its figure is null
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
