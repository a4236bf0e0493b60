/** The meter registry: names, the shape check at registration, and the wall meter's figures. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getMeter, METERS, DEFAULT_METERS, meterNames, withMeters, recordMeterMetrics } from '../../../scripts/metrics/index.js';
import { registerMeters } from '../../../scripts/metrics/meters/registry.js';
import { wallFigures } from '../../../scripts/metrics/meters/wall.js';
import { computeEfficiency } from '../../../scripts/metrics/compute-efficiency.js';

test('meters by name: wall, counters, instructions and work are known, an unknown name lists the known ones from the map', () => {
  assert.equal(getMeter('wall').name, 'wall');
  assert.equal(getMeter('wall').serverWrapper, undefined, 'wall starts the server plainly');
  assert.equal(getMeter('counters').serverWrapper, undefined, 'counters attaches to the running server (perf stat -p)');
  assert.equal(getMeter('instructions').serverWrapper?.({ workDir: '/w' })?.argv[0], 'valgrind');
  assert.equal(getMeter('instructions').kind, 'counted');
  assert.equal(getMeter('wall').kind, 'timed');
  assert.throws(() => getMeter('perf'), /^Error: unknown meter 'perf'; known: wall, counters, instructions, work$/);
  assert.throws(() => getMeter('constructor'), /unknown meter 'constructor'/);
  assert.ok(Object.isFrozen(METERS));
});

test('a meter of the wrong shape is refused when registered, naming its file and the member', () => {
  const start = async () => ({ stop: async () => null });
  const needs = { tools: [], wrappedServer: false };
  assert.throws(() => registerMeters(/** @type {any} */ ({ counters: { name: 'counters' } })), /scripts\/metrics\/meters\/counters\.js: meter lacks kind, start/);
  assert.throws(() => registerMeters(/** @type {any} */ ({ counters: { kind: 'timed', start, metrics: [], needs } })), /scripts\/metrics\/meters\/counters\.js: meter lacks name/);
  assert.throws(() => registerMeters(/** @type {any} */ ({ counters: { name: 'perf', kind: 'timed', start, metrics: [], needs } })), /meter name 'perf' must equal the file name/);
  assert.throws(() => registerMeters(/** @type {any} */ ({ counters: { name: 'counters', kind: 'timed', start, metrics: [], needs, serverWrapper: ['perf'] } })), /counters\.js: meter member serverWrapper must be a function/);
  const wrapped = registerMeters({ instructions: { name: 'instructions', kind: 'counted', start, metrics: [], needs, serverWrapper: () => ({ argv: ['valgrind', '--tool=callgrind'] }) } });
  assert.throws(() => registerMeters(/** @type {any} */ ({ counters: { name: 'counters', kind: 'sampled', start, metrics: [], needs } })), /counters\.js: meter kind 'sampled' must be one of timed, counted/);
  assert.deepEqual(wrapped.instructions.serverWrapper?.({ workDir: '/w' }), { argv: ['valgrind', '--tool=callgrind'] });
  assert.throws(() => registerMeters(/** @type {any} */ ({ ticks: { name: 'ticks', kind: 'timed', start, needs, metrics: [{ name: 'ticksPerOp', unit: 'ticks/op' }] } })), /ticks\.js: metrics\[0\] lacks figure, higherIsBetter, scale, label/);
});

test('a calibration description names the meter\'s own metrics, or registration fails naming the file and the role', () => {
  const start = async () => ({ stop: async () => null });
  const needs = { tools: [], wrappedServer: false };
  const metrics = [
    { name: 'ticksPerOp', figure: 'ticksPerOp', unit: 'ticks/op', higherIsBetter: false, scale: /** @type {const} */ ('log'), label: 'ticks' },
    { name: 'allTicksPerOp', figure: 'allTicksPerOp', unit: 'ticks/op', higherIsBetter: false, scale: /** @type {const} */ ('log'), label: 'all ticks' },
  ];
  const ticks = (/** @type {any} */ calibration) => ({ ticks: /** @type {any} */ ({ name: 'ticks', kind: 'counted', start, needs, metrics, calibration }) });
  const judged = { queryPath: 'ticksPerOp', process: 'allTicksPerOp' };
  assert.ok(registerMeters(ticks({ injects: 'preload-count', sizeTest: 'point-query', judged })).ticks.calibration);
  assert.throws(() => registerMeters(ticks({ injects: 'preload-count', sizeTest: 'point-query', judged: { ...judged, process: 'processTicksPerOp' } })),
    /ticks\.js: calibration\.judged\.process "processTicksPerOp" is not one of its metrics \(ticksPerOp, allTicksPerOp\)/);
  assert.throws(() => registerMeters(ticks({ judged })), /ticks\.js: calibration needs injects and sizeTest/);
  // A whole strategy of the meter's own (it has round) is the pipeline's to run, not checked here.
  assert.ok(registerMeters(ticks({ kind: 'counted', round: async () => true })).ticks.calibration);
  // The registered counted meter that is calibrated by injected counts says so.
  assert.deepEqual(getMeter('instructions').calibration, { injects: 'preload-count', sizeTest: 'point-query', judged: { queryPath: 'instructionsPerOp', process: 'processInstructionsPerOp' } });
});

