/**
 * Typedefs of the bench stage (sysbench suite). Shared record shapes (Repeat, Interval, Step)
 * live in scripts/types.js; these are the bench stage's own inputs and outputs.
 */

export {};

/**
 * @typedef {'load'|'sysbench'|'postwrite'} StepKind
 * `load` = create and fill sbtest1..N (prepareTables), `sysbench` = one timed test (runStepRepeat,
 * repeated by the orchestrator), `postwrite` = flush, ANALYZE, rest (runPostwrite).
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
 * @property {'qps'|'rows/s'} metric what the repeat's `throughput` means
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
