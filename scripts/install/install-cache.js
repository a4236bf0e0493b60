/**
 * The install cache: one prefix per release at `<cacheDir>/<product>-<version>/`, built in a
 * private work folder and moved into place with one rename. A prefix counts as installed only
 * when its marker file (written before the rename) is there and its server binary still is, so
 * a half-done install is never reused.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';

/** Marker file at the root of a finished prefix: the InstallResult that produced it. */
export const MARKER = '.tagbench-install.json';
const MARKER_SCHEMA = 1;

/**
 * Final prefix path of a release.
 * @param {string} cacheDir
 * @param {string} product
 * @param {string} version
 * @returns {string}
 * @throws {UserError} for names that would escape the cache folder
 */
export function prefixPathFor(cacheDir, product, version) {
  for (const [what, v] of [['product', product], ['version', version]]) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(v)) {
      throw new UserError(`${what} '${v}' cannot name an install folder: use letters, digits, '.', '_', '+', '-' only`);
    }
  }
  return join(cacheDir, `${product}-${version}`);
}

/**
 * The result stored in a finished prefix, or null when there is no usable install.
 * @param {string} prefix
 * @returns {Promise<import('../types.js').InstallResult|null>}
 */
export async function readCachedResult(prefix) {
  const text = await readFile(join(prefix, MARKER), 'utf8').catch(() => null);
  if (text === null) return null;
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (data?.schemaVersion !== MARKER_SCHEMA || !data.result?.bin?.server) return null;
  /** @type {import('../types.js').InstallResult} */
  const result = data.result;
  const st = await stat(result.bin.server).catch(() => null);
  if (!st?.isFile() || (typeof data.serverBytes === 'number' && st.size !== data.serverBytes)) return null;
  return result;
}

/**
 * Look a release up in the install cache, whatever provider put it there. Lets `tagbench run`
 * benchmark a release that an earlier `tagbench install --provider source|tarball|path` step
 * prepared (the benchmark workflow installs in one job and runs in the next).
 * @param {string} cacheDir install cache
 * @param {string} product
 * @param {string} version
 * @returns {Promise<import('../types.js').InstallResult|null>} the cached install (status
 *   'skipped'), or null when it is not in the cache or the cache entry is incomplete
 */
export async function findCachedInstall(cacheDir, product, version) {
  const result = await readCachedResult(prefixPathFor(cacheDir, product, version));
  return result ? { ...result, status: 'skipped' } : null;
}

/**
 * A fresh work folder beside the final prefix (same file system, so the final rename is atomic).
 * @param {string} cacheDir
 * @param {string} name `<product>-<version>`
 * @returns {Promise<string>}
 */
export async function makeWorkDir(cacheDir, name) {
  await mkdir(cacheDir, { recursive: true });
  await removeAbandoned(cacheDir);
  return mkdtemp(join(cacheDir, `.work-${name}-`));
}

/** Work folders older than this belong to a killed install (a cold install takes under a minute). */
const ABANDONED_AFTER_MS = 6 * 3600 * 1000;

/**
 * Delete work and trash folders left by interrupted installs (each can hold hundreds of MB).
 * @param {string} cacheDir
 * @returns {Promise<void>}
 */
async function removeAbandoned(cacheDir) {
  for (const name of await readdir(cacheDir).catch(() => /** @type {string[]} */ ([]))) {
    if (!name.startsWith('.work-') && !name.includes('.trash-')) continue;
    const st = await stat(join(cacheDir, name)).catch(() => null);
    if (st && Date.now() - st.mtimeMs > ABANDONED_AFTER_MS) await rm(join(cacheDir, name), { recursive: true, force: true });
  }
}

/**
 * Write the marker into a built prefix and move it into place.
 * When another process finished the same release first, its prefix wins and ours is dropped.
 * A final folder without a valid marker (an interrupted older tool, a hand-made copy) is moved
 * aside to `.trash-*` and removed.
 * @param {string} builtPrefix folder that holds the complete install
 * @param {string} finalPrefix
 * @param {import('../types.js').InstallResult} result status 'installed'
 * @returns {Promise<{result: import('../types.js').InstallResult, won: boolean}>} won = our prefix is the one in place
 */
export async function commitPrefix(builtPrefix, finalPrefix, result) {
  const serverBytes = (await stat(result.bin.server.replace(finalPrefix, builtPrefix))).size;
  await writeFile(join(builtPrefix, MARKER), `${JSON.stringify({ schemaVersion: MARKER_SCHEMA, serverBytes, result }, null, 2)}\n`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await rename(builtPrefix, finalPrefix);
      return { result, won: true };
    } catch (err) {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      const existing = await readCachedResult(finalPrefix);
      if (existing) {
        await rm(builtPrefix, { recursive: true, force: true });
        return { result: existing, won: false };
      }
      await discardPrefix(finalPrefix);
    }
  }
  throw new UserError(`could not move ${builtPrefix} to ${finalPrefix}: another process keeps recreating it`);
}

/**
 * Move a prefix aside and delete it (the rename makes it disappear at once for readers).
 * @param {string} prefix
 * @returns {Promise<void>}
 */
export async function discardPrefix(prefix) {
  const trash = `${prefix}.trash-${process.pid}-${Date.now()}`;
  try {
    await rename(prefix, trash);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return;
    throw err;
  }
  await rm(trash, { recursive: true, force: true });
}
