import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseProcStatCpu } from '../../scripts/doctor/check-host.js';

test('parseProcStatCpu: total over the first eight fields, steal is the eighth', () => {
  const text = 'cpu  100 5 50 1000 10 1 2 7 30 0\ncpu0 50 2 25 500 5 0 1 3 15 0\nintr 1\n';
  assert.deepEqual(parseProcStatCpu(text), { total: 1175, steal: 7 });
  assert.equal(parseProcStatCpu('intr 1\n'), null);
});
