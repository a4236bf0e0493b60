import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSysbenchVersion, majorOf } from '../../scripts/doctor/check-tools.js';

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
