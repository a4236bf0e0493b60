/**
 * Watch the database server a run starts (found by its command line, which holds the run's
 * private work dir) and, when asked, put it into a cgroup (v1 `cpu` controller, or v2) with a
 * CPU quota: a real and repeatable way to slow a server by a known amount for calibration.
 * Also samples the server's CPU time (/proc/<pid>/stat), so that the quota can be set from the
 * CPU the server really used. Linux only; needs root for the cgroup.
 */
import { readdir, readFile, writeFile, mkdir, rmdir, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { UserError } from '../../errors.js';

/** @type {number|undefined} */
let clockTicks;

/**
 * Clock ticks per second of /proc/<pid>/stat times, asked of getconf once, on first use (not
 * at import, so that loading this module runs nothing).
 * @returns {number}
 */
function clkTck() {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return clockTicks;
}

/**
 * @typedef {object} ServerWatch
 * @property {() => Promise<{samples: {tMs: number, cpuS: number}[], pids: number[]}>} stop
 *   stop watching, remove the cgroup; samples of the server's cumulative CPU seconds
 * @property {(cpus: number) => Promise<void>} setQuota change the quota of a throttled watch (no-op without one)
 */

/**
 * Where the cgroup lives: v2 unified hierarchy, or v1 `cpu` controller.
 * @returns {Promise<{version: 1|2, dir: string}>}
 * @throws {UserError} when neither is writable here
 */
export async function findCpuCgroupRoot() {
  if (await exists('/sys/fs/cgroup/cgroup.controllers')) return { version: 2, dir: '/sys/fs/cgroup' };
  if (await exists('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')) return { version: 1, dir: '/sys/fs/cgroup/cpu' };
  throw new UserError('no cgroup CPU controller found (/sys/fs/cgroup/cgroup.controllers or /sys/fs/cgroup/cpu/cpu.cfs_quota_us): the injected slowdown needs Linux cgroups and root');
}

/**
 * @param {{match: string, quotaCpus?: number|null, periodUs?: number, name: string}} options
 *   match: a string the server's command line contains (its work dir); quotaCpus: CPU quota in
 *   CPUs (0.5 = half a CPU), null = no quota
 * @returns {Promise<ServerWatch>}
 */
export async function watchServer(options) {
  const periodUs = options.periodUs ?? 10_000;
  /** @type {{version: 1|2, dir: string}|null} */
  let cg = null;
  let cgDir = '';
  if (options.quotaCpus) {
    cg = await findCpuCgroupRoot();
    cgDir = join(cg.dir, options.name);
    await mkdir(cgDir, { recursive: true });
    if (cg.version === 1) await writeFile(join(cgDir, 'cpu.cfs_period_us'), String(periodUs));
    await writeQuota(cg, cgDir, options.quotaCpus, periodUs);
  }
  /** @type {{tMs: number, cpuS: number}[]} */
  const samples = [];
  /** @type {Set<number>} */
  const moved = new Set();
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const pids = await findServers(options.match);
      let cpuS = 0;
      for (const pid of pids) {
        // Checked on every tick, not once: systemd moves processes back into their unit's
        // group when it re-applies its cgroup tree (seen after a package install), which would
        // silently lift the quota in the middle of a throttled run.
        if (cg && !(await inGroup(pid, options.name))) {
          await writeFile(join(cgDir, 'cgroup.procs'), String(pid)).catch(() => {});
          moved.add(pid);
        }
        cpuS += await readCpuS(pid);
      }
      if (pids.length > 0) samples.push({ tMs: Date.now(), cpuS });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), 250);
  return {
    /**
     * Change the quota while the run goes on (per test: each test's own server CPU use).
     * @param {number} cpus
     */
    async setQuota(cpus) {
      if (!cg || !cgDir) return;
      await writeQuota(cg, cgDir, cpus, periodUs);
    },
    async stop() {
      clearInterval(timer);
      if (cgDir) await rmdir(cgDir).catch(() => {});
      return { samples, pids: [...moved] };
    },
  };
}

/**
 * Set a cgroup's CPU quota: `cpus` CPUs' worth of time in every period.
 * @param {{version: 1|2}} cg the cgroup hierarchy's version
 * @param {string} cgDir the group's folder
 * @param {number} cpus
 * @param {number} periodUs the group's period
 * @returns {Promise<void>}
 */
async function writeQuota(cg, cgDir, cpus, periodUs) {
  // At least 1 ms per period: the kernel refuses a smaller quota.
  const quotaUs = Math.max(1000, Math.round(cpus * periodUs));
  if (cg.version === 1) await writeFile(join(cgDir, 'cpu.cfs_quota_us'), String(quotaUs));
  else await writeFile(join(cgDir, 'cpu.max'), `${quotaUs} ${periodUs}`);
}

/**
 * @param {number} pid
 * @param {string} name the group's name under the cpu controller root
 * @returns {Promise<boolean>} true when the process is in that group (cgroup v1 cpu line or v2 unified line)
 */
async function inGroup(pid, name) {
  const text = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '');
  return text.split('\n').some((line) => {
    const [, controllers, path] = line.split(':');
    const cpu = controllers === '' || (controllers ?? '').split(',').includes('cpu');
    return cpu && (path ?? '').endsWith(`/${name}`);
  });
}

/**
 * @param {string} match
 * @returns {Promise<number[]>} pids of mariadbd / mysqld processes whose command line contains match
 */
async function findServers(match) {
  /** @type {number[]} */
  const out = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    const argv = cmd.split('\0');
    if (/(mariadbd|mysqld)$/.test(argv[0] ?? '') && cmd.includes(match)) out.push(Number(name));
  }
  return out;
}

/**
 * @param {number} pid
 * @returns {Promise<number>} user + system CPU seconds of the process so far (0 when gone)
 */
async function readCpuS(pid) {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // fields after the ")" that ends the command name: utime is field 14, stime 15
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / clkTck() || 0;
}

/** @param {string} p */
async function exists(p) {
  return stat(p).then(() => true, () => false);
}

/**
 * Average CPUs the server used during the given time windows, from the CPU samples.
 * @param {{tMs: number, cpuS: number}[]} samples
 * @param {{startMs: number, endMs: number}[]} windows
 * @returns {number|null} CPUs (0.6 = 60 % of one CPU), null when no window has two samples
 */
export function computeCpuUse(samples, windows) {
  let cpu = 0;
  let wall = 0;
  for (const w of windows) {
    const inside = samples.filter((s) => s.tMs >= w.startMs && s.tMs <= w.endMs);
    if (inside.length < 2) continue;
    cpu += inside[inside.length - 1].cpuS - inside[0].cpuS;
    wall += (inside[inside.length - 1].tMs - inside[0].tMs) / 1000;
  }
  return wall > 0 ? cpu / wall : null;
}