test('every meter states its metrics and needs; the record carries the metrics of the meters that have any', () => {
  for (const meter of Object.values(METERS)) {
    assert.equal(meter.kind === 'timed' || meter.kind === 'counted', true, meter.name);
    assert.ok(Array.isArray(meter.needs.tools), meter.name);
  }
  const facts = recordMeterMetrics(['wall', 'counters', 'instructions']);
  assert.deepEqual(Object.keys(facts), ['counters', 'instructions'], 'wall\'s figures are the repeat\'s own: no metrics of its own');
  assert.deepEqual(facts.instructions.map((m) => [m.name, m.figure, m.higherIsBetter]), [['instructionsPerOp', 'queryPathPerOp', false], ['processInstructionsPerOp', 'processPerOp', false]]);
  assert.equal(facts.counters.find((m) => m.name === 'ipc')?.higherIsBetter, true);
  assert.deepEqual(DEFAULT_METERS, ['wall']);
});

test('withMeters: a test meter is known inside the call only; the registry map stays as it is', async () => {
  const start = async () => ({ stop: async () => null });
  const ticks = { name: 'ticks', kind: /** @type {const} */ ('counted'), start, metrics: [], needs: { tools: [], wrappedServer: false } };
  const inside = await withMeters({ ticks }, async () => [getMeter('ticks').name, meterNames()]);
  assert.deepEqual(inside, ['ticks', ['wall', 'counters', 'instructions', 'work', 'ticks']]);
  assert.throws(() => getMeter('ticks'), /unknown meter 'ticks'/);
  assert.equal(Object.hasOwn(METERS, 'ticks'), false);
});

/** Samples as startSampling(...).stop() returns them (two seconds, one device). @type {any} */
const SAMPLES = {
  startedAt: '2025-01-01T00:00:00.000Z', durationS: 2.4, intervalS: 1, cores: 4,
  cpu: [{ t: 1, usPct: 20, syPct: 5, csPerS: 12000 }, { t: 2, usPct: 30, syPct: 5, csPerS: 14000 }],
  io: [{ t: 1, readsPerS: 10, kbReadPerS: 160, kbWrittenPerS: 800 }, { t: 2, readsPerS: 20, kbReadPerS: 320, kbWrittenPerS: 1200 }],
  rss: [], rssKb: 123456, devices: { basis: 'datadir', devices: ['sda'], note: '' }, status: null, warnings: [],
};

test('wall: the figures of an ok repeat are the tool\'s numbers and the efficiency over its measured window', () => {
  const repeat = { ok: true, durationS: 2, throughput: 1000, tps: 100, latencyMs: { avg: 1, p95: 2, p99: null, max: 5 }, intervals: [{ t: 1, qps: 1000, tps: 100, latencyMs: 2, errors: 0 }] };
  const figures = wallFigures(SAMPLES, repeat);
  const efficiency = computeEfficiency(SAMPLES, 2000, { windowS: 2 });
  assert.ok(efficiency && efficiency.cpuUsPerOp > 0);
  assert.equal(figures.meter, 'wall');
  assert.deepEqual(figures.perOp, { ...efficiency });
  assert.deepEqual(figures.repeat, {
    throughput: 1000, tps: 100, latencyMs: repeat.latencyMs, intervals: repeat.intervals, efficiency,
    mysqldRssKb: 123456, ioDevices: { basis: 'datadir', devices: ['sda'] },
  });
});

test('wall: a failed repeat keeps its intervals and the samplers\' facts, no rate and no efficiency', () => {
  const figures = wallFigures({ ...SAMPLES, rocksdb: null }, { ok: false, durationS: 1.5, throughput: null, tps: null, latencyMs: null, intervals: [] });
  assert.deepEqual(figures.perOp, {});
  assert.deepEqual(figures.repeat, {
    throughput: null, tps: null, latencyMs: null, intervals: [], efficiency: null,
    mysqldRssKb: 123456, ioDevices: { basis: 'datadir', devices: ['sda'] }, rocksdb: null,
  });
});

test('instructions: a count\'s figures per operation and how it was taken, rounded for the record; no query path names the dispatch function', async () => {
  const { countedFigures } = await import('../../../scripts/metrics/meters/instructions.js');
  const profile = /** @type {any} */ ({ queryPathPerOp: 41_832.7, totalPerOp: 60_001.2, unnamedSelfPerOp: 310.5, functions: [] });
  const figures = countedFigures(profile, { operations: 1000, dispatchFunction: 'dispatch_command', countedS: 1.23456, purgeWaitS: 0.04, purgeHeld: true, flushWaitS: 2.26 });
  assert.deepEqual(figures.perOp, { queryPathInstructionsPerOp: 41_832.7, processInstructionsPerOp: 60_001.2 });
  assert.deepEqual(/** @type {any} */ (figures.repeat).instructions, {
    operations: 1000, queryPathPerOp: 41_832.7, processPerOp: 60_001.2, unnamedSelfPerOp: 310.5, dispatchFunction: 'dispatch_command',
    countedS: 1.235, purgeWaitS: 0, purgeHeld: true, flushWaitS: 2.3,
  });
  const plain = countedFigures(profile, { operations: 10, dispatchFunction: 'dispatch_command', countedS: 1 });
  assert.equal(/** @type {any} */ (plain.repeat).instructions.purgeWaitS, null, 'not waited is null, not 0');
  assert.equal(/** @type {any} */ (plain.repeat).instructions.purgeHeld, false);
  assert.throws(() => countedFigures({ ...profile, queryPathPerOp: null }, { operations: 10, dispatchFunction: 'do_command', countedS: 1 }), /no instructions in do_command: is that the server's command-dispatch function/);
});
