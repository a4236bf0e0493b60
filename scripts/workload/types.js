/**
 * Typedefs of the bench stage (sysbench suite). Shared record shapes (Repeat, Interval, Step)
 * live in scripts/types.js; these are the bench stage's own inputs and outputs.
 */

export {};

/**
 * @typedef {'load'|'sysbench'|'postwrite'|'ibench'|'linkbench'|'ddl'|'reload'|'loops'} StepKind
 * `load` = create and fill sbtest1..N (prepareTables), `sysbench` = one timed test (runStepRepeat,
 * repeated by the orchestrator), `postwrite` = flush, ANALYZE, rest (runPostwrite); `ibench` =
 * a step of the insert benchmark, a sequence benchmark (see SequenceBenchmark): its steps carry
 * `sequence: 'ibench'` and run through the benchmark's `runStep`, never through the three above.
 * `linkbench` = a step of LinkBench, the same way (`sequence: 'linkbench'`).
 * `ddl`, `reload`, `loops` = steps of the DDL timings, the dump reload and the loop series (runners/).
 */

/**
 * @typedef {'point'|'range'|'range-agg'|'write'|'setup'} StepGroup
 * Reporting group; `setup` = not reported (load, postwrite, warm-ups).
 */

/**
 * @typedef {object} StepPlan one entry of the ordered suite plan (planSuite)
 * @property {string} name test name, unique in the suite (`point-query.pre`, `scan`, ...)
 * @property {StepKind} kind
 * @property {StepGroup} group
 * @property {boolean} reported false for warm-ups, load and postwrite: never in result tables
 * @property {boolean} runOnce true = run a single time per release (load, postwrite, warm-ups);
 *   false = a measured test the orchestrator repeats
 * @property {'qps'|'rows/s'|'inserts/s'} metric what the repeat's `throughput` means (inserts/s:
 *   rows inserted per second, insert benchmark)
 * @property {string|null} script stock script name (`oltp_point_select`, resolved in
 *   /usr/share/sysbench) or own Lua file relative to scripts/workload/lua (`scan.lua`); null for postwrite
 * @property {'stock'|'own'|null} scriptSource
 * @property {Record<string, string|number|boolean>} params test-specific sysbench options
 *   (without the leading `--`), merged over the common ones by the runner; kept in the record
 * @property {number} durationS sysbench --time (R, W or the scan warm-up duration), 0 for load/postwrite
 * @property {number} warmupS sysbench --warmup-time
 * @property {number} threads sysbench --threads (suite clients)
 * @property {number} tables sysbench --tables
 * @property {number} tableSize rows per table at load (--table-size unless params override it)
 * @property {'innodb'|'rocksdb'} engine storage engine of the sbtest tables
 * @property {number} rowsPerEvent scans only: rows read by one event (one full scan of one
 *   table) = tableSize; throughput = tps x rowsPerEvent. 0 for other tests
 * @property {boolean} postwriteAfter true when the next plan entry is a postwrite step
 * @property {number} restS postwrite only: seconds to rest after flushing (suite restS)
 * @property {string} [sequence] name of the sequence benchmark the step belongs to (a key of
 *   SEQUENCES in registry.js); absent for the sysbench suite's steps. The steps of one sequence
 *   are contiguous in the plan and every pass runs all of them, in order, from a fresh state
 */

/**
 * @typedef {object} BenchTarget how sysbench reaches the server (a scripts/server handle has these)
 * @property {string} [host] TCP host, used when no socket is given
 * @property {number} [port]
 * @property {string} [socket] unix socket path; preferred over host/port when set
 * @property {string} user
 * @property {string} [password]
 * @property {string} database prepareTables creates it when missing (only on its own connection)
 * @property {(sql: string) => Promise<any>} [query] runs one statement in `database` (a server
 *   handle has it); without it prepareTables opens its own connection
 * @property {string} [datadir] the server's datadir (a server handle has it): sequence
 *   benchmarks measure sizes on disk there; without it they record none
 */

/**
 * @typedef {object} RunOptions
 * @property {string|null} [clientCpus] taskset CPU list for sysbench, null/undefined = no pinning
 * @property {string} [sysbenchBin] sysbench executable (default `sysbench` on PATH)
 * @property {number} [timeoutMarginS] extra seconds beyond warm-up + duration before the child
 *   is killed (default 30 s + 20 % of the duration)
 * @property {(line: string) => void} [onProgress] progress lines (default: stderr)
 * @property {AbortSignal} [signal] aborts the child (status failed, reason names the abort)
 */

