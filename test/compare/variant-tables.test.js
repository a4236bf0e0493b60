/**
 * Views of suite variants: a sweep's tests gathered into a row per release and a column per
 * client count; reads per operation next to throughput once runs read from storage; a matrix's
 * cells as a table each with a row per release. Hand-made records with exact numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeRelativeTable, renderRelativeTable, computeSweepTables, renderSweepTables, parseSweepName, renderMatrixTables } from '../../scripts/compare/index.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { parseSweepTestName, sweepTestName } from '../../scripts/workload/variants.js';
import { makeRecord } from './make-record.js';

const sweepRecords = (/** @type {string} */ version, /** @type {number} */ f) => makeRecord({
  id: `r-${version}`, version,
  steps: [
    { name: 'point-query.c1', throughput: [100 * f, 110 * f, 90 * f] },
    { name: 'point-query.c2', throughput: [190 * f, 200 * f, 210 * f] },
    { name: 'point-query.c4', throughput: [300 * f, 310 * f, 290 * f] },
    { name: 'update-index', group: 'write', throughput: [50, 50, 50] },
  ],
});

test('compare and workload agree on sweep test names', () => {
  for (const [test, clients] of /** @type {[string, number][]} */ ([['point-query', 1], ['read-only.range10', 32], ['point-query.pre', 256]])) {
    const name = sweepTestName(test, clients);
    assert.deepEqual(parseSweepName(name), { test, clients });
    assert.deepEqual(parseSweepTestName(name), parseSweepName(name));
  }
  assert.equal(parseSweepName('read-only.range10'), null);
});

