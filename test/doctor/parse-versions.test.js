import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSysbenchVersion, majorOf, parseProcStatCpu } from '../../scripts/doctor/parse-versions.js';
import { renderDoctor } from '../../scripts/doctor/render-doctor.js';

test('parseSysbenchVersion', () => {
  assert.deepEqual(parseSysbenchVersion('sysbench 1.0.20\n'), { version: '1.0.20', major: 1, minor: 0 });
  assert.deepEqual(parseSysbenchVersion('sysbench 1.1.0-df89d34'), { version: '1.1.0-df89d34', major: 1, minor: 1 });
  assert.equal(parseSysbenchVersion('command not found'), null);
});

test('majorOf', () => {
  assert.equal(majorOf('20.20.2'), 20);
  assert.equal(majorOf('v18.1.0'), 18);
  assert.ok(Number.isNaN(majorOf('x')));
});

test('parseProcStatCpu: total over the first eight fields, steal is the eighth', () => {
  const text = 'cpu  100 5 50 1000 10 1 2 7 30 0\ncpu0 50 2 25 500 5 0 1 3 15 0\nintr 1\n';
  assert.deepEqual(parseProcStatCpu(text), { total: 1175, steal: 7 });
  assert.equal(parseProcStatCpu('intr 1\n'), null);
});

test('renderDoctor: marks, optional tag, fix lines, summary', () => {
  const text = renderDoctor({
    schemaVersion: 1, ok: false, checks: [
      { id: 'node', title: 'node', required: true, status: 'ok', detail: 'Node.js 20.1.0', fix: null },
      { id: 'sysbench', title: 'sysbench', required: true, status: 'fail', detail: 'not found', fix: 'apt-get install sysbench' },
      { id: 'chromium', title: 'chromium', required: false, status: 'fail', detail: 'not found', fix: 'apt-get install chromium' },
      { id: 'noise', title: 'noise', required: false, status: 'warn', detail: 'VM', fix: 'use bare metal' },
    ],
  });
  assert.equal(text, [
    '✓ node      Node.js 20.1.0',
    '✗ sysbench  not found',
    '            fix: apt-get install sysbench',
    '✗ chromium  not found (optional)',
    '            fix: apt-get install chromium',
    '! noise     VM',
    '            fix: use bare metal',
    '',
    '1 required check failed: tagbench cannot run benchmarks here until fixed (1 optional missing, 1 warning)',
    '',
  ].join('\n'));
});
