/**
 * Typedefs of the workload stage: the benchmark plug-in shape (Benchmark), the steps plug-ins
 * plan (StepPlan) and what one step produces (StepOutcome), plus the sysbench plug-in's own
 * shapes. Shared record shapes (Repeat, Interval, Step) live in scripts/types.js.
 */

export {};

/**
 * @typedef {string} StepKind
 * The run record's Step.kind, in the plug-in name form (`^[a-z][a-z0-9-]*$`, the pattern of
 * `Step.kind` in scripts/store/schemas/run-record.schema.json and of a plug-in's name in
 * registry.js). The sysbench plug-in's steps: `load` = create and fill sbtest1..N
 * (prepareTables), `sysbench` = one timed test (runStepRepeat, repeated by the orchestrator),
 * `postwrite` = flush, ANALYZE, rest (runPostwrite). Every other plug-in's steps have its name as
 * their kind. A string rather than a union of today's names, so a new plug-in needs no edit
 * here. The run stage never reads it: it dispatches on `benchmark`, `measured`, `sequence` and
 * `loadsData`.
 */

/**
 * @typedef {'point'|'range'|'range-agg'|'write'|'setup'} StepGroup
 * Reporting group; `setup` = not reported (load, postwrite, warm-ups).
 */

/**
 * @typedef {object} StepPlan one entry of the ordered suite plan (planSuite)
 * @property {string} name test name, unique in the suite (`point-query.pre`, `scan`, ...)
 * @property {StepKind} kind kept in the run record
 * @property {string} benchmark the plug-in that plans and runs the step (a key of BENCHMARKS in
 *   registry.js); the run stage runs it with getBenchmark(step.benchmark).runStep
 * @property {boolean} measured true: each run of the step is a repeat measured by the run's meter
 *   (a timed test, a warm-up, a measured sequence step); false: a setup step (load, postwrite, a
 *   sequence's cleanup), marked ok or failed
 * @property {true} [loadsData] the step that loads the data every later step of the run reads
 *   (the sysbench load): the schedule runs it in the first round only (later rounds restart the
 *   server on its datadir), and the size after it is the record's dbSize.afterLoad. Never on a
 *   sequence's steps (each pass starts from scratch)
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
 *   table); throughput = tps x rowsPerEvent. Planned as tableSize; a timed repeat counts the
 *   rows its tables hold right before it (the plug-in's beforeRepeat). 0 for other tests
 * @property {boolean} postwriteAfter true when the next plan entry is a postwrite step
 * @property {number} restS postwrite only: seconds to rest after flushing (suite restS)
 * @property {number} [countedEvents] a step that can run a fixed amount of work: the events of
 *   one counted repeat (the instructions meter); absent = the step runs timed only. A sysbench
 *   test: --events. A sequence step (the suite's `ibench.counted` / `linkbench.counted` sizes):
 *   rows per client of an insert-benchmark load or insert step, rows indexed by l.x, queries
 *   per client of a query step; LinkBench's nodes loaded (its index: links indexed) and requests
 *   of a request phase
 * @property {{name: string, events: number}[]} [countedParts] with countedEvents: parts of the
 *   step counted apart after its whole counted run, each in a meter window of its own (a LinkBench
 *   request phase: one phase per operation type, `events` requests of that type alone), kept in
 *   the counted repeat's `byType`
 * @property {string} [notCounted] a measured step without countedEvents: why it is not counted,
 *   in words for the record's skipped meter slot (the insert benchmark without `ibench.counted`)
 * @property {number} [countedInstructions] with countedEvents: the instructions one counted
 *   repeat is expected to run, for the run's time estimate (scripts/run/estimate.js)
 * @property {number} [workRows] a step whose time is its work, not a duration (a load, an index
 *   build): the rows it writes, for the run's time estimate
 * @property {number} [workRowsPerS] with workRows: the rows a second the benchmark's step was
 *   measured to run at (its plug-in says where), for the estimate; absent: the host class's
 *   `estimate.loadRowsPerS` (the sysbench load, whose pace depends on the table's size)
 * @property {string} [sequence] set (to the plug-in's name) when the plug-in's steps form one
 *   sequence: each changes the data the next starts from, so they are contiguous in the plan and
 *   every pass runs all of them, in order, from a fresh state; absent for the sysbench suite's
 *   steps, which are repeated one at a time
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
 * @property {FixedWork} [work] a counted repeat: a fixed number of events with a fixed seed
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
 * @property {number} operations queries (rows of a scan) completed in the measured part
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
// Benchmark plug-ins (README.md "Benchmark plug-ins"): sysbench, the insert benchmark, LinkBench,
// ddl, reload, loops all have this one shape.

/**
 * @typedef {object} StepContext what the run stage hands a plug-in's step
 * @property {import('../types.js').SuiteConfig} suite the validated suite (its own settings
 *   block, e.g. `ibench`, is read by the benchmark)
 * @property {'innodb'|'rocksdb'} engine
 * @property {number} pass 0-based repeat of the step (of a sequence: its pass, which every
 *   measured step of the pass records as its repeat index); 0 for a setup step outside a sequence
 * @property {string|null} clientCpus taskset CPU list of the benchmark's clients (host class
 *   pinning.clientCpus); a benchmark whose clients run in this Node process pins the process for
 *   the step (the insert benchmark does) and restores its affinity after
 * @property {AbortSignal} [signal] stop as soon as possible; the outcome is then failed
 * @property {(line: string) => void} [onProgress]
 * @property {FixedWork} [work] run a fixed amount of work instead of the step's timed window (a
 *   counted repeat of the instructions meter, or its warm-up); only for steps with countedEvents
 * @property {string} [cacheDir] the run's install cache (--cache-dir), where a benchmark that
 *   builds its own tool keeps the build (LinkBench's jar); absent = the default cache
 *   (scripts/run-options.js cacheDirFrom)
 */

