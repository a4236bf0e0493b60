/**
 * Generate a synthetic, schema-valid history of run records and comparisons: for the site's
 * scale benchmark (bench/site-scale.js, 200 releases × 40 tests × 5 host classes) and for
 * tests that need more releases than a real run can make in minutes. Deterministic (seeded
 * PRNG), so tests can recompute the expected numbers from the records.
 *
 * Comparisons come from the compare stage when the caller passes its `compareRuns` (tests and
 * the benchmark do); without it they are made up by construction from the injected changes,
 * as fixtures for the pages, not statistics.
 */
import { seededUniform } from '../../scripts/seeded-random.js';
import { createHash } from 'node:crypto';
import { formatRatio } from '../../scripts/format-number.js';

/** @import { RunRecord, Comparison, TestVerdict, Step } from '../../scripts/types.js' */

/** Reported tests of the standard suite, in suite order, with their groups. */
export const STANDARD_TESTS = Object.freeze([
  ['point-query.pre', 'point'], ['range-notcovered-si.pre', 'range'], ['update-inlist', 'write'], ['update-index', 'write'],
  ['update-nonindex', 'write'], ['update-one', 'write'], ['update-zipf', 'write'], ['write-only', 'write'],
  ['read-write.range10', 'write'], ['read-write.range100', 'write'], ['scan', 'range'], ['read-only.range10', 'range-agg'],
  ['read-only.range100', 'range-agg'], ['read-only.range10000', 'range-agg'], ['read-only-simple', 'range-agg'],
  ['read-only-sum', 'range-agg'], ['read-only-order', 'range-agg'], ['read-only-distinct', 'range-agg'],
  ['read-only-count', 'range-agg'], ['point-query', 'point'], ['random-points.range10', 'point'],
  ['random-points.range100', 'point'], ['random-points.range1000', 'point'], ['hot-points', 'point'],
  ['points-covered-pk', 'point'], ['points-notcovered-pk', 'point'], ['range-covered-pk', 'range'],
  ['range-notcovered-pk', 'range'], ['points-covered-si', 'point'], ['points-notcovered-si', 'point'],
  ['range-covered-si', 'range'], ['range-notcovered-si', 'range'], ['delete', 'write'], ['insert', 'write'],
].map(([name, group]) => Object.freeze({ name, group })));

/**
 * @typedef {object} HistorySpec
 * @property {{product: string, line: string, versions: string[]}[]} lines releases per product line, oldest first
 * @property {string[]} hosts host classes
 * @property {string} [suite] default `smoke`
 * @property {number} [tests] how many tests (the standard list, then made-up names), default all standard
 * @property {number} [repeats] default 3
 * @property {number} [intervalsS] per-second samples per repeat, default 20
 * @property {number} [runsPerRelease] default 1
 * @property {{version: string, test: string, factor: number}[]} [changes] throughput multiplied by factor
 *   from that version on (a step change), for every host
 * @property {Record<string, string>} [mycnfExtra] version -> lines added to its my.cnf (for diffs)
 * @property {number} [seed] default 1
 * @property {string} [start] ISO date of the first run, default 2025-01-01
 */

/**
 * Seeded uniform generator, shared with the benchmarks that need reproducible draws.
 * @param {number} seed
 * @returns {() => number} uniform [0, 1)
 */
export function prng(seed) {
  return seededUniform(seed);
}

/** @param {string} s */
const sha256 = (s) => createHash('sha256').update(s).digest('hex');

/**
 * @param {HistorySpec} spec
 * @param {{compare?: (input: {base: {version: string, records: RunRecord[]}, candidate: {version: string, records: RunRecord[]}, createdAt: string}) => Comparison}} [opts]
 *   compare: the compare stage's compareRuns with the thresholds bound
 * @returns {{records: RunRecord[], comparisons: Comparison[]}} every candidate compared with the line's first release
 */
