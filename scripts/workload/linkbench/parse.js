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
const SEED = /^Using configured random seed (load|request)_random_seed=(-?\d+)/;
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
      out.seeds[/** @type {'load'|'request'} */ (m[1])] = Number(m[2]);
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
