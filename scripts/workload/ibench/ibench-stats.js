/**
 * The insert benchmark's bookkeeping, pure (no I/O, no clock: callers pass times in ms):
 * - the pacer that holds a background writer at its target rate,
 * - per-second buckets of every operation (count, max and p95 response time) that become a
 *   repeat's intervals,
 * - response-time histograms, percentiles of the per-second rates,
 * - the keep-up rule: a writer below 95 % of its target did not keep up.
 */

/** A background writer that achieved less than this share of its target did not keep up. */
export const KEEP_UP_SHARE = 0.95;

/** Display bounds (ms) of the stored response-time histograms: a bucket holds values <= its bound. */
export const HISTOGRAM_BOUNDS_MS = Object.freeze([0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]);

/** The per-second rate percentiles a repeat reports. */
export const RATE_PERCENTILES = Object.freeze([1, 5, 25, 50, 75, 95, 99]);

/** @typedef {'insert'|'delete'|'query'} OpKind */

/**
 * How long to wait before the next batch of a rate-limited writer. Batch k (0-based) is due at
 * start + k x rowsPerBatch / targetPerS seconds; a writer that fell behind (a stall) sends at once
 * until it has caught up, so a short stall costs nothing over the step but a long one shows as a
 * missed target.
 * @param {number} startMs when the writer started
 * @param {number} batchesDone batches sent so far
 * @param {number} rowsPerBatch
 * @param {number} targetPerS rows per second
 * @param {number} nowMs
 * @returns {number} ms to wait, >= 0
 */
export function pacerDelayMs(startMs, batchesDone, rowsPerBatch, targetPerS, nowMs) {
  if (!(targetPerS > 0)) throw new Error(`pacerDelayMs: target rate must be > 0, got ${targetPerS}`);
  const dueMs = startMs + (batchesDone * rowsPerBatch * 1000) / targetPerS;
  return Math.max(0, dueMs - nowMs);
}

/**
 * Linear-interpolation percentile of sorted values (the same rule as numpy's default).
 * @param {number[]} sorted ascending
 * @param {number} p 0..100
 * @returns {number|null} null for no values
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  if (p < 0 || p > 100) throw new Error(`percentile: p must be within 0..100, got ${p}`);
  const at = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * @typedef {object} RatePercentiles percentiles of one operation's per-second rate over a step
 * @property {number} min
 * @property {number} max
 * @property {number} mean
 * @property {Record<string, number>} p `p1`, `p5`, ... `p99` -> rate per second
 */

/**
 * @param {number[]} perSecond one rate per full second
 * @returns {RatePercentiles|null} null when there is no full second
 */
export function ratePercentiles(perSecond) {
  if (perSecond.length === 0) return null;
  const sorted = [...perSecond].sort((a, b) => a - b);
  /** @type {Record<string, number>} */
  const p = {};
  for (const q of RATE_PERCENTILES) p[`p${q}`] = round3(/** @type {number} */ (percentile(sorted, q)));
  return { min: sorted[0], max: sorted[sorted.length - 1], mean: round3(sorted.reduce((s, v) => s + v, 0) / sorted.length), p };
}

/**
 * @typedef {object} ResponseHistogram response times of one operation over a step
 * @property {number} count
 * @property {number} avgMs
 * @property {number} p50Ms
 * @property {number} p95Ms
 * @property {number} p99Ms
 * @property {number} maxMs
 * @property {readonly number[]} boundsMs HISTOGRAM_BOUNDS_MS
 * @property {number[]} counts counts[i] = values <= boundsMs[i] (and > the bound before);
 *   the last entry counts the values above the last bound
 */

/**
 * Fine buckets for percentiles: 2 % wide from 1 µs up, so a reported percentile is within 2 %
 * of the exact one without keeping every value (a seed-sized run makes billions of inserts).
 */
const FINE_BASE_MS = 0.001;
const FINE_GROWTH = Math.log(1.02);
/** Fine buckets up to about 1.6e5 s; anything slower lands in the last one (max stays exact). */
const FINE_BUCKETS = 1400;

/** Accumulates response times of one operation. */
export class LatencyRecorder {
  constructor() {
    this.count = 0;
    this.sumMs = 0;
    this.maxMs = 0;
    /** fine bucket index -> count (typed array: no allocation per value) */
    this.fine = new Uint32Array(FINE_BUCKETS);
    /** @type {number[]} */
    this.coarse = new Array(HISTOGRAM_BOUNDS_MS.length + 1).fill(0);
  }

  /** @param {number} ms */
  add(ms) {
    this.count += 1;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    const fine = ms <= FINE_BASE_MS ? 0 : Math.min(FINE_BUCKETS - 1, Math.ceil(Math.log(ms / FINE_BASE_MS) / FINE_GROWTH));
    this.fine[fine] += 1;
    let i = 0;
    while (i < HISTOGRAM_BOUNDS_MS.length && ms > HISTOGRAM_BOUNDS_MS[i]) i += 1;
    this.coarse[i] += 1;
  }

