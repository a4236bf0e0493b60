/**
 * The `counters` meter: the CPU's hardware counters of the server process over a repeat, from
 * `perf stat -p <pid>` attached to the running server (a forking `perf stat --` wrapper is
 * refused by the server stage, so there is no serverWrapper). Per operation: instructions,
 * cycles, branch misses and last-level-cache misses, and instructions per cycle.
 *
 * perf starts with its counters disabled (`-D -1`) and is told to enable and disable them over
 * a control socket (`--control fd:3,4`), waiting for its ack each time: the repeat does not
 * start before counting does, and the window is known to the millisecond rather than guessed
 * from when the process was spawned. Like the wall meter's samplers, that window is a bit wider
 * than the tool's measured one (its connect and warm-up); the counts are taken as a rate over
 * perf's window and applied to the measured window: figurePerOp = count / windowS × durationS / ops.
 *
 * perf counts every thread of the server that exists when it attaches, and (inherited) those
 * they create later (connection threads). Where there is no PMU (many VMs) the hardware events
 * come back `<not supported>`: the repeat is still recorded, its figures are null and say why.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { UserError } from '../../errors.js';
import { parsePerfStat } from '../parse-perf-stat.js';

/** @typedef {import('../types.js').MeterFigures} MeterFigures */
/** @typedef {import('../types.js').MeteredRepeat} MeteredRepeat */
/** @typedef {import('../parse-perf-stat.js').PerfStatEvent} PerfStatEvent */

/** @typedef {import('../../types.js').CounterEvent} CounterEvent */

/** @typedef {import('../../types.js').CounterFigures} CounterFigures */

/** The events counted unless the caller names others. */
export const DEFAULT_EVENTS = Object.freeze(['instructions', 'cycles', 'branch-misses', 'cache-misses', 'LLC-load-misses']);

/**
 * perf does not quote CSV fields and PMU event terms contain commas (`cpu/event=0x3c,umask=0x0/`),
 * so `man perf-stat` itself advises another separator than `,`.
 */
const SEPARATOR = ';';

/** How long perf may take to attach and ack; a loaded 2-CPU host answers in well under a second. */
const ACK_TIMEOUT_MS = 15_000;
/** How long perf may take to print its summary after SIGINT before it is killed. */
const EXIT_TIMEOUT_MS = 10_000;

/** perf processes not yet stopped, killed if tagbench exits first (a crash, Ctrl-C). */
const live = new Set();
let exitHookInstalled = false;

/**
 * @typedef {object} CountersOptions
 * @property {readonly string[]} [events] perf event names (default DEFAULT_EVENTS)
 * @property {string} [perf] the perf program (default `perf` on PATH)
 * @property {AbortSignal} [signal] kills perf when aborted (stop() then returns no figures)
 */

/** @satisfies {import('../types.js').Meter} */
export const counters = Object.freeze({
  name: 'counters',
  kind: 'timed',
  // Per operation of the timed repeat, from repeat.meters.counters.perOp.
  metrics: /** @type {import('../types.js').MeterMetric[]} */ ([
    { name: 'counterInstructionsPerOp', figure: 'perOp.instructionsPerOp', unit: 'instructions/op', higherIsBetter: false, scale: 'log', label: 'instructions per op (perf)' },
    { name: 'cyclesPerOp', figure: 'perOp.cyclesPerOp', unit: 'cycles/op', higherIsBetter: false, scale: 'log', label: 'cycles per op' },
    { name: 'ipc', figure: 'perOp.ipc', unit: 'instructions/cycle', higherIsBetter: true, scale: 'log', label: 'instructions per cycle' },
    { name: 'branchMissesPerOp', figure: 'perOp.branchMissesPerOp', unit: 'misses/op', higherIsBetter: false, scale: 'log', label: 'branch misses per op' },
    { name: 'llcMissesPerOp', figure: 'perOp.llcMissesPerOp', unit: 'misses/op', higherIsBetter: false, scale: 'log', label: 'LLC misses per op' },
  ]),
  needs: { tools: ['perf'], wrappedServer: false },
  /**
   * Attach `perf stat` to the server and start counting; resolves once perf has acked.
   * @param {import('../types.js').MeterTarget} target the server (pid; datadir is not used)
   * @param {CountersOptions} [options]
   * @returns {Promise<import('../types.js').MeterSession>}
   * @throws {UserError} when perf is not installed (naming the Debian package)
   * @throws {Error} when perf cannot attach (its own message: no such process, permissions)
   */
  async start(target, options = {}) {
    const events = [...(options.events ?? DEFAULT_EVENTS)];
    const perf = await startPerf(target.pid, events, options);
    /** @type {Promise<MeterFigures|null>|null} */
    let stopping = null;
    return {
      stop(repeat) {
        stopping ??= (async () => {
          const { text, windowS } = await perf.stop();
          if (repeat === null) return null;
          if (!repeat.ok || perf.aborted()) return { meter: 'counters', perOp: {}, repeat: {} };
          return counterFigures(parsePerfStat(text, { format: 'csv', separator: SEPARATOR }).events, events, windowS, repeat);
        })();
        return stopping;
      },
    };
  },
});

