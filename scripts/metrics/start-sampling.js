/**
 * Samplers around one benchmark step: `vmstat -n N` and `iostat -dxk N` as child processes,
 * mysqld VmRSS from /proc every interval, SHOW GLOBAL STATUS before and after, and on a MyRocks
 * server RocksDB's own figures (write amplification, stalls, LSM tree; compute-rocksdb-figures.js). Sampling never
 * fails the step: whatever could not be sampled is reported in StepSamples.warnings.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { UserError } from '../errors.js';
import { selectDevices } from './select-devices.js';
import { computeStepSamples } from './compute-step-samples.js';
import { computeRocksdbFigures, ROCKSDB_MARKER } from './compute-rocksdb-figures.js';

/** @typedef {import('./types.js').SamplingOptions} SamplingOptions */
/** @typedef {import('./types.js').Sampler} Sampler */
/** @typedef {import('./types.js').StepSamples} StepSamples */
/** @typedef {import('./types.js').QueryFn} QueryFn */
/** @typedef {import('./types.js').RssSecond} RssSecond */

/** Samplers still running, killed if this process exits before stop() (a crash, Ctrl-C). */
const live = new Set();
let exitHookInstalled = false;

/**
 * Start sampling. Call `stop()` on the result right after the step; it resolves to the samples.
 * @param {SamplingOptions} options pid of mysqld, its datadir, a query function, interval in s
 * @returns {Promise<Sampler>}
 * @throws {UserError} when intervalS is not a positive whole number or pid is not a positive integer
 */
export async function startSampling({ pid, datadir, query, intervalS = 1 }) {
  if (!Number.isInteger(intervalS) || intervalS < 1) {
    throw new UserError(`startSampling: intervalS must be a whole number of seconds ≥ 1 (vmstat and iostat take no fractions); got ${intervalS}`);
  }
  if (!Number.isInteger(pid) || pid <= 0) throw new UserError(`startSampling: pid must be the mysqld process id (a positive integer); got ${pid}`);
  /** @type {string[]} */
  const warnings = [];
  const devices = await selectDevices(datadir);
  // Two reads in a row: what one status read adds itself (its temporary table and scan on
  // MariaDB), which the work counters over the step take off (meters/work.js).
  const statusIdle = query ? await readStatus(query, 'before', warnings) : null;
  const statusBefore = query ? await readStatus(query, 'before', warnings) : null;
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const cpuBefore = await readProcessCpu(pid);
  const vmstat = startTool('vmstat', ['-n', String(intervalS)], warnings);
  const iostat = startTool('iostat', ['-dxk', String(intervalS)], warnings);
  /** @type {RssSecond[]} */
  const rss = [];
  const timer = setInterval(() => {
    const t = Math.round((performance.now() - t0) / 1000);
    readRssKb(pid).then((kb) => { if (kb !== null) rss.push({ t, rssKb: kb }); }, () => {});
  }, intervalS * 1000);
  timer.unref();

  /** @type {Promise<StepSamples>|null} */
  let stopping = null;
  return {
    stop() {
      stopping ??= (async () => {
        const durationS = (performance.now() - t0) / 1000;
        // Before the samplers stop: their own exit would count as a child of this process.
        const cpuAfter = await readProcessCpu(pid);
        const processCpu = diffProcessCpu(cpuBefore, cpuAfter, pid, warnings);
        clearInterval(timer);
        const rssKb = await readRssKb(pid);
        if (rssKb === null) warnings.push(`mysqld pid ${pid}: no VmRSS in /proc/${pid}/status (process gone?)`);
        const [vmstatText, iostatText] = await Promise.all([vmstat.stop(), iostat.stop()]);
        const statusAfter = query ? await readStatus(query, 'after', warnings) : null;
        const rocksdb = query && statusBefore && statusAfter && ROCKSDB_MARKER in statusAfter
          ? await readRocksdbFigures(query, statusBefore, statusAfter, warnings)
          : undefined;
        const samples = computeStepSamples({
          startedAt, durationS, intervalS, cores: cpus().length, vmstatText, iostatText, devices,
          rss, rssKb, statusIdle, statusBefore, statusAfter, warnings,
        });
        samples.processCpu = processCpu;
        return rocksdb === undefined ? samples : { ...samples, rocksdb };
      })();
      return stopping;
    },
  };
}

/**
 * Spawn a sampler tool under LC_ALL=C (decimal points, English headers) and collect its stdout.
 * @param {string} cmd
 * @param {string[]} args
 * @param {string[]} warnings
 * @returns {{stop: () => Promise<string>}}
 */
