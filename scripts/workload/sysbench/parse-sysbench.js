/**
 * Parse what sysbench 1.0.x prints for `run` into numbers, or into a failure with a reason.
 * Pure: text in, data out. A run that did not finish (FATAL lines, an unknown option, a Lua
 * error, output cut off before the final summary, zero events) is a failure, never a result
 * of 0 QPS: a failed step must not look like a 100 % regression downstream.
 *
 * Warm-up: 1.0.20 has no --warmup-time, so the runner passes --report-checkpoints=<warm-up s>,
 * which prints a full "Checkpoint report" at that second and resets every counter. The final
 * summary then covers only the measured part; its per-second rates are computed over that part
 * (its "total time" still counts from the start). Interval lines up to the checkpoint are the
 * warm-up: they are dropped, and the remaining ones are renumbered from 1.
 */

/** @typedef {import('../types.js').ParsedSysbench} ParsedSysbench */
/** @typedef {import('../../types.js').Interval} Interval */

const NUM = '([0-9]+(?:\\.[0-9]+)?)';
// `[ 2s ] thds: 1 tps: 8857.18 qps: 8857.18 (r/w/o: 8857.18/0.00/0.00) lat (ms,95%): 0.15 err/s: 0.00 reconn/s: 0.00`
const INTERVAL_RE = new RegExp(
  `^\\[ *${NUM}s \\] thds: ([0-9]+) tps: ${NUM} qps: ${NUM} \\(r/w/o: ${NUM}/${NUM}/${NUM}\\) lat \\(ms,[0-9.]+%\\): ${NUM} err/s: ${NUM} reconn/s: ${NUM}`,
);
const CHECKPOINT_RE = /^\[ *([0-9]+(?:\.[0-9]+)?)s \] Checkpoint report:/;
// Lines with which sysbench or LuaJIT announce that the run cannot go on.
const FAILURE_RES = [/^FATAL: .*/, /^invalid option: .*/, /^PANIC: .*/, /^Unknown command: .*/, /^Can't find test: .*/];

/**
 * @param {string} text sysbench stdout and stderr, as captured
 * @returns {ParsedSysbench} `{ok: true, qps, tps, latencyMs, ...}` for a complete run, or
 *   `{ok: false, reason, intervals}`; intervals are the measured seconds printed
 * @throws never: any input yields a result
 */
export function parseSysbench(text) {
  const lines = text.split(/\r?\n/);
  const version = /^sysbench ([0-9][^\s]*)/m.exec(text)?.[1] ?? null;

  // Every checkpoint header opens one "SQL statistics:" block; the final summary is one more.
  // Counting (not adjacency) because other threads' interval lines can interleave anywhere.
  let checkpointS = 0;
  let checkpoints = 0;
  let blocks = 0;
  let lastBlock = -1;
  lines.forEach((line, i) => {
    const cp = CHECKPOINT_RE.exec(line);
    if (cp) { checkpointS = Number(cp[1]); checkpoints += 1; }
    if (line.startsWith('SQL statistics:')) { blocks += 1; lastBlock = i; }
  });
  const finalStart = blocks > checkpoints ? lastBlock : -1;

  const intervals = parseIntervals(lines, checkpointS);
  const failures = lines.map((l) => l.trim()).filter((l) => FAILURE_RES.some((re) => re.test(l)));
  if (failures.length > 0) {
    return { ok: false, version, reason: summarizeFailures(failures), intervals };
  }
  if (!/^Threads started!/m.test(text)) {
    return { ok: false, version, reason: 'sysbench did not start its threads (no "Threads started!" line): output is truncated or the command was not `run`', intervals };
  }
  if (finalStart < 0) {
    return { ok: false, version, reason: `no final summary after ${intervals.length} measured second(s): the output was cut off (killed or timed out?)`, intervals };
  }
  const summary = lines.slice(finalStart).join('\n');
  const pick = (/** @type {RegExp} */ re) => { const m = re.exec(summary); return m ? Number(m[1]) : null; };
  const fields = {
    read: pick(/^\s+read:\s+([0-9]+)/m),
    write: pick(/^\s+write:\s+([0-9]+)/m),
    other: pick(/^\s+other:\s+([0-9]+)/m),
    total: pick(/^\s+total:\s+([0-9]+)/m),
    transactions: pick(/^\s+transactions:\s+[0-9]+\s+\(([0-9.]+) per sec\.\)/m),
    transactionsTotal: pick(/^\s+transactions:\s+([0-9]+)/m),
    qps: pick(/^\s+queries:\s+[0-9]+\s+\(([0-9.]+) per sec\.\)/m),
    errors: pick(/^\s+ignored errors:\s+([0-9]+)/m),
    reconnects: pick(/^\s+reconnects:\s+([0-9]+)/m),
    totalTimeS: pick(/^\s+total time:\s+([0-9.]+)s/m),
    min: pick(/^\s+min:\s+([0-9.]+)/m),
    avg: pick(/^\s+avg:\s+([0-9.]+)/m),
    max: pick(/^\s+max:\s+([0-9.]+)/m),
    p95: pick(/^\s+95th percentile:\s+([0-9.]+)/m),
  };
  const missing = Object.entries(fields).filter(([, v]) => v === null).map(([k]) => k);
  if (missing.length > 0) {
    return { ok: false, version, reason: `final summary is incomplete (missing: ${missing.join(', ')}): the output was cut off`, intervals };
  }
  const f = /** @type {Record<keyof typeof fields, number>} */ (fields);
  if (f.transactionsTotal === 0 || f.qps === 0) {
    return { ok: false, version, reason: `sysbench completed 0 events in ${f.totalTimeS} s: no valid throughput`, intervals };
  }
  return {
    ok: true,
    version,
    qps: f.qps,
    tps: f.transactions,
    queries: { read: f.read, write: f.write, other: f.other, total: f.total },
    transactions: f.transactionsTotal,
    totalTimeS: f.totalTimeS,
    // The checkpoint resets the counters, not the clock: the measured part is total - checkpoint.
    measuredS: round6(f.totalTimeS - checkpointS),
    latencyMs: { min: f.min, avg: f.avg, p95: f.p95, p99: null, max: f.max },
    errors: f.errors,
    reconnects: f.reconnects,
    intervals,
  };
}

/**
 * @param {string[]} lines
 * @param {number} checkpointS warm-up seconds (0 = none): earlier intervals are dropped
 * @returns {Interval[]}
 */
function parseIntervals(lines, checkpointS) {
  /** @type {Interval[]} */
  const out = [];
  for (const line of lines) {
    const m = INTERVAL_RE.exec(line);
    if (!m) continue;
    const t = Number(m[1]);
    if (t <= checkpointS) continue;
    out.push({ t: round6(t - checkpointS), qps: Number(m[4]), tps: Number(m[3]), latencyMs: Number(m[8]), errors: Number(m[9]) });
  }
  return out;
}

/**
 * The first failure lines, without repeats (each thread may print the same FATAL).
 * @param {string[]} failures
 */
function summarizeFailures(failures) {
  const unique = [...new Set(failures)];
  const shown = unique.slice(0, 4).join(' | ');
  return unique.length > 4 ? `${shown} | (${unique.length - 4} more)` : shown;
}

/** @param {number} x */
function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}
