/**
 * Shapes of the metrics stage (typedefs only). The shared record shapes (Efficiency, DbSize,
 * RecordHost) live in scripts/types.js; these are the raw samples a step collects, kept so
 * later stages can chart them per second.
 *
 * Units are in the names: ...PerS per second, ...Kb kibibytes, ...Pct percent, ...S seconds.
 */

export {};

/**
 * @typedef {object} VmstatSample one line of `vmstat -n 1` (system-wide)
 * @property {number} runnable `r`: processes runnable or running
 * @property {number} blocked `b`: processes in uninterruptible sleep
 * @property {number} freeKb `free`
 * @property {number} inPerS `in`: interrupts per second
 * @property {number} csPerS `cs`: context switches per second
 * @property {number} usPct `us`: user time, percent of all CPUs
 * @property {number} syPct `sy`: system time, percent of all CPUs
 * @property {number} idPct `id`: idle, percent of all CPUs
 * @property {number} waPct `wa`: waiting for I/O, percent of all CPUs
 * @property {number} stPct `st`: stolen by the hypervisor, percent of all CPUs (0 when not printed)
 */

/**
 * @typedef {object} IostatDevice one device line of `iostat -dxk`
 * @property {string} device kernel name (`vda`, `nvme0n1`, `dm-0`)
 * @property {number} readsPerS `r/s`: read requests completed per second
 * @property {number} writesPerS `w/s`: write requests completed per second
 * @property {number} kbReadPerS `rkB/s`
 * @property {number} kbWrittenPerS `wkB/s`
 * @property {number|null} utilPct `%util`, null when the column is absent
 */

/**
 * @typedef {object} IostatReport one report (one interval) of `iostat -dxk N`
 * @property {IostatDevice[]} devices
 */

/**
 * @typedef {object} DeviceSelection which block devices count for the I/O figures
 * @property {'datadir'|'all'} basis `datadir`: the device holding the datadir; `all`: every real
 *   (non-virtual) block device, used when the datadir's device could not be told
 * @property {string[]} devices kernel names, as iostat prints them
 * @property {string} note how the selection was made, in words (for the record and the logs)
 */

/**
 * @typedef {object} CpuSecond one per-second CPU sample, ready to chart
 * @property {number} t seconds since sampling started (end of the interval)
 * @property {number} usPct
 * @property {number} syPct
 * @property {number} idPct
 * @property {number} waPct
 * @property {number} stPct
 * @property {number} csPerS
 * @property {number} runnable
 */

/**
 * @typedef {object} IoSecond one per-second I/O sample summed over the counted devices
 * @property {number} t seconds since sampling started (end of the interval)
 * @property {number} readsPerS
 * @property {number} writesPerS
 * @property {number} kbReadPerS
 * @property {number} kbWrittenPerS
 */

/**
 * @typedef {object} RssSecond
 * @property {number} t seconds since sampling started
 * @property {number} rssKb VmRSS of mysqld
 */

/**
 * @typedef {object} StepSamples what `startSampling(...).stop()` returns
 * @property {string} startedAt ISO 8601, when sampling started
 * @property {number} durationS wall-clock seconds between start and stop
 * @property {number} intervalS sampling interval
 * @property {number} cores online CPUs (vmstat percentages are of all of them)
 * @property {CpuSecond[]} cpu per-second CPU samples (vmstat's since-boot first line dropped)
 * @property {IoSecond[]} io per-second I/O summed over `devices.devices` (iostat's since-boot first report dropped)
 * @property {Record<string, IoSecond[]>} ioByDevice per-second I/O of every device iostat printed
 * @property {DeviceSelection} devices which devices `io` sums
 * @property {RssSecond[]} rss per-second mysqld VmRSS
 * @property {number|null} rssKb mysqld VmRSS at stop (null when the process is gone)
 * @property {number|null} rssMaxKb largest VmRSS seen
 * @property {{before: Record<string, string>, after: Record<string, string>, delta: Record<string, number>, idle?: Record<string, string>}|null} status
 *   SHOW GLOBAL STATUS before and after; `delta` = after - before for every numeric variable
 *   (null when the query failed; the reason is in `warnings`); `idle`: a read right before
 *   `before` (before - idle is what one status read adds itself)
 * @property {string[]} warnings what could not be sampled and why (never fatal to the step)
 * @property {ProcessCpu|null} [processCpu] CPU time of the step's own processes over the
 *   sampled window (what cpuUsPerOp counts); null when it could not be read (the reason is in
 *   `warnings`); absent in samples not made by startSampling() (cpuUsPerOp then falls back to vmstat)
 * @property {import('../types.js').RocksdbFigures|null} [rocksdb] on a MyRocks server (Rocksdb_*
 *   counters in SHOW GLOBAL STATUS): RocksDB's figures over the step, null when they could not
 *   be read (the reason is in `warnings`); absent on other servers
 */

