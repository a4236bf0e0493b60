/**
 * Relative-to-base tables as in the seed posts: per product line, each release's throughput
 * (median of the repeats, with min-max) and its ratio to the base release, per test, grouped
 * by reporting group, with the geometric mean of the ratios per group.
 */
import { geometricMean, median } from 'simple-statistics';
import { computeSideStats } from './noise.js';
import { listTests, collectSide } from './compare-runs.js';

/** Reporting groups in the order of DESIGN.md, with their headings. */
export const GROUPS = Object.freeze([
  { group: 'point', title: 'point queries' },
  { group: 'range', title: 'range queries without aggregation' },
  { group: 'range-agg', title: 'range queries with aggregation' },
  { group: 'write', title: 'writes' },
]);

/** Ratios below `low` and above `high` are marked (the seed posts' colours). */
export const MARKS = Object.freeze({ low: 0.95, high: 1.05 });

/**
 * @param {{product: string, line: string, base: string, releases: import('./types.js').ReleaseRecords[], verdictRatios?: Record<string, Record<string, number>>, refused?: Record<string, Record<string, string>>}} input
 *   releases in column order; `base` must be one of them; verdictRatios: by version, then test,
 *   the throughput verdict's ratio against this same base, which then is the table's ratio
 *   (one ratio per test wherever a reader meets it: paired verdicts estimate it as the
 *   geometric mean of the rounds' ratios, which can fall on the other side of 1 from median /
 *   median); refused: by version, then test, why compare refused to judge its throughput
 *   (too short a step): shown, marked, and left out of the group means ("Writes 1.03" must not
 *   count an unjudged 1.20)
 * @returns {import('./types.js').RelativeTable}
 * @throws {Error} when base is not among the releases (the command checks this for the user)
 */
export function computeRelativeTable(input) {
  const versions = input.releases.map((r) => r.version);
  if (!versions.includes(input.base)) throw new Error(`base ${input.base} is not among ${versions.join(', ')}`);
  const all = input.releases.flatMap((r) => r.records);
  const tests = listTests(all, []);
  /** @type {import('./types.js').RelativeTable['groups']} */
  const groups = [];
  const known = new Set(GROUPS.map((g) => g.group));
  const order = [...GROUPS.map((g) => g.group), ...new Set(tests.map((t) => t.group).filter((g) => !known.has(g)))];
  for (const group of order) {
    /** @type {import('./types.js').RelativeRow[]} */
    const rows = [];
    for (const t of tests.filter((x) => x.group === group)) {
      /** @type {Record<string, import('./types.js').RelativeCell>} */
      const cells = {};
      let metric = 'qps';
      for (const rel of input.releases) {
        const side = collectSide(rel.records, t.name);
        const step = rel.records.flatMap((r) => r.steps).find((s) => s.name === t.name);
        if (step) metric = step.metric;
        const stats = computeSideStats(side.repeats.flatMap((r) => (r.throughput === null ? [] : [r.throughput])));
        // Storage reads per operation (median of the repeats): what tells an IO-bound run's
        // throughput apart from a cached one's; render-relative-table shows it when reads happen.
        const reads = side.repeats.flatMap((r) => (typeof r.efficiency?.readsPerOp === 'number' && r.throughput !== null ? [r.efficiency.readsPerOp] : []));
        cells[rel.version] = { stats, ratio: null, ...(stats ? {} : { status: side.missing ? 'missing' : 'failed' }), ...(reads.length ? { readsPerOp: median(reads) } : {}) };
      }
      const baseMedian = cells[input.base].stats?.median;
      for (const v of versions) {
        const s = cells[v].stats;
        const fromVerdict = v === input.base ? undefined : input.verdictRatios?.[v]?.[t.name];
        if (typeof fromVerdict === 'number' && s) Object.assign(cells[v], { ratio: fromVerdict, ratioFrom: /** @type {const} */ ('verdict') });
        else if (s && baseMedian) cells[v].ratio = s.median / baseMedian;
        const refused = v === input.base ? undefined : input.refused?.[v]?.[t.name];
        if (refused) cells[v].refused = refused;
      }
      rows.push({ test: t.name, group, metric, cells });
    }
    if (rows.length === 0) continue;
    /** @type {Record<string, number|null>} */
    const geomean = {};
    for (const v of versions) {
      const ratios = rows.filter((r) => !r.cells[v].refused).map((r) => r.cells[v].ratio).filter((x) => x !== null);
      geomean[v] = ratios.length > 0 ? geometricMean(ratios) : null;
    }
    groups.push({ group, rows, geomean });
  }
  const kinds = new Set(groups.flatMap((g) => g.rows.flatMap((r) => versions.filter((v) => v !== input.base && r.cells[v].ratio !== null).map((v) => r.cells[v].ratioFrom ?? 'medians'))));
  const ratiosFrom = kinds.has('verdict') ? (kinds.has('medians') ? 'mixed' : 'verdict') : 'medians';
  return { product: input.product, line: input.line, base: input.base, versions, groups, marks: { ...MARKS }, ratiosFrom };
}
