/**
 * The LinkBench parsers on output that real runs produced (test/fixtures/workload/linkbench/,
 * captured by linkbench-capture-fixtures.js from the pinned fork against MariaDB 10.11.18):
 * both latency formats (bucketed ms ranges and HDR µs values), both CSV headers, a load and a
 * request phase each, and a driver that could not connect.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { parseLinkbenchOutput, parseCsvStats } from '../../scripts/workload/linkbench/parse.js';
import { overallLatency } from '../../scripts/workload/linkbench/sequence.js';

const dir = new URL('../fixtures/workload/linkbench/', import.meta.url);
const read = (/** @type {string} */ name) => readFileSync(new URL(name, dir), 'utf8');
const REQUEST_OPS = ['ADD_NODE', 'UPDATE_NODE', 'DELETE_NODE', 'GET_NODE', 'ADD_LINK', 'DELETE_LINK', 'UPDATE_LINK', 'COUNT_LINK', 'MULTIGET_LINK', 'GET_LINKS_LIST'];

test('load phase, bucketed format: the summary line, per-operation latencies, the seed', () => {
  const p = parseLinkbenchOutput(read('load-bucketed.txt'));
  assert.deepEqual(p.load, {
    nodes: 5000, expectedNodes: 5000, links: 4198964, counts: 10000, seconds: 265.2,
    linksPerS: 15836, linksAndCountsPerS: 15874, rowsPerS: 15893,
  });
  assert.equal(p.request, null);
  assert.equal(p.latencyFormat, 'bucketed');
  assert.deepEqual(p.operations.map((o) => o.op), ['LOAD_NODE_BULK', 'LOAD_LINKS_BULK', 'LOAD_COUNTS_BULK']);
  const links = p.operations[1];
  assert.equal(links.count, 4101);
  assert.deepEqual(links.percentiles.p50, { ms: 53, bucketMs: [52, 53] });
  assert.deepEqual(links.percentiles.p99, { ms: 200, bucketMs: [100, 200] });
  assert.equal(links.maxMs, 6049.344);
  assert.equal(links.meanMs, 64.8);
  assert.equal(links.threads, 3);
  assert.deepEqual(p.seeds, { load: 1, request: null });
  assert.deepEqual(p.errors, []);
});

test('request phase, bucketed format: requests/s, every operation, counts add up to the requests', () => {
  const p = parseLinkbenchOutput(read('request-bucketed.txt'));
  assert.deepEqual(p.request, { requests: 109, seconds: 9, requestsPerS: 11 });
  assert.equal(p.load, null);
  const get = p.operations.find((o) => o.op === 'GET_LINKS_LIST');
  assert.deepEqual(get?.percentiles.p99, { ms: 2000, bucketMs: [1000, 2000] });
  assert.equal(get?.maxMs, 1871.965);
  assert.equal(get?.meanMs, 171.874);
  assert.ok(p.operations.every((o) => REQUEST_OPS.includes(o.op) && o.kind === 'latency'));
  // No warm-up: every request done is one latency sample.
  assert.equal(p.operations.reduce((n, o) => n + o.count, 0), p.request?.requests);
  assert.equal(p.seeds.request, 2);
  // The JDBC driver's deprecation notice is not an error.
  assert.match(read('request-bucketed.txt'), /This is deprecated/);
  assert.deepEqual(p.errors, []);
});

test('HDR format: µs values become ms, no buckets', () => {
  const load = parseLinkbenchOutput(read('load-hdr.txt'));
  assert.equal(load.latencyFormat, 'hdr');
  assert.ok(load.load && load.load.linksPerS > 0 && load.load.links > 0);
  const request = parseLinkbenchOutput(read('request-hdr.txt'));
  assert.equal(request.latencyFormat, 'hdr');
  assert.ok(request.request && request.request.requestsPerS >= 0);
  for (const op of [...load.operations, ...request.operations]) {
    assert.equal(op.format, 'hdr');
    assert.equal(op.percentiles.p50.bucketMs, null);
    assert.ok(op.percentiles.p25.ms <= op.percentiles.p50.ms && op.percentiles.p50.ms <= op.percentiles.p99.ms, op.op);
    assert.ok(op.percentiles.p99.ms <= op.maxMs, op.op);
  }
  assert.equal(request.operations.reduce((n, o) => n + o.count, 0), request.request?.requests);
  // The fixed load seed: the second real load (HDR run) generated exactly the graph of the first.
  const first = parseLinkbenchOutput(read('load-bucketed.txt')).load;
  assert.deepEqual([load.load?.nodes, load.load?.links, load.load?.counts], [first?.nodes, first?.links, first?.counts]);
  // The same printed line, read by hand: `p50 = <N>us` is N/1000 ms.
  const line = read('request-hdr.txt').split('\n').find((l) => / GET_NODE count = /.test(l)) ?? '';
  const us = Number(/p50 = (\d+)us/.exec(line)?.[1]);
  assert.equal(request.operations.find((o) => o.op === 'GET_NODE')?.percentiles.p50.ms, us / 1000);
});