test('a sweep: a row per release, a column per count, ratios at the same count; verdicts per count', () => {
  const releases = [{ version: '10.11.18', records: [sweepRecords('10.11.18', 1)] }, { version: '10.11.19', records: [sweepRecords('10.11.19', 0.5)] }];
  const table = computeRelativeTable({ product: 'mariadb', line: '10.11', base: '10.11.18', releases });
  const [sweep, ...others] = computeSweepTables(table);
  assert.equal(others.length, 0, 'update-index is not swept');
  assert.deepEqual(sweep.clients, [1, 2, 4]);
  assert.deepEqual(sweep.rows.map((r) => r.cells.map((c) => c.median)), [[100, 200, 300], [50, 100, 150]]);
  assert.deepEqual(sweep.rows[1].cells.map((c) => c.ratio), [0.5, 0.5, 0.5]);
  const text = renderSweepTables([sweep], { format: 'terminal', base: '10.11.18' });
  const lines = text.split('\n');
  const header = lines.find((l) => l.startsWith('point-query'));
  assert.match(String(header), /^point-query\s+1 client\s+2 clients\s+4 clients$/);
  assert.match(String(lines.find((l) => l.startsWith('10.11.18'))), /^10\.11\.18 \(base\)\s+100\s+200\s+300$/);
  assert.match(String(lines.find((l) => l.startsWith('10.11.19'))), /^10\.11\.19\s+50\.0 \(0\.50\)\s+100 \(0\.50\)\s+150 \(0\.50\)$/);
  // The relative table, as `tagbench compare` prints it, carries the sweep at its end.
  const md = renderRelativeTable(table, { format: 'markdown' });
  assert.match(md, /### throughput by clients\n[^\n]*\n\n\| point-query \| 1 client \| 2 clients \| 4 clients \|\n\| --- \| ---: \| ---: \| ---: \|\n\| 10\.11\.18 \(base\) \| 100 \| 200 \| 300 \|\n\| 10\.11\.19 \| 50\.0 \(0\.50\) \| 100 \(0\.50\) \| 150 \(0\.50\) \|\n/);
  // Each count is a test of its own for the verdicts.
  const cmp = compareRuns({ base: releases[0], candidate: releases[1], thresholds: resolveThresholds({ confidence: 0.9, power: 0.8, groups: { point: { warn: 0.03, issue: 0.05 }, write: { warn: 0.03, issue: 0.05 } } }), createdAt: '2025-01-01T00:00:00Z' });
  const tp = cmp.tests.filter((t) => t.metric === 'throughput');
  assert.deepEqual(tp.map((t) => t.test).sort(), ['point-query.c1', 'point-query.c2', 'point-query.c4', 'update-index']);
});

test('a table without sweep tests renders no sweep section', () => {
  const table = computeRelativeTable({ product: 'mariadb', line: '10.11', base: '1', releases: [{ version: '1', records: [makeRecord({ id: 'a', version: '1', steps: [{ name: 'point-query', throughput: [1, 2, 3] }] })] }] });
  assert.deepEqual(computeSweepTables(table), []);
  assert.doesNotMatch(renderRelativeTable(table, { format: 'terminal' }), /by clients/);
});

/**
 * @param {string} version
 * @param {number} reads storage reads per operation of every repeat
 */
function ioRecord(version, reads) {
  const r = makeRecord({ id: `io-${version}`, version, steps: [{ name: 'point-query', throughput: [1000, 1100, 900], cpuUsPerOp: [1, 1, 1] }] });
  for (const rep of r.steps[0].repeats) if (rep.efficiency) rep.efficiency.readsPerOp = reads;
  return r;
}

test('reads per operation stand next to throughput once a run reads from storage, never for cached runs', () => {
  const io = computeRelativeTable({ product: 'mariadb', line: '10.11', base: 'a', releases: [{ version: 'a', records: [ioRecord('a', 1.25)] }, { version: 'b', records: [ioRecord('b', 2.5)] }] });
  assert.equal(io.groups[0].rows[0].cells.a.readsPerOp, 1.25);
  const text = renderRelativeTable(io, { format: 'terminal' });
  assert.match(text, /test\s+a \(base\)\s+reads\/op\s+b\s+reads\/op\s+ratio/);
  assert.match(text, /point-query\s+1000 \[900–1100\]\s+1\.25\s+1000 \[900–1100\]\s+2\.50\s+1\.00/);
  const cached = computeRelativeTable({ product: 'mariadb', line: '10.11', base: 'a', releases: [{ version: 'a', records: [ioRecord('a', 0.01)] }, { version: 'b', records: [ioRecord('b', 0)] }] });
  assert.doesNotMatch(renderRelativeTable(cached, { format: 'terminal' }), /reads\/op/);
});

test('a matrix: a table per cell, a row per release, a column per test', () => {
  const cell = (/** @type {number} */ f) => computeRelativeTable({
    product: 'mariadb', line: '10.11', base: '10.11.18',
    releases: ['10.11.18', '10.11.19'].map((version, i) => ({ version, records: [makeRecord({ id: `${version}-${f}`, version, steps: [{ name: 'point-query', throughput: [100 * f * (1 - i / 10)] }, { name: 'update-index', group: 'write', throughput: [40 * f] }] })] })),
  });
  const text = renderMatrixTables([
    { cell: 'compression-off', series: 'm--compression-off', table: cell(1) },
    { cell: 'compression-on', series: 'm--compression-on', table: cell(0.5) },
  ], { format: 'terminal', title: 'm on local' });
  const blocks = text.split('\n\n');
  assert.equal(blocks.length, 3, text);
  assert.match(blocks[1], /^compression-off \(series m--compression-off\)\nrelease\s+point-query\s+update-index\n10\.11\.18 \(base\)\s+100\s+40\.0\n10\.11\.19\s+90\.0 \(0\.90\)\s+40\.0 \(1\.00\)$/);
  assert.match(blocks[2], /^compression-on \(series m--compression-on\)\nrelease\s+point-query\s+update-index\n10\.11\.18 \(base\)\s+50\.0\s+20\.0\n10\.11\.19\s+45\.0 \(0\.90\)\s+20\.0 \(1\.00\)\n$/);
});
