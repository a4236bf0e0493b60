/**
 * A server's error log: read pieces of it, and find the signs of trouble in them (scanErrorLog
 * is pure). The log can grow to many MB over a long run, so the tail is read from the end of
 * the file instead of reading it all.
 */
import { open, stat } from 'node:fs/promises';

/**
 * @param {string} path error log file
 * @returns {Promise<number>} its size in bytes, 0 when it does not exist yet
 */
export async function readLogSize(path) {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/**
 * @param {string} path error log file
 * @param {number} offsetBytes where to start
 * @param {number} [maxBytes] read at most this much (default 4 MiB), from the end
 * @returns {Promise<string>} the text from offsetBytes to the end ('' when missing)
 */
export async function readLogFrom(path, offsetBytes, maxBytes = 4 * 1024 * 1024) {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const size = (await fh.stat()).size;
    const start = Math.max(offsetBytes, size - maxBytes);
    if (size <= start) return '';
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    return buf.toString('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * @param {string} path error log file
 * @param {number} lines how many lines from the end
 * @returns {Promise<string>} the last `lines` lines ('' when missing)
 */
export async function readLogTail(path, lines) {
  const size = await readLogSize(path);
  // 400 bytes a line is generous for server logs; backtraces have long lines.
  const text = await readLogFrom(path, Math.max(0, size - lines * 400));
  const all = text.replace(/\n$/, '').split('\n');
  return all.slice(-lines).join('\n');
}

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
