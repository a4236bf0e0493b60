/** How the run schedule walks a sequence benchmark (the insert benchmark) beside sysbench steps. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchedule } from '../../scripts/run/schedule.js';

/** Just the fields the schedule reads. @type {any[]} */
const sysbench = [
  { name: 'load', kind: 'load', loadsData: true, group: 'setup', reported: false, metric: 'qps' },
  { name: 'point-query', kind: 'sysbench', group: 'point', reported: true, metric: 'qps', durationS: 3, warmupS: 1 },
];
/** @type {any[]} */
const sequence = [
  { name: 'l.i0', kind: 'ibench', sequence: 'ibench', group: 'write', reported: true, runOnce: false, metric: 'inserts/s', durationS: 0 },
  { name: 'l.x', kind: 'ibench', sequence: 'ibench', group: 'write', reported: true, runOnce: false, metric: 'rows/s', durationS: 0 },
  { name: 'ibench.cleanup', kind: 'ibench', sequence: 'ibench', group: 'setup', reported: false, runOnce: false, metric: 'qps', durationS: 0 },
  { name: 'qr100', kind: 'ibench', sequence: 'ibench', group: 'range', reported: true, runOnce: false, metric: 'qps', durationS: 5 },
];

test('each pass runs the whole sequence in order, releases alternating step by step', () => {
  const s = buildSchedule(sequence, ['a', 'b'], 2, 1);
  assert.deepEqual(s.map((x) => `${x.step.name}:${x.release}:${x.repeat}`), [
    'l.i0:a:0', 'l.i0:b:0', 'l.x:a:0', 'l.x:b:0', 'ibench.cleanup:a:0', 'ibench.cleanup:b:0', 'qr100:a:0', 'qr100:b:0',
    'l.i0:a:1', 'l.i0:b:1', 'l.x:a:1', 'l.x:b:1', 'ibench.cleanup:a:1', 'ibench.cleanup:b:1', 'qr100:a:1', 'qr100:b:1',
  ]);
  assert.ok(s.every((x) => x.repeats === 2 && x.instance === 0 && !x.restart));
  assert.deepEqual(s.map((x) => x.stepIndex), [0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3]);
  assert.equal(s[6].estimatedS, 5.5);
});

test('passes spread over instances like repeats; sysbench steps before it are scheduled as before', () => {
  const steps = [...sysbench, ...sequence];
  const s = buildSchedule(steps, ['a'], 3, 2);
  assert.deepEqual(s.map((x) => `${x.instance}:${x.step.name}:${x.repeat}${x.restart ? ':restart' : ''}`), [
    '0:load:0', '0:point-query:0', '0:point-query:2',
    '0:l.i0:0', '0:l.x:0', '0:ibench.cleanup:0', '0:qr100:0',
    '0:l.i0:2', '0:l.x:2', '0:ibench.cleanup:2', '0:qr100:2',
    '1:point-query:1:restart',
    '1:l.i0:1', '1:l.x:1', '1:ibench.cleanup:1', '1:qr100:1',
  ]);
  // Without sequence steps the schedule is the one sysbench always had.
  const plain = buildSchedule(sysbench, ['a', 'b'], 2, 2).map((x) => `${x.instance}:${x.step.name}:${x.release}:${x.repeat}`);
  assert.deepEqual(plain, ['0:load:a:0', '0:load:b:0', '0:point-query:a:0', '0:point-query:b:0', '1:point-query:b:1', '1:point-query:a:1']);
});

test('an insert-only suite restarts the server at the first step of every later round', () => {
  const s = buildSchedule(sequence, ['a', 'b'], 2, 2);
  const restarts = s.filter((x) => x.restart).map((x) => `${x.step.name}:${x.release}:${x.instance}`);
  assert.deepEqual(restarts, ['l.i0:b:1', 'l.i0:a:1'], 'the second round starts with the other release');
});