/**
 * @typedef {object} FixedWork a repeat that does a fixed amount of work, the same for every
 *   release: counted figures are then per operation of identical operations
 * @property {number} events the tool's events (sysbench --events; no time limit); a sequence
 *   step's work as its StepPlan.countedEvents says (rows, queries, nodes, requests)
 * @property {string} [part] one of the step's countedParts (a LinkBench operation type): run
 *   that part alone
 * @property {number} seed the tool's random seed (sysbench --rand-seed, the insert benchmark's
 *   rows and queries, LinkBench's request_random_seed): the same rows in the same order for
 *   every release
 */

/**
 * @typedef {object} StepOutcome what one run of one step produced (a repeat of a measured step,
 *   or a setup step's outcome); a plug-in may add its own fields (sysbench: qps, argv, startedAt)
 * @property {'ok'|'failed'} status
 * @property {string} [reason] failed only: why, in words (a rate not sustained, a statement error)
 * @property {boolean} stateValid false when the data is not what the later steps need (a load,
 *   an index build or a postwrite that failed): the run stage then skips the rest of the release.
 *   A measured step that merely failed or missed a target (a sysbench repeat, the insert
 *   benchmark's writers below 95 %) keeps the state valid
 * @property {number} durationS measured seconds (wall time of a setup step)
 * @property {number|null} throughput measured steps: per second in the step's metric; null for
 *   setup steps and failed repeats (never 0 for a failure)
 * @property {number|null} tps operations that count as one transaction, per second; null as above
 * @property {LatencyMs|null} latencyMs of the step's own operation; null as above
 * @property {number} [operations] operations completed, in the step's metric (queries, rows of
 *   a scan): what a counted repeat's figures are divided by; absent when the tool does not say
 * @property {Record<string, number>} [operationsByType] operations per type when the tool
 *   reports them (LinkBench: GET_LINKS_LIST, ADD_LINK, ...); a counted repeat keeps them, so that
 *   the releases' counts are seen to be of the same work
 * @property {number} errors
 * @property {number} reconnects
 * @property {SequenceInterval[]} intervals one per second of the measured part
 * @property {Record<string, object>} [details] benchmark-specific figures of the repeat, under
 *   the benchmark's name (`{ibench: IbenchDetails}`), stored as the repeat's `details`
 * @property {string} rawOutput a text log of the step, kept beside the record (a setup step's
 *   empty log is not kept: the postwrite step has none)
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
 * @typedef {object} Benchmark a benchmark plug-in (STYLE.md section 2): one folder
 *   scripts/workload/<name>/ whose index.js exports it, one line in registry.js
 * @property {string} name the folder name, the key suites name it by in `benchmarks`, and every
 *   planned step's `benchmark`
 * @property {(suite: import('../types.js').SuiteConfig, opts: {engine: 'innodb'|'rocksdb'}) => StepPlan[]} planSteps
 *   its steps for a suite, in run order, each with `benchmark` = name, `measured` and `kind`:
 *   the steps that prepare its data (a load, a cleanup, measured: false) and the measured ones.
 *   `suite.only`, when set, holds only names of this plug-in (see stepNames); a sequence plans
 *   its whole sequence whatever it holds. Pure; throws UserError for bad settings, naming the
 *   suite file and field
 * @property {(suite: import('../types.js').SuiteConfig) => string[]} [stepNames] the names `only`
 *   may give for it when they differ from its steps' names (sysbench: a sweep's `<test>.c<N>`
 *   and the swept test's own name); default: the names planSteps returns
 * @property {(step: StepPlan, target: BenchTarget, ctx: StepContext) => Promise<StepOutcome>} runStep
 *   one run of one step: one repeat of a measured step (the run stage's meter is around it), or
 *   a setup step. The first step of a sequence starts from a fresh state (drop and create);
 *   later steps read what they need from the server, so nothing is kept in memory between
 *   steps. Expected failures (server errors, a tool's FATAL, a timeout) come back as status
 *   failed, never as a throw
 * @property {(step: StepPlan, target: BenchTarget) => Promise<StepPlan>} [beforeRepeat] read from
 *   the server, before the run's meter starts, what a timed repeat's figures depend on, and
 *   return the step to run with it (sysbench: the rows a scan will read, for its rows/s); absent
 *   = the planned step as it is
 * @property {(text: string) => unknown} [parseOutput] its tool's output parser, pure (sysbench,
 *   LinkBench); absent when its clients run inside tagbench (the insert benchmark) or it times
 *   SQL statements itself (ddl, reload)
 * @property {(suite: import('../types.js').SuiteConfig, target: BenchTarget) => Promise<void>} [prepareCounting]
 *   before a counting meter's repeats, on each release's loaded server: make the data the same
 *   for every release where the load is random (sysbench's k, c and pad), so that counted
 *   repeats do the same work on every release
 * @property {(ctx: PrepareRunContext) => Promise<void>} [prepareRun] what its steps need before any
 *   server starts, once per run (LinkBench: fetch and build the pinned jar, or find it in the
 *   install cache), so that no measured step pays for it. Throws UserError when it cannot
 *   (a missing JDK, an unreachable source), naming what to install
 * @property {() => Promise<Record<string, string>>} [toolVersions] the versions of the external
 *   tools its steps run, tool -> version (sysbench: `{sysbench: '1.0.20'}`), recorded in the run
 *   record's `config.tools`; spawns the tools (`--version`). Absent when it runs no external tool
 *   (the insert benchmark: tagbench's own clients) or its tool's version is recorded elsewhere
 *   (LinkBench: the jar's commit in each step's details). Throws UserError when a tool it needs
 *   is missing, saying how to install it
 */