/**
 * @typedef {object} ProcessCpu user + system CPU seconds of the processes a step runs, from
 *   /proc (utime + stime, every thread, in clock ticks of 10 ms), read at the start and the end
 *   of sampling
 * @property {number} serverS the server process (every thread, those that ended included)
 * @property {number} clientS this tagbench process (in-process clients such as the insert
 *   benchmark's, and its own small share) plus its child processes that ended and were reaped
 *   in the window (sysbench, the LinkBench JVM)
 * @property {number} wallS wall seconds between the two readings
 */

/**
 * @typedef {(sql: string) => Promise<any[]>} QueryFn runs one SQL statement on the server and
 *   resolves to its rows (objects keyed by column name, or arrays)
 */

/**
 * @typedef {object} SamplingOptions
 * @property {number} pid mysqld / mariadbd process id (for VmRSS)
 * @property {string} datadir the server's datadir (to choose the block device)
 * @property {QueryFn} [query] for SHOW GLOBAL STATUS; omitted = no status deltas
 * @property {number} [intervalS] sampling interval in whole seconds, default 1
 */

/**
 * @typedef {object} Sampler
 * @property {() => Promise<StepSamples>} stop stops the samplers and returns what they saw;
 *   safe to call twice (the second call returns the same promise)
 */

// ---------------------------------------------------------------------------------------------
// Meters (meters/): how one repeat of a step is measured. The run stage starts the meter, runs
// the benchmark plug-in's repeat, and stops it with what the repeat produced.

/**
 * @typedef {object} ServerWrapper how a meter wants the server started (valgrind): the run stage
 *   passes it into the server's start options as `wrapper` (scripts/server/types.js). The wrapper
 *   must run the server in its own process (valgrind does); a forking one (`perf stat --`) is
 *   refused by the server stage: a perf meter attaches with `perf stat -p <pid>` instead.
 * @property {string[]} argv prefix of the server's command line (`['valgrind', '--tool=callgrind', ...]`)
 * @property {Record<string, string>} [env] extra environment of the server process
 * @property {number} [readyTimeoutS] how long the wrapped server may take to answer (valgrind: 4-18 s)
 * @property {Record<string, string|number>} [mycnfOverrides] my.cnf values the wrapped server needs,
 *   appended after the template's (innodb_buffer_pool_size_max and innodb_use_native_aio=0 under valgrind)
 */

/**
 * @typedef {object} MeterTarget the server a meter measures (a scripts/server handle fits)
 * @property {number} pid the server process (under a wrapper: the wrapped process)
 * @property {string} datadir
 * @property {QueryFn} [query] SHOW GLOBAL STATUS and the like; omitted = none
 * @property {() => Promise<{release: () => Promise<void>}>} [holdPurge] keeps InnoDB's purge from
 *   running until release() (a scripts/server handle's holdPurge); omitted = purge runs during the count
 * @property {() => Promise<number>} [flushDirtyPages] writes every dirty page and resolves to the
 *   seconds it took (a scripts/server handle's flushDirtyPages); omitted = no flush before the count
 * @property {() => Promise<void>} [beforeZero] work to run after the meter's preparation and right
 *   before its counters start (the counted repeat's warm-up run)
 * @property {string} [workDir] the server instance's private folder (a wrapper's output files)
 * @property {string} [dispatchFunction] the flavor's command-dispatch function (products config):
 *   the instructions meter's query path
 * @property {WorkCounterNames} [workCounters] the product's status variables of the work meter's
 *   counters (products config `workCounters`)
 */

