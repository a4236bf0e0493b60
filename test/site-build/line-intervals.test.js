// The line page's intervals (site/js/ratios.js intervalsAgainst, ratioAxisRange) on the table
// the site builds from real records and a real comparison: test/fixtures/github/captured-store
// (10.11.18 and 10.11.19 on this VM, 10.11.19's server throttled, `tagbench compare --base
// 10.11.18` and `tagbench confirm`).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { groupTables } from '../../scripts/site-build/group-tables.js';
import { buildTableData } from '../../scripts/site-build/build-table-data.js';
import { tableRatios, intervalsAgainst, ratioAxisRange } from '../../site/js/ratios.js';

const STORE = new URL('../fixtures/github/captured-store/', import.meta.url).pathname;
/** @param {string} dir @returns {string[]} the JSON files under dir */
const filesUnder = (dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));
const records = filesUnder(join(STORE, 'runs')).map((f) => JSON.parse(readFileSync(f, 'utf8')));
const comparisons = filesUnder(join(STORE, 'verdicts')).map((f, i) => ({ id: `c${i}`, comparison: JSON.parse(readFileSync(f, 'utf8')) }));
const newest = comparisons.map((c) => c.comparison).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
const [group] = groupTables(/** @type {any} */ ({ records, comparisons, baselines: [], issues: [], products: {}, generatedAt: '2026-11-22T00:00:00Z', title: 't', siteUrl: null }));
const { table } = buildTableData(group, new Set());

describe('the line page\'s intervals', () => {
  it('the table carries each release\'s throughput verdicts, ratio and interval, from its newest comparison, to four decimals', () => {
    assert.deepEqual(table.releases.map((r) => [r.version, r.comparison?.baseVersion ?? null]), [['10.11.18', null], ['10.11.19', '10.11.18']]);
    for (const test of table.tests) {
      const verdict = newest.tests.find((/** @type {any} */ v) => v.test === test.name && v.metric === 'throughput');
      const [ratio, low, high] = /** @type {[number, number, number]} */ (test.intervals[1]);
      assert.equal(test.intervals[0], null, `${test.name}: 10.11.18 was not compared`);
      for (const [kept, stored] of [[ratio, verdict.ratio], [low, verdict.ci[0]], [high, verdict.ci[1]]]) {
        assert.ok(Math.abs(kept - stored) <= 0.00005 && String(kept).length <= 6, `${test.name}: ${kept} for ${stored}`);
      }
    }
  });

  it('are drawn against the compared base only; against another base the release is named with the base it was compared with', () => {
    const against18 = intervalsAgainst(table, '10.11.18');
    assert.deepEqual(against18.comparedElsewhere, []);
    assert.ok(against18.intervals.every((row) => row[0] === null && row[1] !== null));
    const against19 = intervalsAgainst(table, '10.11.19');
    assert.ok(against19.intervals.every((row) => row.every((x) => x === null)), 'a 10.11.18 verdict says nothing about a ratio to 10.11.19');
    assert.deepEqual(against19.comparedElsewhere, [{ version: '10.11.19', baseVersion: '10.11.18' }]);
  });

  it('the axis holds every ratio and interval: here the throttled server\'s tenfold drop, far below 0.5', () => {
    const ratios = tableRatios(table, '10.11.18').flat();
    const { intervals } = intervalsAgainst(table, '10.11.18');
    const drawn = intervals.flat().flatMap((x) => (x ? [x] : []));
    const range = /** @type {[number, number]} */ (ratioAxisRange([...ratios, ...drawn.map((x) => x.ratio)], [...drawn.flatMap((x) => x.ci), 0.95, 1.05]));
    for (const v of [...ratios, ...drawn.flatMap((x) => [x.ratio, ...x.ci])]) {
      if (v !== null) assert.ok(v >= range[0] && v <= range[1], `${v} within [${range}]`);
    }
    assert.ok(range[0] < 0.1);
  });

  it('a noise-wide interval is clipped at 0.5-1.5 when the ratios stay near 1 (the demo\'s scan: 1.00 [0.44, 2.27])', () => {
    assert.deepEqual(ratioAxisRange([0.98, 1.0, 1.01], [0.44, 2.27]), [0.5, 1.5]);
    assert.deepEqual(ratioAxisRange([0.98, 1.01], [0.9, 1.1]), [0.88, 1.12]);
    assert.equal(ratioAxisRange([null], [0.9]), null);
  });
});
