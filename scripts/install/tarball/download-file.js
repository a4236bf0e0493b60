/**
 * Download one file over HTTP(S) to disk, streamed (server tarballs are 100-1000 MB), with
 * progress lines. Node's own fetch: one GET with redirects is all this needs.
 */
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../../errors.js';

const PROGRESS_EVERY_MS = 30_000;
/** Stop a download that stalls for this long (a whole tarball takes minutes, not hours). */
const TIMEOUT_MS = 3600_000;

/**
 * @param {string} url
 * @param {string} dest file to create
 * @param {(msg: string) => void} log
 * @returns {Promise<number>} bytes written
 * @throws {UserError} on a network error or an HTTP status other than 2xx, naming the URL
 */
export async function downloadFile(url, dest, log) {
  let res;
  try {
    res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new UserError(`cannot download ${url}: ${describeCause(err)}; check the URL (tarball.urlTemplate) and that this host reaches it, or pass a local file with --path`, { cause: err });
  }
  if (!res.ok || !res.body) throw new UserError(`cannot download ${url}: HTTP ${res.status} ${res.statusText}; check the URL and the version`);
  const total = Number(res.headers.get('content-length')) || null;
  let bytes = 0;
  let lastReport = Date.now();
  const count = new Transform({
    transform(chunk, _enc, done) {
      bytes += chunk.length;
      if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
        lastReport = Date.now();
        log(`download: ${mb(bytes)}${total ? ` of ${mb(total)}` : ''}`);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(/** @type {import('node:stream/web').ReadableStream} */ (res.body)), count, createWriteStream(dest));
  } catch (err) {
    throw new UserError(`download of ${url} broke off after ${mb(bytes)}: ${describeCause(err)}`, { cause: err });
  }
  return bytes;
}

/** @param {number} n */
function mb(n) {
  return `${(n / 1e6).toFixed(1)} MB`;
}

/** @param {unknown} err */
function describeCause(err) {
  const e = /** @type {Error & {cause?: {code?: string, message?: string}}} */ (err);
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