/**
 * @typedef {Record<string, string|string[]|{missing: string}>} WorkCounterNames a work counter's
 *   key (meters/work.js WORK_COUNTERS) -> the status variable(s) summed for it, or, for a counter
 *   the flavor lacks, why
 */

/**
 * @typedef {object} WorkFigures the work meter's figures of one counted repeat (countedRepeat.work)
 * @property {number} operations the divisor of every per-op figure
 * @property {Record<string, number|null>} perOp counter key -> change per operation (null: see missing)
 * @property {Record<string, number>} totals counter key -> change over the repeat
 * @property {Record<string, string>} missing counter key -> why its figure is null
 * @property {{before: number, after: number}} [settleS] seconds spent waiting for purge and the
 *   dirty pages before the count and after the work
 */

/**
 * @typedef {object} MeteredRepeat what the benchmark's repeat produced, as a meter reads it
 * @property {boolean} ok the repeat produced a valid result (not failed, not interrupted)
 * @property {number} durationS the measured window: the operations were counted over it
 * @property {number|null} throughput operations per second in the step's metric (null when not ok)
 * @property {number|null} tps
 * @property {import('../types.js').Repeat['latencyMs']} latencyMs
 * @property {import('../types.js').Interval[]} intervals one per second, as the tool reported them
 * @property {number} [operations] operations the repeat completed, when the tool says (a counted
 *   repeat's figures are divided by it)
 * @property {number} [warmupS] seconds the tool ran before its measured window (its warm-up), when
 *   the step says: the timed work counters take their rate over warm-up plus window
 */

/**
 * @typedef {object} MeterFigures what a meter hands back for one repeat
 * @property {string} meter the meter's name (`wall`, later `instructions`, `counters`)
 * @property {Record<string, object>} [meters] a timed meter's own figures by meter name, stored as
 *   the repeat's `meters.<name>` (every timed meter but the one whose figures are the repeat's
 *   own: wall); its metrics' `figure` paths are read from there
 * @property {Record<string, number|null>} perOp its named figures per operation (wall:
 *   cpuUsPerOp, csPerOp, readsPerOp, kbReadPerOp, kbWrittenPerOp; empty when the repeat failed)
 * @property {Partial<import('../types.js').Repeat>|Partial<import('../types.js').CountedRepeat>|Record<string, object>} repeat the run record's Repeat (CountedRepeat) fields this
 *   meter fills (wall: throughput, tps, latencyMs, intervals, efficiency, mysqldRssKb,
 *   ioDevices, rocksdb; a counting meter: its figures under its own name, `instructions`)
 * @property {object} [profile] the repeat's per-function profile (instructions: per op), kept as
 *   a raw log beside the repeat
 */

/**
 * @typedef {object} MeterSession one repeat being measured
 * @property {(repeat: MeteredRepeat|null) => Promise<MeterFigures|null>} stop stop measuring;
 *   null in = the repeat threw (the meter only releases what it started), null out
 */