/**
 * The record's figures of one repeat from perf's events. Pure.
 * @param {PerfStatEvent[]} printed what perf printed (parsePerfStat)
 * @param {readonly string[]} requested the events asked for
 * @param {number} windowS seconds perf counted
 * @param {MeteredRepeat} repeat an ok repeat
 * @returns {MeterFigures} perOp: instructionsPerOp, cyclesPerOp, ipc, branchMissesPerOp,
 *   llcMissesPerOp (null when missing: repeat.meters.counters.missingFigures says why); meters: {counters}
 */
export function counterFigures(printed, requested, windowS, repeat) {
  const events = requested.map((name) => counterEvent(name, printed));
  const byName = new Map(events.map((e) => [e.event, e]));
  const ops = repeat.throughput !== null ? repeat.throughput * repeat.durationS : 0;
  const llc = ['LLC-load-misses', 'cache-misses'].find((n) => byName.get(n)?.status === 'counted')
    ?? ['LLC-load-misses', 'cache-misses'].find((n) => byName.has(n)) ?? null;
  /** @type {Record<string, number|null>} */
  const perOp = {};
  /** @type {Record<string, number>} */
  const scaledFigures = {};
  /** @type {Record<string, string>} */
  const missingFigures = {};
  /** @type {[string, string|null, string|null][]} figure, numerator event, denominator event (null: per op) */
  const table = [
    ['instructionsPerOp', 'instructions', null],
    ['cyclesPerOp', 'cycles', null],
    ['ipc', 'instructions', 'cycles'],
    ['branchMissesPerOp', 'branch-misses', null],
    ['llcMissesPerOp', llc, null],
  ];
  for (const [figure, num, den] of table) {
    const used = [num, den].filter((n) => n !== null).map((n) => ({ name: /** @type {string} */ (n), e: byName.get(/** @type {string} */ (n)) }));
    const why = num === null ? 'neither LLC-load-misses nor cache-misses was among the events' : missingReason(used);
    if (why !== null) {
      perOp[figure] = null;
      missingFigures[figure] = why;
      continue;
    }
    const [a, b] = used.map((u) => /** @type {number} */ (u.e?.count));
    if (den !== null) {
      // instructions / cycles over the same window: the window and the op count cancel out.
      perOp[figure] = b > 0 ? a / b : null;
      if (!(b > 0)) missingFigures[figure] = 'cycles counted 0';
    } else if (!(ops > 0) || !(windowS > 0)) {
      perOp[figure] = null;
      missingFigures[figure] = !(ops > 0) ? `no operations in the measured window (throughput ${repeat.throughput} × ${repeat.durationS} s)` : 'perf counted for no time';
    } else {
      perOp[figure] = (a / windowS) * repeat.durationS / ops;
    }
    const pcts = used.map((u) => u.e?.runningPct ?? 100);
    if (perOp[figure] !== null && used.some((u) => u.e?.scaled)) scaledFigures[figure] = Math.min(...pcts);
  }
  /** @type {CounterFigures} */
  const figures = {
    windowS: Math.round(windowS * 1000) / 1000,
    measuredS: repeat.durationS,
    operations: ops,
    llcMissesEvent: llc,
    events,
    notSupported: events.filter((e) => e.status === 'not supported').map((e) => e.event),
    notCounted: events.filter((e) => e.status === 'not counted').map((e) => e.event),
    scaledFigures,
    missingFigures,
    perOp: { instructionsPerOp: perOp.instructionsPerOp ?? null, cyclesPerOp: perOp.cyclesPerOp ?? null, ipc: perOp.ipc ?? null, branchMissesPerOp: perOp.branchMissesPerOp ?? null, llcMissesPerOp: perOp.llcMissesPerOp ?? null },
  };
  return { meter: 'counters', perOp, repeat: {}, meters: { counters: figures } };
}

