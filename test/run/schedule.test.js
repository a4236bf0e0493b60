import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchedule, estimateRemainingS, needsSnapshot, countedOnlySchedule } from '../../scripts/run/schedule.js';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite } from '../../scripts/workload/index.js';

/** Just the fields the schedule reads. @type {any[]} */
const steps = [
  { name: 'load', kind: 'load', loadsData: true, group: 'setup', reported: false, metric: 'qps' },
  { name: 'point-query', kind: 'sysbench', group: 'point', reported: true, metric: 'qps', durationS: 3, warmupS: 1 },
  { name: 'postwrite', kind: 'postwrite', group: 'setup', reported: false, metric: 'qps' },
];

test('reported steps alternate releases for every repeat; setup steps run once per release', () => {
  const s = buildSchedule(steps, ['a', 'b'], 3);
  assert.deepEqual(s.map((x) => `${x.step.name}:${x.release}:${x.repeat}`), [
    'load:a:0', 'load:b:0',
    'point-query:a:0', 'point-query:b:0', 'point-query:a:1', 'point-query:b:1', 'point-query:a:2', 'point-query:b:2',
    'postwrite:a:0', 'postwrite:b:0',
  ]);
  assert.deepEqual(s.map((x) => x.index), [...s.keys()]);
});

test('bad repeats are refused', () => {
  assert.throws(() => buildSchedule(steps, ['a'], 0), /positive integer/);
  assert.throws(() => buildSchedule(steps, [], 1), /no releases/);
  assert.throws(() => buildSchedule(steps, ['a'], 2, 3), /instances must be an integer from 1 to repeats \(2\), got 3/);
});

test('repeats spread over instances: each later round restarts every server and reruns the setup steps but the load', () => {
  const warm = { name: 'point-query.warm', kind: 'sysbench', group: 'setup', reported: false, runOnce: true, metric: 'qps', durationS: 3 };
  const s = buildSchedule([steps[0], warm, steps[1], steps[2]], ['a', 'b'], 3, 2);
  assert.deepEqual(s.map((x) => `${x.instance}:${x.restart ? 'R ' : ''}${x.step.name}:${x.release}:${x.repeat}`), [
    '0:load:a:0', '0:load:b:0', '0:point-query.warm:a:0', '0:point-query.warm:b:0',
    '0:point-query:a:0', '0:point-query:b:0', '0:point-query:a:2', '0:point-query:b:2',
    '0:postwrite:a:0', '0:postwrite:b:0',
    '1:R point-query.warm:b:0', '1:R point-query.warm:a:0',
    '1:point-query:b:1', '1:point-query:a:1',
    '1:postwrite:b:0', '1:postwrite:a:0',
  ]);
  // the restart's cost is in the time estimate
  assert.ok(s[10].estimatedS > s[2].estimatedS);
});

test('the order within a round turns by one release each round, so no release always runs first', () => {
  const s = buildSchedule([steps[1]], ['a', 'b', 'c'], 4, 4);
  const rounds = [0, 1, 2, 3].map((i) => s.filter((x) => x.instance === i).map((x) => x.release).join(''));
  assert.deepEqual(rounds, ['abc', 'bca', 'cab', 'abc']);
  // over any 3 rounds each release holds each place once
  for (const place of [0, 1, 2]) assert.deepEqual(rounds.slice(0, 3).map((r) => r[place]).sort(), ['a', 'b', 'c']);
  // one release: nothing to turn
  assert.deepEqual(buildSchedule([steps[1]], ['a'], 2, 2).map((x) => x.release), ['a', 'a']);
});

test('time left scales with the observed pace', () => {
  const s = buildSchedule(steps, ['a'], 2); // load(0.5) pq(4.5) pq(4.5) postwrite(0.5)
  assert.equal(estimateRemainingS(s, 0, 0), 10);
  // first two actions estimated 5 s took 10 s: the remaining 5 s estimate doubles
  assert.equal(estimateRemainingS(s, 2, 10), 10);
});

