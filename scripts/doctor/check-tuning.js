/**
 * Doctor checks of the host tuning a benchmark runner needs (docs/runner-setup.md, setup/runner.sh):
 * CPU frequency governor, turbo, SMT, transparent huge pages, swap and irqbalance. Which of them
 * are required depends on the host class (tuningPolicy): on bare-metal classes (those with runner
 * labels) governor, turbo and SMT are required, the rest advisory; on a class without labels
 * (`local`: a laptop or CI VM) every one is advisory. Everything is read from files under a root
 * folder (`/` on a host; a prepared folder in tests), never written.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** @typedef {import('./commands.js').CheckResult} CheckResult */

/** Check ids of this module, in report order. */
export const TUNING_CHECK_IDS = /** @type {const} */ (['governor', 'turbo', 'smt', 'thp', 'swap', 'irqbalance']);

/**
 * @typedef {object} TuningPolicy what a host class expects of its hosts
 * @property {'on'|'off'|'any'} smt
 * @property {boolean} bareMetal a class with runner labels: runs published benchmarks
 * @property {ReadonlyArray<typeof TUNING_CHECK_IDS[number]>} required checks that must be ok under --strict
 *   (doctor --strict), failed or unreadable
 */

/**
 * The tuning a host class expects. SMT comes from the class's `tuning.smt` when its config has
 * one (on, off or any), else off, as on the seed posts' servers ("turbo and SMT disabled").
 * @param {{name: string, labels: readonly string[], tuning?: {smt?: 'on'|'off'|'any'}}} hostClass
 * @returns {TuningPolicy}
 */
export function tuningPolicy(hostClass) {
  const bareMetal = hostClass.labels.length > 0;
  const smt = hostClass.tuning?.smt ?? 'off';
  return {
    smt,
    bareMetal,
    required: bareMetal ? ['governor', 'turbo', ...(smt === 'any' ? [] : /** @type {const} */ (['smt']))] : [],
  };
}

/**
 * @param {string} root
 * @param {string} path absolute path on the host
 * @returns {Promise<string|null>} trimmed content, null when unreadable
 */
async function readAt(root, path) {
  return readFile(join(root, path), 'utf8').then((t) => t.trim(), () => null);
}

/**
 * Run the tuning checks.
 * @param {{root: string, strict: boolean, hostClass: {name: string, labels: readonly string[], tuning?: {smt?: 'on'|'off'|'any'}}}} env
 *   root: where /sys and /proc are (`/` on a host); strict: the class's required checks are
 *   required (a failed one makes doctor exit 1), and one that cannot be read counts as failed
 * @returns {Promise<CheckResult[]>} status fail = not as the runner setup leaves it, unknown =
 *   cannot be read here
 */
export async function checkTuning({ root, strict, hostClass }) {
  const policy = tuningPolicy(hostClass);
  const results = [
    await checkGovernor(root), await checkTurbo(root), await checkSmt(root, policy.smt),
    await checkThp(root), await checkSwap(root), await checkIrqbalance(root),
  ];
  return results.map((r) => {
    const byClass = policy.required.includes(/** @type {any} */ (r.id));
    const required = strict && byClass;
    const role = byClass ? `required by --strict on bare-metal class ${hostClass.name}`
      : policy.bareMetal ? `advisory on ${hostClass.name}` : `advisory on ${hostClass.name}: no runner labels, not a bare-metal runner`;
    if (required && r.status === 'unknown') {
      return { ...r, required, status: /** @type {const} */ ('fail'), detail: `${r.detail} [${role}: a setting that cannot be verified blocks]` };
    }
    return { ...r, required, detail: `${r.detail} [${role}]` };
  });
}

const SETUP = 'setup/runner.sh --tune (docs/runner-setup.md)';

/**
 * @param {string} root
 * @returns {Promise<CheckResult>}
 */
async function checkGovernor(root) {
  const base = { id: 'governor', title: 'cpu governor', required: false };
  const cpuDir = '/sys/devices/system/cpu';
  const cpus = (await readdir(join(root, cpuDir)).catch(() => /** @type {string[]} */ ([]))).filter((n) => /^cpu\d+$/.test(n));
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const cpu of cpus) {
    const gov = await readAt(root, `${cpuDir}/${cpu}/cpufreq/scaling_governor`);
    if (gov !== null) seen.set(gov, (seen.get(gov) ?? 0) + 1);
  }
  if (seen.size === 0) {
    return { ...base, status: 'unknown', detail: 'cpufreq not exposed (usual on VMs: the hypervisor sets the frequency), the governor cannot be verified', fix: 'run benchmarks for published numbers on bare metal with cpufreq (intel_pstate or acpi-cpufreq)' };
  }
  const summary = [...seen].map(([g, n]) => `${g} on ${n} CPU${n > 1 ? 's' : ''}`).join(', ');
  if (seen.size === 1 && seen.has('performance')) return { ...base, status: 'ok', detail: `performance on all ${seen.get('performance')} CPUs`, fix: null };
  return { ...base, status: 'fail', detail: `${summary}: the clock follows the load, adding noise between runs`, fix: `cpupower frequency-set -g performance, or ${SETUP}` };
}

/**
 * @param {string} root
 * @returns {Promise<CheckResult>}
 */
