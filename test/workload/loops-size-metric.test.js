// The database size after each loop (details.loops.dbSize) as a compare metric: lower is better,
// judged per loop step like any metric once the thresholds list it, never invented when absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, METRICS } from '../../scripts/compare/index.js';
import { makeRecord } from '../compare/make-record.js';

const thresholds = resolveThresholds({
  confidence: 0.9,
  power: 0.8,
  groups: { write: { warn: 0.03, issue: 0.05 } },
  metrics: { dbOnDiskBytes: { warn: 0.05, issue: 0.1 } },
  qos: { stallFraction: 0.5, minIntervals: 10 },
});

/**
 * A record whose loop step's repeats carry the size after the loop, one per server instance.
 * @param {string} version
 * @param {number[]} onDiskBytes
 */
function record(version, onDiskBytes) {
  const r = makeRecord({ id: version, version, steps: [{ name: 'read-write.range10.loop3', group: 'write', throughput: onDiskBytes.map((_, i) => 1000 + i), instances: onDiskBytes.map((_, i) => i) }] });
  for (const [i, rep] of r.steps[0].repeats.entries()) {
    rep.details = { loops: { test: 'read-write.range10', loop: 3, loops: 5, qps: 1000, dbSize: { logicalBytes: onDiskBytes[i] / 2, onDiskBytes: onDiskBytes[i] } } };
  }
  return r;
}

test('dbOnDiskBytes reads the size a sequence benchmark recorded, lower is better', () => {
  const metric = METRICS.find((m) => m.name === 'dbOnDiskBytes');
  assert.ok(metric);
  assert.equal(metric.higherIsBetter, false);
  const rep = record('a', [5e6, 5e6, 5e6]).steps[0].repeats[0];
  assert.equal(metric.value(rep, null), 5e6);
  assert.equal(metric.value({ ...rep, details: undefined }, null), null, 'sysbench repeats have no size: not measured, not 0');
});

test('a loop whose database grew 30 % more than the base\'s is a regression of dbOnDiskBytes at the issue level (5 instances a side, as the family-wise rule needs)', () => {
  const cmp = compareRuns({
    base: { version: '10.11.18', records: [record('10.11.18', [100e6, 101e6, 99e6, 100.5e6, 99.5e6])] },
    candidate: { version: '10.11.19', records: [record('10.11.19', [130e6, 131e6, 129e6, 130.5e6, 129.5e6])] },
    thresholds,
    createdAt: '2026-11-22T00:00:00Z',
  });
  const size = cmp.tests.find((t) => t.test === 'read-write.range10.loop3' && t.metric === 'dbOnDiskBytes');
  assert.equal(size?.verdict, 'regression');
  assert.equal(size?.level, 'issue');
  assert.equal(size?.ratio, 1.3);
  assert.equal(cmp.tests.find((t) => t.metric === 'throughput')?.verdict, 'unchanged', 'same QPS: only the size moved');
});