export function generateHistory(spec, opts = {}) {
  const rand = prng(spec.seed ?? 1);
  const suite = spec.suite ?? 'smoke';
  const repeats = spec.repeats ?? 3;
  const intervalsS = spec.intervalsS ?? 20;
  const count = spec.tests ?? STANDARD_TESTS.length;
  const tests = Array.from({ length: count }, (_, i) => STANDARD_TESTS[i] ?? { name: `extra-test-${i + 1}`, group: 'point' });
  /** @type {Record<string, number>} */
  const baseQps = {};
  for (const t of tests) baseQps[t.name] = Math.round(1000 * Math.exp(rand() * 4));
  /** @type {RunRecord[]} */
  const records = [];
  /** @type {Comparison[]} */
  const comparisons = [];
  let clock = Date.parse(spec.start ?? '2025-01-01T00:00:00Z');
  for (const host of spec.hosts) {
    const hostFactor = 0.5 + rand();
    for (const { product, line, versions } of spec.lines) {
      /** @type {Map<string, RunRecord[]>} */
      const byVersion = new Map();
      versions.forEach((version, vi) => {
        /** @type {RunRecord[]} */
        const runs = [];
        for (let k = 0; k < (spec.runsPerRelease ?? 1); k++) {
          clock += 3600_000;
          /** @type {Record<string, number>} */
          const level = {};
          for (const t of tests) {
            let f = hostFactor * (1 + 0.01 * Math.sin(vi / 3));
            for (const c of spec.changes ?? []) {
              if (c.test === t.name && versions.indexOf(c.version) !== -1 && vi >= versions.indexOf(c.version)) f *= c.factor;
            }
            level[t.name] = baseQps[t.name] * f;
          }
          runs.push(makeRecord({ rand, product, line, version, host, suite, tests, level, repeats, intervalsS, startMs: clock, k, extra: spec.mycnfExtra?.[version] ?? '' }));
        }
        byVersion.set(version, runs);
        records.push(...runs);
      });
      const baseVersion = versions[0];
      for (const version of versions.slice(1)) {
        clock += 60_000;
        const base = /** @type {RunRecord[]} */ (byVersion.get(baseVersion));
        const candidate = /** @type {RunRecord[]} */ (byVersion.get(version));
        const createdAt = new Date(clock).toISOString();
        comparisons.push(opts.compare
          ? opts.compare({ base: { version: baseVersion, records: base }, candidate: { version, records: candidate }, createdAt })
          : makeComparison({ host, product, line, suite, tests, createdAt, base, candidate, baseVersion, version }));
      }
    }
  }
  return { records, comparisons };
}

/**
 * @param {{rand: () => number, product: string, line: string, version: string, host: string, suite: string,
 *   tests: {name: string, group: string}[], level: Record<string, number>, repeats: number, intervalsS: number, startMs: number, k: number, extra: string}} o
 * @returns {RunRecord}
 */
function makeRecord(o) {
  const { rand } = o;
  const id = `${o.host}-${o.product}-${o.version}-${new Date(o.startMs).toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${o.k}`;
  const mycnf = `[mysqld]\ninnodb_buffer_pool_size=512M\ninnodb_log_file_size=256M\ninnodb_flush_log_at_trx_commit=2\n${o.extra ? `${o.extra.trimEnd()}\n` : ''}innodb_io_capacity=2000\n`;
  let t = o.startMs;
  /** @type {Step[]} */
  const steps = o.tests.map((test) => ({
    name: test.name, kind: 'sysbench', group: /** @type {Step['group']} */ (test.group), reported: true,
    metric: test.name === 'scan' ? 'rows/s' : 'qps',
    params: { 'rand-type': 'uniform', threads: 1, 'range-size': 100 },
    status: 'ok',
    repeats: Array.from({ length: o.repeats }, (_, index) => {
      t += o.intervalsS * 1000;
      const level = o.level[test.name] * (1 + (rand() - 0.5) * 0.02);
      // A short stall in some repeats, so the per-second charts have something to show; never in
      // the first two seconds, where compare would read it as the warm-up of a cold start
      // (scripts/compare/warm-up.js) and a real driver's figure would include it, not this level.
      const stallAt = rand() < 0.3 ? 2 + Math.floor(rand() * (o.intervalsS - 2)) : -1;
      const intervals = Array.from({ length: o.intervalsS }, (_, s) => {
        // (stallAt -1 is no stall: without the check its second 0 was one, in every such repeat)
        const q = level * (stallAt >= 0 && Math.abs(s - stallAt) <= 1 ? 0.15 : 1 + (rand() - 0.5) * 0.06);
        return { t: s + 1, qps: round(q), tps: round(q / 10), latencyMs: round(1000 / Math.max(q, 1) * 1.8), errors: 0 };
      });
      return {
        index, startedAt: new Date(t).toISOString(), durationS: o.intervalsS, status: /** @type {'ok'} */ ('ok'),
        throughput: round(level), tps: round(level / 10),
        latencyMs: { avg: round(1000 / level), p95: round(1800 / level), p99: round(2500 / level), max: round(50000 / level) },
        errors: 0, reconnects: 0, intervals,
        efficiency: { cpuUsPerOp: round(1e6 / level / 2), csPerOp: round(rand() * 2), readsPerOp: round(rand() * 0.1), kbReadPerOp: round(rand()), kbWrittenPerOp: round(rand() * 4) },
        mysqldRssKb: 600000 + Math.round(rand() * 1000),
      };
    }),
  }));
  return {
    schemaVersion: 2, id, startedAt: new Date(o.startMs).toISOString(), finishedAt: new Date(t + 1000).toISOString(), status: 'ok',
    release: {
      product: o.product, line: o.line, version: o.version, tag: `${o.product}-${o.version}`, commit: sha256(o.version).slice(0, 40),
      provider: 'deb', buildProfile: null, buildFlags: null, binarySha256: sha256(`${o.product}${o.version}`),
      serverVersionString: `${o.product}d  Ver ${o.version}`, packages: [{ name: `${o.product}-server-core`, version: o.version }],
    },
    host: {
      class: o.host, hostname: `${o.host}-1`, cpuModel: 'Synthetic CPU @ 2.0GHz', cores: 2, kernel: '6.1.0-synthetic',
      memoryBytes: 24 * 2 ** 30, governor: null, turbo: null, pinning: { serverCpus: '1', clientCpus: '1' },
    },
    config: {
      suite: o.suite, scale: { tables: 1, tableSize: 20000, clients: 1, readDurationS: o.intervalsS, writeDurationS: o.intervalsS, warmupS: 1 },
      engine: 'innodb', mycnf: { name: 'innodb.cnf', text: mycnf, sha256: sha256(mycnf) },
      tools: { sysbench: '1.0.20', node: 'v20', tagbench: '0.1.0' }, repeats: o.repeats,
    },
    steps,
    dbSize: { afterLoad: { logicalBytes: 5_000_000, onDiskBytes: 12_000_000 }, atEnd: { logicalBytes: 5_400_000, onDiskBytes: 13_000_000 } },
  };
}