/**
 * @param {string} name requested event
 * @param {PerfStatEvent[]} printed
 * @returns {CounterEvent}
 */
function counterEvent(name, printed) {
  // perf renames an event it had to restrict to user space (`cycles` -> `cycles:u`).
  const line = printed.find((p) => p.name === name) ?? printed.find((p) => p.name === `${name}:u`);
  if (!line) return { event: name, printedAs: null, status: 'absent', count: null, unit: '', runningPct: null, scaled: false, userOnly: false };
  const status = line.notSupported ? 'not supported' : line.notCounted ? 'not counted' : 'counted';
  return {
    event: name,
    printedAs: line.name === name ? null : line.name,
    status,
    count: line.value,
    unit: line.unit,
    runningPct: line.runningPct,
    scaled: status === 'counted' && line.runningPct !== null && line.runningPct < 100,
    userOnly: line.name.endsWith(':u'),
  };
}

/**
 * @param {{name: string, e: CounterEvent|undefined}[]} used
 * @returns {string|null} why a figure from these events cannot be computed, null when it can
 */
function missingReason(used) {
  for (const { name, e } of used) {
    if (!e) return `${name} was not among the events`;
    if (e.status === 'not supported') return `${name} <not supported>: the CPU (or the VM's virtual CPU) has no such counter, or no PMU at all`;
    if (e.status === 'not counted') return `${name} <not counted>: the server never ran while counting was on, or the counter could not be scheduled`;
    if (e.status === 'absent') return `perf printed no line for ${name}`;
  }
  return null;
}

/**
 * @param {number} pid
 * @param {string[]} events
 * @param {CountersOptions} options
 * @returns {Promise<{stop: () => Promise<{text: string, windowS: number}>, aborted: () => boolean}>}
 */
