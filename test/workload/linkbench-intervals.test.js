/**
 * Per-second intervals of a LinkBench request phase (parse.js requestIntervals) on the real
 * captured output of test/fixtures/workload/linkbench/ (two requesters, maxtime 5 s), on small
 * hand-written logs for what the captures do not show (warm-up, a stall, an error line), and the
 * run's install cache reaching the LinkBench build (no server: the build fails on a planted
 * cache folder whose path the failure names).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLinkbenchOutput, requestIntervals } from '../../scripts/workload/linkbench/parse.js';
import { linkbench } from '../../scripts/workload/linkbench/sequence.js';
import { LINKBENCH_PIN } from '../../scripts/workload/linkbench/pin.js';
import { MARKER } from '../../scripts/workload/linkbench/build.js';
import { validateAgainst } from '../../scripts/config/index.js';
import '../../scripts/store/validate-record.js';

const dir = new URL('../fixtures/workload/linkbench/', import.meta.url);
const read = (/** @type {string} */ name) => readFileSync(new URL(name, dir), 'utf8');
const sum = (/** @type {{queries?: number}[]} */ iv) => iv.reduce((s, i) => s + (i.queries ?? 0), 0);

/** @param {import('../../scripts/workload/types.js').SequenceInterval[]} intervals */
function assertWellFormed(intervals) {
  intervals.forEach((iv, i) => {
    assert.deepEqual(validateAgainst('run-record#/$defs/Interval', iv), [], `interval ${i}`);
    assert.equal(iv.t, i + 1, 'one interval per whole second, t = 1, 2, ...');
    assert.equal(iv.latencyMs, null);
    assert.equal(iv.qps, iv.queries);
    assert.equal(iv.tps, iv.queries);
  });
}

test('HDR capture: five whole seconds, counts interpolated from each thread\'s progress lines', () => {
  const text = read('request-hdr.txt');
  const iv = requestIntervals(text);
  assertWellFormed(iv);
  // The measured part starts at Thread-0's first statistics dump (23:05:00.013) minus its
  // sampleDuration (5023 ms) = 23:04:54.990 and ends with Thread-1's time limit at 00.005:
  // 5.015 s, so 5 whole seconds, the last boundary at 23:04:59.990.
  assert.equal(iv.length, 5);
  // At 59.990: Thread-0 between 41 (59.311) and its final 61 (00.001) = 41 + 20 * 679/690;
  // Thread-1 between 68 (59.480) and its final 105 (00.005) = 68 + 37 * 510/525.
  const expected = 41 + (20 * 679) / 690 + 68 + (37 * 510) / 525;
  assert.ok(Math.abs(sum(iv) - expected) < 0.005, `${sum(iv)} vs ${expected}`);
  const total = /** @type {{requests: number}} */ (parseLinkbenchOutput(text).request).requests;
  assert.equal(total, 166);
  assert.ok(sum(iv) <= total && total - sum(iv) < 2, 'all but the trailing 15 ms');
  // Each thread's first request took 2.6 s (a cold server): the first two seconds are slow.
  assert.ok(iv[0].qps < 1 && iv[1].qps < 1 && iv[4].qps > 50);
  assert.ok(iv.every((i) => i.errors === 0));
});

test('bucketed capture: the measured part\'s 6 s, the requests of its trailing part-second left out', () => {
  const text = read('request-bucketed.txt');
  const iv = requestIntervals(text);
  assertWellFormed(iv);
  // Thread-1's dump at 32.89 covers 6152 ms: start 26.738; the last requester stops at 32.88.
  assert.equal(iv.length, 6);
  const total = /** @type {{requests: number}} */ (parseLinkbenchOutput(text).request).requests;
  assert.equal(total, 109);
  // The 0.142 s left out ran at 13 + 33 requests per 2.2 s in the two threads (~21/s).
  assert.ok(sum(iv) < total && total - sum(iv) < 0.142 * 25, `${sum(iv)} of ${total}`);
  // Seconds 5 and 6 (30.738..32.738) lie inside one progress segment of each thread (30.64 to
  // 32.8x), so the interpolation gives them equal counts.
  assert.equal(iv[4].qps, iv[5].qps);
});

test('no requester progress, no intervals: a driver that could not connect, a load phase', () => {
  assert.deepEqual(requestIntervals(read('request-connection-refused.txt')), []);
  assert.deepEqual(requestIntervals(read('load-hdr.txt')), []);
  assert.deepEqual(requestIntervals(''), []);
});

/**
 * @param {string} time hh:mm:ss.mmm (the fork trims trailing zeros of the ms)
 * @param {number} thread
 * @param {string} message
 * @param {string} [level]
 */
const logLine = (time, thread, message, level = 'INFO') => `${level} 2026-01-02 ${time} [Thread-${thread}]: ${message}`;