/**
 * @typedef {object} LatencyMs
 * @property {number} avg
 * @property {number} p95
 * @property {number|null} p99 sysbench prints one percentile (95): always null here
 * @property {number} max
 */

/**
 * @typedef {object} RepeatOk one repeat that produced a valid result
 * @property {'ok'} status
 * @property {string} startedAt ISO 8601, when the child was started
 * @property {number} durationS sysbench's measured total time (warm-up excluded)
 * @property {number} throughput per second in the step's metric (qps, or rows/s for scans); > 0
 * @property {number} qps queries per second (all statement types, as sysbench counts them)
 * @property {number} tps events (sysbench "transactions") per second
 * @property {LatencyMs} latencyMs per event
 * @property {number} errors ignored errors in total (0 unless --mysql-ignore-errors is used)
 * @property {number} reconnects
 * @property {import('../types.js').Interval[]} intervals one per --report-interval second
 * @property {string[]} argv the exact command that ran
 * @property {string} rawOutput stdout + stderr of sysbench, for the caller to keep as a log
 */

/**
 * @typedef {object} RepeatFailed a repeat that did not produce a valid result (never a 0 QPS)
 * @property {'failed'} status
 * @property {string} reason why, in words (FATAL line, exit code, timeout, missing summary)
 * @property {string} startedAt
 * @property {number} durationS wall-clock seconds until the child ended
 * @property {null} throughput
 * @property {null} qps
 * @property {null} tps
 * @property {null} latencyMs
 * @property {number} errors
 * @property {number} reconnects
 * @property {import('../types.js').Interval[]} intervals those printed before the failure
 * @property {string[]} argv
 * @property {string} rawOutput
 */

/** @typedef {RepeatOk|RepeatFailed} RepeatResult */

/**
 * @typedef {object} ParsedOk what sysbench 1.0.x printed for a complete run
 * @property {true} ok
 * @property {string|null} version e.g. `1.0.20`
 * @property {number} qps
 * @property {number} tps
 * @property {{read: number, write: number, other: number, total: number}} queries totals
 * @property {number} transactions total events
 * @property {number} totalTimeS sysbench "total time" (counts the warm-up too)
 * @property {number} measuredS seconds the final summary covers (total time minus warm-up)
 * @property {LatencyMs & {min: number}} latencyMs
 * @property {number} errors ignored errors, total
 * @property {number} reconnects total
 * @property {import('../types.js').Interval[]} intervals
 */

/**
 * @typedef {object} ParsedFailed output that holds no valid result
 * @property {false} ok
 * @property {string|null} version
 * @property {string} reason the FATAL/error line, or what is missing
 * @property {import('../types.js').Interval[]} intervals those printed before the failure
 */

/** @typedef {ParsedOk|ParsedFailed} ParsedSysbench */

/**
 * @typedef {object} MetricSpec
 * @property {string} unit
 * @property {boolean} higherIsBetter
 * @property {string} description
 */

/**
 * @typedef {object} BenchRunner a benchmark tool plugged into the bench stage (STYLE.md section 2)
 * @property {string} name equals the file name under runners/ and StepPlan.kind
 * @property {Readonly<Record<string, MetricSpec>>} metrics every number the runner reports
 * @property {(plan: StepPlan, target: BenchTarget, opts?: {command?: 'run'|'prepare'|'cleanup'}) => string[]} buildCommand
 *   argv for one invocation (without taskset), pure
 * @property {(text: string) => ParsedSysbench} parseOutput pure
 */

/**
 * @typedef {object} PostwriteResult
 * @property {'ok'|'failed'} status failed = a statement failed (reason names it)
 * @property {string} [reason]
 * @property {string} engine
 * @property {number} flushS seconds spent flushing
 * @property {number|null} dirtyPagesAtEnd InnoDB Innodb_buffer_pool_pages_dirty when done
 * @property {boolean} flushComplete false when dirty pages were still above ~0 at the timeout
 * @property {string} [note] why the flush is incomplete
 * @property {string[]} statements every SQL statement sent, in order (kept in the record)
 */

/**
 * @typedef {object} PrepareResult outcome of prepareTables (the suite's `load` step)
 * @property {'ok'|'failed'} status
 * @property {string} [reason]
 * @property {number} durationS wall-clock seconds of the load
 * @property {string[]} argv the sysbench prepare command
 * @property {string} rawOutput sysbench output, for the caller to keep as a log
 */

