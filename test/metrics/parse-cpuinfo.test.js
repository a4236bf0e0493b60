import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseCpuinfo } from '../../scripts/metrics/parse-cpuinfo.js';
import { fixture } from './golden.js';

test('parseCpuinfo on a real 2-vCPU AMD EPYC VM', async () => {
  const info = parseCpuinfo(await readFile(fixture('cpuinfo/linux-6.18-amd-epyc-vm.txt'), 'utf8'));
  assert.deepEqual(info, { model: 'AMD EPYC', processors: 2, hypervisor: true });
});

test('parseCpuinfo: arm style Model line, no hypervisor flag; empty text', () => {
  const text = 'processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd\n\nprocessor\t: 1\n\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n';
  assert.deepEqual(parseCpuinfo(text), { model: 'Raspberry Pi 4 Model B Rev 1.4', processors: 2, hypervisor: false });
  assert.deepEqual(parseCpuinfo(''), { model: null, processors: 0, hypervisor: false });
});
