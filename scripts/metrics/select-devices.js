/**
 * Choose the block device(s) whose I/O counts for a datadir: the one holding it when that can
 * be told from /proc/self/mountinfo and /sys/dev/block, else every real block device.
 */
import { readFile, readlink, readdir, realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseMountinfo, findMount, deviceFromSysPath } from './parse-mountinfo.js';

/** @typedef {import('./types.js').DeviceSelection} DeviceSelection */

/**
 * @param {string} datadir the server's datadir (may be relative or a symlink)
 * @returns {Promise<DeviceSelection>} never rejects: falls back to all real devices and says why
 */
export async function selectDevices(datadir) {
  const abs = await realpath(datadir).catch(() => resolve(datadir));
  const mounts = await readFile('/proc/self/mountinfo', 'utf8').then(parseMountinfo).catch(() => []);
  const mount = findMount(mounts, abs);
  if (mount) {
    const dev = (await deviceOfMajorMinor(mount.majorMinor)) ?? (await deviceOfSource(mount.source));
    if (dev) {
      return { basis: 'datadir', devices: [dev], note: `datadir ${abs} is on ${mount.mountPoint} (${mount.fsType}, ${mount.source}), block device ${dev}` };
    }
  }
  const all = await realDevices();
  const why = mount
    ? `datadir ${abs} is on ${mount.mountPoint} (${mount.fsType}, ${mount.source}), which maps to no single block device`
    : `no mount found for datadir ${abs} in /proc/self/mountinfo`;
  return { basis: 'all', devices: all, note: `${why}; counting all real block devices (${all.join(', ') || 'none'})` };
}

/**
 * @param {string} majorMinor
 * @returns {Promise<string|null>}
 */
async function deviceOfMajorMinor(majorMinor) {
  if (majorMinor.startsWith('0:')) return null; // anonymous device: tmpfs, overlay, btrfs...
  const target = await readlink(`/sys/dev/block/${majorMinor}`).catch(() => null);
  return target ? deviceFromSysPath(resolve('/sys/dev/block', target)) : null;
}

/**
 * btrfs and some others report an anonymous major:minor but name the real device as source.
 * @param {string} source
 * @returns {Promise<string|null>}
 */
async function deviceOfSource(source) {
  if (!source.startsWith('/dev/')) return null;
  const dev = await realpath(source).catch(() => null);
  if (!dev) return null;
  const sys = await realpath(`/sys/class/block/${basename(dev)}`).catch(() => null);
  return sys ? deviceFromSysPath(sys) : null;
}

/**
 * Block devices backed by hardware (or a hypervisor's virtual disk): those not under
 * /sys/devices/virtual. Loop, zram, ram, dm and md are left out — dm/md sit on top of disks
 * already counted, and the others are not storage a datadir's writes reach.
 * @returns {Promise<string[]>}
 */
async function realDevices() {
  const names = await readdir('/sys/block').catch(() => []);
  /** @type {string[]} */
  const out = [];
  for (const name of names.sort()) {
    const target = await realpath(`/sys/block/${name}`).catch(() => '');
    if (target && !target.includes('/devices/virtual/')) out.push(name);
  }
  return out;
}