test('warm-up is not counted, a stall is zeros, an ERROR line counts in its second, the partial second is dropped', () => {
  const text = [
    logLine('10:00:00.5', 0, 'Requester thread #0 started: will do 1000000000 ops after 2 second warmup'),
    logLine('10:00:01.6', 0, 'Requester #0 warming up.   50 warmup requests done. 1/2 seconds of warmup done'),
    logLine('10:00:02.5', 0, 'Requester #0 warmup finished  after 90 warmup requests.  0/1000000000 requests done'),
    logLine('10:00:03.5', 0, 'Requester #0 100/1000000000 requests done'),
    logLine('10:00:04.5', 0, 'Requester #0 200/1000000000 requests done'),
    // No request finished for 3 s, then one did.
    logLine('10:00:07.5', 0, 'Requester #0 201/1000000000 requests done'),
    logLine('10:00:07.9', 0, 'oneRequest error: GET_NODE error lock wait timeout', 'ERROR'),
    logLine('10:00:08.5', 0, 'Requester #0 301/1000000000 requests done'),
    logLine('10:00:08.75', 0, 'Requester #0: time limit of 6s elapsed, shutting down.'),
    logLine('10:00:08.751', 0, 'ThreadID = 0 GET_NODE totalOps = 330 totalErrors = 1 ops = 330 sampleDuration = 6251ms samples = 330 mean = 1'),
    logLine('10:00:08.752', 0, 'ThreadID = 0 total requests = 326 requests/second = 52 found = 3 not found = 0 history queries = 0/12'),
  ].join('\n');
  const iv = requestIntervals(text);
  assertWellFormed(iv);
  // Measured from 02.500 (warm-up finished) to 08.750: 6 whole seconds.
  assert.deepEqual(iv.map((i) => i.queries), [100, 100, 1 / 3, 1 / 3, 1 / 3, 100].map((q) => Math.round(q * 1000) / 1000));
  assert.deepEqual(iv.map((i) => i.errors), [0, 0, 0, 0, 0, 1]);
  // The 25 requests of 08.500..08.750 fall in the dropped part-second.
  assert.ok(Math.abs(sum(iv) - 301) < 0.01);
});

test('threads are summed; one that stopped early contributes its final count after it stopped', () => {
  const text = [
    logLine('10:00:00.000', 0, 'Requester thread #0 started: will do 1000000000 ops after 0 second warmup'),
    logLine('10:00:00.000', 1, 'Requester thread #1 started: will do 1000000000 ops after 0 second warmup'),
    logLine('10:00:01.000', 0, 'Requester #0 10/1000000000 requests done'),
    logLine('10:00:01.000', 1, 'Requester #1 20/1000000000 requests done'),
    logLine('10:00:01.500', 1, 'Requester #1 aborting: 101 failed requests (out of 25 total) ', 'ERROR'),
    logLine('10:00:01.500', 1, 'ThreadID = 1 total requests = 25 requests/second = 16 found = 3 not found = 0 history queries = 0/12'),
    logLine('10:00:02.000', 0, 'Requester #0 20/1000000000 requests done'),
    logLine('10:00:03.000', 0, 'Requester #0 30/1000000000 requests done'),
    logLine('10:00:03.001', 0, 'Requester #0: time limit of 3s elapsed, shutting down.'),
    logLine('10:00:03.002', 0, 'ThreadID = 0 total requests = 30 requests/second = 10 found = 3 not found = 0 history queries = 0/12'),
  ].join('\n');
  const iv = requestIntervals(text);
  assertWellFormed(iv);
  // No statistics dump and no warm-up: the started lines (or time limit - maxtime) begin it.
  assert.deepEqual(iv.map((i) => i.queries), [30, 15, 10]);
  assert.deepEqual(iv.map((i) => i.errors), [0, 1, 0]);
});

test('the record schema\'s Interval: latencyMs may be null, not negative or missing', () => {
  const ok = { t: 1, qps: 2, tps: 2, latencyMs: null, errors: 0, queries: 2 };
  assert.deepEqual(validateAgainst('run-record#/$defs/Interval', ok), []);
  assert.deepEqual(validateAgainst('run-record#/$defs/Interval', { ...ok, latencyMs: 3.5 }), []);
  assert.notDeepEqual(validateAgainst('run-record#/$defs/Interval', { ...ok, latencyMs: -1 }), []);
  const { latencyMs, ...missing } = ok;
  assert.notDeepEqual(validateAgainst('run-record#/$defs/Interval', missing), []);
});

test('the run\'s cache dir reaches the LinkBench build', async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'tagbench-lb-cache-'));
  try {
    // A cache folder whose marker names another commit: ensureLinkbench refuses it, naming it,
    // before any build tool or server is needed.
    const home = join(cacheDir, `linkbench-${LINKBENCH_PIN.commit}`);
    await mkdir(home, { recursive: true });
    await writeFile(join(home, MARKER), JSON.stringify({ schemaVersion: 1, commit: 'f'.repeat(40) }));
    const suite = /** @type {import('../../scripts/types.js').SuiteConfig} */ (/** @type {unknown} */ ({ name: 'lb-test', linkbench: { maxid1: 11, loaders: 1, requesters: 1, maxtimeS: 1 } }));
    const step = linkbench.planSteps(suite, { engine: 'innodb' }).find((s) => s.name === 'linkbench.request.1');
    assert.ok(step);
    const target = /** @type {import('../../scripts/workload/types.js').BenchTarget} */ (/** @type {unknown} */ ({
      host: '127.0.0.1', port: 1, user: 'root', query: async () => [],
    }));
    const out = await linkbench.runStep(step, target, { suite, engine: 'innodb', pass: 0, clientCpus: null, cacheDir, onProgress: () => {} });
    assert.equal(out.status, 'failed');
    assert.match(out.reason ?? '', new RegExp(`LinkBench cache folder ${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds commit f{40}`));
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
});
