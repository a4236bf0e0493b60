/**
 * Append-only, crash-safe file creation for the results store: a file is written once and
 * never rewritten. Writing identical content again is a no-op; different content is refused.
 */
import { mkdir, open, link, unlink, readFile, rename } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../errors.js';

/**
 * @typedef {object} WriteOnceOptions
 * @property {boolean} [json] equal parsed JSON counts as identical (same record, other key order)
 * @property {(existing: Buffer, mine: Buffer) => boolean} [same] other content that counts as
 *   identical (a samples file compressed by another zlib)
 * @property {string} [what] how to name the file in errors ("run record")
 */

/**
 * Create `path` with `text` atomically (temp file in the same directory, fsync, then link into
 * place) unless it exists.
 * @param {string} path absolute or cwd-relative file path
 * @param {string|Buffer} text full content
 * @param {WriteOnceOptions} [options]
 * @returns {Promise<'written'|'unchanged'>}
 * @throws {UserError} when the file exists with different content
 */
export async function writeFileOnce(path, text, options = {}) {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const existing = await readExisting(path);
  if (existing !== null) return sameOrRefuse(path, existing, text, options);
  const tmp = await writeTempFile(path, text);
  try {
    // link() rather than rename(): it fails with EEXIST when another writer created the file
    // meanwhile, so two racing writers can never replace each other's file.
    await link(tmp, path);
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code;
    if (code === 'EEXIST') {
      await unlink(tmp);
      return sameOrRefuse(path, await readFile(path), text, options);
    }
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') { await unlink(tmp).catch(() => {}); throw err; }
    // File systems without hard links: rename is still atomic, only the race check is weaker.
    await rename(tmp, path);
    await syncDir(dir);
    return 'written';
  }
  await unlink(tmp);
  await syncDir(dir);
  return 'written';
}

/**
 * Replace `path` atomically (temp file, fsync, rename). Only for files that are regenerated
 * (index.json) or explicitly upgraded (`tagbench store migrate`), never for new records.
 * @param {string} path
 * @param {string} text
 * @returns {Promise<void>}
 */
export async function replaceFileAtomic(path, text) {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = await writeTempFile(path, text);
  await rename(tmp, path);
  await syncDir(dir);
}

/** @param {string} path @returns {Promise<Buffer|null>} */
async function readExisting(path) {
  try {
    return await readFile(path);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * @param {string} path
 * @param {Buffer} existing
 * @param {string|Buffer} text
 * @param {WriteOnceOptions} options
 * @returns {'unchanged'}
 */
function sameOrRefuse(path, existing, text, options) {
  const mine = Buffer.isBuffer(text) ? text : Buffer.from(text);
  if (existing.equals(mine)) return 'unchanged';
  if (options.json && jsonEqual(existing.toString('utf8'), mine.toString('utf8'))) return 'unchanged';
  if (options.same?.(existing, mine)) return 'unchanged';
  throw new UserError(
    `${path}: a different ${options.what ?? 'file'} already exists at this path; the results store is append-only and ` +
    'never rewrites a file. If this is a new run, give it a new run id; if the stored file is wrong, remove it by hand and say why in the commit.',
  );
}

/** @param {string} a @param {string} b */
function jsonEqual(a, b) {
  try {
    return isDeepStrictEqual(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

/** fsync the directory so the new name survives a power cut. @param {string} dir */
async function syncDir(dir) {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch {
    // some file systems refuse fsync on directories; the data itself is already synced
  } finally {
    await fh.close();
  }
}

/**
 * Write `text` to a new hidden temp file beside `path` and fsync it; readers ignore such files.
 * @param {string} path the file the temp file will become
 * @param {string|Buffer} text
 * @returns {Promise<string>} the temp file's path
 */
async function writeTempFile(path, text) {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return tmp;
}
