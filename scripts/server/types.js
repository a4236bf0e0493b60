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
 * @property {number} pid mysqld / mariadbd process id (taskset execs the server, same pid)
 * @property {number} port TCP port on `host`
 * @property {string} socket unix socket path
 * @property {'127.0.0.1'} host
 * @property {'root'} user
 * @property {''} password
 * @property {'sbtest'} database created empty, ready for sysbench
 * @property {'innodb'|'rocksdb'} engine the engine verified at start (pass it to sysbench as --mysql-storage-engine)
 * @property {'mariadb'|'mysql'} flavor
 * @property {string} version server version as reported by SELECT VERSION()
 * @property {string} workDir
 * @property {string} datadir
 * @property {string} tmpdir
 * @property {string} errorLog
 * @property {string|null} serverCpus CPU list the server is pinned to, null = not pinned
 * @property {string[]} command full command line (argv) the server was started with
 * @property {{name: string, text: string, sha256: string}} mycnf rendered my.cnf, as stored in the run record
 * @property {(sql: string, params?: unknown[]) => Promise<any>} query runs one statement over the socket (mysql2/promise); resolves to rows (or the result header for DML)
 * @property {() => boolean} isAlive true while the process exists
 * @property {() => Promise<HealthReport>} checkHealth
 * @property {(lines?: number) => Promise<string>} errorLogExcerpt last `lines` lines (default 40) of the error log
 * @property {() => Promise<ServerExit>} stop SIGTERM, wait up to stopTimeoutS, then SIGKILL; idempotent
 * @property {(callback: (exit: ServerExit) => void) => void} onExit called once when the process exits (at once if it already has)
 */
