/**
 * A stopped server's datadir copied aside and copied back: what lets every round of a run start
 * from the state its load left (scripts/run/same-data-rounds.js says why a copy and not undoing
 * the writes). The copy is `cp --reflink=auto -a`: on a filesystem with reflinks (XFS, btrfs)
 * it shares the blocks and takes a moment whatever the size; elsewhere (ext4, this project's
 * VM) it reads and writes every byte. Both functions refuse a running server: a datadir copied
 * under a live server is torn (pages half written, redo ahead of the tablespaces) and InnoDB
 * would start on it only through crash recovery, or not at all.
 */
import { execFile } from 'node:child_process';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * @typedef {object} DatadirCopy what one copy took
 * @property {number} bytes the files' sizes, summed (the copy's size; a reflink shares them)
 * @property {number} seconds wall time of the copy (and, for a restore, of removing the old datadir)
 */

/**
 * @typedef {object} StoppedServer the part of a ServerHandle the copies need
 * @property {string} datadir
 * @property {() => boolean} isAlive
 */

/**
 * Copy a stopped server's datadir to `snapshotDir`, which must not exist yet.
 * @param {StoppedServer} server
 * @param {string} snapshotDir absolute path, outside the datadir
 * @returns {Promise<DatadirCopy>}
 * @throws {Error} the server still running, the snapshot folder already there, or cp failing
 *   (its message, with both paths)
 */
export async function snapshotDatadir(server, snapshotDir) {
  refuseLive(server, 'snapshot');
  if (await exists(snapshotDir)) throw new Error(`cannot snapshot ${server.datadir}: ${snapshotDir} already exists (a snapshot is taken once, after the load)`);
  const t0 = performance.now();
  await copyTree(server.datadir, snapshotDir);
  return { bytes: await treeBytes(snapshotDir), seconds: (performance.now() - t0) / 1000 };
}

/**
 * Replace a stopped server's datadir with a copy of `snapshotDir`, which stays for the next
 * round; or, for the last round (`last`), with the snapshot itself, moved into place: a rename
 * instead of a copy, and the snapshot is gone.
 * @param {StoppedServer} server
 * @param {string} snapshotDir a folder snapshotDatadir made, on the datadir's filesystem
 * @param {{last?: boolean}} [opts]
 * @returns {Promise<DatadirCopy>}
 * @throws {Error} the server still running, no snapshot, or cp failing; the datadir is then
 *   missing or partial, and the server must not be started on it
 */
export async function restoreDatadir(server, snapshotDir, opts = {}) {
  refuseLive(server, 'restore');
  if (!(await exists(snapshotDir))) throw new Error(`cannot restore ${server.datadir}: no snapshot at ${snapshotDir}`);
  const t0 = performance.now();
  await rm(server.datadir, { recursive: true, force: true });
  if (opts.last) await rename(snapshotDir, server.datadir);
  else await copyTree(snapshotDir, server.datadir);
  return { bytes: await treeBytes(server.datadir), seconds: (performance.now() - t0) / 1000 };
}

/**
 * @param {StoppedServer} server
 * @param {string} what
 */
function refuseLive(server, what) {
  if (server.isAlive()) throw new Error(`cannot ${what} ${server.datadir} while its server runs: stop it first (a copy of a live datadir is torn)`);
}

/**
 * `cp --reflink=auto -a from to`: -a keeps owners, modes and times (the server runs as the same
 * user on the copy), --reflink=auto shares blocks where the filesystem can and copies elsewhere.
 * @param {string} from
 * @param {string} to
 * @returns {Promise<void>}
 */
function copyTree(from, to) {
  return new Promise((resolve, reject) => {
    execFile('cp', ['--reflink=auto', '-a', from, to], { maxBuffer: 1 << 20 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`cp --reflink=auto -a ${from} ${to} failed: ${String(stderr).trim() || error.message}`, { cause: error }));
      else resolve();
    });
  });
}

/**
 * @param {string} dir
 * @returns {Promise<number>} the sizes of the files under dir, summed
 */
async function treeBytes(dir) {
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

/** @param {string} path */
async function exists(path) {
  return stat(path).then(() => true, () => false);
}
