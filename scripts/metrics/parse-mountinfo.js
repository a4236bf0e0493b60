/**
 * /proc/<pid>/mountinfo parsing and lookup (pure). Used to tell which block device holds a
 * datadir, so that the I/O per operation counts that device only.
 * Format: proc(5) — `id parent major:minor root mountpoint options [optional...] - fstype source superoptions`.
 */

/**
 * @typedef {object} MountEntry
 * @property {number} mountId
 * @property {string} majorMinor `254:0`; major 0 = no block device (tmpfs, overlay, btrfs subvolumes)
 * @property {string} mountPoint unescaped absolute path
 * @property {string} fsType
 * @property {string} source `/dev/vda1`, `tmpfs`, ...
 */

/**
 * Parse mountinfo text, keeping the order (later lines mount over earlier ones).
 * @param {string} text content of /proc/self/mountinfo
 * @returns {MountEntry[]}
 * @throws {Error} on a line without the ` - ` separator or with too few fields
 */
export function parseMountinfo(text) {
  /** @type {MountEntry[]} */
  const out = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const sep = line.indexOf(' - ');
    const head = line.slice(0, sep).split(' ');
    const tail = line.slice(sep + 3).split(' ');
    if (sep < 0 || head.length < 6 || tail.length < 2) throw new Error(`mountinfo line ${i + 1}: unexpected format: "${line}"`);
    out.push({ mountId: Number(head[0]), majorMinor: head[2], mountPoint: unescape(head[4]), fsType: tail[0], source: unescape(tail[1]) });
  }
  return out;
}

/**
 * The mount that holds `absPath`: the longest mount point that is a prefix of it, the last
 * mounted one when several share that mount point.
 * @param {MountEntry[]} mounts from parseMountinfo
 * @param {string} absPath absolute path with symlinks already resolved
 * @returns {MountEntry|null} null when no mount matches (empty table)
 */
export function findMount(mounts, absPath) {
  /** @type {MountEntry|null} */
  let best = null;
  for (const m of mounts) {
    const mp = m.mountPoint;
    const inside = absPath === mp || mp === '/' || absPath.startsWith(mp.endsWith('/') ? mp : `${mp}/`);
    if (inside && (!best || mp.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

/**
 * The kernel block device name iostat prints for a /sys/dev/block/<maj:min> link target:
 * the whole disk for a partition (iostat -d without -p lists whole devices), the device itself
 * otherwise (`dm-0`, `md0`, `nvme0n1`).
 * @param {string} sysPath resolved link, e.g. `/sys/devices/pci0000:00/.../block/sda/sda1`
 * @returns {string|null} null when the path has no `/block/` part
 */
export function deviceFromSysPath(sysPath) {
  const m = /\/block\/([^/]+)(?:\/([^/]+))?\/?$/.exec(sysPath);
  if (!m) return null;
  return m[1];
}

/**
 * mountinfo escapes space, tab, newline and backslash as octal (`\040`).
 * @param {string} s
 */
function unescape(s) {
  return s.replace(/\\([0-7]{3})/g, (_, oct) => String.fromCharCode(parseInt(oct, 8)));
}
