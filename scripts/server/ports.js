/**
 * TCP ports of the servers: fail early and clearly when the port a server should use is taken,
 * and find a free one when none is given.
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

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, chosen by the kernel. Used when
 * no --port-base is given so that parallel runs on one host (CI jobs, a calibration beside a
 * demo) never fight over a fixed default.
 * @returns {Promise<number>}
 */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
