/**
 * The insert benchmark's and LinkBench's own views beside the verdicts, per release: for the
 * insert benchmark each step's rate (inserts/s for l.i0 l.i1 l.i2, seconds for l.x, queries/s
 * and whether the background writers kept up for qr* / qp*), its stall figures from the
 * per-second rates and a per-second text chart of the rate (seed 002's picture: insert rate per
 * second, a line per release); for LinkBench seed 000's table (load ips, size after the load,
 * then QPS and size after each request phase); for long runs (`loops`) seed 001's series, QPS
 * and database size after each loop per release. Informational: the verdicts judge the same
 * steps through the gated metrics. Pure.
 */
import { median } from 'simple-statistics';
import { computeQos } from './qos.js';
import { formatPercent, formatQps, formatValue } from '../format-number.js';

/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('../types.js').Step} Step */
/** @typedef {import('../types.js').Repeat} Repeat */
/** @typedef {import('./types.js').ReleaseRecords} ReleaseRecords */

/**
 * @typedef {object} InsertReleaseRow one release's figures of one insert-benchmark step
 * @property {string} version
 * @property {number} repeats ok repeats
 * @property {number|null} rate median over ok repeats of the step's throughput (inserts/s, rows
 *   indexed/s or queries/s)
 * @property {number|null} seconds median duration of the ok repeats (what l.x is read by)
 * @property {{share: number, sustained: boolean, failedRepeats: number}|null} keepUp qr* / qp*:
 *   the worst repeat's writer share of its target and whether every repeat held 95 %
 * @property {{p1: number, p50: number, cv: number, stallShare: number, stallCount: number, longestStallS: number}|null} stalls
 *   medians over the ok repeats of computeQos on the per-second `rateField`
 * @property {number[]} perSecond the representative repeat's per-second rate
 * @property {{runId: string, index: number}|null} representative the ok repeat of median
 *   throughput (the one charted)
 */

/**
 * @typedef {object} InsertStepTable
 * @property {string} test
 * @property {'inserts'|'queries'|null} rateField the per-second field charted and judged for
 *   stalls (null for l.x: one ALTER TABLE, no per-second rate)
 * @property {InsertReleaseRow[]} releases
 */

/**
 * @typedef {object} LinkbenchRow one release's LinkBench figures (medians over ok repeats)
 * @property {string} version
 * @property {number|null} loadIps links loaded per second
 * @property {number|null} loadBytes logical size after the load (information_schema after ANALYZE)
 * @property {number|null} loadFilesBytes linkdb0 on disk after the load (null in records from
 *   before it was measured)
 * @property {number|null} indexS seconds to build id1_type
 * @property {{test: string, qps: number|null, sizeBytes: number|null, filesBytes: number|null}[]} requests
 *   per request phase: requests per second, logical size and size on disk after it
 */

/**
 * @typedef {object} LoopsRow one release's long run, medians over ok repeats per loop
 * @property {string} version
 * @property {(number|null)[]} qps per loop, in loop order
 * @property {(number|null)[]} logicalBytes data + index after each loop
 * @property {(number|null)[]} onDiskBytes the datadir on disk after each loop
 */

/**
 * @typedef {object} SequenceTables
 * @property {InsertStepTable[]} insert empty without insert-benchmark steps
 * @property {{phases: string[], rows: LinkbenchRow[]}|null} linkbench
 * @property {{steps: string[], rows: LoopsRow[]}|null} [loops] the loop steps (`<test>.loopK`) in order
 */

/** Steps whose per-second rate is their insert rate; the query steps' is their query rate. */
const INSERT_STEPS = new Set(['l.i0', 'l.i1', 'l.i2']);

/**
 * @param {ReleaseRecords[]} releases in column order
 * @param {{stallFraction: number}} options as compare's QoS (thresholds.qos.stallFraction)
 * @returns {SequenceTables}
 */
