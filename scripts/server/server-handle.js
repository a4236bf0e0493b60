/**
 * The ServerHandle around a spawned server process: queries, health, stop.
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
 * @property {'mariadb'|'mysql'} flavor
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

/**
 * @param {HandleInit} init
 * @returns {ServerHandle & {markReady: () => Promise<void>, exited: () => ServerExit|null}} the handle,
 *   plus two hooks for startServer(): markReady() sets where health checks start reading the
 *   error log, exited() tells whether the process is gone
 */
export function createServerHandle(init) {
  const { child } = init;
  if (child.pid === undefined) throw new Error('server process has no pid (spawn failed)');
  const pid = child.pid;
  /** @type {ServerExit|null} */
  let exit = null;
  let stopRequested = false;
  /** @type {((e: ServerExit) => void)[]} */
  const exitListeners = [];
  /** @type {Promise<ServerExit>|null} */
  let stopping = null;
  let readyLogOffset = 0;
  /** @type {import('mysql2/promise').Pool|null} */
  let pool = null;

  /** @type {Promise<ServerExit>} */
  const exitPromise = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal, expected: stopRequested };
      if (!stopRequested) init.log(`server pid ${pid} (port ${init.port}) exited unexpectedly: ${signal ?? `code ${code}`}`);
      for (const cb of exitListeners.splice(0)) cb(exit);
      resolve(exit);
    });
  });

  function getPool() {
    pool ??= createPool({
      socketPath: init.socket, user: 'root', password: '', database: 'sbtest',
      connectionLimit: 2, connectTimeout: 30_000, supportBigNumbers: true,
    });
    return pool;
  }

  async function closePool() {
    const p = pool;
    pool = null;
    if (!p) return;
    // end() waits for the server's reply; a dead or hung server must not hold up stop().
    await Promise.race([p.end().catch(() => {}), sleep(5000)]);
  }

  /**
   * @param {number} ms
   * @returns {Promise<ServerExit|null>} null when the process is still running after ms
   */
  function waitExit(ms) {
    return new Promise((resolve) => {
      // A ref'd timer: waiting for the server must keep the process alive, and is cleared
      // as soon as the server exits so it does not hold the process open after that.
      const t = setTimeout(() => resolve(null), ms);
      exitPromise.then((e) => {
        clearTimeout(t);
        resolve(e);
      });
    });
  }

  /** @type {ServerHandle & {markReady: () => Promise<void>, exited: () => ServerExit|null}} */
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
      const [rows] = await getPool().query(sql, params);
      return rows;
    },

    async holdPurge() {
      // Its own connection, not the pool's: the snapshot must stay open while the pool runs
      // other statements, and closing it is what lets purge go on.
      const conn = await createConnection({ socketPath: init.socket, user: 'root', password: '', connectTimeout: 30_000 });
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
    },

    isAlive() {
      if (exit !== null) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },

    async checkHealth() {
      const scan = scanErrorLog(await readLogFrom(init.errorLog, readyLogOffset));
      if (exit !== null || !handle.isAlive()) {
        const how = exit ? (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`) : 'gone';
        return {
          ok: false,
          reason: stopRequested
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
    },

    errorLogExcerpt(lines = 40) {
      return readLogTail(init.errorLog, lines);
    },

    stop() {
      stopping ??= (async () => {
        if (exit !== null) return exit;
        stopRequested = true;
        await closePool();
        if (exit !== null) return exit;
        init.log(`stopping server pid ${pid} (port ${init.port})`);
        signal('SIGTERM');
        const clean = await waitExit(init.stopTimeoutS * 1000);
        if (clean) return clean;
        init.log(`server pid ${pid} still running ${init.stopTimeoutS} s after SIGTERM: sending SIGKILL`);
        signal('SIGKILL');
        return exitPromise;
      })();
      return stopping;
    },

    onExit(callback) {
      if (exit !== null) {
        const e = exit;
        queueMicrotask(() => callback(e));
      } else {
        exitListeners.push(callback);
      }
    },

    async markReady() {
      readyLogOffset = await readLogSize(init.errorLog);
    },

    exited() {
      return exit;
    },
  };

  /** @param {NodeJS.Signals} sig */
  function signal(sig) {
    try {
      process.kill(pid, sig);
    } catch {
      // already exited; the exit event resolves the wait
    }
  }

  return handle;
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
