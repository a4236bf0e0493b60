// The counted figures per test: every counted verdict of a test in a table (Markdown), or the
// ones that moved in a line (terminal); timed verdicts are not in it. The figures are those of
// the buffer-pool calibration in bench/work-meter.md (MariaDB 10.11.18, 512M vs 6M pool).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCountedTable } from '../../scripts/compare/render-counted-table.js';

/**
 * @param {string} testName
 * @param {string} metric
 * @param {string} unit
 * @param {number} base
 * @param {number} candidate
 * @param {string} verdict
 * @param {boolean} [counted]
 */
function verdict(testName, metric, unit, base, candidate, verdict, counted = true) {
  return { test: testName, metric, unit, base: { median: base }, candidate: { median: candidate }, ratio: candidate / base, verdict, ...(counted ? { counted: true } : {}) };
}

const cmp = /** @type {any} */ ({
  tests: [
    verdict('insert', 'throughput', 'qps', 900, 850, 'inconclusive', false),
    verdict('insert', 'pagesWrittenPerOp', 'pages/op', 0.35, 3.66, 'regression'),
    verdict('insert', 'rowsReadPerOp', 'rows/op', 1, 1, 'unchanged'),
    verdict('point-query', 'indexLookupsPerOp', 'lookups/op', 1, 1, 'unchanged'),
  ],
});

test('Markdown: a table per test with base and candidate of every counted verdict, no timed one', () => {
  const md = renderCountedTable(cmp, { format: 'markdown' });
  assert.match(md, /insert:\n\n\| figure \| unit \| base \| candidate \| ratio \| verdict \|/);
  assert.match(md, /\| pagesWrittenPerOp \| pages\/op \| 0\.350 \| 3\.66 \| .+ \| regression \|/);
  assert.match(md, /point-query:\n\n\|/);
  assert.doesNotMatch(md, /throughput/);
});

test('terminal: one line per test, the figures that moved named with their values, the rest counted', () => {
  const text = renderCountedTable(cmp, { format: 'terminal' });
  assert.match(text, /  insert: 1 unchanged; pagesWrittenPerOp 0\.350 -> 3\.66 \(.+, regression\)\n/);
  assert.match(text, /  point-query: 1 unchanged\n/);
});

test('no counted verdicts, no section', () => {
  assert.equal(renderCountedTable(/** @type {any} */ ({ tests: [cmp.tests[0]] }), { format: 'markdown' }), '');
});

test('a counted ratio at the five decimals every page gives it (the demo\'s range-covered-si medians: 1.00300), never "1.003"', () => {
  const demo = /** @type {any} */ ({ tests: [verdict('range-covered-si', 'instructionsPerOp', 'instructions/op', 351656, 352710, 'regression')] });
  assert.match(renderCountedTable(demo, { format: 'markdown' }), /\| instructionsPerOp \| instructions\/op \| 351656 \| 352710 \| 1\.00300 \| regression \|/);
  assert.match(renderCountedTable(demo, { format: 'terminal' }), /instructionsPerOp 351656 -> 352710 \(1\.00300, regression\)/);
});
