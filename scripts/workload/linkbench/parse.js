/**
 * Parsers of what the LinkBench fork (9ef9cc8) prints: its console log (both latency formats:
 * the bucketed one, `p50 = [1,2]ms ... max = 2064.476ms mean = 2.427ms`, and the HDR-histogram
 * one, `p50 = 306573us ... max = 1221215us mean = 308112.241us`) and its -csvstats file (both
 * headers). Pure: text in, numbers out. Latencies come out in milliseconds whatever the format;
 * a bucketed percentile keeps its bucket as [low, high] and `ms` is the bucket's upper bound
 * (the conservative reading).
 */

/**
 * Operations whose "latency" statistic is really a count (range sizes, rows per bulk insert).
 * The fork tracks them in the same histograms; they are kept apart here.
 */
const COUNT_STATISTICS = new Set(['RANGE_SIZE', 'LOAD_LINKS_BULK_NLINKS', 'LOAD_COUNTS_BULK_NLINKS']);
const PERCENTILES = /** @type {const} */ ([25, 50, 75, 95, 99]);

/**
 * @typedef {object} Percentile
 * @property {number} ms the value in ms (HDR), or the bucket's upper bound (bucketed)
 * @property {[number, number]|null} bucketMs the bucket [low, high] in ms; null for HDR
 */

/**
 * @typedef {object} OperationStats one `<OP> count = ...` line
 * @property {string} op e.g. GET_LINKS_LIST, ADD_LINK, LOAD_LINKS_BULK
 * @property {'latency'|'count'} kind `count` for RANGE_SIZE and the *_NLINKS statistics
 * @property {'bucketed'|'hdr'} format
 * @property {number} count samples
 * @property {Record<'p25'|'p50'|'p75'|'p95'|'p99', Percentile>} percentiles
 * @property {number} maxMs
 * @property {number} meanMs
 * @property {number|null} threads
 */

/**
 * @typedef {object} LoadSummary the LOAD PHASE COMPLETED line
 * @property {number} nodes
 * @property {number} expectedNodes
 * @property {number} links
 * @property {number|null} counts null in the fork's neverChange form, which does not print them
 * @property {number} seconds
 * @property {number} linksPerS the headline load rate (the seed posts' "load ips")
 * @property {number|null} linksAndCountsPerS
 * @property {number|null} rowsPerS links + counts + nodes per second
 */

/**
 * @typedef {object} RequestSummary the REQUEST PHASE COMPLETED line
 * @property {number} requests
 * @property {number} seconds whole seconds as the fork prints them
 * @property {number} requestsPerS the headline request rate (the seed posts' "qps")
 */

/**
 * @typedef {object} ProgressPoint one request-progress line: cumulative, since the phase began
 * @property {number} done requests finished so far (all threads)
 * @property {number} elapsedS
 * @property {number} opsPerS average rate since the start (as printed)
 */

/**
 * @typedef {object} LinkbenchParsed
 * @property {LoadSummary|null} load
 * @property {RequestSummary|null} request
 * @property {OperationStats[]} operations in printed order
 * @property {'bucketed'|'hdr'|null} latencyFormat
 * @property {ProgressPoint[]} progress request phase only
 * @property {{load: number|null, request: number|null}} seeds the seeds the driver says it used
 * @property {string[]} errors ERROR lines and Java exceptions, in order
 */

/**
 * @typedef {object} CsvOperation one row of the -csvstats file, in ms
 * @property {string} op
 * @property {'latency'|'count'} kind
 * @property {number} count
 * @property {Record<string, number>} percentilesMs p25..p99 (the bucket's upper bound for the bucketed format)
 * @property {number} maxMs
 * @property {number} meanMs
 * @property {number|null} threads
 */