export function computeSequenceTables(releases, options) {
  const steps = (/** @type {string} */ kind) => [...new Set(releases.flatMap((r) => r.records.flatMap((rec) => rec.steps.filter((s) => s.kind === kind && s.reported).map((s) => s.name))))];
  const insert = steps('ibench').map((test) => {
    const rateField = INSERT_STEPS.has(test) ? /** @type {const} */ ('inserts') : test.startsWith('q') ? /** @type {const} */ ('queries') : null;
    return { test, rateField, releases: releases.map((rel) => insertRow(rel, test, rateField, options)) };
  });
  const lbSteps = steps('linkbench');
  const phases = lbSteps.filter((s) => s.startsWith('linkbench.request.'));
  const linkbench = lbSteps.length === 0 ? null : {
    phases,
    rows: releases.map((rel) => {
      const load = stepRepeats(rel.records, 'linkbench.load');
      return {
        version: rel.version,
        loadIps: medianOf(load.map((x) => x.rep.throughput)),
        loadBytes: medianOf(load.map((x) => linkbenchDetails(x.rep)?.sizeAfterBytes)),
        loadFilesBytes: medianOf(load.map((x) => linkbenchDetails(x.rep)?.filesAfterBytes)),
        indexS: medianOf(stepRepeats(rel.records, 'linkbench.index').map((x) => linkbenchDetails(x.rep)?.indexS)),
        requests: phases.map((test) => {
          const reps = stepRepeats(rel.records, test);
          return {
            test, qps: medianOf(reps.map((x) => x.rep.throughput)),
            sizeBytes: medianOf(reps.map((x) => linkbenchDetails(x.rep)?.sizeAfterBytes)),
            filesBytes: medianOf(reps.map((x) => linkbenchDetails(x.rep)?.filesAfterBytes)),
          };
        }),
      };
    }),
  };
  const loopSteps = steps('loops');
  const loopSize = (/** @type {Repeat} */ rep) => /** @type {any} */ (rep.details?.loops)?.dbSize;
  const loops = loopSteps.length === 0 ? null : {
    steps: loopSteps,
    rows: releases.map((rel) => {
      const per = loopSteps.map((test) => stepRepeats(rel.records, test));
      return {
        version: rel.version,
        qps: per.map((reps) => medianOf(reps.map((x) => x.rep.throughput))),
        logicalBytes: per.map((reps) => medianOf(reps.map((x) => loopSize(x.rep)?.logicalBytes))),
        onDiskBytes: per.map((reps) => medianOf(reps.map((x) => loopSize(x.rep)?.onDiskBytes))),
      };
    }),
  };
  return { insert, linkbench, loops };
}

/**
 * @param {ReleaseRecords} rel
 * @param {string} test
 * @param {'inserts'|'queries'|null} rateField
 * @param {{stallFraction: number}} options
 * @returns {InsertReleaseRow}
 */
function insertRow(rel, test, rateField, options) {
  const ok = stepRepeats(rel.records, test);
  // A writer that missed its target fails the repeat but keeps its figures in details.
  const all = rel.records.flatMap((rec) => rec.steps.filter((s) => s.name === test).flatMap((s) => s.repeats));
  const keeps = all.map((rep) => /** @type {any} */ (rep.details?.ibench)?.keepUp).filter(Boolean);
  const keepUp = keeps.length === 0 ? null : {
    share: Math.min(...keeps.map((k) => k.share)),
    sustained: keeps.every((k) => k.sustained),
    failedRepeats: keeps.filter((k) => !k.sustained).length,
  };
  const rateOf = (/** @type {Repeat} */ rep) => (rep.intervals ?? []).map((iv) => {
    const v = rateField ? /** @type {any} */ (iv)[rateField] : undefined;
    return { t: iv.t, qps: typeof v === 'number' ? v : iv.qps };
  });
  const qos = rateField ? ok.map((x) => computeQos(rateOf(x.rep), options)).filter((q) => q !== null) : [];
  const pick = (/** @type {(q: import('./types.js').Qos) => number} */ f) => median(qos.map(f));
  const rep = representativeRepeat(ok);
  return {
    version: rel.version,
    repeats: ok.length,
    rate: medianOf(ok.map((x) => x.rep.throughput)),
    seconds: medianOf(ok.map((x) => x.rep.durationS)),
    keepUp,
    stalls: qos.length === 0 ? null : {
      p1: pick((q) => q.p1), p50: pick((q) => q.p50), cv: pick((q) => q.cv),
      stallShare: pick((q) => q.stallShare), stallCount: pick((q) => q.stallCount), longestStallS: pick((q) => q.longestStallS),
    },
    perSecond: rep && rateField ? rateOf(rep.rep).map((x) => x.qps) : [],
    representative: rep ? { runId: rep.runId, index: rep.rep.index } : null,
  };
}

/**
 * The ok repeat of median throughput (the lower middle one for an even count): a chart of one
 * repeat shows real seconds, where a per-second median over repeats would smooth the stalls away.
 * @template {{rep: {throughput: number|null}}} T
 * @param {T[]} repeats
 * @returns {T|null}
 */