/** @param {number} x */
function round(x) {
  return Math.round(x * 1000) / 1000;
}

/**
 * @param {{host: string, product: string, line: string, suite: string, tests: {name: string, group: string}[],
 *   createdAt: string, base: RunRecord[], candidate: RunRecord[], baseVersion: string, version: string}} o
 * @returns {Comparison}
 */
function makeComparison(o) {
  /** @param {RunRecord[]} recs @param {string} name */
  const stats = (recs, name) => {
    const xs = /** @type {number[]} */ (recs.flatMap((r) => r.steps.find((s) => s.name === name)?.repeats.map((x) => x.throughput) ?? [])).sort((a, b) => a - b);
    return { median: xs[Math.floor(xs.length / 2)], min: xs[0], max: xs[xs.length - 1], n: xs.length };
  };
  /** @type {TestVerdict[]} */
  const tests = o.tests.map((t) => {
    const b = stats(o.base, t.name);
    const c = stats(o.candidate, t.name);
    const ratio = c.median / b.median;
    const verdict = ratio < 0.95 ? 'regression' : ratio > 1.05 ? 'improvement' : Math.abs(ratio - 1) > 0.03 ? 'inconclusive' : 'unchanged';
    return {
      test: t.name, group: t.group, metric: 'throughput', higherIsBetter: true, base: b, candidate: c,
      ratio, ci: [ratio - 0.02, ratio + 0.02], mde: 0.03, verdict,
      reason: `synthetic: ratio ${formatRatio(ratio)} of medians ${c.median} / ${b.median}`,
    };
  });
  /** @type {Record<import('../../scripts/types.js').VerdictClass, number>} */
  const summary = { regression: 0, improvement: 0, unchanged: 0, inconclusive: 0, failed: 0 };
  for (const v of tests) summary[v.verdict] += 1;
  return {
    schemaVersion: 1, createdAt: o.createdAt, hostClass: o.host, suite: o.suite, product: o.product, line: o.line,
    base: { version: o.baseVersion, runIds: o.base.map((r) => r.id) },
    candidate: { version: o.version, runIds: o.candidate.map((r) => r.id) },
    thresholds: { groups: { point: { warn: 0.03, issue: 0.05 }, range: { warn: 0.03, issue: 0.05 }, 'range-agg': { warn: 0.03, issue: 0.05 }, write: { warn: 0.03, issue: 0.05 } } },
    tests, summary,
  };
}