// ---------------------------------------------------------------------------------------------
// Sequence benchmarks (the insert benchmark; LinkBench plugs in the same way): benchmarks whose
// steps change the data the next step starts from, so they run as one sequence per pass.

/**
 * @typedef {object} SequenceStepContext what the run stage hands a sequence benchmark's step
 * @property {import('../types.js').SuiteConfig} suite the validated suite (its own settings
 *   block, e.g. `ibench`, is read by the benchmark)
 * @property {'innodb'|'rocksdb'} engine
 * @property {number} pass 0-based pass of the sequence in this run (= the repeat index its
 *   measured steps record)
 * @property {string|null} clientCpus taskset CPU list of the benchmark's clients (host class
 *   pinning.clientCpus); a benchmark whose clients run in this Node process pins the process for
 *   the step (the insert benchmark does) and restores its affinity after
 * @property {AbortSignal} [signal] stop as soon as possible; the outcome is then failed
 * @property {(line: string) => void} [onProgress]
 * @property {string} [cacheDir] the run's install cache (--cache-dir), where a benchmark that
 *   builds its own tool keeps the build (LinkBench's jar); absent = the default cache
 *   (scripts/run-options.js cacheDirFrom)
 */

/**
 * @typedef {object} SequenceStepOutcome what one step of one pass produced
 * @property {'ok'|'failed'} status
 * @property {string} [reason] failed only: why, in words (a rate not sustained, a statement error)
 * @property {boolean} stateValid false when the data is not what the later steps of this pass
 *   need (a load or an index build that failed): the run stage then skips the rest of the
 *   release, as for a failed sysbench load. A measured step that merely missed a target keeps
 *   the state valid
 * @property {number} durationS measured seconds (wall time of a setup step)
 * @property {number|null} throughput measured steps: per second in the step's metric; null for
 *   setup steps and failed repeats (never 0 for a failure)
 * @property {number|null} tps operations that count as one transaction, per second; null as above
 * @property {LatencyMs|null} latencyMs of the step's own operation; null as above
 * @property {number} errors
 * @property {number} reconnects
 * @property {SequenceInterval[]} intervals one per second of the measured part
 * @property {Record<string, object>} [details] benchmark-specific figures of the repeat, under
 *   the benchmark's name (`{ibench: IbenchDetails}`), stored as the repeat's `details`
 * @property {string} rawOutput a text log of the step, kept beside the record
 */

/**
 * @typedef {import('../types.js').Interval & {
 *   inserts?: number, deletes?: number, queries?: number,
 *   insertMaxMs?: number, deleteMaxMs?: number, queryMaxMs?: number,
 * }} SequenceInterval
 * One second of a sequence step. `qps` is the step's own operation per second (rows inserted for
 * l.i*, queries for q*), `latencyMs` the 95th percentile of its response times in that second;
 * the optional fields split the second by operation (rates per second, max response time in ms).
 */

/**
 * @typedef {object} SequenceBenchmark a benchmark whose steps run as one sequence per pass
 * @property {string} name the StepPlan.kind and StepPlan.sequence of its steps, and the key
 *   suites name it by in `benchmarks`
 * @property {Readonly<Record<string, MetricSpec>>} metrics every number its repeats report
 * @property {(suite: import('../types.js').SuiteConfig, opts: {engine: 'innodb'|'rocksdb'}) => StepPlan[]} planSteps
 *   the sequence, in order, every step with `kind` and `sequence` = name. Pure; throws UserError
 *   for bad settings, naming the suite file and field
 * @property {(step: StepPlan, target: BenchTarget, ctx: SequenceStepContext) => Promise<SequenceStepOutcome>} runStep
 *   one step of one pass. The first step of a sequence starts from a fresh state (drop and
 *   create); later steps read what they need from the server, so nothing is kept in memory
 *   between steps. Server errors come back as status failed, never as a throw
 */

/**
 * @typedef {object} IbenchSettings the suite's `ibench` block (scripts/config/schemas/suite.schema.json)
 * @property {boolean} [tablePerClient] true (default): one table per client, pi1..N; false: one
 *   table pi1 shared by all clients
 * @property {number} loadRows l.i0: rows each client inserts in PK order, 100 per INSERT
 * @property {number} l1Rows l.i1: rows each client inserts (and deletes), 50 per INSERT
 * @property {number} l2Rows l.i2: rows each client inserts (and deletes), 5 per INSERT
 * @property {number} queryDurationS seconds of each qr* / qp* step
 */
