import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { computeCpuUse, findCpuCgroupRoot, watchServer } from '../../../scripts/verify/calibrate/server-throttle.js';

test('CPU use of the server over the measured windows only', () => {
  // 0.5 CPU during the first window (1 s of CPU in 2 s), idle between, 1 CPU in the second
  const samples = [{ tMs: 0, cpuS: 0 }, { tMs: 1000, cpuS: 0.5 }, { tMs: 2000, cpuS: 1 }, { tMs: 5000, cpuS: 1 }, { tMs: 6000, cpuS: 2 }];
  assert.equal(computeCpuUse(samples, [{ startMs: 0, endMs: 2000 }]), 0.5);
  assert.equal(computeCpuUse(samples, [{ startMs: 0, endMs: 2000 }, { startMs: 5000, endMs: 6000 }]), 2 / 3);
  assert.equal(computeCpuUse(samples, [{ startMs: 3000, endMs: 4000 }]), null);
});

test('the cgroup CPU controller of this machine is found (v1 or v2)', async () => {
  const cg = await findCpuCgroupRoot();
  assert.ok(cg.version === 1 || cg.version === 2);
});

test('a throttled watch sets its quota and changes it while the run goes on (per-test quotas)', async () => {
  const cg = await findCpuCgroupRoot();
  const name = `tagbench-test-${process.pid}`;
  const watch = await watchServer({ match: `/nonexistent-${process.pid}`, quotaCpus: 0.5, name, periodUs: 10_000 });
  try {
    const file = cg.version === 1 ? join(cg.dir, name, 'cpu.cfs_quota_us') : join(cg.dir, name, 'cpu.max');
    assert.match(await readFile(file, 'utf8'), /^5000\b/);
    await watch.setQuota(0.25);
    assert.match(await readFile(file, 'utf8'), /^2500\b/);
  } finally {
    await watch.stop();
  }
  assert.equal(existsSync(join(cg.dir, name)), false, 'the group is removed at stop');
});
