/**
 * The ServerHandle around a spawned server process: queries, purge holds, dirty-page flushes,
 * health, stop. Each part that keeps state of its own (the process's exit, the connection pool)
 * is built by a function here, and createServerHandle joins them into one object.
 */
import { createConnection, createPool } from 'mysql2/promise';
import { readLogFrom, readLogSize, readLogTail, scanErrorLog } from './error-log.js';

/** @typedef {import('./types.js').ServerHandle} ServerHandle */
/** @typedef {import('./types.js').ServerExit} ServerExit */
/** @typedef {import('./types.js').HealthReport} HealthReport */

/**
 * Fields of the handle known before the server is ready; startServer() fills the rest.
 * @typedef {object} HandleInit
 * @property {import('node:child_process').ChildProcess} child the spawned server (or taskset / a wrapper, which run it in the same process)
 * @property {number} port
 * @property {string} socket
 * @property {'innodb'|'rocksdb'} engine
 * @property {import('../config/index.js').FlavorName} flavor
 * @property {string} workDir
 * @property {string} datadir
 * @property {string} tmpdir
 * @property {string} errorLog
 * @property {string|null} serverCpus
 * @property {string[]} command
 * @property {{name: string, text: string, sha256: string}} mycnf
 * @property {{argv: string[], env: Record<string, string>}|null} wrapper
 * @property {number} stopTimeoutS
 * @property {(message: string) => void} log
 */

/** @typedef {ServerHandle & {markReady: () => Promise<void>, exited: () => ServerExit|null}} StartingHandle */

/**
 * @param {HandleInit} init
 * @returns {StartingHandle} the handle, plus two hooks for startServer(): markReady() sets where
 *   health checks start reading the error log, exited() tells whether the process is gone
 */
export function createServerHandle(init) {
  const { child } = init;
  if (child.pid === undefined) throw new Error('server process has no pid (spawn failed)');
  const pid = child.pid;
  const exitWatch = watchExit(child, pid, init);
  const pool = lazyPool(init.socket);
  let readyLogOffset = 0;
  /** @type {Promise<ServerExit>|null} */
  let stopping = null;

  /** @type {StartingHandle} */
  const handle = {
    pid,
    port: init.port,
    socket: init.socket,
    host: '127.0.0.1',
    user: 'root',
    password: '',
    database: 'sbtest',
    engine: init.engine,
    flavor: init.flavor,
    version: '',
    workDir: init.workDir,
    datadir: init.datadir,
    tmpdir: init.tmpdir,
    errorLog: init.errorLog,
    serverCpus: init.serverCpus,
    command: init.command,
    mycnf: init.mycnf,
    wrapper: init.wrapper,
    async query(sql, params) {
      const [rows] = await pool.get().query(sql, params);
      return rows;
    },
    holdPurge: () => openPurgeHold(init.socket),
    flushDirtyPages: () => flushDirtyPages((sql) => handle.query(sql)),
    isAlive: () => exitWatch.isAlive(),
    checkHealth: async () => checkHealth(init, pid, exitWatch, readyLogOffset),
    errorLogExcerpt: (lines = 40) => readLogTail(init.errorLog, lines),
    stop() {
      stopping ??= stopProcess(init, pid, exitWatch, pool);
      return stopping;
    },
    onExit: (callback) => exitWatch.onExit(callback),
    async markReady() {
      readyLogOffset = await readLogSize(init.errorLog);
    },
    exited: () => exitWatch.exit(),
  };
  return handle;
}

/**
 * @typedef {object} ExitWatch what is known of the process's end
 * @property {() => ServerExit|null} exit null while it runs
 * @property {Promise<ServerExit>} exited resolves when it exits
 * @property {() => void} expectExit marks the coming exit as asked for (stop())
 * @property {() => boolean} stopRequested whether stop() was called
 * @property {() => boolean} isAlive true while the process exists
 * @property {(callback: (exit: ServerExit) => void) => void} onExit
 * @property {(ms: number) => Promise<ServerExit|null>} waitExit null when still running after ms
 */

