/**
 * Facts about the benchmark host for the run record: who ran it, on what CPU, with which
 * frequency policy. Whatever the kernel does not expose (cpufreq on most VMs) is null.
 */
import { readFile } from 'node:fs/promises';
import { hostname, cpus, release, totalmem } from 'node:os';
import { parseCpuinfo } from './parse-cpuinfo.js';

/** @typedef {import('../types.js').RecordHost} RecordHost */

const CPUFREQ = '/sys/devices/system/cpu';

/**
 * @param {{hostClass: string, pinning: RecordHost['pinning']}} options host class name and the
 *   taskset CPU lists the run uses
 * @returns {Promise<RecordHost>}
 * @throws never for missing /proc or /sys files: those facts become null / fallbacks
 */
export async function collectHostFacts({ hostClass, pinning }) {
  const info = parseCpuinfo(await readText('/proc/cpuinfo') ?? '');
  return {
    class: hostClass,
    hostname: hostname(),
    cpuModel: info.model ?? cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    kernel: release(),
    memoryBytes: totalmem(),
    governor: (await readText(`${CPUFREQ}/cpu0/cpufreq/scaling_governor`))?.trim() || null,
    turbo: await readTurbo(),
    pinning: { serverCpus: pinning.serverCpus, clientCpus: pinning.clientCpus },
  };
}

/**
 * Turbo / boost state. intel_pstate says it inverted (`no_turbo`); acpi-cpufreq and amd-pstate
 * expose `boost` globally or per policy.
 * @returns {Promise<boolean|null>} null when no interface tells
 */
export async function readTurbo() {
  const noTurbo = (await readText(`${CPUFREQ}/intel_pstate/no_turbo`))?.trim();
  if (noTurbo === '0' || noTurbo === '1') return noTurbo === '0';
  for (const file of [`${CPUFREQ}/cpufreq/boost`, `${CPUFREQ}/cpufreq/policy0/boost`]) {
    const v = (await readText(file))?.trim();
    if (v === '0' || v === '1') return v === '1';
  }
  return null;
}

/**
 * @param {string} path
 * @returns {Promise<string|null>}
 */
async function readText(path) {
  return readFile(path, 'utf8').catch(() => null);
}
