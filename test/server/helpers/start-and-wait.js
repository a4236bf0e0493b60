/**
 * Child process for stop-on-exit.test.js: start one server, print its pid, then either wait
 * for SIGINT (handled the way the run orchestrator does: stopAllServers, exit 130) or, with
 * `exit-now`, leave through process.exit() without stopping anything.
 * Usage: node start-and-wait.js <port> <workDir> sigint|exit-now
 */
import { startServer, stopAllServers } from '../../../scripts/server/index.js';
import { getInstall, serverOptions } from '../helpers.js';

const [port, workDir, mode] = process.argv.slice(2);
if (!mode) {
  // Picked up as a "test" by `node --test test/` (every file under test/ matches): nothing to do.
  console.log('start-and-wait.js is a helper of stop-on-exit.test.js; run that instead');
  process.exit(0);
}
const install = await getInstall('mariadb', '10.11.18');
const h = await startServer(install, serverOptions(workDir, Number(port), 'innodb', { serverCpus: null }));
if (mode === 'sigint') {
  process.once('SIGINT', async () => {
    await stopAllServers();
    process.exit(130);
  });
  process.stdout.write(`${JSON.stringify({ pid: h.pid })}\n`);
  setInterval(() => {}, 1000); // stay alive until the signal
} else {
  process.stdout.write(`${JSON.stringify({ pid: h.pid })}\n`);
  process.exit(0);
}
