import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { selectDevices } from '../../scripts/metrics/select-devices.js';

const run = promisify(execFile);

test('selectDevices: a datadir on a disk-backed filesystem maps to that disk', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-devsel-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const sel = await selectDevices(dir);
  const { stdout } = await run('df', ['--output=source', dir]);
  const source = stdout.trim().split('\n')[1];
  if (!source.startsWith('/dev/')) return t.skip(`${tmpdir()} is on ${source}, not a block device`);
  assert.equal(sel.basis, 'datadir', sel.note);
  assert.equal(sel.devices.length, 1);
  assert.ok((await readdir('/sys/block')).includes(sel.devices[0]), `${sel.devices[0]} is a whole disk in /sys/block`);
  assert.ok(source.includes(sel.devices[0]) || sel.devices[0].startsWith('dm-'), `df says ${source}, selected ${sel.devices[0]}`);
  assert.match(sel.note, /block device/);
});

test('selectDevices: a datadir on tmpfs counts all real devices and says why', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-devsel-'));
  const mnt = join(dir, 'mnt');
  await mkdir(mnt);
  let mounted = false;
  // one hook, so the unmount surely comes before the removal
  t.after(async () => {
    if (mounted) await run('umount', [mnt]).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tagbench-test', mnt]);
    mounted = true;
  } catch (err) {
    return t.skip(`cannot mount a tmpfs here (needs root): ${err instanceof Error ? err.message.split('\n')[0] : err}`);
  }
  const sel = await selectDevices(join(mnt, 'data'));
  assert.equal(sel.basis, 'all');
  assert.match(sel.note, /tmpfs.*no single block device.*all real block devices/);
  for (const d of sel.devices) assert.ok(!/^(loop|zram|ram)\d/.test(d), `${d} is not virtual`);
});
