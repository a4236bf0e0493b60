import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSparkline, formatDuration, createProgress } from '../../scripts/run/progress.js';
import { buildSchedule } from '../../scripts/run/schedule.js';

test('sparkline: height follows the value, a stall is a dip', () => {
  assert.equal(renderSparkline([10, 10, 0, 10]), '██▁█');
  assert.equal(renderSparkline([0, 0]), '▁▁');
  assert.equal(renderSparkline([]), '');
  assert.equal(renderSparkline(Array.from({ length: 100 }, (_, i) => i), 10).length, 10);
});

test('durations read as minutes and seconds', () => {
  assert.equal(formatDuration(5), '5s');
  assert.equal(formatDuration(245), '4m05s');
});

test('progress lines name release, step, repeat and time left', () => {
  const lines = /** @type {string[]} */ ([]);
  let now = 0;
  const steps = /** @type {any[]} */ ([{ name: 'point-query', kind: 'sysbench', group: 'point', reported: true, metric: 'qps', durationS: 3 }]);
  const schedule = buildSchedule(steps, ['mariadb@10.11.18', 'mariadb@10.11.19'], 2);
  const p = createProgress(schedule, { write: (t) => lines.push(t), now: () => now });
  p.begin(schedule[0]);
  now = 3500;
  p.end(schedule[0], { status: 'ok', throughput: 29000.4, metric: 'qps', intervals: [1, 2, 3] });
  p.begin(schedule[1]);
  p.end(schedule[1], { status: 'failed', reason: 'server crashed' });
  assert.match(lines[0], /^\[1\/4\] mariadb@10\.11\.18 point-query repeat 1\/2 · 0s elapsed, estimating/);
  assert.match(lines[1], /29,000 qps {2}▃▆█/);
  assert.match(lines[2], /^\[2\/4\] mariadb@10\.11\.19 point-query repeat 1\/2 · 4s elapsed, ~11s left/);
  assert.match(lines[3], /✗ point-query failed: server crashed/);
});
