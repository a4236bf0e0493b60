/**
 * Doctor check for the counters meter (scripts/metrics/meters/counters.js): is perf installed,
 * does this host have a PMU perf can count hardware events on, and does perf_event_paranoid let
 * the runner attach `perf stat -p` to the server.
 *
 * perf_event_paranoid, as Documentation/admin-guide/sysctl/kernel.rst describes it, limits only
 * processes without CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8), so root is never limited:
 *   -1  every event for every user
 *   ≥0  no raw or ftrace function tracepoints
 *   ≥1  no CPU-wide events (`perf stat -a`, `-C`)
 *   ≥2  no kernel profiling: a process's counts cover user space only (perf then appends `:u`)
 *   ≥3  (Debian's and Ubuntu's kernel patch, Debian's default) no perf events at all
 * Attaching to another process also passes the kernel's ptrace read check
 * (PTRACE_MODE_READ_REALCREDS): same uid and gid (real, effective, saved) and a dumpable
 * process, or CAP_PERFMON (Linux 5.9 and later; CAP_SYS_PTRACE before).
 */
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePerfStat } from '../metrics/index.js';

/** @typedef {import('./commands.js').CheckResult} CheckResult */

/**
 * @typedef {object} CountersReport
 * @property {boolean} ok the counters meter gets hardware counts here: perf runs, the PMU counts
 *   instructions, and this user may attach to the server (root, or perf_event_paranoid ≤ 2)
 * @property {string|null} perfVersion `6.1.187`; null when perf is not installed or does not run
 * @property {'available'|'not available'|'unknown'} pmu whether `perf stat -e instructions`
 *   counts (available), prints `<not supported>` (not available), or fails (unknown)
 * @property {number|null} paranoid /proc/sys/kernel/perf_event_paranoid, null when unreadable
 * @property {string} advice what this means for the counters meter and what to change, in words
 */

/** Attaching to a same-user process needs at most this (and user space only at this value). */
const ATTACH_MAX = 2;
/** Counting the server's kernel-side work (syscalls, network, I/O paths) needs at most this. */
const KERNEL_MAX = 1;

/**
 * Check perf, the PMU and perf_event_paranoid.
 * @param {{perf?: string, root?: string, isRoot?: boolean}} [options] perf: the program (default
 *   `perf` on PATH); root: where /proc and /sys are (default `/`); isRoot: default from getuid()
 * @returns {Promise<CountersReport>}
 * @throws never for what it finds (that is the report); only on a bug
 */
export async function checkCounters(options = {}) {
  const perf = options.perf ?? 'perf';
  const root = options.root ?? '/';
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  const paranoidText = await readFile(join(root, 'proc/sys/kernel/perf_event_paranoid'), 'utf8').catch(() => null);
  const paranoid = paranoidText !== null && /^-?\d+$/.test(paranoidText.trim()) ? Number(paranoidText.trim()) : null;
  const sources = (await readdir(join(root, 'sys/bus/event_source/devices')).catch(() => /** @type {string[]} */ ([]))).sort();

  const version = await probe(perf, ['--version']);
  const perfVersion = version.ran ? /perf version (\S+)/.exec(version.output)?.[1] ?? null : null;
  /** @type {CountersReport['pmu']} */
  let pmu = 'unknown';
  let probeNote = '';
  if (perfVersion !== null) {
    // `true` runs for a millisecond, enough for instructions to count where a PMU exists.
    const stat = await probe(perf, ['stat', '-x', ',', '-e', 'instructions', '--', 'true']);
    const line = stat.ran ? readInstructions(stat.output) : null;
    if (line?.value != null) pmu = 'available';
    else if (line?.notSupported) pmu = 'not available';
    else probeNote = stat.output.split('\n').filter((l) => l.trim() !== '').slice(0, 3).join(' / ').slice(0, 300);
  }
  const ok = perfVersion !== null && pmu === 'available' && (isRoot || (paranoid !== null && paranoid <= ATTACH_MAX));
  return { ok, perfVersion, pmu, paranoid, advice: renderCountersAdvice({ perfVersion, pmu, paranoid, isRoot, sources, probeNote }) };
}

/**
 * The advice text of a report (pure).
 * @param {{perfVersion: string|null, pmu: CountersReport['pmu'], paranoid: number|null, isRoot: boolean,
 *   sources: string[], probeNote?: string}} facts sources: the names in /sys/bus/event_source/devices;
 *   probeNote: perf's message when the probe failed
 * @returns {string}
 */