/**
 * @typedef {object} PrepareRunContext
 * @property {import('../types.js').SuiteConfig} suite
 * @property {string} cacheDir the run's install cache (where a built tool is kept)
 * @property {(line: string) => void} log progress lines
 */

/**
 * @typedef {object} IbenchSettings the suite's `ibench` block (scripts/config/schemas/suite.schema.json)
 * @property {boolean} [tablePerClient] true (default): one table per client, pi1..N; false: one
 *   table pi1 shared by all clients
 * @property {number} loadRows l.i0: rows each client inserts in PK order, 100 per INSERT
 * @property {number} l1Rows l.i1: rows each client inserts (and deletes), 50 per INSERT
 * @property {number} l2Rows l.i2: rows each client inserts (and deletes), 5 per INSERT
 * @property {number} queryDurationS seconds of each qr* / qp* step
 * @property {IbenchCountedSizes} [counted] the sizes of the counted sequence (the instructions
 *   meter); absent = the insert benchmark is not counted
 */

/**
 * @typedef {object} IbenchCountedSizes the suite's `ibench.counted` block: the insert benchmark
 *   as a fixed amount of work under the instructions meter, small enough for valgrind
 * @property {number} loadRows l.i0: rows each client loads (l.x then indexes them all)
 * @property {number} l1Rows l.i1: rows each client inserts and deletes
 * @property {number} l2Rows l.i2: the same, 5 per INSERT
 * @property {number} queries queries per client of each qr* / qp* step (with the writer's
 *   statements interleaved in a fixed ratio: ibench/steps.js countedWriteEvery)
 */
