/**
 * The insert benchmark and LinkBench as fixed amounts of work for the instructions meter: what
 * their plans count (countedEvents, or why not), the counted parameters LinkBench's driver gets,
 * the writer's share of a counted query step and the fixed clock of counted rows (pure parts;
 * test/run/sequence-count.test.js runs them on real servers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planSuite } from '../../scripts/workload/index.js';
import { countedWriteEvery } from '../../scripts/workload/ibench/counted-query.js';
import { countedNow } from '../../scripts/workload/ibench/table-sql.js';
import { countedParams, operationsByType } from '../../scripts/workload/linkbench/sequence.js';
import { OPERATION_PROPERTIES, linkbenchProperties } from '../../scripts/workload/linkbench/properties.js';
import { validateAgainst } from '../../scripts/config/validate.js';
import { loadConfig } from '../../scripts/config/index.js';

/** @type {any} */
const BASE = { name: 'unit', description: '', tables: 1, tableSize: 500, clients: 2, readDurationS: 3, writeDurationS: 3, warmupS: 1, scanWarmDurationS: 3, restS: 0 };
const IBENCH = { loadRows: 20000, l1Rows: 5000, l2Rows: 1000, queryDurationS: 5 };
const LINKBENCH = { maxid1: 10001, loaders: 2, requesters: 2, maxtimeS: 10, requestPhases: 2 };

test('ibench.counted gives every measured step its counted work; the cleanup stays a setup step', () => {
  const plans = planSuite({ ...BASE, benchmarks: ['ibench'], ibench: { ...IBENCH, counted: { loadRows: 3000, l1Rows: 700, l2Rows: 90, queries: 400 } } });
  const by = Object.fromEntries(plans.map((p) => [p.name, p.countedEvents]));
  assert.deepEqual(by, {
    'l.i0': 3000, 'l.x': 6000, 'l.i1': 700, 'l.i2': 90, 'ibench.cleanup': undefined,
    qr100: 400, qp100: 400, qr500: 400, qp500: 400, qr1000: 400, qp1000: 400,
  }, 'rows per client, l.x: the rows of both clients, queries per client');
  assert.ok(plans.every((p) => p.notCounted === undefined));
});

test('without counted sizes every measured sequence step says why it is not counted, naming the suite file', () => {
  const plans = planSuite({ ...BASE, benchmarks: ['ibench', 'linkbench'], ibench: IBENCH, linkbench: LINKBENCH });
  for (const p of plans.filter((x) => x.reported)) {
    assert.equal(p.countedEvents, undefined, p.name);
    assert.match(String(p.notCounted), new RegExp(`configs/suites/unit\\.yml sets no ${p.benchmark}\\.counted sizes`), p.name);
  }
});

test('linkbench.counted: nodes for the load and the index, requests for every request phase', () => {
  const plans = planSuite({ ...BASE, benchmarks: ['linkbench'], linkbench: { ...LINKBENCH, counted: { maxid1: 2001, requests: 1500 } } });
  assert.deepEqual(plans.map((p) => [p.name, p.countedEvents]), [
    ['linkbench.load', 2000], ['linkbench.index', 2000], ['linkbench.request.1', 1500], ['linkbench.request.2', 1500],
  ]);
});

test('a counted LinkBench phase: one loader for the fixed graph, one requester ending by its request count, the round\'s seed', () => {
  const params = { maxid1: 10001, loaders: 4, requesters: 8, maxtimeS: 10, warmupS: 5, hdrHistogram: true };
  assert.deepEqual(countedParams('load', params, { events: 2000, seed: 107 }), { ...params, maxid1: 2001, loaders: 1 });
  const req = countedParams('request', params, { events: 1500, seed: 107 });
  assert.equal(req.requesters, 1);
  assert.equal(req.requestsPerRequester, 1500);
  assert.equal(req.requestSeed, 107);
  assert.equal(req.warmupS, 0, 'a warm-up would run requests outside the count');
  assert.ok(req.maxtimeS >= 600, 'time only bounds the phase');
  const text = linkbenchProperties(req, { host: '127.0.0.1', port: 3306, user: 'root' }, '/lb');
  assert.match(text, /^requests = 1500$/m);
  assert.match(text, /^requesters = 1$/m);
  assert.match(text, /^request_random_seed = 107$/m);
  assert.match(text, /^load_random_seed = 1$/m, 'the load seed stays fixed: the same graph every round');
});

test('operationsByType keeps the latency statistics\' counts per operation, not the count statistics', () => {
  /** @type {any[]} */
  const ops = [
    { op: 'GET_LINKS_LIST', kind: 'latency', count: 217 },
    { op: 'ADD_LINK', kind: 'latency', count: 65 },
    { op: 'RANGE_SIZE', kind: 'count', count: 217 },
  ];
  assert.deepEqual(operationsByType(ops), { GET_LINKS_LIST: 217, ADD_LINK: 65 });
});