// load-unseeded.txt and request-unseeded.txt: real output of the pinned fork (MariaDB 10.11.18,
// maxid1 2001, one loader and one requester, maxtime 3 s) run with the runner's properties less
// load_random_seed and request_random_seed, so the driver picked its seeds and printed them.
test('seeds the driver picked itself ("Using random seed N since … not specified") are read, for both phases', () => {
  const load = parseLinkbenchOutput(read('load-unseeded.txt'));
  assert.match(read('load-unseeded.txt'), /Using random seed -479098427678 since load_random_seed not specified/);
  assert.deepEqual(load.seeds, { load: -479098427678, request: null });
  assert.equal(load.load?.nodes, 2000);
  const request = parseLinkbenchOutput(read('request-unseeded.txt'));
  assert.deepEqual(request.seeds, { load: null, request: -577476019056 });
  assert.equal(request.request?.requests, 1479);
  assert.deepEqual([load.errors, request.errors], [[], []]);
});

test('a picked seed beyond 2^53 stays null: a number would round it to another seed', () => {
  // the fixture's line with a seed of a long-running JVM (nanoTime XOR the key's hash past 2^53)
  const text = read('load-unseeded.txt').replace('-479098427678', '-9007199254740993');
  assert.match(text, /Using random seed -9007199254740993 since/);
  assert.deepEqual(parseLinkbenchOutput(text).seeds, { load: null, request: null });
  const safe = read('load-unseeded.txt').replace('-479098427678', String(-Number.MAX_SAFE_INTEGER));
  assert.equal(parseLinkbenchOutput(safe).seeds.load, -Number.MAX_SAFE_INTEGER);
});

test('every captured console output agrees with its -csvstats file (counts, p50, max)', () => {
  const cases = readdirSync(dir).filter((f) => f.endsWith('.csv')).map((f) => f.replace(/\.csv$/, ''));
  assert.ok(cases.length >= 4, cases.join(', '));
  for (const name of cases) {
    const p = parseLinkbenchOutput(read(`${name}.txt`));
    const csv = parseCsvStats(read(`${name}.csv`));
    assert.deepEqual(csv.map((c) => c.op), p.operations.map((o) => o.op), name);
    for (const [i, row] of csv.entries()) {
      const op = p.operations[i];
      assert.equal(row.count, op.count, `${name} ${row.op}`);
      assert.ok(Math.abs(row.percentilesMs.p50 - op.percentiles.p50.ms) < 0.011, `${name} ${row.op} p50 ${row.percentilesMs.p50} vs ${op.percentiles.p50.ms}`);
      assert.ok(Math.abs(row.maxMs - op.maxMs) < 0.011, `${name} ${row.op} max`);
    }
  }
});

test('csvstats: the bucketed header reads the bucket\'s upper bound; an unknown header or a short row is an error', () => {
  const rows = parseCsvStats(read('request-bucketed.csv'));
  assert.deepEqual(rows.find((r) => r.op === 'UPDATE_LINK'), {
    op: 'UPDATE_LINK', kind: 'latency', count: 6, percentilesMs: { p25: 32, p50: 80, p75: 82, p95: 200, p99: 200 }, maxMs: 136.97, meanMs: 86.16, threads: 2,
  });
  assert.throws(() => parseCsvStats('op,count,whatever\nX,1,2\n'), /unknown header/);
  assert.throws(() => parseCsvStats(`${read('request-bucketed.csv').split('\n')[0]}\nADD_NODE,3,0\n`), /row 2 has 3 cells/);
  assert.deepEqual(parseCsvStats(''), []);
});

test('a driver that cannot connect: errors, no summary', () => {
  const p = parseLinkbenchOutput(read('request-connection-refused.txt'));
  assert.equal(p.request, null);
  assert.ok(p.errors.length > 0);
  assert.match(p.errors.join('\n'), /Connection|connect|Communications link failure/i);
});

test('truncated output (the driver killed before its summary) parses to no summary, never a zero rate', () => {
  const text = read('request-bucketed.txt');
  const cut = text.slice(0, text.indexOf('REQUEST PHASE COMPLETED'));
  const p = parseLinkbenchOutput(cut);
  assert.equal(p.request, null);
  assert.ok(p.operations.length > 0);
});

test('overall latency of a repeat: exact mean over operations, worst operation\'s p95/p99, max of all', () => {
  const p = parseLinkbenchOutput(read('request-bucketed.txt'));
  const lat = overallLatency(p.operations);
  const total = p.operations.reduce((n, o) => n + o.count, 0);
  const mean = p.operations.reduce((t, o) => t + o.count * o.meanMs, 0) / total;
  assert.ok(lat);
  assert.ok(Math.abs(lat.avg - mean) < 1e-9);
  assert.equal(lat.p99, 2000);
  assert.equal(lat.max, 2814.357);
  assert.equal(overallLatency([]), null);
});
