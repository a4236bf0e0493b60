/**
 * The counters meter: `perf stat -p` for real through counters.start() on a spawned busy process
 * (software events count on this VM; its hardware events are <not supported>, no PMU), the perf
 * child never outliving a session, and the figures from documented-format hardware output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { counters, counterFigures, DEFAULT_EVENTS } from '../../scripts/metrics/meters/counters.js';
import { parsePerfStat } from '../../scripts/metrics/parse-perf-stat.js';
import { fixture } from './golden.js';

/** @typedef {import('../../scripts/metrics/meters/counters.js').CounterFigures} CounterFigures */

const SOFTWARE = ['task-clock', 'context-switches', 'page-faults'];

/** A process that keeps a CPU busy until killed, standing in for the server. */
function busyProcess() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('could not spawn the busy process');
  return { pid: child.pid, child };
}

/**
 * @param {import('node:child_process').ChildProcess} child
 */
async function killAndWait(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/**
 * pids of `perf stat ... -p <pid>` processes attached to pid (from /proc).
 * @param {number} pid
 */
async function perfAttachedTo(pid) {
  const found = [];
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const argv = (await readFile(`/proc/${d}/cmdline`, 'utf8').catch(() => '')).split('\0').slice(0, -1);
    if (argv.includes('stat') && argv.at(-2) === '-p' && argv.at(-1) === String(pid)) found.push(Number(d));
  }
  return found;
}

/**
 * @param {number} ms
 */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {Partial<import('../../scripts/metrics/types.js').MeteredRepeat>} [over] */
const okRepeat = (over = {}) => ({ ok: true, durationS: 0.8, throughput: 1000, tps: 0, latencyMs: null, intervals: [], ...over });

/** @param {import('../../scripts/metrics/types.js').MeterFigures|null} f */
const countersOf = (f) => /** @type {CounterFigures} */ (/** @type {any} */ (f?.meters).counters);

test('counters: perf stat -p counts a running process\'s software events over the window', async () => {
  const { pid, child } = busyProcess();
  try {
    const session = await counters.start({ pid, datadir: '/tmp' }, { events: SOFTWARE });
    assert.equal((await perfAttachedTo(pid)).length, 1, 'one perf attached while the repeat runs');
    await sleep(1000);
    const figures = await session.stop(okRepeat());
    assert.equal(figures?.meter, 'counters');
    const c = countersOf(figures);
    assert.ok(c.windowS > 0.9 && c.windowS < 5, `window ${c.windowS} s`);
    assert.equal(c.operations, 800);
    assert.equal(c.measuredS, 0.8);
    const clock = c.events.find((e) => e.event === 'task-clock');
    assert.equal(clock?.status, 'counted');
    assert.equal(clock?.unit, 'msec');
    // A busy loop on a shared 2-CPU host: most of the window on a CPU, never more than all of it.
    assert.ok(clock?.count && clock.count > 100 && clock.count < c.windowS * 1000 * 1.05, `task-clock ${clock?.count} ms over ${c.windowS} s`);
    assert.deepEqual(c.events.map((e) => [e.event, e.status, e.scaled, e.userOnly]), SOFTWARE.map((e) => [e, 'counted', false, false]));
    assert.deepEqual(c.notSupported, []);
    // None of the hardware figures' events was asked for: null, each saying so.
    assert.deepEqual(figures?.perOp, { instructionsPerOp: null, cyclesPerOp: null, ipc: null, branchMissesPerOp: null, llcMissesPerOp: null });
    assert.match(c.missingFigures.instructionsPerOp, /instructions was not among the events/);
    assert.equal(c.llcMissesEvent, null);
    assert.deepEqual(await perfAttachedTo(pid), [], 'perf is gone after stop');
    assert.equal(await session.stop(okRepeat()), figures, 'a second stop returns the same figures');
  } finally {
    await killAndWait(child);
  }
});