export function representativeRepeat(repeats) {
  const sorted = repeats.filter((x) => typeof x.rep.throughput === 'number').sort((a, b) => /** @type {number} */ (a.rep.throughput) - /** @type {number} */ (b.rep.throughput));
  return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * The ok repeats of an ok step, across the release's records.
 * @param {RunRecord[]} records
 * @param {string} test
 * @returns {{runId: string, rep: Repeat}[]}
 */
function stepRepeats(records, test) {
  return records.flatMap((rec) => rec.steps.filter((s) => s.name === test && s.status === 'ok')
    .flatMap((s) => s.repeats.filter((rep) => rep.status === 'ok').map((rep) => ({ runId: rec.id, rep }))));
}

/** @param {Repeat} rep @returns {{sizeAfterBytes?: number, filesAfterBytes?: number|null, indexS?: number}|undefined} */
function linkbenchDetails(rep) {
  return /** @type {any} */ (rep.details)?.linkbench;
}

/** @param {(number|null|undefined)[]} xs @returns {number|null} */
function medianOf(xs) {
  const nums = /** @type {number[]} */ (xs.filter((x) => typeof x === 'number' && Number.isFinite(x)));
  return nums.length === 0 ? null : median(nums);
}

const BARS = '▁▂▃▄▅▆▇█';

/**
 * One line of block characters for a per-second series, at most `width` wide (consecutive
 * seconds averaged into a column). Heights are relative to `top` so that the lines of several
 * releases share one scale; a second with nothing done is a space, so a full stall is a gap.
 * @param {number[]} values
 * @param {number} top the largest value of every line drawn together
 * @param {number} [width]
 * @returns {string}
 */
export function sparkline(values, top, width = 60) {
  if (values.length === 0 || !(top > 0)) return '';
  const per = Math.ceil(values.length / width);
  let out = '';
  for (let i = 0; i < values.length; i += per) {
    const chunk = values.slice(i, i + per);
    const v = chunk.reduce((s, x) => s + x, 0) / chunk.length;
    out += v <= 0 ? ' ' : BARS[Math.min(BARS.length - 1, Math.floor((v / top) * BARS.length))];
  }
  return out;
}

/**
 * @param {SequenceTables} tables
 * @param {{format: 'terminal'|'markdown'}} options
 * @returns {string} empty when the suite runs neither benchmark; else text ending with a newline
 */
export function renderSequenceTables(tables, options) {
  const md = options.format === 'markdown';
  const out = [];
  if (tables.insert.length > 0) {
    out.push(md ? '### Insert benchmark per step\n\n' : 'insert benchmark per step (medians over ok repeats; stalls: seconds below half the median per-second rate, on inserts/s for l.i*, queries/s for q*):\n');
    const head = ['step', 'release', 'repeats', 'rate', 'p1/s', 'p50/s', 'cv', 'stall share', 'stalls', 'longest (s)', 'writers kept up'];
    const rows = tables.insert.flatMap((step) => step.releases.map((r) => [
      step.test, r.version, String(r.repeats),
      r.rate === null ? 'n/a' : step.test === 'l.x' ? `${formatValue(r.seconds)} s (${formatQps(r.rate)} rows/s)` : `${formatQps(r.rate)} ${step.rateField === 'inserts' ? 'inserts/s' : 'queries/s'}`,
      formatQps(r.stalls?.p1), formatQps(r.stalls?.p50), formatValue(r.stalls?.cv),
      r.stalls ? formatPercent(r.stalls.stallShare) : 'n/a', formatValue(r.stalls?.stallCount), formatValue(r.stalls?.longestStallS),
      keepUpText(r.keepUp),
    ]));
    out.push(table(head, rows, md, 2));
    // A release's line needs two seconds: one is a lone bar that says nothing of stalls (the
    // demo's l.i1, 1.3-1.5 s repeats), as the site leaves such a line out of its chart.
    const charted = tables.insert.filter((s) => s.rateField === 'inserts' && s.releases.some((r) => r.perSecond.length >= MIN_SPARKLINE_SECONDS));
    if (charted.length > 0) {
      out.push(md ? '\nInserts per second, one repeat per release (the one of median rate), on one scale per step:\n\n```\n' : '\ninserts per second, one repeat per release (the one of median rate), on one scale per step:\n');
      const width = Math.max(...tables.insert.flatMap((s) => s.releases.map((r) => r.version.length)));
      for (const step of charted) {
        const top = Math.max(...step.releases.flatMap((r) => r.perSecond));
        out.push(`${step.test} (top ${formatQps(top)}/s)\n`);
        for (const r of step.releases) {
          const line = r.perSecond.length >= MIN_SPARKLINE_SECONDS ? sparkline(r.perSecond, top)
            : `(${r.perSecond.length === 0 ? 'no per-second samples' : 'one second of samples'}: its repeats ran ${formatValue(r.seconds)} s (median), too short for a per-second picture)`;
          out.push(`  ${r.version.padEnd(width)} ${line}\n`);
        }
      }
      if (md) out.push('```\n');
    }
  }
  if (tables.linkbench) {
    const { phases, rows } = tables.linkbench;
    if (out.length > 0) out.push('\n');
    out.push(md ? `### LinkBench\n\n${LINKBENCH_SIZES}\n\n` : `LinkBench (medians over ok repeats). ${LINKBENCH_SIZES}\n`);
    const head = ['release', 'load ips', 'size after load', 'index (s)', ...phases.flatMap((p) => [`${shortPhase(p)} qps`, `size after ${shortPhase(p)}`])];
    out.push(table(head, rows.map((r) => [r.version, formatQps(r.loadIps), sizePair(r.loadFilesBytes, r.loadBytes), formatValue(r.indexS),
      ...r.requests.flatMap((q) => [formatQps(q.qps), sizePair(q.filesBytes, q.sizeBytes)])]), md, 1));
  }
  if (tables.loops) {
    const { steps, rows } = tables.loops;
    if (out.length > 0) out.push('\n');
    out.push(md ? '### Long run, loop by loop\n\n' : 'long run, loop by loop (medians over ok repeats; size after the loop, logical / on disk):\n');
    const k = (/** @type {string} */ test) => test.replace(/^.*\.loop(\d+)$/, '$1');
    const head = ['release', ...steps.map((t) => `qps@${k(t)}`), ...steps.map((t) => `size@${k(t)}`)];
    out.push(table(head, rows.map((r) => [r.version, ...r.qps.map((q) => formatQps(q)),
      ...r.logicalBytes.map((b, i) => `${formatBytes(b)} / ${formatBytes(r.onDiskBytes[i])}`)]), md, 1));
  }
  return out.join('');
}

/** Per-second samples a release's sparkline needs to be drawn (site/js/pages/sequences.js: the same). */
const MIN_SPARKLINE_SECONDS = 2;

/** What the LinkBench table's sizes are, printed above it. */
export const LINKBENCH_SIZES = 'Sizes after each phase: on disk (linkdb0\'s files; MyRocks: its SST files) / logical (information_schema after ANALYZE: InnoDB\'s are sampled statistics, trust the first).';

/**
 * A LinkBench size cell: on disk first, the one to trust; the logical figure alone (marked)
 * for records from before the on-disk size was measured.
 * @param {number|null} onDisk
 * @param {number|null} logical
 * @returns {string}
 */
export function sizePair(onDisk, logical) {
  if (onDisk === null) return logical === null ? 'n/a' : `${formatBytes(logical)} (logical only)`;
  return `${formatBytes(onDisk)} / ${formatBytes(logical)}`;
}

/** @param {InsertReleaseRow['keepUp']} k */
function keepUpText(k) {
  if (!k) return '';
  return k.sustained ? `yes (${formatPercent(k.share)})` : `NO: ${k.failedRepeats} repeat(s), worst ${formatPercent(k.share)}`;
}

/** @param {string} test `linkbench.request.2` → `request 2` */
function shortPhase(test) {
  return test.replace(/^linkbench\.request\./, 'request ');
}

/**
 * Bytes in binary units, as the seed posts' "gb" columns.
 * @param {number|null|undefined} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return 'n/a';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? String(v) : formatValue(v)} ${units[u]}`;
}

/**
 * @param {string[]} head
 * @param {string[][]} rows
 * @param {boolean} md
 * @param {number} textColumns leading columns aligned left
 */
function table(head, rows, md, textColumns) {
  if (md) {
    return `| ${head.join(' | ')} |\n| ${head.map((_, i) => (i < textColumns ? '---' : '---:')).join(' | ')} |\n${rows.map((r) => `| ${r.join(' | ')} |\n`).join('')}`;
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [head, ...rows].map((r) => `  ${r.map((c, i) => (i < textColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()}\n`).join('');
}
