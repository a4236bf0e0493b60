/**
 * Fail early and clearly when the TCP port a server should use is taken.
 */
import { createServer } from 'node:net';
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';

/**
 * @param {number} port TCP port on 127.0.0.1
 * @returns {Promise<void>}
 * @throws {UserError} naming the port and, when `ss` can tell, the process listening on it
 */
export async function checkPortFree(port) {
  const err = await tryListen(port);
  if (err === null) return;
  if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
  const holder = err.code === 'EADDRINUSE' ? await describeListener(port) : null;
  const what = err.code === 'EACCES' ? 'cannot be used by this user' : 'is already in use';
  throw new UserError(
    `TCP port ${port} on 127.0.0.1 ${what}${holder ? ` (held by ${holder})` : ''}: ` +
      'pick another port for this server, or stop what holds it',
  );
}

/**
 * @param {number} port
 * @returns {Promise<NodeJS.ErrnoException|null>}
 */
function tryListen(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', (e) => resolve(/** @type {NodeJS.ErrnoException} */ (e)));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

/**
 * Which process listens on the port, from `ss -ltnpH` (iproute2); null when ss is missing or
 * shows no process (another user's process when not root).
 * @param {number} port
 * @returns {Promise<string|null>}
 */
function describeListener(port) {
  return new Promise((resolve) => {
    execFile('ss', ['-ltnpH', `sport = :${port}`], { timeout: 5000 }, (error, stdout) => {
      if (error) return resolve(null);
      const m = /users:\(\("([^"]+)",pid=(\d+)/.exec(stdout);
      resolve(m ? `${m[1]}, pid ${m[2]}` : stdout.trim() ? 'a process ss cannot name' : null);
    });
  });
}