function startTool(cmd, args, warnings) {
  let out = '';
  let err = '';
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
  installExitHook();
  live.add(child);
  // A sampler that is never stopped (the step threw before stop()) must not keep tagbench
  // alive forever: let the process exit without waiting for it; the exit hook kills it then.
  // stop() keeps the loop alive with its own kill timer while it waits for the close.
  child.unref();
  for (const s of [child.stdout, child.stderr]) /** @type {any} */ (s).unref?.();
  child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
  /** @type {Promise<void>} */
  const closed = new Promise((resolve) => {
    child.on('error', (e) => {
      warnings.push(`${cmd} could not run (${e.message}); install it (Debian: ${cmd === 'vmstat' ? 'procps' : 'sysstat'}; see setup/metrics.sh)`);
      live.delete(child);
      resolve();
    });
    child.on('close', () => { live.delete(child); resolve(); });
  });
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
      await closed;
      clearTimeout(kill);
      if (err.trim() !== '') warnings.push(`${cmd} stderr: ${err.trim().slice(0, 500)}`);
      return out;
    },
  };
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => { for (const c of live) c.kill('SIGKILL'); });
}

/**
 * Linux reports /proc/<pid>/stat times in USER_HZ clock ticks, 100 per second on every
 * architecture (the kernel converts to it for user space whatever its internal HZ).
 */
const TICKS_PER_S = 100;

/**
 * CPU time so far of the server and of this process with its reaped children.
 *
 * Why not vmstat's us+sy: those are the whole machine's. Anything else running (another
 * release's idle server flushing, a build, a test suite, a restarted server's neighbour) is
 * counted into the step's CPU per operation, and changes of that background between server
 * instances looked like the server's own cost (instance 1 at half the CPU µs/op of instances
 * 2 and 3 in the demo's records). /proc/<pid>/stat counts exactly the processes doing the step.
 * What it leaves out: kernel time no process is charged with (softirq, kernel threads); its
 * share was not measured on a quiet host.
 * @param {number} pid server process
 * @returns {Promise<{server: number, self: number, t: number}|null>} ticks; null when the server's stat is unreadable
 */
async function readProcessCpu(pid) {
  const [server, self] = await Promise.all([readStat(`/proc/${pid}/stat`), readStat('/proc/self/stat')]);
  if (!server || !self) return null;
  // Fields after the command name: utime 14, stime 15, cutime 16, cstime 17 (proc(5), 1-based).
  // cutime/cstime: children that ended and were waited for (sysbench exits before stop()).
  return { server: server[11] + server[12], self: self[11] + self[12] + self[13] + self[14], t: performance.now() };
}

/**
 * @param {string} path
 * @returns {Promise<number[]|null>} the numeric fields after `(comm)`, 0-based from `state`
 */
async function readStat(path) {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  // comm may hold spaces and parentheses: the fields start after the LAST ')'.
  return text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/).map(Number);
}

/**
 * @param {{server: number, self: number, t: number}|null} before
 * @param {{server: number, self: number, t: number}|null} after
 * @param {number} pid
 * @param {string[]} warnings
 * @returns {import('./types.js').ProcessCpu|null}
 */
function diffProcessCpu(before, after, pid, warnings) {
  if (!before || !after) {
    warnings.push(`CPU time of server pid ${pid} could not be read from /proc/${pid}/stat at the ${before ? 'end' : 'start'} of the step (process gone?): no CPU per operation`);
    return null;
  }
  return {
    serverS: (after.server - before.server) / TICKS_PER_S,
    clientS: (after.self - before.self) / TICKS_PER_S,
    wallS: (after.t - before.t) / 1000,
  };
}

/**
 * @param {number} pid
 * @returns {Promise<number|null>} VmRSS in KiB, null when the process or the line is missing
 */
async function readRssKb(pid) {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * RocksDB's figures of the step on a MyRocks server: the status counters already read, plus
 * the LSM tree and the SST files at the end. Read after the step, so they cost the step nothing.
 * @param {QueryFn} query
 * @param {Record<string, string>} statusBefore
 * @param {Record<string, string>} statusAfter
 * @param {string[]} warnings
 * @returns {Promise<import('../types.js').RocksdbFigures|null>} null (with a warning) when they could not be read
 */
async function readRocksdbFigures(query, statusBefore, statusAfter, warnings) {
  try {
    const engineStatusAfter = await query('SHOW ENGINE ROCKSDB STATUS');
    const sstPropsAfter = await query('SELECT * FROM information_schema.ROCKSDB_SST_PROPS');
    return computeRocksdbFigures({ statusBefore, statusAfter, engineStatusAfter, sstPropsAfter });
  } catch (err) {
    warnings.push(`RocksDB figures after the step could not be read: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

/**
 * @param {QueryFn} query
 * @param {string} when
 * @param {string[]} warnings
 * @returns {Promise<Record<string, string>|null>}
 */
async function readStatus(query, when, warnings) {
  try {
    const rows = await query('SHOW GLOBAL STATUS');
    /** @type {Record<string, string>} */
    const out = {};
    for (const row of rows) {
      const [name, value] = Array.isArray(row) ? row : [row.Variable_name ?? row.VARIABLE_NAME, row.Value ?? row.VARIABLE_VALUE];
      if (typeof name === 'string') out[name] = value === null || value === undefined ? '' : String(value);
    }
    if (Object.keys(out).length === 0) {
      warnings.push(`SHOW GLOBAL STATUS ${when} the step gave no Variable_name/Value rows (query() must resolve to the rows)`);
      return null;
    }
    return out;
  } catch (err) {
    warnings.push(`SHOW GLOBAL STATUS ${when} the step failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
