/**
 * Slow down real database servers by a known amount: every process whose command line holds
 * all the given fragments (e.g. the candidate's install prefix and our port range) is put into
 * a cgroup v1 `cpu` group with a CPU quota as soon as it appears. This is how the act test gets
 * a real, confirmable regression out of two releases that perform alike (FIELD-NOTES: a CPU
 * quota is a repeatable way to slow a server). Linux, root.
 */
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const CPU_ROOT = '/sys/fs/cgroup/cpu';

/**
 * @param {{name: string, match: RegExp[], quotaCpus: number}} options match: patterns the command line
 *   (NUL-separated arguments) must all match; quotaCpus: 0.3 = 30 % of one CPU
 * @returns {Promise<{throttled: Set<number>, movedBack: () => number, stop: () => Promise<void>}>}
 *   throttled: pids put into the group; movedBack: how often one had to be put back
 * @throws {Error} when the cgroup v1 cpu controller is not writable
 */
export async function throttleServers({ name, match, quotaCpus }) {
  const dir = join(CPU_ROOT, name);
  await mkdir(dir, { recursive: true });
  const periodUs = 10_000;
  await writeFile(join(dir, 'cpu.cfs_period_us'), String(periodUs));
  await writeFile(join(dir, 'cpu.cfs_quota_us'), String(Math.round(periodUs * quotaCpus)));
  /** @type {Set<number>} */
  const throttled = new Set();
  let movedBack = 0;
  let stopped = false;
  // Checked on every scan, not once: something else may move a process back (systemd puts
  // processes back into their unit's group when it re-applies its cgroup tree, e.g. after a
  // package install runs daemon-reload), which would silently end the slowdown.
  const scan = async () => {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (!cmdline || !match.every((m) => m.test(cmdline))) continue;
      const groups = await readFile(`/proc/${entry}/cgroup`, 'utf8').catch(() => '');
      if (groups.split('\n').some((l) => /^\d+:([^:]*,)?cpu(,[^:]*)?:/.test(l) && l.endsWith(`:/${name}`))) continue;
      // cgroup.procs moves every thread of the process.
      await writeFile(join(dir, 'cgroup.procs'), entry).then(() => {
        if (throttled.has(Number(entry))) movedBack++;
        throttled.add(Number(entry));
      }, () => {});
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await scan();
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    throttled,
    movedBack: () => movedBack,
    stop: async () => {
      stopped = true;
      await loop;
      // Processes still inside go back to the root group before the group is removed.
      const left = (await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
      for (const pid of left) await writeFile(join(CPU_ROOT, 'cgroup.procs'), pid).catch(() => {});
      await rmdir(dir).catch(() => {});
    },
  };
}