export function renderCountersAdvice({ perfVersion, pmu, paranoid, isRoot, sources, probeNote = '' }) {
  const parts = [];
  if (perfVersion === null) {
    parts.push('perf is not installed (or does not run): the counters meter attaches `perf stat -p` to the server; on Debian: apt-get install linux-perf.');
  } else if (pmu === 'available') {
    parts.push(`perf ${perfVersion} counts hardware events here (instructions counted).`);
  } else if (pmu === 'not available') {
    parts.push(
      `perf ${perfVersion} runs, but \`perf stat -e instructions\` is <not supported>: no hardware PMU perf can use (usual in a VM whose hypervisor exposes no virtual PMU; `
      + `the kernel lists these event sources: ${sources.length > 0 ? sources.join(', ') : 'none readable'}). `
      + 'The counters meter still runs; its instruction, cycle, branch-miss and cache-miss figures are null and say why. Measure those on bare metal or a VM with a virtual PMU.',
    );
  } else {
    parts.push(`perf ${perfVersion} could not count instructions${probeNote ? ` (${probeNote})` : ''}: whether this host has a PMU is unknown.`);
  }
  const now = paranoid === null ? 'unreadable here' : `now ${paranoid}`;
  if (isRoot) {
    parts.push(`Running as root: perf_event_paranoid (${now}) does not limit root: user and kernel space are both counted.`);
  } else {
    const verdict = paranoid === null ? ''
      : paranoid > ATTACH_MAX ? ` At ${paranoid} this user cannot attach at all${paranoid >= 3 ? ' (3 is the Debian/Ubuntu kernel patch\'s level: no perf events for unprivileged users)' : ''}.`
        : paranoid > KERNEL_MAX ? ' This user can attach, user space only.'
          : ' This user can attach and count kernel space too.';
    parts.push(
      `Not root: attaching \`perf stat -p\` to the server needs perf_event_paranoid ≤ ${ATTACH_MAX} (${now}) and ptrace read access to it `
      + '(same uid and gid, and a server that did not switch users; or CAP_PERFMON). '
      + `At ${ATTACH_MAX} only user space is counted (perf prints the events as instructions:u); the server's kernel-side work (syscalls, network, I/O) is counted only at ≤ ${KERNEL_MAX}: sysctl -w kernel.perf_event_paranoid=${KERNEL_MAX}. `
      + `0 only adds CPU-wide counting and -1 raw tracepoints (and no mlock limit), which the counters meter does not use.${verdict}`,
    );
  }
  return parts.join(' ');
}

/**
 * A doctor line from the report (pure): not required (only the counters meter needs perf).
 * @param {CountersReport} report
 * @returns {CheckResult}
 */
export function countersCheckResult(report) {
  const base = { id: 'perf-counters', title: 'perf counters', required: false };
  const paranoid = report.paranoid === null ? 'perf_event_paranoid unreadable' : `perf_event_paranoid ${report.paranoid}`;
  const detail = `${report.perfVersion === null ? 'perf not installed' : `perf ${report.perfVersion}`}, PMU ${report.pmu}, ${paranoid}`;
  if (report.ok) return { ...base, status: 'ok', detail, fix: null };
  if (report.perfVersion === null) return { ...base, status: 'fail', detail, fix: report.advice };
  // No PMU is a fact of the host (as cpufreq on a VM), not something to fix on it.
  const status = report.pmu === 'not available' ? 'info' : report.pmu === 'unknown' ? 'unknown' : 'warn';
  return { ...base, status, detail, fix: report.advice };
}

/**
 * @param {string} output perf stat's CSV summary with the probe's other messages
 * @returns {ReturnType<typeof parsePerfStat>['events'][number]|null}
 */
function readInstructions(output) {
  // perf's usage text or errors share the stream with the summary: read only the event's line.
  const line = output.split('\n').find((l) => /^[^,]*,[^,]*,instructions(:u)?,/.test(l));
  if (!line) return null;
  try {
    return parsePerfStat(line, { format: 'csv' }).events[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * Run `file args...` under LC_ALL=C; never rejects.
 * @param {string} file
 * @param {string[]} args
 * @returns {Promise<{ran: boolean, output: string}>} ran = the program started and exited 0;
 *   output = stdout + stderr (perf stat writes its summary to stderr)
 */
function probe(file, args) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 15_000, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      resolve({ ran: !err, output: `${stdout}${stderr}`.trim() || (err ? err.message : '') });
    });
  });
}
