/**
 * Read the signs of trouble in a piece of a mysqld / mariadbd error log. Pure.
 */

/**
 * Lines that mean the server crashed or is about to: MariaDB and MySQL print `mysqld got
 * signal N` (or `mariadbd got signal`) from their fatal-signal handler, InnoDB prints
 * `Assertion failure` and debug builds `Assertion ... failed`, and both print a backtrace
 * banner. `[ERROR] Aborting` is how a server ends that gives up at startup.
 */
const CRASH_SIGNATURES = [
  /\b(mysqld|mariadbd)\b.*got signal \d+/i,
  /got signal \d+ ;/,
  /\bAssertion failure\b/,
  /\bAssertion [`'"].*[`'"] failed\b/,
  /\bAttempting backtrace\b/,
  /This could be because you hit a bug/,
  /we probably made a mistake, and this is a bug/,
  /\[ERROR\].*\bAborting\b/,
  /\[ERROR\].*\bFatal\b/i,
];

/**
 * @param {string} text error log lines (typically those written since the server was ready)
 * @returns {{crash: string|null, errors: string[]}} crash: the first crash-signature line, if any;
 *   errors: every `[ERROR]` line
 */
export function scanErrorLog(text) {
  /** @type {string|null} */
  let crash = null;
  /** @type {string[]} */
  const errors = [];
  for (const line of text.split('\n')) {
    if (crash === null && CRASH_SIGNATURES.some((re) => re.test(line))) crash = line.trim();
    if (/\[ERROR\]/.test(line)) errors.push(line.trim());
  }
  return { crash, errors };
}