  /**
   * @param {number} p 0..100
   * @returns {number} upper edge of the fine bucket holding the p-th percentile (capped at max)
   */
  percentileMs(p) {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let index = 0; index < FINE_BUCKETS; index++) {
      seen += this.fine[index];
      if (seen >= rank) return Math.min(this.maxMs, FINE_BASE_MS * Math.exp(index * FINE_GROWTH));
    }
    return this.maxMs;
  }

  /** @returns {ResponseHistogram|null} null when nothing was recorded */
  summary() {
    if (this.count === 0) return null;
    return {
      count: this.count,
      avgMs: round3(this.sumMs / this.count),
      p50Ms: round3(this.percentileMs(50)),
      p95Ms: round3(this.percentileMs(95)),
      p99Ms: round3(this.percentileMs(99)),
      maxMs: round3(this.maxMs),
      boundsMs: HISTOGRAM_BOUNDS_MS,
      counts: [...this.coarse],
    };
  }
}

/**
 * @typedef {object} SecondBucket what happened in one second of a step
 * @property {Record<OpKind, number>} rows rows inserted / deleted, queries run
 * @property {Record<OpKind, number>} statements statements completed
 * @property {Record<OpKind, number>} maxMs slowest statement of each kind
 * @property {number[]} primaryMs response times of the step's own operation (for its p95)
 */

/**
 * Per-second accounting of a step: every completed statement lands in the second it ended in,
 * counted from the step's start.
 */
export class SecondBuckets {
  /**
   * @param {number} startMs
   * @param {OpKind} primary the step's own operation (insert for l.i*, query for q*)
   */
  constructor(startMs, primary) {
    this.startMs = startMs;
    this.primary = primary;
    /** @type {SecondBucket[]} */
    this.seconds = [];
  }

  /**
   * @param {OpKind} op
   * @param {number} rows rows the statement inserted or deleted (1 for a query)
   * @param {number} endMs when it completed
   * @param {number} ms its response time
   */
  record(op, rows, endMs, ms) {
    const second = Math.max(0, Math.floor((endMs - this.startMs) / 1000));
    while (this.seconds.length <= second) {
      this.seconds.push({ rows: { insert: 0, delete: 0, query: 0 }, statements: { insert: 0, delete: 0, query: 0 }, maxMs: { insert: 0, delete: 0, query: 0 }, primaryMs: [] });
    }
    const b = this.seconds[second];
    b.rows[op] += rows;
    b.statements[op] += 1;
    if (ms > b.maxMs[op]) b.maxMs[op] = ms;
    if (op === this.primary) b.primaryMs.push(ms);
  }

  /**
   * One interval per full second up to `endMs` (a trailing part-second is left out, as sysbench
   * reports only whole intervals; a second in which nothing completed is a 0, which is a stall).
   * @param {number} endMs when the step's measured part ended
   * @returns {import('../types.js').SequenceInterval[]}
   */
  intervals(endMs) {
    const full = Math.floor((endMs - this.startMs) / 1000);
    /** @type {import('../types.js').SequenceInterval[]} */
    const out = [];
    for (let s = 0; s < full; s++) {
      const b = this.seconds[s];
      const primaryMs = b ? [...b.primaryMs].sort((x, y) => x - y) : [];
      out.push({
        t: s + 1,
        qps: b ? b.rows[this.primary] : 0,
        tps: b ? b.statements[this.primary] : 0,
        latencyMs: round3(percentile(primaryMs, 95) ?? 0),
        errors: 0,
        inserts: b ? b.rows.insert : 0,
        deletes: b ? b.rows.delete : 0,
        queries: b ? b.rows.query : 0,
        insertMaxMs: round3(b ? b.maxMs.insert : 0),
        deleteMaxMs: round3(b ? b.maxMs.delete : 0),
        queryMaxMs: round3(b ? b.maxMs.query : 0),
      });
    }
    return out;
  }
}

/**
 * @typedef {object} KeepUp whether a background writer held its target rate
 * @property {number} targetPerClientPerS
 * @property {number} clients
 * @property {number} targetPerS all clients together
 * @property {number} achievedPerS rows inserted per second over the step, all clients
 * @property {number} share achievedPerS / targetPerS
 * @property {number} worstClientShare the slowest client's own share
 * @property {boolean} sustained every client reached KEEP_UP_SHARE of its target
 */

/**
 * The keep-up rule: each client's writer must insert at least 95 % of its target over the step.
 * Judged per client, so one stalled client is not hidden by the others.
 * @param {number} targetPerClientPerS
 * @param {number[]} insertedPerClient rows each client's writer inserted
 * @param {number} durationS measured seconds
 * @returns {KeepUp}
 */
export function keepUp(targetPerClientPerS, insertedPerClient, durationS) {
  if (!(durationS > 0)) throw new Error(`keepUp: duration must be > 0 s, got ${durationS}`);
  if (insertedPerClient.length === 0) throw new Error('keepUp: no clients');
  const clients = insertedPerClient.length;
  const targetPerS = targetPerClientPerS * clients;
  const achievedPerS = insertedPerClient.reduce((s, v) => s + v, 0) / durationS;
  const worstClientShare = Math.min(...insertedPerClient.map((n) => n / durationS / targetPerClientPerS));
  return {
    targetPerClientPerS,
    clients,
    targetPerS,
    achievedPerS: round3(achievedPerS),
    share: round3(achievedPerS / targetPerS),
    worstClientShare: round3(worstClientShare),
    sustained: worstClientShare >= KEEP_UP_SHARE,
  };
}

/** @param {number} v */
function round3(v) {
  return Math.round(v * 1000) / 1000;
}