const NUM = '(-?\\d+(?:\\.\\d+)?(?:E-?\\d+)?)';
// The fork's log prefix: `INFO 2021-02-03 10:00:00.123 [Thread-1]: message`.
const LOG_LINE = /^(TRACE|DEBUG|INFO|WARN|ERROR|FATAL) \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[^\]]*\]: (.*)$/;
const LOAD_NEVER_CHANGE = new RegExp(`LOAD PHASE COMPLETED\\.\\s+Loaded (\\d+) nodes \\(Expected (\\d+)\\)\\.\\s+Loaded (\\d+) links \\(${NUM} links per node\\)\\.\\s+Took ${NUM} seconds\\.\\s+Links/second = (\\d+)`);
const LOAD_FULL = new RegExp(`LOAD PHASE COMPLETED\\.\\s+Loaded (\\d+) nodes \\(Expected (\\d+)\\),\\s+(\\d+) links \\(${NUM} /node\\),\\s+(\\d+) counts \\(${NUM} /node\\)\\.\\s+${NUM} seconds, (\\d+) Links/s, (\\d+) \\(link\\+count\\)/s, (\\d+) \\(link\\+count\\+node\\)/s`);
const REQUEST = /REQUEST PHASE COMPLETED\.\s+(\d+) requests done in (\d+) seconds\.\s+Requests\/second = (\d+)/;
const PROGRESS = new RegExp(`^(\\d+)/(\\d+) requests finished: ${NUM}% complete at ${NUM} ops/sec ${NUM}/(\\d+) secs elapsed`);
const OP_LINE = /^([A-Z][A-Z_]*) count = (\d+)\s+(.*)$/;
// The driver's two seed lines (LinkBenchDriver.createMasterRNG): a configured seed, or one it
// picked itself (nanoTime XOR the key's hash) because the properties gave none.
const SEED = /^Using (?:configured random seed (load|request)_random_seed=(-?\d+)|random seed (-?\d+) since (load|request)_random_seed not specified)/;
const EXCEPTION = /^(Exception in thread|Caused by: |\S+(?:Exception|Error): )/;

/**
 * @param {string} text value with its unit, `[0.7,0.8]ms`, `306573us`, `2064.476ms`, `1221215.000us`
 * @returns {{ms: number, bucketMs: [number, number]|null, format: 'bucketed'|'hdr'}|null}
 */
function readValue(text) {
  const bucket = /^\[([\d.E-]+),([\d.E-]+)\]ms$/.exec(text);
  if (bucket) {
    const low = Number(bucket[1]);
    const high = Number(bucket[2]);
    return { ms: high, bucketMs: [low, high], format: 'bucketed' };
  }
  const plain = /^([\d.E-]+)(ms|us)$/.exec(text);
  if (!plain) return null;
  const value = Number(plain[1]);
  return plain[2] === 'us' ? { ms: value / 1000, bucketMs: null, format: 'hdr' } : { ms: value, bucketMs: null, format: 'bucketed' };
}

/**
 * @param {string} op
 * @param {number} count
 * @param {string} rest everything after `count = N`
 * @returns {OperationStats|null} null when the line is not a complete statistics line
 */
function parseOperation(op, count, rest) {
  /** @type {Record<string, string>} */
  const fields = {};
  for (const m of rest.matchAll(/(p\d+|max|mean|threads) = (\S+)/g)) fields[m[1]] = m[2];
  /** @type {Partial<Record<'p25'|'p50'|'p75'|'p95'|'p99', Percentile>>} */
  const percentiles = {};
  let format = /** @type {'bucketed'|'hdr'|null} */ (null);
  for (const p of PERCENTILES) {
    const v = fields[`p${p}`] === undefined ? null : readValue(fields[`p${p}`]);
    if (!v) return null;
    percentiles[`p${p}`] = { ms: v.ms, bucketMs: v.bucketMs };
    format = v.bucketMs ? 'bucketed' : 'hdr';
  }
  const max = fields.max === undefined ? null : readValue(fields.max);
  const mean = fields.mean === undefined ? null : readValue(fields.mean);
  if (!max || !mean || !format) return null;
  return {
    op, kind: COUNT_STATISTICS.has(op) ? 'count' : 'latency', format, count,
    percentiles: /** @type {OperationStats['percentiles']} */ (percentiles),
    maxMs: max.ms, meanMs: mean.ms, threads: fields.threads === undefined ? null : Number(fields.threads),
  };
}

