/**
 * Run one sysbench process: optional CPU pinning, a hard timeout, abort, and the combined
 * output kept whole. Only this file spawns sysbench (the sysbench plug-in); LinkBench runs its
 * java driver through it too.
 */
import { spawn } from 'node:child_process';

/**
 * @typedef {object} SpawnResult
 * @property {number|null} exitCode null when killed by a signal
 * @property {NodeJS.Signals|null} signal
 * @property {boolean} timedOut we killed it after timeoutS
 * @property {boolean} aborted we killed it because opts.signal fired
 * @property {string|null} spawnError why the process could not start (ENOENT...), else null
 * @property {string} output stdout and stderr interleaved in arrival order
 * @property {number} elapsedS wall-clock seconds
 * @property {string[]} argv what was executed (with taskset when pinned)
 */

/**
 * @param {string[]} argv argv[0] = sysbench executable
 * @param {object} opts
 * @param {string|null} [opts.clientCpus] `taskset -c` CPU list; null/undefined = not pinned
 * @param {number} opts.timeoutS kill (SIGKILL, whole process group) after this many seconds
 * @param {AbortSignal} [opts.signal]
 * @param {(line: string) => void} [opts.onLine] each complete output line, as it arrives
 * @returns {Promise<SpawnResult>} never rejects
 */
export function spawnSysbench(argv, opts) {
  const full = opts.clientCpus ? ['taskset', '-c', opts.clientCpus, ...argv] : [...argv];
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  return new Promise((resolve) => {
    /** @type {string[]} */
    const chunks = [];
    let pending = '';
    let timedOut = false;
    let aborted = false;
    /** @type {string|null} */
    let spawnError = null;
    // Own process group, so a kill reaches sysbench even when taskset is the parent we see.
    const child = spawn(full[0], full.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, LC_ALL: 'C' },
    });
    const killGroup = () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
    };
    const onData = (/** @type {Buffer} */ b) => {
      const s = b.toString('utf8');
      chunks.push(s);
      if (!opts.onLine) return;
      pending += s;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const p of parts) opts.onLine(p);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => { timedOut = true; killGroup(); }, Math.max(1, opts.timeoutS) * 1000);
    const onAbort = () => { aborted = true; killGroup(); };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (err) => { spawnError = err.message; });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.onLine && pending) opts.onLine(pending);
      resolve({
        exitCode: code, signal: sig, timedOut, aborted, spawnError,
        output: chunks.join(''), elapsedS: Math.round(elapsed() * 1000) / 1000, argv: full,
      });
    });
  });
}
