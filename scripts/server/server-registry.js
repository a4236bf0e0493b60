/**
 * Every server this process started, so that one call stops them all (the run orchestrator
 * calls stopAllServers() from its SIGINT/SIGTERM handlers; tests call it in `after`).
 */

/** @typedef {import('./types.js').ServerHandle} ServerHandle */
/** @typedef {import('./types.js').ServerExit} ServerExit */

/** @type {Set<ServerHandle>} */
const running = new Set();
let exitHookInstalled = false;

/**
 * @param {ServerHandle} handle
 * @returns {void}
 */
export function registerServer(handle) {
  running.add(handle);
  handle.onExit(() => running.delete(handle));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort when the process exits without stopAllServers(): 'exit' handlers cannot wait,
    // so this only sends SIGTERM (the server still shuts down cleanly on its own).
    process.on('exit', () => {
      for (const h of running) {
        try {
          process.kill(h.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    });
  }
}

/**
 * Stop every server started by this process that is still running, in parallel.
 * @returns {Promise<{pid: number, port: number, exit: ServerExit}[]>} one entry per server stopped
 * @throws {never} a stop that fails is reported as exit {code: null, signal: null}
 */
export async function stopAllServers() {
  const handles = [...running];
  return Promise.all(
    handles.map(async (h) => ({
      pid: h.pid,
      port: h.port,
      exit: await h.stop().catch(() => /** @type {ServerExit} */ ({ code: null, signal: null, expected: true })),
    })),
  );
}

/**
 * @returns {number} how many servers started by this process are still running
 */
export function countRunningServers() {
  return running.size;
}