test('with a snapshot after the load, every later round restores it before its restart; after a counted phase round 0 does too', () => {
  const warm = { name: 'point-query.warm', kind: 'sysbench', group: 'setup', reported: false, runOnce: true, metric: 'qps', durationS: 3 };
  const plan = [steps[0], warm, steps[1], steps[2]];
  const label = (/** @type {import('../../scripts/run/schedule.js').ScheduledAction} */ x) => `${x.instance}:${x.restore ? 'S ' : x.restart ? 'R ' : ''}${x.step.name}:${x.release}`;
  const timedOnly = buildSchedule(plan, ['a', 'b'], 3, 3, {}, { copyS: 5, countedFirst: false });
  assert.deepEqual(timedOnly.filter((x) => x.restart).map(label), ['1:S point-query.warm:b', '1:S point-query.warm:a', '2:S point-query.warm:a', '2:S point-query.warm:b']);
  // Every restart restores, and pays the copy on top of the restart, but the last round's,
  // which moves the snapshot into place.
  const plain = buildSchedule(plan, ['a', 'b'], 3, 3);
  assert.deepEqual(timedOnly.filter((x) => x.restore).map((x) => [x.copyS ?? 0, x.lastRound ?? false]), [[5, false], [5, false], [0, true], [0, true]]);
  const first = timedOnly.findIndex((x) => x.restore);
  assert.equal(plain[first].restart, true);
  assert.equal(timedOnly[first].estimatedS - plain[first].estimatedS, 5);
  assert.equal(timedOnly[first].copyS, 5);
  // The load pays for the snapshot: a restart (8 s) and a copy.
  assert.equal(timedOnly[0].copyS, 13);
  assert.equal(timedOnly[0].estimatedS - plain[0].estimatedS, 13);
  const counted = buildSchedule(plan, ['a', 'b'], 2, 2, {}, { copyS: 5, countedFirst: true });
  assert.deepEqual(counted.filter((x) => x.restart).map(label), [
    '0:S point-query.warm:a', '0:S point-query.warm:b', '1:S point-query.warm:b', '1:S point-query.warm:a',
  ]);
  assert.equal(counted.filter((x) => x.step.loadsData && x.restart).length, 0, 'the load itself runs on the fresh datadir');
  // Without a snapshot nothing restores (a suite without a run-wide load).
  assert.equal(plain.some((x) => x.restore || x.copyS), false);
});

test('a run takes the snapshot only when it has a run-wide load and something would read past it', () => {
  const noLoad = steps.filter((s) => !s.loadsData);
  assert.equal(needsSnapshot(steps, 2, false), true, 'a later round');
  assert.equal(needsSnapshot(steps, 1, true), true, 'round 1 after a counted phase');
  assert.equal(needsSnapshot(steps, 1, false), false, 'one round, nothing counted: the load is what it reads');
  assert.equal(needsSnapshot(noLoad, 3, true), false, 'no run-wide load: sequence passes load their own');
});

test('a run that times nothing schedules the run-wide loads only: no warm-up, postwrite or sequence step (the insert benchmark\'s cleanup failed without its pass)', async () => {
  const config = await loadConfig(new URL('../..', import.meta.url).pathname);
  const demo = planSuite(config.suites.demo, { engine: 'innodb' });
  const schedule = countedOnlySchedule(demo, ['a', 'b'], {});
  assert.deepEqual(schedule.map((a) => [a.index, a.step.name, a.release, a.instance]), [[0, 'load', 'a', 0], [1, 'load', 'b', 0]]);
  assert.ok(schedule.every((a) => !a.restart && !a.restore));
  // The demo has the steps that failed before: they are in the timed schedule, not in this one.
  const timed = buildSchedule(demo, ['a', 'b'], 3, 3).map((a) => a.step.name);
  for (const name of ['postwrite.after-load', 'ibench.cleanup', 'point-query.warm']) assert.ok(timed.includes(name), name);
  assert.deepEqual(countedOnlySchedule(demo.filter((s) => !s.loadsData), ['a'], {}), [], 'no run-wide load: nothing to run before the count');
});