/**
 * Parse the driver's console output (one phase, or a load and a request phase together).
 * @param {string} text
 * @returns {LinkbenchParsed}
 */
export function parseLinkbenchOutput(text) {
  /** @type {LinkbenchParsed} */
  const out = { load: null, request: null, operations: [], latencyFormat: null, progress: [], seeds: { load: null, request: null }, errors: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const logged = LOG_LINE.exec(line);
    const level = logged ? logged[1] : null;
    const message = logged ? logged[2] : line;
    if (level === 'ERROR' || level === 'FATAL' || (!logged && EXCEPTION.test(line))) { out.errors.push(message.trim()); continue; }
    let m;
    if ((m = LOAD_FULL.exec(message))) {
      out.load = {
        nodes: Number(m[1]), expectedNodes: Number(m[2]), links: Number(m[3]), counts: Number(m[5]), seconds: Number(m[7]),
        linksPerS: Number(m[8]), linksAndCountsPerS: Number(m[9]), rowsPerS: Number(m[10]),
      };
    } else if ((m = LOAD_NEVER_CHANGE.exec(message))) {
      out.load = {
        nodes: Number(m[1]), expectedNodes: Number(m[2]), links: Number(m[3]), counts: null, seconds: Number(m[5]),
        linksPerS: Number(m[6]), linksAndCountsPerS: null, rowsPerS: null,
      };
    } else if ((m = REQUEST.exec(message))) {
      out.request = { requests: Number(m[1]), seconds: Number(m[2]), requestsPerS: Number(m[3]) };
    } else if ((m = PROGRESS.exec(message))) {
      out.progress.push({ done: Number(m[1]), elapsedS: Number(m[5]), opsPerS: Number(m[4]) });
    } else if ((m = SEED.exec(message))) {
      // A Java long: a picked seed can pass 2^53, where a number would silently round it to
      // another seed; such a seed stays null (unknown) rather than wrong.
      const seed = Number(m[2] ?? m[3]);
      out.seeds[/** @type {'load'|'request'} */ (m[1] ?? m[4])] = Number.isSafeInteger(seed) ? seed : null;
    } else if ((m = OP_LINE.exec(message.trim()))) {
      const op = parseOperation(m[1], Number(m[2]), m[3]);
      if (op) {
        out.operations.push(op);
        out.latencyFormat = op.format;
      }
    }
  }
  return out;
}

/**
 * Parse a -csvstats file: `op,count,p25_low,p25_high,...,max,mean,threads` (bucketed, ms) or
 * `op,count,p25 (us),...,max (us),mean (us),threads` (HDR).
 * @param {string} text
 * @returns {CsvOperation[]}
 * @throws {Error} for a header of neither form, or a row whose width differs from the header
 */
export function parseCsvStats(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return [];
  const header = lines[0].split(',');
  const hdr = header.includes('p50 (us)');
  if (!hdr && !header.includes('p50_high')) throw new Error(`linkbench csvstats: unknown header '${lines[0]}'`);
  const scale = hdr ? 1 / 1000 : 1;
  return lines.slice(1).map((line, i) => {
    const cells = line.split(',');
    if (cells.length !== header.length) throw new Error(`linkbench csvstats: row ${i + 2} has ${cells.length} cells, header ${header.length}`);
    /** @type {Record<string, string>} */
    const row = Object.fromEntries(header.map((h, j) => [h, cells[j]]));
    /** @type {Record<string, number>} */
    const percentilesMs = {};
    for (const p of PERCENTILES) percentilesMs[`p${p}`] = Number(hdr ? row[`p${p} (us)`] : row[`p${p}_high`]) * scale;
    return {
      op: row.op, kind: COUNT_STATISTICS.has(row.op) ? 'count' : 'latency', count: Number(row.count), percentilesMs,
      maxMs: Number(hdr ? row['max (us)'] : row.max) * scale, meanMs: Number(hdr ? row['mean (us)'] : row.mean) * scale,
      threads: row.threads === undefined ? null : Number(row.threads),
    };
  });
}