test('a counted query step writes in a ratio that follows the timed writer\'s rate', () => {
  assert.equal(countedWriteEvery(100, 10), 1000);
  assert.equal(countedWriteEvery(500, 10), 200);
  assert.equal(countedWriteEvery(1000, 10), 100);
  assert.equal(countedWriteEvery(1e9, 10), 1, 'never less than one query between writes');
});

test('counted rows carry a fixed clock: the same row gets the same DATETIME on every run', () => {
  assert.equal(countedNow(0), '2026-01-01 00:00:00');
  assert.equal(countedNow(100), '2026-01-01 00:00:01');
  assert.equal(countedNow(99), '2026-01-01 00:00:00');
  assert.equal(countedNow(360000), '2026-01-01 01:00:00');
});

test('the suite schema takes the counted blocks and refuses a misspelt or missing size', async () => {
  const root = new URL('../..', import.meta.url).pathname;
  const config = await loadConfig(root);
  const suite = /** @type {any} */ (config.suites['sequences-counted']);
  assert.ok(suite?.ibench?.counted && suite?.linkbench?.counted, 'the shipped counting suite has both blocks');
  const yml = BASE;
  const ok = { ...yml, benchmarks: ['ibench'], ibench: { ...IBENCH, counted: { loadRows: 1000, l1Rows: 100, l2Rows: 10, queries: 100 } } };
  assert.deepEqual(validateAgainst('suite', ok), []);
  const typo = { ...ok, ibench: { ...IBENCH, counted: { loadRows: 1000, l1Rows: 100, l2Rows: 10, querys: 100 } } };
  const errors = validateAgainst('suite', typo).join('\n');
  assert.match(errors, /unknown field 'querys'/);
  assert.match(errors, /missing required field 'queries'/);
  const lb = { ...yml, benchmarks: ['linkbench'], linkbench: { ...LINKBENCH, counted: { maxid1: 2001 } } };
  assert.match(validateAgainst('suite', lb).join('\n'), /missing required field 'requests'/);
});

test('linkbench.counted.requestsPerType: every request phase gets one counted part per operation type', () => {
  const plans = planSuite({ ...BASE, benchmarks: ['linkbench'], linkbench: { ...LINKBENCH, counted: { maxid1: 2001, requests: 1500, requestsPerType: 300 } } });
  const by = Object.fromEntries(plans.map((p) => [p.name, p]));
  assert.equal(by['linkbench.load'].countedParts, undefined, 'the load has no parts');
  const parts = by['linkbench.request.2'].countedParts ?? [];
  assert.deepEqual(parts.map((p) => p.name).sort(), Object.keys(OPERATION_PROPERTIES).sort());
  assert.ok(parts.every((p) => p.events === 300));
  assert.ok(parts.some((p) => p.name === 'GET_LINKS_LIST') && parts.some((p) => p.name === 'ADD_LINK'));
});

test('a counted part runs one operation type alone: its probability 100, every other 0 (the driver wants 100 in all)', () => {
  const params = { maxid1: 10001, loaders: 1, requesters: 2, maxtimeS: 10 };
  const req = countedParams('request', params, { events: 300, seed: 7, part: 'GET_LINKS_LIST' });
  assert.equal(req.onlyOperation, 'GET_LINKS_LIST');
  const text = linkbenchProperties(req, { host: '127.0.0.1', port: 3306, user: 'root' }, '/lb');
  assert.match(text, /^getlinklist = 100$/m);
  for (const prop of ['addlink', 'deletelink', 'updatelink', 'countlink', 'getlink', 'addnode', 'updatenode', 'deletenode', 'getnode']) {
    assert.match(text, new RegExp(`^${prop} = 0$`, 'm'), prop);
  }
  assert.match(linkbenchProperties(countedParams('request', params, { events: 300, seed: 7, part: 'MULTIGET_LINK' }), { host: 'h', port: 1, user: 'u' }, '/lb'), /^getlink = 100$/m, 'MULTIGET_LINK is the fork\'s getlink');
  assert.doesNotMatch(linkbenchProperties(countedParams('request', params, { events: 300, seed: 7 }), { host: 'h', port: 1, user: 'u' }, '/lb'), /^getlinklist = /m, 'the mixed phase keeps the workload file\'s mix');
  assert.throws(() => linkbenchProperties({ ...req, onlyOperation: 'GET_EVERYTHING' }, { host: 'h', port: 1, user: 'u' }, '/lb'), /no request property for operation type GET_EVERYTHING; known: ADD_LINK/);
});
