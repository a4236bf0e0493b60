/**
 * The views' data (scripts/site-build/build-views-data.js) on the edges a browser test does not
 * reach: failed repeats and a loop whose size was not measured give nulls (never 0), a DDL step
 * recorded without its details falls back to its latency, a release that lacks a step has no
 * number for it, reads at exactly the threshold show, and a table with none of the views gets no
 * file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSliceViews, buildViewsIndex, READS_SHOWN_FROM } from '../../scripts/site-build/build-views-data.js';
import { groupTables } from '../../scripts/site-build/group-tables.js';
import { generateHistory } from '../support/generate-history.js';

/** @typedef {import('../../scripts/types.js').RunRecord} RunRecord */

/**
 * @param {string} suite
 * @param {number} tests
 * @returns {RunRecord[]}
 */
function history(suite, tests) {
  return generateHistory({
    lines: [{ product: 'mariadb', line: '10.11', versions: ['10.11.18', '10.11.19'] }],
    hosts: ['local'], suite, tests, repeats: 3, intervalsS: 1, changes: [], seed: 3,
  }).records;
}

/** @param {RunRecord[]} records */
function slice(records) {
  return /** @type {import('../../scripts/site-build/types.js').SiteInput} */ ({
    records, comparisons: [], baselines: [], issues: [], products: {}, generatedAt: '2025-01-01T00:00:00Z', title: 't', siteUrl: null,
  });
}

test('a loop whose repeats failed or whose size was not measured has null figures, not zeros', () => {
  const records = history('loops-smoke', 2);
  for (const r of records) {
    r.steps.forEach((s, i) => {
      Object.assign(s, { name: `point-query.loop${i + 1}`, kind: 'loops', params: { loop: i + 1, loops: 2 } });
      s.repeats.forEach((rep) => { rep.details = { loops: { test: 'point-query', loop: i + 1, loops: 2, qps: rep.throughput, dbSize: i === 1 ? null : { logicalBytes: 100, onDiskBytes: 200 } } }; });
    });
  }
  // every repeat of loop 1 on 10.11.19 failed
  const failed = records.find((r) => r.release.version === '10.11.19');
  for (const rep of /** @type {RunRecord} */ (failed).steps[0].repeats) Object.assign(rep, { status: 'failed', throughput: null, latencyMs: null });
  const [views] = buildSliceViews(groupTables(slice(records)));
  assert.equal(views.loops.length, 1);
  const [series] = views.loops;
  assert.deepEqual(series.loops, [1, 2]);
  assert.deepEqual(series.steps, ['point-query.loop1', 'point-query.loop2']);
  const newer = series.releases[1];
  assert.equal(newer.qps[0], null);
  assert.equal(typeof newer.qps[1], 'number');
  assert.deepEqual(newer.logicalBytes, [null, null], 'loop 1 failed, loop 2 not measured');
  assert.deepEqual(series.releases[0].onDiskBytes, [200, null]);
});

test('a DDL step without details is timed by its latency; a release without the step has no seconds', () => {
  const records = history('ddl-smoke', 2);
  for (const r of records) {
    r.steps.forEach((s, i) => {
      Object.assign(s, { name: ['ddl.drop-table', 'ddl.analyze-table'][i], kind: 'ddl', metric: 'rows/s' });
      s.repeats.forEach((rep) => { rep.latencyMs = { avg: 1500, p95: 1500, p99: null, max: 1500 }; });
    });
    if (r.release.version === '10.11.18') r.steps = r.steps.slice(0, 1);
  }
  const [views] = buildSliceViews(groupTables(slice(records)));
  assert.deepEqual(views.timings.map((t) => [t.test, t.kind, t.statement, t.cells.map((c) => c.seconds)]), [
    ['ddl.drop-table', 'ddl', null, [1.5, 1.5]],
    ['ddl.analyze-table', 'ddl', null, [null, 1.5]],
  ]);
  assert.equal(views.timings[1].cells[0].n, 0);
  assert.equal(views.reads, null);
});

test('reads per operation show from the threshold on, and a table with no view gets no file', () => {
  const reading = history('iobound-smoke', 1);
  for (const r of reading) for (const rep of r.steps[0].repeats) if (rep.efficiency) rep.efficiency.readsPerOp = READS_SHOWN_FROM;
  const [views] = buildSliceViews(groupTables(slice(reading)));
  assert.deepEqual(views.reads?.tests.map((t) => t.readsPerOp), [[READS_SHOWN_FROM, READS_SHOWN_FROM]]);

  const below = history('smoke', 1);
  for (const r of below) for (const rep of r.steps[0].repeats) if (rep.efficiency) rep.efficiency.readsPerOp = READS_SHOWN_FROM - 0.01;
  assert.deepEqual(buildSliceViews(groupTables(slice(below))), []);
});

test('the index groups cell series by matrix, product line and host; other suites are no matrix', () => {
  const entry = (/** @type {string} */ suite, /** @type {string} */ host) => ({ product: 'mariadb', productName: 'MariaDB', line: '10.11', host, suite, files: { table: `data/tables/${host}/${suite}.json` } });
  const index = buildViewsIndex([], [entry('m--compression-on', 'local'), entry('m--compression-off', 'local'), entry('m--compression-on', 'big'), entry('smoke', 'local')]);
  assert.deepEqual(index.matrices.map((m) => [m.host, m.suite, m.cells.map((c) => c.cell)]), [
    ['big', 'm', ['compression-on']],
    ['local', 'm', ['compression-off', 'compression-on']],
  ]);
  assert.deepEqual(index.tables, []);
});