// Per-second rates of a request phase. The fork prints no rate per interval, but with
// progressfreq = 1 every requester logs its cumulative `requests done` at the first request it
// finishes more than a second after its last such line, so each line is an exact (time, count)
// point of one thread, about a second apart. The lines below are the ones that place those
// points in time (LinkBenchRequest.run() of the pinned fork).
const TIMED_LINE = /^(TRACE|DEBUG|INFO|WARN|ERROR|FATAL) (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d(?:\.\d+)?) \[[^\]]*\]: (.*)$/;
const REQ_STARTED = /^Requester thread #(\d+) started:/;
const REQ_WARMED = /^Requester #(\d+) warmup finished .* 0\/\d+ requests done/;
const REQ_DONE = /^Requester #(\d+) (\d+)\/\d+ requests done$/;
const REQ_TIME_LIMIT = /^Requester #(\d+): time limit of (\d+)s elapsed/;
const REQ_TOTAL = /^ThreadID = (\d+) total requests = (\d+) /;
// A per-operation statistics dump covers lastStatDisplay..now; the thread's first one starts
// where its measured part started (after warm-up), whether it is the final dump or a
// displayfreq one.
const REQ_STATS = /^ThreadID = (\d+) [A-Z_]+ total[oO]ps = \d+ .*sampleDuration = (\d+)ms/;

/**
 * @param {RegExpExecArray} m a TIMED_LINE match
 * @returns {number} ms on the driver's clock. The log's local time is read as UTC: only
 *   differences are used (a daylight-saving change during a phase would shift them by an hour).
 *   The fork trims trailing zeros of the milliseconds (`59.48` is 59.480 s), so the seconds
 *   field is read as a decimal number.
 */
function logTimeMs(m) {
  return Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]), Number(m[5]), Number(m[6])) + Math.round(Number(m[7]) * 1000);
}

/**
 * @typedef {object} RequestThreadTrace one requester's known (time, cumulative requests) points
 * @property {number} id requester number
 * @property {number|null} startMs when its measured part began (see requestIntervals)
 * @property {{ms: number, done: number}[]} points in time order, the first at startMs with 0
 * @property {number|null} endMs when it stopped (its time-limit line, else its total line)
 */

/**
 * The per-second intervals of one request phase from the driver's console output. t = whole
 * seconds since the phase's measured part began (the earliest requester's start; warm-up is not
 * part of it, as the driver counts no requests in it), each interval covering (t-1, t]. Each
 * thread's cumulative count is interpolated linearly between its progress lines at every
 * whole-second boundary, and the threads are summed, so `queries` are fractions of requests
 * (rounded to 0.001). The trailing part-second after the last whole second is left out, as
 * sysbench does; a second in which no request finished is a 0 (a stall).
 *
 * A thread's start is, best first: its first statistics dump's time minus that dump's
 * sampleDuration (exact to the logging delay); its warm-up-finished line; its time-limit line
 * minus maxtime (late by at most the last request's latency), but not before its started line
 * (which precedes its connection to the server); its started line.
 *
 * `qps` = `tps` = `queries` = requests finished in that second (one LinkBench request is one
 * operation, as the step's own tps = throughput); `errors` = the ERROR lines logged in that
 * second; `latencyMs` null: the driver prints no per-second latency.
 * @param {string} text one request phase's console output (lines before the first requester
 *   started, e.g. a load phase of the same run, are ignored)
 * @returns {import('../types.js').SequenceInterval[]} empty when no requester reported
 */
