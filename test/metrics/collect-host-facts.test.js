import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { hostname, cpus } from 'node:os';
import { collectHostFacts } from '../../scripts/metrics/index.js';

test('collectHostFacts on this machine: every RecordHost field, cpufreq facts only when exposed', async () => {
  const pinning = { serverCpus: '1', clientCpus: '1' };
  const h = await collectHostFacts({ hostClass: 'local', pinning });
  assert.equal(h.class, 'local');
  assert.equal(h.hostname, hostname());
  assert.equal(h.cores, cpus().length);
  assert.ok(h.cpuModel.length > 0 && h.cpuModel !== 'unknown');
  assert.match(h.kernel, /^\d+\.\d+/);
  const memTotalKb = Number(/^MemTotal:\s+(\d+)/m.exec(await readFile('/proc/meminfo', 'utf8'))?.[1]);
  assert.ok(Math.abs(h.memoryBytes - memTotalKb * 1024) < 1024 * 1024, `${h.memoryBytes} vs MemTotal ${memTotalKb} kB`);
  const governor = await readFile('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'utf8').catch(() => null);
  assert.equal(h.governor, governor === null ? null : governor.trim());
  assert.ok(h.turbo === null || typeof h.turbo === 'boolean');
  assert.deepEqual(h.pinning, pinning);
  assert.notEqual(h.pinning, pinning, 'a copy, not the caller\'s object');
});
