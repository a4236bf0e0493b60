import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseMountinfo, findMount, deviceFromSysPath } from '../../scripts/metrics/parse-mountinfo.js';
import { fixture } from './golden.js';

test('findMount on a real mountinfo: root ext4, /dev/shm tmpfs mounted twice, escaped space', async () => {
  const mounts = parseMountinfo(await readFile(fixture('mountinfo/linux-6.18-vm-tmpfs-space.txt'), 'utf8'));
  assert.deepEqual(findMount(mounts, '/work/main/.tagbench/work/d1'), {
    mountId: 27, majorMinor: '254:0', mountPoint: '/', fsType: 'ext4', source: '/dev/vda',
  });
  assert.equal(findMount(mounts, '/dev/shm/x')?.mountId, 30, 'the later of two mounts on /dev/shm wins');
  assert.equal(findMount(mounts, '/tmp/metrics mnt/datadir')?.fsType, 'tmpfs');
  assert.equal(findMount(mounts, '/tmp/metrics mntx')?.fsType, 'ext4', 'a sibling with the same prefix is not inside');
  assert.equal(findMount(mounts, '/sys/fs/cgroup/cpu')?.fsType, 'cgroup');
});

test('deviceFromSysPath: whole disk for a partition, the device itself otherwise', () => {
  assert.equal(deviceFromSysPath('/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda'), 'vda');
  assert.equal(deviceFromSysPath('/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/sda2'), 'sda');
  assert.equal(deviceFromSysPath('/sys/devices/virtual/block/dm-0'), 'dm-0');
  assert.equal(deviceFromSysPath('/sys/devices/pci0000:00/0000:00:01.0/nvme/nvme0/nvme0n1/nvme0n1p1'), null);
});

test('parseMountinfo rejects a line without the separator', () => {
  assert.throws(() => parseMountinfo('27 1 254:0 / / rw\n'), /line 1: unexpected format/);
});