export function requestIntervals(text) {
  /** @type {Map<number, {started: number|null, warmed: number|null, statsStart: number|null, limit: {ms: number, maxS: number}|null, total: {ms: number, done: number}|null, progress: {ms: number, done: number}[]}>} */
  const threads = new Map();
  const thread = (/** @type {number} */ id) => {
    let t = threads.get(id);
    if (!t) threads.set(id, (t = { started: null, warmed: null, statsStart: null, limit: null, total: null, progress: [] }));
    return t;
  };
  /** @type {number[]} */
  const errorMs = [];
  let inPhase = false;
  for (const raw of text.split('\n')) {
    const line = TIMED_LINE.exec(raw.trimEnd());
    if (!line) continue;
    const ms = logTimeMs(line);
    const message = line[8];
    let m;
    if ((m = REQ_STARTED.exec(message))) {
      inPhase = true;
      thread(Number(m[1])).started ??= ms;
    }
    if (!inPhase) continue;
    if (line[1] === 'ERROR' || line[1] === 'FATAL') errorMs.push(ms);
    else if ((m = REQ_DONE.exec(message))) thread(Number(m[1])).progress.push({ ms, done: Number(m[2]) });
    else if ((m = REQ_WARMED.exec(message))) thread(Number(m[1])).warmed ??= ms;
    else if ((m = REQ_TIME_LIMIT.exec(message))) thread(Number(m[1])).limit ??= { ms, maxS: Number(m[2]) };
    else if ((m = REQ_TOTAL.exec(message))) thread(Number(m[1])).total ??= { ms, done: Number(m[2]) };
    else if ((m = REQ_STATS.exec(message))) thread(Number(m[1])).statsStart ??= ms - Number(m[2]);
  }
  /** @type {RequestThreadTrace[]} */
  const traces = [];
  for (const [id, t] of threads) {
    const progress = t.progress.filter((p, i) => i === 0 || p.ms >= t.progress[i - 1].ms);
    const end = t.limit && t.total ? { ms: t.limit.ms, done: t.total.done } : t.total;
    const firstMs = progress[0]?.ms ?? end?.ms ?? null;
    let startMs = t.statsStart ?? t.warmed ?? (t.limit ? Math.max(t.limit.ms - t.limit.maxS * 1000, t.started ?? -Infinity) : t.started);
    if (startMs === null || firstMs === null) continue;
    if (t.started !== null && t.warmed === null) startMs = Math.max(startMs, t.started);
    startMs = Math.min(startMs, firstMs);
    const points = [{ ms: startMs, done: 0 }, ...progress];
    if (end && end.ms >= points[points.length - 1].ms && end.done >= points[points.length - 1].done) points.push(end);
    traces.push({ id, startMs, points, endMs: points[points.length - 1].ms });
  }
  if (traces.length === 0) return [];
  const phaseStart = Math.min(...traces.map((t) => /** @type {number} */ (t.startMs)));
  const phaseEnd = Math.max(...traces.map((t) => /** @type {number} */ (t.endMs)));
  const seconds = Math.floor((phaseEnd - phaseStart) / 1000);
  /** @param {number} ms */
  const doneAt = (ms) => traces.reduce((sum, t) => sum + cumulativeAt(t.points, ms), 0);
  /** @type {import('../types.js').SequenceInterval[]} */
  const out = [];
  let before = 0;
  for (let s = 1; s <= seconds; s++) {
    const boundary = phaseStart + s * 1000;
    const now = doneAt(boundary);
    const queries = Math.round((now - before) * 1000) / 1000;
    before = now;
    const errors = errorMs.filter((e) => e > boundary - 1000 && e <= boundary).length;
    out.push({ t: s, qps: queries, tps: queries, latencyMs: null, errors, queries });
  }
  return out;
}

/**
 * A thread's cumulative count at `ms`: linear between its known points, 0 before the first,
 * the last count after the last (the thread has stopped).
 * @param {{ms: number, done: number}[]} points time order
 * @param {number} ms
 * @returns {number}
 */
function cumulativeAt(points, ms) {
  if (ms <= points[0].ms) return points[0].done;
  for (let i = 1; i < points.length; i++) {
    const b = points[i];
    if (ms <= b.ms) {
      const a = points[i - 1];
      return b.ms === a.ms ? b.done : a.done + ((b.done - a.done) * (ms - a.ms)) / (b.ms - a.ms);
    }
  }
  return points[points.length - 1].done;
}
