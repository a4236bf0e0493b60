/**
 * The meter seam around one repeat (scripts/run/measure-repeat.js): the meter starts before the
 * plug-in's repeat and stops after it with what the repeat produced; the record's repeat gets the
 * tool's status and counts and the meter's figures; a repeat that throws still stops the meter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureRepeat } from '../../scripts/run/measure-repeat.js';

/** @typedef {import('../../scripts/metrics/types.js').MeteredRepeat} MeteredRepeat */

/**
 * A meter that records what it was given and hands back named per-op figures.
 * @param {string} name
 */
function recordingMeter(name) {
  /** @type {{started: object[], stopped: (MeteredRepeat|null)[]}} */
  const seen = { started: [], stopped: [] };
  /** @type {import('../../scripts/metrics/types.js').Meter} */
  const meter = {
    name,
    kind: 'timed',
    metrics: [],
    needs: { tools: [], wrappedServer: false },
    async start(target) {
      seen.started.push(target);
      return {
        async stop(repeat) {
          seen.stopped.push(repeat);
          if (repeat === null) return null;
          return {
            meter: name,
            perOp: { instructionsPerOp: repeat.ok ? 41832 : null },
            repeat: { throughput: repeat.throughput, tps: repeat.tps, latencyMs: repeat.latencyMs, intervals: repeat.intervals },
          };
        },
      };
    },
  };
  return { meter, seen };
}

/**
 * @param {string} storeDir
 * @param {import('../../scripts/metrics/types.js').Meter} meter
 * @param {AbortSignal} [signal]
 */
function context(storeDir, meter, signal) {
  /** @type {any} */
  const record = { id: 'run-1', steps: [{ name: 'point-query', status: 'skipped', reason: 'not run yet', repeats: [] }] };
  /** @type {any} */
  const action = { step: { name: 'point-query', reported: true, metric: 'qps' }, stepIndex: 0, repeat: 2, instance: 1 };
  return { action, record, server: { pid: 4242, datadir: '/nowhere' }, meter, storeDir, signal };
}

/** @type {import('../../scripts/workload/types.js').StepOutcome} */
const OK = {
  status: 'ok', stateValid: true, durationS: 2, throughput: 500, tps: 50,
  latencyMs: { avg: 1, p95: 2, p99: null, max: 3 }, errors: 0, reconnects: 1,
  intervals: [{ t: 1, qps: 490, tps: 49, latencyMs: 2, errors: 0 }, { t: 2, qps: 510, tps: 51, latencyMs: 2, errors: 0 }],
  details: { tpcc: { warehouses: 1 } }, rawOutput: 'the tool said so\n',
};

test('the meter wraps the repeat: started before, stopped with the outcome; the record gets its figures', async () => {
  const storeDir = await mkdtemp(join(tmpdir(), 'tb-measure-'));
  try {
    const { meter, seen } = recordingMeter('fake');
    const ctx = context(storeDir, meter);
    /** @type {string[]} */
    const order = [];
    const result = await measureRepeat(ctx, async () => { order.push(`run after ${seen.started.length} start(s)`); return OK; });
    assert.deepEqual(order, ['run after 1 start(s)']);
    assert.deepEqual(seen.started, [{ pid: 4242, datadir: '/nowhere' }]);
    assert.deepEqual(seen.stopped, [{ ok: true, durationS: 2, throughput: 500, tps: 50, latencyMs: OK.latencyMs, intervals: OK.intervals }]);
    const [rep] = ctx.record.steps[0].repeats;
    assert.equal(rep.index, 2);
    assert.equal(rep.instance, 1);
    assert.equal(rep.status, 'ok');
    assert.equal(rep.throughput, 500);
    assert.equal(rep.reconnects, 1);
    assert.deepEqual(rep.details, { tpcc: { warehouses: 1 } });
    // What this meter does not fill stays empty, as for a failed sampler.
    assert.equal(rep.efficiency, null);
    assert.equal(rep.mysqldRssKb, null);
    assert.equal(ctx.record.steps[0].status, 'ok');
    assert.deepEqual(result, { status: 'ok', throughput: 500, metric: 'qps', intervals: [490, 510], stateValid: true });
    assert.equal(await readFile(join(storeDir, 'logs', 'run-1', 'point-query.r2.txt'), 'utf8'), 'the tool said so\n');
  } finally {
    await rm(storeDir, { recursive: true, force: true });
  }
});

test('a failed repeat is recorded failed with the tool\'s reason and null figures; a throwing one still stops the meter', async () => {
  const storeDir = await mkdtemp(join(tmpdir(), 'tb-measure-'));
  try {
    const { meter, seen } = recordingMeter('fake');
    const ctx = context(storeDir, meter);
    /** @type {import('../../scripts/workload/types.js').StepOutcome} */
    const failed = { ...OK, status: 'failed', reason: 'FATAL: gone', throughput: null, tps: null, latencyMs: null, stateValid: true };
    const result = await measureRepeat(ctx, async () => failed);
    assert.equal(seen.stopped[0]?.ok, false);
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'FATAL: gone');
    assert.equal(ctx.record.steps[0].status, 'failed');
    assert.equal(ctx.record.steps[0].repeats[0].throughput, null);

    const thrown = context(storeDir, meter);
    thrown.record.id = 'run-2';
    await assert.rejects(() => measureRepeat(thrown, async () => { throw new Error('bug'); }), /bug/);
    assert.equal(seen.stopped.at(-1), null, 'stop(null): the meter releases what it started');
    assert.deepEqual(thrown.record.steps[0].repeats, []);
  } finally {
    await rm(storeDir, { recursive: true, force: true });
  }
});

test('an interrupted run records nothing for a repeat cut short', async () => {
  const storeDir = await mkdtemp(join(tmpdir(), 'tb-measure-'));
  try {
    const { meter, seen } = recordingMeter('fake');
    const abort = new AbortController();
    abort.abort();
    const ctx = context(storeDir, meter, abort.signal);
    /** @type {import('../../scripts/workload/types.js').StepOutcome} */
    const failed = { ...OK, status: 'failed', reason: 'aborted', throughput: null };
    const result = await measureRepeat(ctx, async () => failed);
    assert.equal(seen.stopped[0]?.ok, false);
    assert.equal(result.reason, 'interrupted');
    assert.deepEqual(ctx.record.steps[0].repeats, []);
  } finally {
    await rm(storeDir, { recursive: true, force: true });
  }
});
