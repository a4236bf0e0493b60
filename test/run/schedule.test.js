import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchedule, estimateRemainingS } from '../../scripts/run/schedule.js';

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
