/**
 * A counted step's parts counted alone, compared part by part: a LinkBench request phase followed
 * by one phase per operation type (GET_LINKS_LIST, ADD_LINK, ...; the suite's
 * `linkbench.counted.requestsPerType`), each in a meter window of its own and kept in the phase's
 * counted repeat under `byType` (scripts/run/count-round.js). Per type: instructions per operation
 * of that type alone, base → candidate, with the ratio and its interval, paired by round when
 * the releases were counted side by side (the same rule as a counted verdict: paired-shift.js).
 *
 * Not gated: context under the phase's own verdict. The phase's mixed figure is the one verdict
 * (in the run's family of verdicts, Holm); ten more per phase would widen that family for every
 * test of the run, and each type's phase is counted once a round on the data the earlier types
 * left, so its figure is a lead to which operation moved, not a verdict of its own. Pure.
 */
import { median } from 'simple-statistics';
import { meterMetrics } from './metrics.js';
import { collectSide } from './collect-side.js';
import { computePairedShift } from './paired-shift.js';
import { formatRatio } from '../format-number.js';
import { renderUntrustedText } from './markdown-text.js';

/** @typedef {import('../types.js').CountedTypeComparison} CountedTypeComparison */
/** @typedef {import('../types.js').CountedTypeRow} CountedTypeRow */

/** The unit of the figure compared per type: instructions per operation, whichever meter counts it. */
const UNIT = 'instructions/op';

/**
 * @param {import('../types.js').RunRecord[]} base
 * @param {import('../types.js').RunRecord[]} candidate
 * @param {string[]} tests reported tests, in the comparison's order
 * @param {number} confidence two-sided, of the intervals (the comparison's)
 * @returns {CountedTypeComparison[]} one entry per test and counting meter whose counted repeats
 *   carry parts on both sides; empty when none do
 */
export function compareCountedTypes(base, candidate, tests, confidence) {
  /** @type {CountedTypeComparison[]} */
  const out = [];
  const groups = meterMetrics([...base, ...candidate]).filter((g) => g.counted);
  for (const test of tests) {
    for (const group of groups) {
      const metric = group.metrics.find((m) => m.unit === UNIT);
      if (!metric) continue;
      const [b, c] = [base, candidate].map((records) => collectSide(records, test, group.meter, true));
      const parts = /** @type {(side: typeof b) => import('../types.js').CountedRepeat[]} */ ((side) => /** @type {any[]} */ (side.repeats));
      const typesOf = (/** @type {typeof b} */ side) => parts(side).flatMap((r) => Object.keys(r.byType ?? {}));
      const [tb, tc] = [typesOf(b), typesOf(c)];
      if (tb.length === 0 || tc.length === 0) continue;
      const types = [...new Set([...tc, ...tb])].map((type) => {
        const values = (/** @type {typeof b} */ side) => parts(side).map((r, i) => ({ value: r.byType?.[type] ? metric.value(/** @type {any} */ (r.byType[type]), null) : null, round: side.roundKeys[i] }));
        return compareType(type, values(b), values(c), confidence);
      });
      out.push({ test, meter: group.meter, metric: metric.name, unit: metric.unit, types });
    }
  }
  return out;
}

/**
 * @param {string} type
 * @param {{value: number|null, round: string|null}[]} base one value per counted repeat
 * @param {{value: number|null, round: string|null}[]} candidate
 * @param {number} confidence
 * @returns {CountedTypeRow}
 */
function compareType(type, base, candidate, confidence) {
  const valid = (/** @type {typeof base} */ xs) => xs.filter((x) => typeof x.value === 'number' && x.value > 0);
  const [vb, vc] = [valid(base), valid(candidate)];
  const mb = vb.length > 0 ? median(vb.map((x) => /** @type {number} */ (x.value))) : null;
  const mc = vc.length > 0 ? median(vc.map((x) => /** @type {number} */ (x.value))) : null;
  /** @type {[number, number][]} */
  const pairs = [];
  for (const x of vb) {
    const y = x.round === null ? undefined : vc.find((z) => z.round === x.round);
    if (y) pairs.push([/** @type {number} */ (x.value), /** @type {number} */ (y.value)]);
  }
  const shift = pairs.length >= 2 ? computePairedShift(pairs, confidence, 'ratio') : null;
  const ratio = shift ? shift.estimate : mb !== null && mc !== null ? mc / mb : null;
  return { type, base: mb, candidate: mc, rounds: pairs.length, ratio, ci: shift ? [shift.lo, shift.hi] : null };
}

/** Why no type is judged, in the words every place that shows the types prints (reports, the site's test page). */
export const COUNTED_TYPES_NOT_JUDGED = 'not gated: context under the phase\'s own verdict; each type is counted alone once a round after the mixed phase, and ten more verdicts per phase would widen the run\'s family of verdicts';
const WHY = COUNTED_TYPES_NOT_JUDGED;

/**
 * The per-type tables, under the counted figures of their test.
 * @param {{countedTypes?: CountedTypeComparison[]}} cmp
 * @param {'markdown'|'text'} format
 * @returns {string} empty when no test has parts; Markdown: one table per test; text: one line per type
 */
export function renderCountedTypes(cmp, format) {
  const entries = cmp.countedTypes ?? [];
  if (entries.length === 0) return '';
  const md = format === 'markdown';
  const perOp = (/** @type {number|null} */ v) => (v === null ? '–' : Math.round(v).toLocaleString('en-US'));
  const ratio = (/** @type {CountedTypeRow} */ r) => (r.ratio === null ? 'n/a' : formatRatio(r.ratio, { digits: 5 }));
  const ci = (/** @type {CountedTypeRow} */ r) => (r.ci ? `${formatRatio(r.ci[0], { digits: 5 })}–${formatRatio(r.ci[1], { digits: 5 })}` : `n/a (${r.rounds} paired round${r.rounds === 1 ? '' : 's'})`);
  const out = [];
  for (const e of entries) {
    const title = `${e.test}: ${e.metric} per operation type (${WHY})`;
    if (md) {
      out.push(`\n**${renderUntrustedText(e.test, { span: false })} per operation type** (${renderUntrustedText(e.unit, { span: false })}, ${WHY}):\n\n| type | base | candidate | rounds | ratio | interval |\n| --- | ---: | ---: | ---: | ---: | --- |\n`);
      for (const r of e.types) out.push(`| ${renderUntrustedText(r.type, { span: false })} | ${perOp(r.base)} | ${perOp(r.candidate)} | ${r.rounds} | ${ratio(r)} | ${ci(r)} |\n`);
    } else {
      const width = Math.max(4, ...e.types.map((r) => r.type.length));
      const head = `  ${'type'.padEnd(width)}  ${'base/op'.padStart(11)}  ${'cand./op'.padStart(11)}  ${'ratio'.padStart(8)}  interval\n`;
      out.push(`\n${title}:\n${head}${e.types.map((r) => `  ${r.type.padEnd(width)}  ${perOp(r.base).padStart(11)}  ${perOp(r.candidate).padStart(11)}  ${ratio(r).padStart(8)}  ${ci(r)}\n`).join('')}`);
    }
  }
  return out.join('');
}