/**
 * Follow the process to its exit; an exit nobody asked for is logged.
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} pid
 * @param {HandleInit} init
 * @returns {ExitWatch}
 */
function watchExit(child, pid, init) {
  /** @type {ServerExit|null} */
  let exit = null;
  let stopRequested = false;
  /** @type {((e: ServerExit) => void)[]} */
  const listeners = [];
  /** @type {Promise<ServerExit>} */
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal, expected: stopRequested };
      if (!stopRequested) init.log(`server pid ${pid} (port ${init.port}) exited unexpectedly: ${signal ?? `code ${code}`}`);
      for (const cb of listeners.splice(0)) cb(exit);
      resolve(exit);
    });
  });
  return {
    exit: () => exit,
    exited,
    expectExit: () => { stopRequested = true; },
    stopRequested: () => stopRequested,
    isAlive() {
      if (exit !== null) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    onExit(callback) {
      if (exit !== null) {
        const e = exit;
        queueMicrotask(() => callback(e));
      } else {
        listeners.push(callback);
      }
    },
    waitExit: (ms) => new Promise((resolve) => {
      // A ref'd timer: waiting for the server must keep the process alive, and is cleared
      // as soon as the server exits so it does not hold the process open after that.
      const t = setTimeout(() => resolve(null), ms);
      exited.then((e) => {
        clearTimeout(t);
        resolve(e);
      });
    }),
  };
}

/**
 * The handle's connection pool, opened at the first query.
 * @param {string} socket
 * @returns {{get: () => import('mysql2/promise').Pool, close: () => Promise<void>}}
 */
function lazyPool(socket) {
  /** @type {import('mysql2/promise').Pool|null} */
  let pool = null;
  return {
    get() {
      pool ??= createPool({
        socketPath: socket, user: 'root', password: '', database: 'sbtest',
        connectionLimit: 2, connectTimeout: 30_000, supportBigNumbers: true,
      });
      return pool;
    },
    async close() {
      const p = pool;
      pool = null;
      if (!p) return;
      // end() waits for the server's reply; a dead or hung server must not hold up stop().
      await Promise.race([p.end().catch(() => {}), sleep(5000)]);
    },
  };
}

/**
 * Open a read view that keeps InnoDB's purge from running until release().
 * @param {string} socket
 * @returns {Promise<{release: () => Promise<void>}>}
 */
async function openPurgeHold(socket) {
  // Its own connection, not the pool's: the snapshot must stay open while the pool runs
  // other statements, and closing it is what lets purge go on.
  const conn = await createConnection({ socketPath: socket, user: 'root', password: '', connectTimeout: 30_000 });
  try {
    await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  } catch (err) {
    conn.destroy();
    throw err;
  }
  return {
    async release() {
      await conn.query('COMMIT').catch(() => {});
      await conn.end().catch(() => conn.destroy());
    },
  };
}

/** How long to wait for the dirty pages to be written before counting anyway. */
const FLUSH_WAIT_LIMIT_S = 120;

/**
 * Write every dirty page before the count. The page cleaner writes the redo log up to a page's
 * newest change before writing the page, so a page flush during a counted write did part of the
 * client's commit work in a background thread instead: in a development run (six smoke writes,
 * purge already held) two servers of one release differed by up to 1.9 % in the query path of
 * writes, the difference moving between the query path and the rest of the process; with this
 * flush the two moved together. Its own share of the final noise was not measured apart from the
 * other measures (bench/instructions-noise.md has them all together). With no dirty pages at the
 * start, nothing asks the page cleaner to flush during a count of a few seconds.
 * The setting is restored (whatever it was) before returning.
 * @param {ServerHandle['query']} query
 * @returns {Promise<number>} seconds waited
 */