async function startPerf(pid, events, options) {
  const program = options.perf ?? 'perf';
  const args = perfArgs(pid, events);
  // LC_ALL=C: perf prints decimal commas under a locale that has them (`1,34`), which no parser can tell from columns.
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
  installExitHook();
  live.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d) => { out += d; });
  child.stderr?.setEncoding('utf8').on('data', (d) => { err += d; });
  const ctl = /** @type {import('node:net').Socket} */ (child.stdio[3]);
  const ack = /** @type {import('node:net').Socket} */ (child.stdio[4]);
  // Writing to a perf that has already exited fails with EPIPE; its exit is what counts.
  for (const fd of [ctl, ack]) fd.on('error', () => {});
  let acks = 0;
  /** @type {(() => void)|null} */
  let onAck = null;
  ack.setEncoding('utf8').on('data', (d) => {
    acks += (String(d).match(/ack/g) ?? []).length;
    onAck?.();
  });
  /** @type {number|null} */
  let exitedAt = null;
  /** @type {Promise<void>} */
  const closed = new Promise((resolve) => {
    child.on('close', () => { exitedAt ??= performance.now(); live.delete(child); resolve(); });
  });
  /** @type {NodeJS.ErrnoException|null} */
  let spawnError = null;
  child.on('error', (e) => { spawnError ??= e; });

  /**
   * @param {number} n acks expected so far
   * @returns {Promise<'ack'|'exit'|'timeout'>}
   */
  const waitAck = (n) => new Promise((resolve) => {
    if (acks >= n) return resolve('ack');
    const timer = setTimeout(() => resolve('timeout'), ACK_TIMEOUT_MS);
    onAck = () => { if (acks >= n) { clearTimeout(timer); resolve('ack'); } };
    closed.then(() => { clearTimeout(timer); resolve(acks >= n ? 'ack' : 'exit'); });
  });

  ctl.write('enable\n');
  const first = await waitAck(1);
  const failed = /** @type {NodeJS.ErrnoException|null} */ (spawnError);
  const failure = startFailure({ program, args, first, failed, stderr: err });
  if (failure) {
    // A perf that started and did not ack is killed; one that never ran has nothing to kill.
    if (!failed) await kill(child, closed);
    throw failure;
  }
  const startedAt = performance.now();
  let aborted = false;
  const onAbort = () => { aborted = true; child.kill('SIGKILL'); };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // A session that is never stopped must not keep tagbench alive: the exit hook kills perf then.
  for (const s of [child, child.stdout, child.stderr, ctl, ack]) /** @type {any} */ (s)?.unref?.();

  return {
    aborted: () => aborted,
    async stop() {
      options.signal?.removeEventListener('abort', onAbort);
      let endedAt = exitedAt;
      if (endedAt === null) {
        ctl.write('disable\n');
        // The timer of waitAck keeps the event loop alive while perf answers.
        endedAt = (await waitAck(2)) === 'ack' ? performance.now() : exitedAt ?? performance.now();
      }
      // SIGINT is perf's way to end a `-p` count: it prints the summary, then exits.
      if (exitedAt === null) child.kill('SIGINT');
      const hard = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
      await closed;
      clearTimeout(hard);
      return { text: out, windowS: (endedAt - startedAt) / 1000 };
    },
  };
}

/**
 * perf stat's command line: counters disabled until enabled over the control fd, CSV on fd 1.
 * @param {number} pid the server's
 * @param {string[]} events
 * @returns {string[]}
 * @throws {Error} for a pid that is no process id, or an event name perf's CSV could not carry
 */
function perfArgs(pid, events) {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`counters meter: the server's pid must be a positive integer; got ${pid}`);
  if (events.length === 0 || events.some((e) => typeof e !== 'string' || e.trim() === '' || e.includes(SEPARATOR))) {
    throw new Error(`counters meter: events must be perf event names without '${SEPARATOR}'; got ${JSON.stringify(events)}`);
  }
  return [
    'stat', '-x', SEPARATOR, '--log-fd', '1', '-D', '-1', '--control', 'fd:3,4',
    ...events.flatMap((e) => ['-e', e]), '-p', String(pid),
  ];
}

/**
 * Why perf did not start counting, or null when it acked.
 * @param {{program: string, args: string[], first: 'ack'|'exit'|'timeout', failed: NodeJS.ErrnoException|null, stderr: string}} at
 * @returns {Error|null} a UserError when perf is not installed
 */
function startFailure({ program, args, first, failed, stderr }) {
  if (failed) {
    if (failed.code === 'ENOENT') {
      return new UserError(`${program} is not installed: the counters meter runs \`perf stat -p <server pid>\`; on Debian: apt-get install linux-perf`, { cause: failed });
    }
    return new Error(`counters meter: could not run ${program}: ${failed.message}`, { cause: failed });
  }
  if (first === 'ack') return null;
  return new Error(`counters meter: \`${program} ${args.join(' ')}\` ${first === 'exit' ? 'exited' : `did not ack within ${ACK_TIMEOUT_MS / 1000} s`} before counting started: ${stderr.trim().slice(0, 800) || '(no message)'}`);
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {Promise<void>} closed
 */
async function kill(child, closed) {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await closed;
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => { for (const c of live) c.kill('SIGKILL'); });
}
