/**
 * The `instructions` meter: the server runs under valgrind's callgrind, and a repeat is a fixed
 * amount of work (sysbench --events with a fixed seed, its warm-up run before the counters start).
 * Counters are zeroed right before the repeat (`callgrind_control -z`) and dumped right after
 * (`-d`); the dump is the repeat's profile. Two figures per operation come out of it:
 *
 * - query path: the inclusive count of the flavor's command-dispatch function (products config
 *   `dispatchFunction`, `dispatch_command` in MariaDB and MySQL): the instructions the server
 *   spent answering the client, exact to a few thousandths of a percent on reads;
 * - process: every instruction of the server over the repeat, all threads (purge, page cleaner,
 *   log writer included): what the release costs the machine, noisier where background work runs
 *   on timers.
 *
 * Why the whole profile rather than `--toggle-collect` on the dispatch function: the same dump
 * then gives both figures and the per-function costs that say where a difference went.
 *
 * Counts are exact on one machine but not across machines (glibc picks its string routines by
 * CPU, code layout moves with the toolchain): what they depend on is recorded with them
 * (describeCountingHost) and compare judges them within one host series only.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseCallgrind } from '../parse-callgrind.js';
import { summarizeProfile } from '../summarize-profile.js';

const execFileP = promisify(execFile);

/** Name of the dumps in the instance's folder; valgrind replaces %p with the server's pid. */
const OUT_PREFIX = 'callgrind.out.';

/** @satisfies {import('../types.js').Meter} */
export const instructions = Object.freeze({
  name: 'instructions',
  kind: 'counted',
  // Per operation of a counted repeat, from countedRepeat.instructions: the query path (inclusive
  // of the dispatch function) and the whole server process. The query path's figure answers the
  // question the timed CPU µs/op asks (the CPU cost of an operation), exactly: where it decides,
  // the timed figure is context, not gated (scripts/compare/context-verdicts.js).
  metrics: /** @type {import('../types.js').MeterMetric[]} */ ([
    { name: 'instructionsPerOp', figure: 'queryPathPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', label: 'instructions per op in the query path', answers: 'cpu-cost-per-op' },
    { name: 'processInstructionsPerOp', figure: 'processPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', label: 'instructions per op of the server process' },
  ]),
  needs: { tools: ['valgrind'], wrappedServer: true },
  serverWrapper: callgrindWrapper,
  dependsOn: describeDependencies,
  start: startCounting,
  // The host class's counted* rates are callgrind's (scripts/run/estimate.js ESTIMATE_DEFAULTS).
  countedPace: (rates) => ({
    instructionsPerS: rates.countedInstructionsPerS, repeatOverheadS: rates.countedRepeatOverheadS,
    serverStartS: rates.countedServerStartS, servers: 'under callgrind',
  }),
  // Calibrated by injected instructions: the preload library's loop adds a known count on each
  // query answer, which the query path (the dispatch function's inclusive count) must carry
  // whole. Sizes are shares of a point select's count: the cheapest query of the suite, where a
  // count is the largest share of the total.
  calibration: /** @type {import('../types.js').CountedCalibration} */ (Object.freeze({
    injects: 'preload-count',
    sizeTest: 'point-query',
    judged: Object.freeze({ queryPath: 'instructionsPerOp', process: 'processInstructionsPerOp' }),
  })),
});

/**
 * How a counted server starts: under callgrind, its dumps in the instance's folder.
 * @param {{workDir: string}} server
 * @returns {import('../types.js').ServerWrapper}
 */
function callgrindWrapper({ workDir }) {
  return {
    argv: [
      'valgrind', '--tool=callgrind',
      `--callgrind-out-file=${join(workDir, `${OUT_PREFIX}%p`)}`,
      // Collection runs from the start; the counters are zeroed before each repeat.
      '--collect-atstart=yes',
      // Without it valgrind prints one warning per unusual syscall into the error log.
      '-q',
    ],
    // 4-18 s on a quiet machine; several servers starting on 2 busy cores take longer.
    readyTimeoutS: 180,
    mycnfOverrides: {
      // MariaDB 10.11 maps 8 TB for the buffer pool's maximum by default, which valgrind
      // refuses; `loose-` makes a server without the option (MySQL) ignore it.
      'loose-innodb_buffer_pool_size_max': '2G',
      // valgrind does not support io_uring/libaio's way of completing I/O.
      innodb_use_native_aio: 0,
      // One purge thread: after each count purge runs alone, and with several threads the
      // order of its page merges (and so the pages the next count finds) varied per server.
      innodb_purge_threads: 1,
      // A new thread per connection: a cached thread kept the malloc arena of whatever it served
      // before, and which one a connection got depended on timing; the same insert then cost
      // up to 0.6 % more in _int_malloc on one server than on the other (measured here).
      thread_cache_size: 0,
    },
  };
}