async function checkTurbo(root) {
  const base = { id: 'turbo', title: 'turbo boost', required: false };
  const noTurbo = await readAt(root, '/sys/devices/system/cpu/intel_pstate/no_turbo');
  const boost = await readAt(root, '/sys/devices/system/cpu/cpufreq/boost');
  if (noTurbo === null && boost === null) {
    return { ...base, status: 'unknown', detail: 'neither intel_pstate/no_turbo nor cpufreq/boost exists: turbo cannot be verified', fix: 'disable turbo in the BIOS, or use a kernel that exposes intel_pstate/no_turbo or cpufreq/boost' };
  }
  const on = noTurbo !== null ? noTurbo === '0' : boost === '1';
  const file = noTurbo !== null ? `intel_pstate/no_turbo=${noTurbo}` : `cpufreq/boost=${boost}`;
  if (!on) return { ...base, status: 'ok', detail: `off (${file})`, fix: null };
  return { ...base, status: 'fail', detail: `on (${file}): the clock depends on temperature and the other cores' load`, fix: `echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (or echo 0 > /sys/devices/system/cpu/cpufreq/boost), or ${SETUP}` };
}

/**
 * @param {string} root
 * @param {'on'|'off'|'any'} expected
 * @returns {Promise<CheckResult>}
 */
async function checkSmt(root, expected) {
  const base = { id: 'smt', title: 'SMT (hyperthreads)', required: false };
  const control = await readAt(root, '/sys/devices/system/cpu/smt/control');
  const active = await readAt(root, '/sys/devices/system/cpu/smt/active');
  if (control === null && active === null) {
    return { ...base, status: 'unknown', detail: `/sys/devices/system/cpu/smt not exposed: SMT cannot be verified (host class wants ${expected})`, fix: 'set SMT in the BIOS as the host class says' };
  }
  const isOn = active !== null ? active === '1' : control === 'on';
  const state = `${isOn ? 'on' : 'off'} (control=${control ?? '?'}, active=${active ?? '?'})`;
  if (expected === 'any' || (expected === 'on') === isOn) return { ...base, status: 'ok', detail: `${state}; host class wants ${expected}`, fix: null };
  if (control === 'notsupported' || control === 'notimplemented') {
    return { ...base, status: 'fail', detail: `${state}; host class wants ${expected}, and this CPU or kernel cannot switch it`, fix: 'change the host class tuning.smt, or use another host' };
  }
  return {
    ...base, status: 'fail', detail: `${state}; host class wants ${expected}: sibling threads share a core's caches and units, which changes throughput per client`,
    fix: `echo ${expected} > /sys/devices/system/cpu/smt/control (or nosmt on the kernel command line), or ${SETUP}`,
  };
}

/**
 * @param {string} root
 * @returns {Promise<CheckResult>}
 */
async function checkThp(root) {
  const base = { id: 'thp', title: 'transparent huge pages', required: false };
  const text = await readAt(root, '/sys/kernel/mm/transparent_hugepage/enabled');
  const mode = text === null ? null : /\[(\w+)\]/.exec(text)?.[1] ?? null;
  if (mode === null) return { ...base, status: 'unknown', detail: 'transparent_hugepage/enabled not readable', fix: null };
  if (mode === 'never' || mode === 'madvise') return { ...base, status: 'ok', detail: `${mode}: no background compaction for the server's heap`, fix: null };
  return { ...base, status: 'fail', detail: `${mode}: khugepaged compacts memory behind the server's back, a source of latency spikes and drift`, fix: `echo madvise > /sys/kernel/mm/transparent_hugepage/enabled, or ${SETUP}` };
}

/**
 * @param {string} root
 * @returns {Promise<CheckResult>}
 */
async function checkSwap(root) {
  const base = { id: 'swap', title: 'swap', required: false };
  const swaps = await readAt(root, '/proc/swaps');
  const swappiness = await readAt(root, '/proc/sys/vm/swappiness');
  if (swaps === null) return { ...base, status: 'unknown', detail: '/proc/swaps not readable', fix: null };
  const devices = swaps.split('\n').slice(1).filter((l) => l.trim()).map((l) => l.split(/\s+/)[0]);
  if (devices.length === 0) return { ...base, status: 'ok', detail: 'no swap active', fix: null };
  if (swappiness !== null && Number(swappiness) <= 1) return { ...base, status: 'ok', detail: `${devices.length} swap device(s), vm.swappiness=${swappiness}`, fix: null };
  return { ...base, status: 'fail', detail: `swap on ${devices.join(', ')} with vm.swappiness=${swappiness ?? '?'}: a buffer pool paged out measures the disk, not the release`, fix: `swapoff -a, or sysctl vm.swappiness=1; ${SETUP}` };
}

/**
 * @param {string} root
 * @returns {Promise<CheckResult>}
 */
async function checkIrqbalance(root) {
  const base = { id: 'irqbalance', title: 'irqbalance', required: false };
  const entries = await readdir(join(root, 'proc')).catch(() => null);
  if (entries === null) return { ...base, status: 'unknown', detail: '/proc not readable', fix: null };
  for (const pid of entries.filter((n) => /^\d+$/.test(n))) {
    if ((await readAt(root, `/proc/${pid}/comm`)) === 'irqbalance') {
      return { ...base, status: 'fail', detail: `running (pid ${pid}): it moves interrupts between CPUs during a run, including onto pinned ones`, fix: `systemctl disable --now irqbalance, or ${SETUP}` };
    }
  }
  return { ...base, status: 'ok', detail: 'not running', fix: null };
}
