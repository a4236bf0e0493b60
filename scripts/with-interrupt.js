/**
 * Ctrl-C and SIGTERM (a runner cancelling a step at its timeout) for the commands that start
 * servers (run, confirm, calibrate, bisect) or serve the site: the signal aborts the work in
 * progress, which stops its servers and keeps what was measured, instead of killing the process
 * with servers still running.
 */

/**
 * Run `body` with SIGINT and SIGTERM turned into an abort of the signal it gets. The handlers
 * are removed when `body` settles, even when it throws, so a later Ctrl-C ends the process
 * as usual.
 * @template T
 * @param {(signal: AbortSignal) => Promise<T>} body the work; it passes the signal on (to
 *   runReleases, say) and checks `signal.aborted` between steps
 * @param {(sig: NodeJS.Signals) => void} [onInterrupt] says what happens now; called at the first
 *   signal only (a second Ctrl-C while the servers stop must not repeat it)
 * @returns {Promise<T>} what body returns
 * @throws whatever body throws
 */
export async function withInterrupt(body, onInterrupt) {
  const controller = new AbortController();
  const onSignal = (/** @type {NodeJS.Signals} */ sig) => {
    if (!controller.signal.aborted) onInterrupt?.(sig);
    // An AbortError like abort()'s own, whose message names the signal: a partial run record
    // says what stopped it (SIGTERM: a cancelled job or a timeout; SIGINT: Ctrl-C).
    controller.abort(new DOMException(`interrupted by ${sig}`, 'AbortError'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await body(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
