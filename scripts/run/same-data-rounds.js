/**
 * Every round of every release reads the same data (issue 35, Build item 1). Right after the
 * run-wide load (the sysbench tables: the step with `loadsData`), before the counted phase and
 * before any timed test writes, each release's server is stopped cleanly, its datadir copied
 * aside (scripts/server/datadir-snapshot.js: `cp --reflink=auto -a`) and the server started
 * again on it. Every timed round then starts from a copy of that snapshot: a clean shutdown,
 * the copy put back, a new server process, and the round's warm-ups and postwrite steps as
 * before. Round 1 starts from it too when a counted phase ran (its same-rows rewrite and
 * counted writes changed the tables); without one, round 1 runs on the snapshot's own datadir.
 *
 * Why restore and not order and undo the writes: undoing would mean a reverse for every write
 * test, and none gives back the pages. `insert` adds rows a DELETE could remove, but
 * update-index moves k (the secondary index's entries and their delete-marked ghosts),
 * write-only and delete re-insert rows into other pages, and every write leaves undo history
 * for purge; a table with the same rows in other pages and another history is not the same
 * data for a range scan or a covered point query. Reordering (reads first, writes last) would
 * still leave round 2 reading round 1's writes. A copy of a cleanly shut down datadir is the
 * same bytes every round, for every test and every benchmark, whatever it writes.
 *
 * What each round restores, per benchmark: the sysbench tests read the post-load tables (the
 * writes of a round still come before the reads of that round, as the standard suite orders
 * them: "after the write phase" is the state they describe). A sequence benchmark (the insert
 * benchmark, LinkBench), whose steps build on each other, keeps its order within a round and
 * restores nothing of its own: each pass starts with its own load (l.i0 drops and creates its
 * tables, linkbench.load its database), and the restore has already removed the tables of the
 * pass before, so every pass's later steps read the state its own load left. A suite without a
 * run-wide load (only sequences) takes no snapshot: there is nothing to restore.
 *
 * Cost: one copy after the load and one per later round and release but the last (which moves
 * the snapshot into place), plus a server restart for the snapshot. The datadir is the tables plus InnoDB's redo log (innodb_log_file_size, which
 * the presets' host classes set to 8G, 16G and 32G): estimate.js `estimateCopyS` reckons it.
 */
import { join } from 'node:path';
import { startServer, snapshotDatadir, restoreDatadir } from '../server/index.js';

/** @typedef {import('./start-release.js').RunState} RunState */

/** The snapshot's folder name, beside the datadir in the release's instance folder. */
const SNAPSHOT_NAME = 'data.after-load';

/**
 * Stop a release's server, copy its datadir aside, start it again on the datadir.
 * @param {RunState} state its `snapshotDir` is set on success
 * @param {string} key the release, for the progress line
 * @param {(t: string) => void} write
 * @returns {Promise<{ok: true} | {ok: false, reason: string}>}
 */
export async function snapshotAfterLoad(state, key, write) {
  const exit = await state.server.stop();
  const snapshotDir = join(state.serverOptions.workDir, SNAPSHOT_NAME);
  try {
    const copy = await snapshotDatadir(state.server, snapshotDir);
    write(`snapshot ${key} after the load: ${formatCopy(copy)}\n`);
    state.snapshotDir = snapshotDir;
  } catch (err) {
    return { ok: false, reason: `cannot snapshot the datadir after the load (server exit ${JSON.stringify(exit)}): ${message(err)}` };
  }
  return startAgain(state, 'after the snapshot');
}

/**
 * Stop a release's server, put the snapshot back, start a new server on it.
 * @param {RunState} state with `snapshotDir` set (snapshotAfterLoad)
 * @param {string} key the release, for the progress line
 * @param {{round: number, last: boolean}} at the 1-based round, and whether it is the release's
 *   last (its snapshot is then moved into place instead of copied: nothing needs it after)
 * @param {(t: string) => void} write
 * @returns {Promise<{ok: true} | {ok: false, reason: string}>}
 */
export async function restoreForRound(state, key, { round, last }, write) {
  const exit = await state.server.stop();
  if (!state.snapshotDir) return { ok: false, reason: `round ${round}: no snapshot of the datadir to restore (a bug: the run restores only after it took one)` };
  try {
    const copy = await restoreDatadir(state.server, state.snapshotDir, { last });
    if (last) delete state.snapshotDir;
    write(`restore ${key} for round ${round}: ${last ? `the snapshot moved into place (${(copy.bytes / 1e6).toFixed(1)} MB) in ${copy.seconds.toFixed(2)} s` : formatCopy(copy)}\n`);
  } catch (err) {
    return { ok: false, reason: `cannot restore the datadir for round ${round} (server exit ${JSON.stringify(exit)}): ${message(err)}` };
  }
  return startAgain(state, `for round ${round}`);
}

/**
 * @param {RunState} state
 * @param {string} when for the message
 * @returns {Promise<{ok: true} | {ok: false, reason: string}>}
 */
async function startAgain(state, when) {
  try {
    state.server = await startServer(state.install, { ...state.serverOptions, reuseDatadir: true });
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `server would not start ${when}: ${message(err)}` };
  }
}

/** @param {{bytes: number, seconds: number}} copy what restoreDatadir or snapshotDatadir took */
function formatCopy(copy) {
  return `${(copy.bytes / 1e6).toFixed(1)} MB copied in ${copy.seconds.toFixed(2)} s`;
}

/** @param {unknown} err */
function message(err) {
  return err instanceof Error ? err.message : String(err);
}
