/**
 * Read pieces of a server's error log. The log can grow to many MB over a long run, so the
 * tail is read from the end of the file instead of reading it all.
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