/**
 * @typedef {object} Meter a way to measure a step's repeat (STYLE.md section 2): one file in
 *   scripts/metrics/meters/, one line in meters/registry.js
 * @property {string} name the file name, and `meter` on its figures
 * @property {(server: {workDir: string}) => ServerWrapper|null} [serverWrapper] how the server
 *   must be started for this meter; absent (or null) = a plain start
 * @property {(target: MeterTarget) => Promise<MeterSession>} start start measuring right before
 *   the repeat runs
 * @property {'timed'|'counted'} kind `timed`: it measures the timed repeats (wall, counters);
 *   `counted`: it counts a fixed amount of work on servers of its own (instructions). Every other
 *   stage asks this instead of testing a meter's name.
 * @property {() => Promise<Record<string, string>>} [dependsOn] what its figures depend on beyond
 *   the release (CPU model and flags, library and tool versions), for the record
 * @property {readonly MeterMetric[]} metrics the metrics compare judges and the site shows from
 *   its figures (empty for wall: its figures are the repeat's own fields, judged by
 *   compare/metrics.js's METRICS); the run stage writes them into the record (config.meterMetrics)
 * @property {MeterNeeds} needs what it needs of the host and the server
 * @property {(rates: Readonly<Record<string, number>>) => CountedPace} [countedPace] a counted
 *   meter's pace, for the run's estimate (scripts/run/estimate.js), from the host class's
 *   estimate rates (its `estimate` block over the defaults); absent: reckoned at callgrind's,
 *   the slowest there is
 * @property {CountedCalibration|OwnCalibration} [calibration] how `tagbench calibrate`
 *   calibrates this meter: a description verify's counted strategy runs (a counted meter
 *   measured by injected counts), or a whole strategy of its own; absent: a timed meter gets the
 *   timed strategy, a counted one cannot be calibrated
 */

/**
 * @typedef {{kind: 'timed'|'counted', round: (...args: any[]) => Promise<boolean>} & Record<string, any>} OwnCalibration
 *   a meter's whole calibration strategy (verify/calibrate/pipeline.js CalibrationStrategy,
 *   opaque here: metrics/ may not import verify/)
 */

/**
 * @typedef {object} CountedCalibration what a counted meter tells verify's counted calibration
 *   (data, no machinery: metrics/ may not import verify/, so verify's generic code runs it)
 * @property {'preload-count'} injects the known cost its figures see: the preload library of
 *   verify/calibrate/inject-cost/ adds a count in the meter's unit to each query answer, or a
 *   real server-side cost (performance_schema on) is turned on
 * @property {string} sizeTest the test whose figure per query the injected sizes are shares of
 * @property {{queryPath: string, process: string}} judged the meter's metrics (names from its
 *   `metrics`) in the two roles of the report: queryPath, what the injected count adds to and a
 *   detection is judged on; process, the whole server process beside it
 */

/**
 * @typedef {object} CountedPace how fast a counted meter's phase goes on a host class
 * @property {number} instructionsPerS server instructions a second of a counted repeat
 * @property {number} repeatOverheadS seconds of a counted repeat besides its instructions
 *   (starting the client, connecting, reading the figures)
 * @property {number} serverStartS seconds to start one of its servers (one a round and release)
 * @property {string} servers how its servers run, for the estimate's line (`under callgrind`)
 * @property {number} [sequenceStepS] seconds of one counted step of a sequence benchmark, setup
 *   and warm-up included (absent: the host class's `estimate.countedSequenceStepS`, callgrind's)
 */

/**
 * @typedef {object} MeterMetric one metric of a meter, as the record carries it (config.meterMetrics)
 * @property {string} name as in TestVerdict.metric and thresholds.yml `metrics`
 * @property {string} figure dot path of the figure in the meter's figures block of a repeat
 *   (timed: `repeat.meters.<meter>`; counted: `countedRepeat.<meter>`), e.g. `perOp.cyclesPerOp`
 * @property {string} unit
 * @property {boolean} higherIsBetter
 * @property {'log'|'linear'} scale log: judged as a ratio; linear: as a difference
 * @property {string} label how the site names it
 * @property {string} [answers] the question the figure answers, when another meter's figure
 *   answers it too (e.g. `cpu-cost-per-op`): compare then gates a timed one only where no counted
 *   one decided it (scripts/compare/context-verdicts.js)
 */

/**
 * @typedef {object} MeterNeeds what a meter needs beyond a plain server
 * @property {string[]} tools programs on the host it runs (doctor checks them: `perf`, `valgrind`)
 * @property {boolean} wrappedServer its servers start under its serverWrapper
 */