async function flushDirtyPages(query) {
  const started = Date.now();
  const [row] = await query("SHOW GLOBAL VARIABLES LIKE 'innodb_max_dirty_pages_pct'");
  const saved = Number(/** @type {{Value?: string}} */ (row ?? {}).Value);
  if (!Number.isFinite(saved)) return 0;
  await query('SET GLOBAL innodb_max_dirty_pages_pct=0');
  try {
    while ((Date.now() - started) / 1000 < FLUSH_WAIT_LIMIT_S) {
      const [status] = await query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
      if (Number(/** @type {{Value?: string}} */ (status ?? {}).Value) === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await query(`SET GLOBAL innodb_max_dirty_pages_pct=${saved}`);
  }
  return (Date.now() - started) / 1000;
}

/**
 * Is the server still running, free of crashes since it became ready, and answering?
 * @param {HandleInit} init
 * @param {number} pid
 * @param {ExitWatch} watch
 * @param {number} readyLogOffset where the error log stood when the server became ready
 * @returns {Promise<HealthReport>}
 */
async function checkHealth(init, pid, watch, readyLogOffset) {
  const scan = scanErrorLog(await readLogFrom(init.errorLog, readyLogOffset));
  const exit = watch.exit();
  if (exit !== null || !watch.isAlive()) {
    const how = exit ? (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`) : 'gone';
    return {
      ok: false,
      reason: watch.stopRequested()
        ? `server pid ${pid} was stopped (${how})`
        : `server pid ${pid} (port ${init.port}) is not running: ${how}, not asked to stop` +
          (scan.crash ? `; error log shows a crash: ${scan.crash}` : ''),
      logExcerpt: await readLogTail(init.errorLog, 40),
      errors: scan.errors,
    };
  }
  if (scan.crash) {
    return { ok: false, reason: `error log ${init.errorLog} shows a crash: ${scan.crash}`, logExcerpt: await readLogTail(init.errorLog, 40), errors: scan.errors };
  }
  const answer = await Promise.race([
    ping(init.socket).then(() => 'ok', (e) => `SELECT 1 failed: ${e.message}`),
    sleep(30_000).then(() => 'no answer to SELECT 1 within 30 s'),
  ]);
  if (answer !== 'ok') {
    return { ok: false, reason: `server pid ${pid} (port ${init.port}) is running but ${answer}`, logExcerpt: await readLogTail(init.errorLog, 40), errors: scan.errors };
  }
  return { ok: true, errors: scan.errors };
}

/**
 * SIGTERM, wait up to stopTimeoutS, then SIGKILL.
 * @param {HandleInit} init
 * @param {number} pid
 * @param {ExitWatch} watch
 * @param {{close: () => Promise<void>}} pool
 * @returns {Promise<ServerExit>}
 */
async function stopProcess(init, pid, watch, pool) {
  if (watch.exit() !== null) return /** @type {ServerExit} */ (watch.exit());
  watch.expectExit();
  await pool.close();
  if (watch.exit() !== null) return /** @type {ServerExit} */ (watch.exit());
  init.log(`stopping server pid ${pid} (port ${init.port})`);
  signal(pid, 'SIGTERM');
  const clean = await watch.waitExit(init.stopTimeoutS * 1000);
  if (clean) return clean;
  init.log(`server pid ${pid} still running ${init.stopTimeoutS} s after SIGTERM: sending SIGKILL`);
  signal(pid, 'SIGKILL');
  return watch.exited;
}

/**
 * @param {number} pid
 * @param {NodeJS.Signals} sig
 */
function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already exited; the exit event resolves the wait
  }
}

/**
 * A fresh connection without a default database: the check must not depend on the pool's
 * state or on `sbtest` still existing.
 * @param {string} socket
 */
async function ping(socket) {
  const conn = await createConnection({ socketPath: socket, user: 'root', password: '', connectTimeout: 30_000 });
  try {
    await conn.query('SELECT 1');
  } finally {
    // end() says goodbye (destroy() would log an "Aborted connection" warning on the server).
    await conn.end().catch(() => conn.destroy());
  }
}

/**
 * An unref'd timer: only used beside work that keeps the process alive by itself.
 * @param {number} ms
 */
function sleep(ms) {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}
