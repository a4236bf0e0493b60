/**
 * The two kinds of error tagbench knows. A UserError is bad input, bad config or a missing
 * tool: the CLI prints its message without a stack and exits 1. Anything else is a bug.
 * Imports nothing from the stages, so every stage can use it.
 */
export class UserError extends Error {
  /**
   * @param {string} message what failed, which input, what was expected, what to do next
   * @param {{cause?: unknown, exitCode?: number}} [options]
   */
  constructor(message, options = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    /** process exit code the CLI uses for this error */
    this.exitCode = options.exitCode ?? 1;
  }
}

/** Exit codes documented in the README: workflows branch on them. */
/** stopped: a search (tagbench bisect) ended without an answer for want of evidence. */
export const EXIT = Object.freeze({ ok: 0, userError: 1, regression: 2, stopped: 3, interrupted: 130 });
