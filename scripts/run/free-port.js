/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, chosen by the kernel. Used when
 * no --port-base is given so that parallel runs on one host (CI jobs, a calibration beside a
 * demo) never fight over a fixed default.
 */
import { createServer } from 'node:net';

/** @returns {Promise<number>} */
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