test('counters: the default hardware events on this host, counted or <not supported>, never failing the repeat', async () => {
  const { pid, child } = busyProcess();
  try {
    const session = await counters.start({ pid, datadir: '/tmp' });
    await sleep(300);
    const figures = await session.stop(okRepeat());
    const c = countersOf(figures);
    assert.deepEqual(c.events.map((e) => e.event), [...DEFAULT_EVENTS]);
    const instructions = c.events[0];
    if (instructions.status === 'not supported') {
      // This VM: no PMU. Every hardware figure is null and says why.
      assert.deepEqual(c.notSupported, [...DEFAULT_EVENTS]);
      for (const [figure, value] of Object.entries(figures?.perOp ?? {})) {
        assert.equal(value, null, figure);
        assert.match(c.missingFigures[figure], /<not supported>: the CPU \(or the VM's virtual CPU\) has no such counter, or no PMU at all/);
      }
      assert.equal(c.llcMissesEvent, 'LLC-load-misses', 'the event it would have used');
    } else {
      // A host with a PMU: a busy loop retires instructions.
      assert.equal(instructions.status, 'counted');
      assert.ok((figures?.perOp.instructionsPerOp ?? 0) > 0);
    }
  } finally {
    await killAndWait(child);
  }
});

test('counters: stop(null), an abort and a failed repeat release perf; a dead target still gives figures', async () => {
  const { pid, child } = busyProcess();
  try {
    const thrown = await counters.start({ pid, datadir: '/tmp' }, { events: SOFTWARE });
    assert.equal(await thrown.stop(null), null);
    assert.deepEqual(await perfAttachedTo(pid), []);

    const controller = new AbortController();
    const aborted = await counters.start({ pid, datadir: '/tmp' }, { events: SOFTWARE, signal: controller.signal });
    controller.abort();
    await sleep(200);
    assert.deepEqual(await perfAttachedTo(pid), [], 'killed on abort, before stop');
    assert.deepEqual(await aborted.stop(okRepeat()), { meter: 'counters', perOp: {}, repeat: {} });

    const failed = await counters.start({ pid, datadir: '/tmp' }, { events: SOFTWARE });
    assert.deepEqual(await failed.stop(okRepeat({ ok: false, throughput: null })), { meter: 'counters', perOp: {}, repeat: {} });
    assert.deepEqual(await perfAttachedTo(pid), []);

    // The server dies mid-repeat: perf prints its summary and exits on its own.
    const dying = await counters.start({ pid, datadir: '/tmp' }, { events: SOFTWARE });
    await sleep(300);
    await killAndWait(child);
    const c = countersOf(await dying.stop(okRepeat()));
    assert.equal(c.events[0].status, 'counted');
    assert.ok(c.windowS > 0.2, `window ${c.windowS} s ends when perf exited`);
  } finally {
    await killAndWait(child);
  }
});

test('counters: no perf names the Debian package; a pid perf cannot attach to is an error with perf\'s message', async () => {
  await assert.rejects(counters.start({ pid: process.pid, datadir: '/tmp' }, { perf: '/nonexistent/perf' }),
    (err) => err instanceof Error && err.name === 'UserError' && /\/nonexistent\/perf is not installed: .*apt-get install linux-perf/.test(err.message));
  await assert.rejects(counters.start({ pid: 2 ** 22 + 1, datadir: '/tmp' }, { events: SOFTWARE }), /exited before counting started: Problems finding threads of monitor/);
  await assert.rejects(counters.start({ pid: 0, datadir: '/tmp' }), /pid must be a positive integer; got 0/);
  await assert.rejects(counters.start({ pid: process.pid, datadir: '/tmp' }, { events: [] }), /events must be perf event names/);
});

/**
 * Figures of a 10 s perf window around an 8 s measured window at 5000 ops/s.
 * @param {string} file
 * @param {'csv'|'json'} format
 * @param {string} [separator]
 */
async function documented(file, format, separator) {
  const { events } = parsePerfStat(await readFile(fixture(`perf-stat/${file}`), 'utf8'), { format, separator });
  return counterFigures(events, DEFAULT_EVENTS, 10, okRepeat({ durationS: 8, throughput: 5000 }));
}

test('counterFigures: hardware counts per operation, scaled from perf\'s window to the measured one', async () => {
  const figures = await documented('doc-csv-comma-hardware.txt', 'csv');
  const ops = 5000 * 8;
  /** @param {number} count */
  const perOp = (count) => (count / 10) * 8 / ops;
  assert.deepEqual(figures.perOp, {
    instructionsPerOp: perOp(52345678901),
    cyclesPerOp: perOp(40123456789),
    ipc: 52345678901 / 40123456789,
    branchMissesPerOp: perOp(123456789),
    llcMissesPerOp: perOp(23456789),
  });
  const c = countersOf(figures);
  assert.equal(c.llcMissesEvent, 'LLC-load-misses');
  assert.deepEqual(c.scaledFigures, {});
  assert.deepEqual(c.missingFigures, {});
  assert.equal(c.operations, ops);
});

test('counterFigures: multiplexed counts say which figures are scaled and from how little; LLC falls back to cache-misses', async () => {
  for (const [file, format, sep] of /** @type {const} */ ([['doc-csv-semicolon-multiplexed.txt', 'csv', ';'], ['doc-json-multiplexed.txt', 'json', undefined]])) {
    const figures = await documented(file, format, sep);
    const c = countersOf(figures);
    assert.equal(figures.perOp.ipc, 52345678901 / 40123456789, file);
    assert.equal(c.scaledFigures.instructionsPerOp, 50, file);
    assert.equal(c.scaledFigures.ipc, 50, file);
    assert.equal(c.llcMissesEvent, 'cache-misses', `${file}: LLC-load-misses was not counted`);
    assert.equal(c.scaledFigures.llcMissesPerOp, 66.67, file);
    assert.ok(c.events.filter((e) => e.runningPct !== null && e.runningPct < 100 && e.status === 'counted').every((e) => e.scaled), file);
  }
  const json = countersOf(await documented('doc-json-multiplexed.txt', 'json'));
  assert.deepEqual(json.notCounted, ['branch-misses']);
  assert.deepEqual(json.notSupported, ['LLC-load-misses']);
  assert.match(json.missingFigures.branchMissesPerOp, /branch-misses <not counted>/);
});

test('counterFigures: user-space-only counts (perf\'s :u fallback) are matched and marked', async () => {
  const figures = await documented('doc-csv-comma-user-only.txt', 'csv');
  const c = countersOf(figures);
  assert.deepEqual(c.events.map((e) => [e.event, e.printedAs, e.userOnly]), DEFAULT_EVENTS.map((e) => [e, `${e}:u`, true]));
  assert.equal(c.llcMissesEvent, 'cache-misses');
  assert.ok((figures.perOp.instructionsPerOp ?? 0) > 0);
});

test('counterFigures: no operations, or an event perf did not print, leave the figures null with the reason', async () => {
  const { events } = parsePerfStat(await readFile(fixture('perf-stat/doc-csv-comma-hardware.txt'), 'utf8'), { format: 'csv' });
  const none = countersOf(counterFigures(events, DEFAULT_EVENTS, 10, okRepeat({ throughput: 0 })));
  assert.match(none.missingFigures.instructionsPerOp, /no operations in the measured window/);
  assert.equal(none.missingFigures.ipc, undefined, 'a ratio needs no operation count');
  const absent = countersOf(counterFigures(events.slice(1), DEFAULT_EVENTS, 10, okRepeat()));
  assert.equal(absent.events[0].status, 'absent');
  assert.match(absent.missingFigures.ipc, /perf printed no line for instructions/);
});