/**
 * What the counts depend on beyond the release: two hosts that differ here count differently.
 * @returns {Promise<Record<string, string>>}
 */
async function describeDependencies() {
  const run = (/** @type {string} */ cmd, /** @type {string[]} */ args) => execFileP(cmd, args).then((r) => r.stdout.trim(), () => 'unknown');
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const field = (/** @type {string} */ name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  return {
    valgrind: await run('valgrind', ['--version']),
    glibc: await run('getconf', ['GNU_LIBC_VERSION']),
    cpuModel: field('model name'),
    // glibc chooses memcpy/strlen variants by these (AVX2, ERMS...): same model, same flags.
    cpuFlags: field('flags'),
  };
}

/**
 * Zero callgrind's counters after the meter's preparation (purge and flush waits, purge held,
 * the warm-up) and dump them when the repeat ends.
 * @param {import('../types.js').MeterTarget} target
 * @returns {Promise<import('../types.js').MeterSession>}
 */
async function startCounting(target) {
  if (!target.workDir) throw new Error('the instructions meter needs the server instance\'s workDir (where callgrind writes its dumps)');
  const workDir = target.workDir;
  const purgeWaitS = target.query ? await waitForPurge(target.query) : null;
  const flushWaitS = target.flushDirtyPages ? await target.flushDirtyPages() : null;
  // Purge held over the count: while it ran beside a write, how many undo pages the client's
  // transactions had to create (and format: a 16 KiB memset each) depended on how far purge
  // had freed them, a race under valgrind's one-thread-at-a-time scheduling. Measured here on
  // oltp_update_non_index, 500 events, one MariaDB 10.11.18 process: 102.6-113.5 thousand
  // instructions per update over 6 repeats with purge running (memset 8.7-17.2 thousand),
  // 95.6-96.4 thousand with purge held (memset 8.5-8.6 thousand), the rest of that spread
  // being the repeats' different seeds. Reads are unchanged: purge has nothing left to do
  // after the wait above. The purge of the repeat's own changes runs after the count.
  const hold = target.holdPurge ? await target.holdPurge() : null;
  let before;
  try {
    await target.beforeZero?.();
    before = new Set(await listDumps(workDir, target.pid));
    await callgrindControl('-z', target.pid);
  } catch (err) {
    await hold?.release();
    throw err;
  }
  const startedMs = Date.now();
  return {
    async stop(repeat) {
      // Dump even after a failed repeat: the next repeat's zeroing then starts from a clean state.
      try {
        await callgrindControl('-d', target.pid);
      } finally {
        await hold?.release();
      }
      const dump = (await listDumps(workDir, target.pid)).find((f) => !before.has(f));
      if (!dump) throw new Error(`callgrind_control -d ${target.pid} wrote no new dump in ${workDir}`);
      const path = join(workDir, dump);
      try {
        if (repeat === null || !repeat.ok || !repeat.operations) return null;
        const parsed = parseCallgrind(await readFile(path, 'utf8'));
        const profile = summarizeProfile(parsed, { ops: repeat.operations, dispatchFunction: target.dispatchFunction ?? 'dispatch_command' });
        return countedFigures(profile, {
          operations: repeat.operations, dispatchFunction: target.dispatchFunction ?? 'dispatch_command',
          countedS: (Date.now() - startedMs) / 1000, purgeWaitS, purgeHeld: hold !== null, flushWaitS,
        });
      } finally {
        // Dumps are megabytes each; the compact profile is what the record keeps.
        await rm(path, { force: true });
      }
    },
  };
}

/**
 * The record's figures of one counted repeat. Pure.
 * @param {ReturnType<typeof summarizeProfile>} profile
 * @param {object} count how the count was taken
 * @param {number} count.operations the repeat's operations (the divisor of every per-op figure)
 * @param {string} count.dispatchFunction the query path's root function
 * @param {number} count.countedS wall seconds between zeroing and dumping (under valgrind)
 * @param {number|null} [count.purgeWaitS] seconds waited for InnoDB's purge before zeroing; null = not waited
 * @param {boolean} [count.purgeHeld] a read view kept purge from running during the count
 * @param {number|null} [count.flushWaitS] seconds waited for the buffer pool's dirty pages to be
 *   written before zeroing; null = not waited
 * @returns {import('../types.js').MeterFigures}
 */
export function countedFigures(profile, { operations, dispatchFunction, countedS, purgeWaitS = null, purgeHeld = false, flushWaitS = null }) {
  const queryPathPerOp = profile.queryPathPerOp;
  if (queryPathPerOp === null || !(queryPathPerOp > 0)) {
    throw new Error(`the profile has no instructions in ${dispatchFunction}: is that the server's command-dispatch function (products config dispatchFunction)?`);
  }
  return {
    meter: 'instructions',
    perOp: { queryPathInstructionsPerOp: queryPathPerOp, processInstructionsPerOp: profile.totalPerOp },
    repeat: {
      instructions: {
        operations,
        queryPathPerOp,
        processPerOp: profile.totalPerOp,
        unnamedSelfPerOp: profile.unnamedSelfPerOp,
        dispatchFunction,
        countedS: Math.round(countedS * 1000) / 1000,
        purgeWaitS: purgeWaitS === null ? null : Math.round(purgeWaitS * 10) / 10,
        purgeHeld,
        flushWaitS: flushWaitS === null ? null : Math.round(flushWaitS * 10) / 10,
      },
    },
    profile,
  };
}

/** How long to wait for purge before counting anyway (the figure then says so). */
const PURGE_WAIT_LIMIT_S = 300;

/**
 * Wait until InnoDB has purged the history of earlier writes (the timed repeats', the previous
 * counted test's). While purge runs it takes latches the query path then waits and spins on,
 * and an MVCC read walks longer version chains, so the count of a read depended on how far
 * purge had got: 1.7 % between two servers of one release for point selects, 7 % for ranges
 * over a secondary index, measured here before this wait. MariaDB waits server-side
 * (innodb_max_purge_lag_wait=0, 10.5.7 and later); elsewhere the history list length of
 * SHOW ENGINE INNODB STATUS is polled.
 * @param {import('../types.js').QueryFn} query
 * @returns {Promise<number>} seconds waited
 */
async function waitForPurge(query) {
  const started = Date.now();
  try {
    await query('SET GLOBAL innodb_max_purge_lag_wait=0');
    return (Date.now() - started) / 1000;
  } catch {
    // not MariaDB: poll below
  }
  while ((Date.now() - started) / 1000 < PURGE_WAIT_LIMIT_S) {
    const rows = await query('SHOW ENGINE INNODB STATUS');
    const text = String(Object.values(rows[0] ?? {}).at(-1) ?? '');
    const length = Number(/History list length (\d+)/.exec(text)?.[1] ?? 0);
    if (length === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return (Date.now() - started) / 1000;
}

/**
 * @param {string} workDir
 * @param {number} pid
 * @returns {Promise<string[]>} names of the pid's numbered dumps (`callgrind.out.<pid>.<n>`)
 */
async function listDumps(workDir, pid) {
  const names = await readdir(workDir).catch(() => /** @type {string[]} */ ([]));
  return names.filter((n) => n.startsWith(`${OUT_PREFIX}${pid}.`));
}

/**
 * callgrind_control talks to the running valgrind through vgdb (on by default).
 * @param {'-z'|'-d'} action zero the counters, or dump them
 * @param {number} pid
 */
async function callgrindControl(action, pid) {
  try {
    const { stdout } = await execFileP('callgrind_control', [action, String(pid)], { timeout: 120_000 });
    // It prints the process's command line, then `OK.` (a line of its own) when the command was done.
    if (!/^\s*OK\.?\s*$/m.test(stdout)) throw new Error(stdout.trim().split('\n').slice(-3).join(' '));
  } catch (err) {
    const code = /** @type {{code?: string}} */ (err).code;
    if (code === 'ENOENT') throw new Error('callgrind_control is not installed: the instructions meter needs valgrind (Debian: apt-get install valgrind)');
    throw new Error(`callgrind_control ${action} ${pid} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
