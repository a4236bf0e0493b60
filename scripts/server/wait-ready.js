/**
 * After the spawn: wait until the server answers on its socket (or report why it died), and
 * prove the spawned pid is the server's own.
 */
import { readFile } from 'node:fs/promises';
import { createConnection } from 'mysql2/promise';
import { UserError } from '../errors.js';
import { readLogFrom, readLogTail } from './error-log.js';

/** @typedef {import('./types.js').ServerWrapper} ServerWrapper */
/** @typedef {import('./server-handle.js').StartingHandle} StartingHandle */

/**
 * The spawned pid must be the server's: stop(), crash detection and the samplers act on it.
 * taskset execs and valgrind is the process, but a wrapper such as `perf stat -- cmd` forks the
 * server as its child. The server writes its own getpid() to the pid file before it accepts
 * connections, so a different number there means the wrapper forked.
 * @param {StartingHandle} handle
 * @param {string} pidFile
 * @param {ServerWrapper|null} wrapper
 * @param {number} stopTimeoutS how long the forked server gets to shut down before SIGKILL
 * @returns {Promise<void>} when the pid file names the spawned process (or none)
 * @throws {UserError} when the pid file names another process (stopped by then; the caller
 *   stops the wrapper)
 */
export async function checkServerPid(handle, pidFile, wrapper, stopTimeoutS) {
  const text = await readFile(pidFile, 'utf8').catch(() => null);
  const serverPid = text === null ? null : Number(text.trim());
  if (serverPid === null || !(serverPid > 0) || serverPid === handle.pid) return;
  // Stopping the wrapper would orphan the server it forked: stop that server first, by the pid
  // it wrote, once /proc confirms it is a server on this datadir.
  const cmdline = await readFile(`/proc/${serverPid}/cmdline`, 'utf8').catch(() => '');
  if (cmdline.split('\0').includes(`--datadir=${handle.datadir}`)) await stopPid(serverPid, stopTimeoutS);
  throw new UserError(`the server's pid file ${pidFile} says pid ${text?.trim()}, but the process started was pid ${handle.pid} (${handle.command.slice(0, 3).join(' ')} ...): ` +
    (wrapper
      ? `the wrapper '${wrapper.argv.join(' ')}' runs the server as a child process, and tagbench must signal and sample the server itself. ` +
        'Use a wrapper that runs the server in its own process (valgrind, nice, env, chrt); attach perf with `perf stat -p <pid>` after the start instead of wrapping the server'
      : 'something between tagbench and the server forked it; start it directly'));
}

/**
 * SIGTERM a process that is not our child, wait until it is gone, SIGKILL after timeoutS.
 * @param {number} pid
 * @param {number} timeoutS
 */
async function stopPid(pid, timeoutS) {
  const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
  const send = (/** @type {NodeJS.Signals} */ sig) => { try { process.kill(pid, sig); } catch { /* gone */ } };
  send('SIGTERM');
  const deadline = Date.now() + timeoutS * 1000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (alive()) send('SIGKILL');
  while (alive()) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Poll the socket until the server answers; stop early when the process dies.
 * @param {StartingHandle} handle
 * @param {{socket: string, errorLog: string, serverOut: string}} paths
 * @param {{logOffset: number, outOffset: number}} offsets sizes of the error log and server.out
 *   before the start: messages show only what this start wrote
 * @param {number} timeoutS
 * @returns {Promise<void>} once a connection over the socket succeeds
 * @throws {UserError} when the process exits first (with its error lines and output) or timeoutS passes
 */
export async function waitUntilReady(handle, paths, { logOffset, outOffset }, timeoutS) {
  const deadline = Date.now() + timeoutS * 1000;
  /** @type {string} */
  let lastError = '';
  while (Date.now() < deadline) {
    const exit = handle.exited();
    if (exit) {
      const tail = await tailSince(paths.errorLog, logOffset);
      const errors = tail.split('\n').filter((l) => /\[ERROR\]/.test(l));
      throw new UserError(`server pid ${handle.pid} exited during startup (${exit.signal ?? `exit code ${exit.code}`})` +
        (errors.length ? `:\n${errors.join('\n')}\n` : '.\n') +
        'Check the option named there in the my.cnf template and the host class mycnf values.\n' +
        `Command: ${handle.command.join(' ')}\nLast lines of ${paths.errorLog}:\n${tail || '(empty)'}` +
        (await consoleOutput(paths.serverOut, outOffset)));
    }
    try {
      const conn = await createConnection({ socketPath: paths.socket, user: 'root', password: '', connectTimeout: 5000 });
      await conn.end();
      return;
    } catch (err) {
      lastError = /** @type {Error} */ (err).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new UserError(`server pid ${handle.pid} did not accept connections on ${paths.socket} within ${timeoutS} s (last error: ${lastError}).\n` +
    `Last lines of ${paths.errorLog}:\n${await tailSince(paths.errorLog, logOffset)}${await consoleOutput(paths.serverOut, outOffset)}`);
}

/**
 * What the process printed outside its error log (taskset's own errors, a missing library).
 * @param {string} path
 * @param {number} offset
 * @returns {Promise<string>} '' when nothing, else a titled block
 */
async function consoleOutput(path, offset) {
  const text = (await readLogFrom(path, offset)).trim().split('\n').slice(-15).join('\n');
  return text ? `\nOutput of the process (${path}):\n${text}` : '';
}

/**
 * @param {string} path
 * @param {number} offset
 */
async function tailSince(path, offset) {
  const text = (await readLogFrom(path, offset)).trimEnd();
  return text ? text.split('\n').slice(-30).join('\n') : await readLogTail(path, 30);
}
