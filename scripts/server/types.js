/**
 * Shapes of the server stage (typedefs only). Other stages see a running server only through
 * a ServerHandle returned by startServer() in ./index.js.
 */

export {};

/**
 * @typedef {object} ServerOptions what startServer() needs besides the InstallResult
 * @property {string} workDir private folder of this instance (created if missing): datadir,
 *   socket, pid file, tmpdir, error log and the rendered my.cnf all live under it
 * @property {number} port TCP port on 127.0.0.1 (1024-65535); must be free
 * @property {'innodb'|'rocksdb'} engine storage engine the benchmark tables must use
 * @property {string} mycnfTemplate my.cnf template text (configs/mycnf/<name>.cnf)
 * @property {string} [mycnfName] template name for the record (default: the engine name)
 * @property {Record<string, string|number>} [mycnfOverrides] host class `mycnf` values
 * @property {string|null} [serverCpus] taskset CPU list (host class `pinning.serverCpus`), null = no pinning
 * @property {(message: string) => void} [log] progress lines (default: stderr)
 * @property {boolean} [reuseDatadir] start on an existing datadir under workDir instead of
 *   refusing it (default false: a non-empty datadir is an error, so no run inherits old data)
 * @property {number} [startTimeoutS] how long to wait for the server to accept connections (default 180)
 * @property {number} [stopTimeoutS] how long stop() waits after SIGTERM before SIGKILL (default 300)
 * @property {Record<string, string>} [env] extra environment of the server process (a
 *   calibration's injected cost: LD_PRELOAD of its library); a wrapper's env comes after it
 * @property {ServerWrapper|null} [wrapper] a tool the server runs under (a meter's valgrind), null/absent = none
 */

/**
 * @typedef {object} ServerWrapper a program the server is started through, named by a meter
 *   (scripts/metrics/meters/) without the server stage knowing which. The command becomes
 *   `[taskset -c CPUS] ...argv <server binary> <server args>`.
 *
 *   The wrapper must run the server IN ITS OWN PROCESS (exec it, or be the process, as
 *   valgrind is): the spawned pid must be the server's, or stop(), crash detection, the RSS
 *   sampler and `callgrind_control <pid>` would all act on the wrapper. startServer() checks it:
 *   the pid the server writes to its pid file must be the spawned pid, else it stops everything
 *   and throws. So valgrind (any tool), nice, env, chrt, setarch, numactl fit; `perf stat -- cmd`
 *   forks the server as its child and does NOT: a perf meter attaches with `perf stat -p <pid>`
 *   around the repeat instead, which also leaves the server's startup out of its counts.
 * @property {string[]} argv the wrapper's argv, put before the server binary, e.g.
 *   `['valgrind', '--tool=callgrind', '--collect-atstart=no']`; non-empty, argv[0] is looked up in PATH
 * @property {Record<string, string>} [env] environment variables added for the wrapper (and the server)
 * @property {number} [readyTimeoutS] how long to wait for the server to accept connections
 *   under the wrapper, instead of startTimeoutS (valgrind starts MariaDB 10.11 in 4-18 s, where it
 *   takes 1 s without); the stop timeout stays stopTimeoutS
 * @property {Record<string, string|number>} [mycnf] server options the wrapped server needs
 *   (under valgrind: innodb_buffer_pool_size_max, innodb_use_native_aio=0); appended to the
 *   rendered my.cnf in a last [mysqld] group, so they win over the template and the host class,
 *   and the run record's my.cnf text and sha256 say what the server really ran with
 */

/**
 * @typedef {object} RenderedMycnf a my.cnf template with the host class values filled in
 * @property {string} name template name
 * @property {string} text full rendered text (stored in the run record)
 * @property {string} sha256 hex sha256 of `text`
 * @property {string[]} unusedOverrides override keys that matched no placeholder and no option
 */

/**
 * @typedef {object} MycnfOption one `name[=value]` line of a my.cnf group
 * @property {string} group group name without brackets, lower case
 * @property {string} name option name as written (may start with `loose-`)
 * @property {string|null} value null for a bare flag such as `skip-log-bin`
 * @property {number} line 1-based line number in the rendered text
 */

/**
 * @typedef {object} HealthReport
 * @property {boolean} ok
 * @property {string} [reason] why not ok: the process is gone, or the error log shows a crash
 * @property {string} [logExcerpt] last lines of the error log when not ok
 * @property {string[]} errors `[ERROR]` lines logged since the server became ready (reported,
 *   not fatal by themselves: servers log some errors that do not affect a benchmark)
 */

/**
 * @typedef {object} ServerExit
 * @property {number|null} code exit code, null when killed by a signal
 * @property {NodeJS.Signals|null} signal
 * @property {boolean} expected true when stop() asked for it
 */

/**
 * @typedef {object} ServerHandle a running server started by startServer()
 * @property {number} pid mysqld / mariadbd process id (taskset and a wrapper run the server in the spawned process; checked against the pid file)
 * @property {number} port TCP port on `host`
 * @property {string} socket unix socket path
 * @property {'127.0.0.1'} host
 * @property {'root'} user
 * @property {''} password
 * @property {'sbtest'} database created empty, ready for sysbench
 * @property {'innodb'|'rocksdb'} engine the engine verified at start (pass it to sysbench as --mysql-storage-engine)
 * @property {import('../config/index.js').FlavorName} flavor
 * @property {string} version server version as reported by SELECT VERSION()
 * @property {string} workDir
 * @property {string} datadir
 * @property {string} tmpdir
 * @property {string} errorLog
 * @property {string|null} serverCpus CPU list the server is pinned to, null = not pinned
 * @property {string[]} command full command line (argv) the server was started with (taskset, the wrapper's argv, the binary, its options)
 * @property {{argv: string[], env: Record<string, string>}|null} wrapper what the server runs under
 *   (ServerOptions.wrapper's argv and env), null = started directly; for the run record
 * @property {{name: string, text: string, sha256: string}} mycnf rendered my.cnf, as stored in the run record
 * @property {(sql: string, params?: unknown[]) => Promise<any>} query runs one statement over the socket (mysql2/promise); resolves to rows (or the result header for DML)
 * @property {() => Promise<{release: () => Promise<void>}>} holdPurge opens a read view on a connection of its
 *   own (START TRANSACTION WITH CONSISTENT SNAPSHOT) so InnoDB's purge cannot run until release():
 *   the instructions meter counts a write without purge racing it
 * @property {() => Promise<number>} flushDirtyPages writes every dirty InnoDB page (innodb_max_dirty_pages_pct=0
 *   until none is left, up to 120 s, the setting then restored) and resolves to the seconds it took;
 *   0 when the server has no such setting (MyRocks only): the counted meters settle the server with it
 * @property {() => boolean} isAlive true while the process exists
 * @property {() => Promise<HealthReport>} checkHealth
 * @property {(lines?: number) => Promise<string>} errorLogExcerpt last `lines` lines (default 40) of the error log
 * @property {() => Promise<ServerExit>} stop SIGTERM, wait up to stopTimeoutS, then SIGKILL; idempotent
 * @property {(callback: (exit: ServerExit) => void) => void} onExit called once when the process exits (at once if it already has)
 */
