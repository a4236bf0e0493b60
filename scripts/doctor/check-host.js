/**
 * Doctor checks of the host as a measuring instrument: frequency scaling, turbo, whether it is
 * a VM with stolen time or busy with other work, and whether calibration can cap CPU with a
 * cgroup quota. None of these is required; they explain noise.
 */
import { readFile, mkdir, writeFile, rmdir, access } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { collectHostFacts, parseCpuinfo } from '../metrics/index.js';

/** @typedef {import('./commands.js').CheckResult} CheckResult */

/** Stolen time above this share of all CPU time in the 1 s probe means a neighbour is busy. */
const STEAL_WARN_PCT = 1;
/** 1-minute load above this many runnable tasks per CPU means other work competes with runs. */
const LOAD_WARN_PER_CPU = 0.5;

/**
 * @returns {Promise<CheckResult[]>}
 */
export async function checkHost() {
  return [await checkFrequency(), await checkNoise(), await checkCgroupQuota()];
}

/** @returns {Promise<CheckResult>} */
async function checkFrequency() {
  const base = { id: 'cpufreq', title: 'cpu governor', required: false };
  const host = await collectHostFacts({ hostClass: 'doctor', pinning: { serverCpus: null, clientCpus: null } });
  const gov = host.governor;
  const turbo = host.turbo === null ? 'turbo state unknown' : host.turbo ? 'turbo/boost on' : 'turbo/boost off';
  if (gov === null) {
    return { ...base, status: 'info', detail: `cpufreq not exposed (usual on VMs: the hypervisor sets the frequency); ${turbo}`, fix: null };
  }
  const problems = [];
  if (gov !== 'performance') problems.push(`governor is '${gov}'`);
  if (host.turbo === true) problems.push('turbo/boost is on');
  if (problems.length === 0) return { ...base, status: 'ok', detail: `governor performance; ${turbo}`, fix: null };
  return {
    ...base, status: 'warn', detail: `${problems.join(', ')}: the clock varies with load and temperature, adding noise between runs`,
    fix: 'for benchmark hosts: cpupower frequency-set -g performance; disable turbo (echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo, or echo 0 > /sys/devices/system/cpu/cpufreq/boost)',
  };
}

/** @returns {Promise<CheckResult>} */
async function checkNoise() {
  const base = { id: 'noise', title: 'noise', required: false };
  const info = parseCpuinfo(await readFile('/proc/cpuinfo', 'utf8').catch(() => ''));
  const before = parseProcStatCpu(await readFile('/proc/stat', 'utf8').catch(() => ''));
  await new Promise((r) => setTimeout(r, 1000));
  const after = parseProcStatCpu(await readFile('/proc/stat', 'utf8').catch(() => ''));
  const stealPct = before && after && after.total > before.total ? (100 * (after.steal - before.steal)) / (after.total - before.total) : null;
  const load1 = loadavg()[0];
  const n = cpus().length;
  const facts = [
    info.hypervisor ? 'virtual machine (hypervisor flag)' : 'no hypervisor flag',
    stealPct === null ? 'steal unknown' : `steal ${stealPct.toFixed(1)} % over 1 s`,
    `load ${load1.toFixed(2)} on ${n} CPU${n > 1 ? 's' : ''}`,
  ];
  const noisy = (stealPct !== null && stealPct > STEAL_WARN_PCT) || load1 > LOAD_WARN_PER_CPU * n;
  if (noisy || info.hypervisor) {
    return {
      ...base, status: 'warn', detail: `${facts.join('; ')}: expect noisier results than on dedicated bare metal`,
      fix: noisy
        ? 'stop other work on this host while benchmarking; compare only runs from the same host class; use more repeats'
        : 'fine for development; use bare-metal runners for published numbers',
    };
  }
  return { ...base, status: 'ok', detail: facts.join('; '), fix: null };
}

/**
 * Calibration slows a server by a known amount with a CPU quota. Try it for real: create a
 * scratch cgroup, set a quota, remove the group.
 * @returns {Promise<CheckResult>}
 */
async function checkCgroupQuota() {
  const base = { id: 'cgroup-quota', title: 'cgroup cpu quota', required: false };
  const name = `tagbench-doctor-${process.pid}`;
  const candidates = [
    { root: '/sys/fs/cgroup/cpu', file: 'cpu.cfs_quota_us', value: '50000', kind: 'cgroup v1' },
    { root: '/sys/fs/cgroup', file: 'cpu.max', value: '50000 100000', kind: 'cgroup v2' },
  ];
  /** @type {string[]} */
  const tried = [];
  for (const c of candidates) {
    const isV2 = c.kind === 'cgroup v2';
    if (isV2 && !(await readFile(join(c.root, 'cgroup.controllers'), 'utf8').catch(() => '')).split(/\s+/).includes('cpu')) continue;
    if (!isV2 && !(await access(join(c.root, 'cpu.cfs_quota_us')).then(() => true, () => false))) continue;
    const dir = join(c.root, name);
    try {
      await mkdir(dir);
      try {
        await writeFile(join(dir, c.file), c.value);
      } finally {
        await rmdir(dir).catch(() => {});
      }
      return { ...base, status: 'ok', detail: `${c.kind}: can create a group and set ${c.file} under ${c.root}`, fix: null };
    } catch (err) {
      tried.push(`${c.kind} at ${c.root}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    ...base, status: 'fail',
    detail: `cannot set a CPU quota (${tried.length ? tried.join('; ') : 'no cpu controller mounted'}) — used only by calibration`,
    fix: 'run as root on a host with the cgroup cpu controller mounted (v1 /sys/fs/cgroup/cpu, or v2 with cpu enabled)',
  };
}

/**
 * /proc/stat's aggregate `cpu` line as tick counters.
 * @param {string} text content of /proc/stat
 * @returns {{total: number, steal: number}|null} null without a `cpu ` line
 */
export function parseProcStatCpu(text) {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already
  // counted in user, so it is not added to the total again
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return { total, steal: Number.isFinite(f[7]) ? f[7] : 0 };
}
