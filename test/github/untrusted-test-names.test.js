/**
 * Test names from a pull request are untrusted (issue 34): a pull request's run hands its records
 * and comparison back as data, so every name in them is the author's. Rendered into the job
 * summary, the pull request's comment and check run (render-summary.js, render-verdict.js) and the
 * Markdown comparison (render-comparison.js), a name holding a link, HTML, backticks, a mention
 * and a newline must render as inert text: no link, no mention, no HTML, no code span it opened,
 * no extra table row. The comparison is a real one (the captured store of a real run) with one
 * test renamed, as a hostile run would hand it back. Checked with test/support/markdown-syntax.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readComparisonFile } from '../../scripts/store/index.js';
import { renderSummary } from '../../scripts/github/render-summary.js';
import { renderVerdict } from '../../scripts/github/render-verdict.js';
import { renderComparison, renderUntrustedText } from '../../scripts/compare/index.js';
import { linksAndMentions, outsideCodeSpans } from '../support/markdown-syntax.js';

const CAPTURED = fileURLToPath(new URL('../fixtures/github/captured-store/verdicts/local/mariadb/10.11.19/smoke/', import.meta.url));
const HOSTILE = 'pwn](https://evil.example) <script>alert(1)</script> `x` @octocat\n| forged | row |';
const SHA = '0123456789abcdef0123456789abcdef01234567';

/**
 * The first captured comparison with its first test renamed everywhere it appears.
 * @returns {Promise<{comparison: import('../../scripts/types.js').Comparison, original: string}>}
 */
async function hostileComparison() {
  const [first] = (await readdir(CAPTURED)).sort();
  const comparison = await readComparisonFile(join(CAPTURED, first));
  const original = comparison.tests[0].test;
  const text = JSON.stringify(comparison).split(JSON.stringify(original)).join(JSON.stringify(HOSTILE));
  return { comparison: JSON.parse(text), original };
}

/**
 * Cells of a table row, split where GitHub splits them (at a `|` not escaped).
 * @param {string} row
 */
function cells(row) {
  return row.split(/(?<!\\)\|/).length;
}

/**
 * Every way the hostile name could escape its text, checked on one rendered Markdown document.
 * @param {string} md
 * @param {string} where
 */
function assertInert(md, where) {
  assert.deepEqual(linksAndMentions(md), [], `${where}: no link or mention`);
  const plain = outsideCodeSpans(md);
  assert.doesNotMatch(plain, /<script/i, `${where}: no HTML`);
  assert.doesNotMatch(md, /^\| forged \| row \|/m, `${where}: the newline did not start a row`);
  assert.ok(md.includes('pwn\\]'), `${where}: the name is there, its bracket escaped`);
  // Every occurrence of the name is whole and inert: escaped, or its raw text inside a code span
  // (the span fence outruns its backticks, so the span holds all of it and outsideCodeSpans drops
  // it). A span the name's own backticks opened would leave a piece of it outside.
  const line = HOSTILE.replace(/\n/g, ' ');
  const count = (/** @type {string} */ text, /** @type {string} */ part) => text.split(part).length - 1;
  const escaped = count(md, renderUntrustedText(HOSTILE, { span: false }));
  const spanned = count(md, line) + count(md, line.replace(/\|/g, '\\|'));
  assert.ok(count(md, 'pwn') > 0, `${where}: the name is there`);
  assert.equal(escaped + spanned, count(md, 'pwn'), `${where}: every occurrence whole`);
  assert.equal(count(plain, 'pwn'), escaped, `${where}: every raw occurrence inside a code span`);
  for (const table of md.split(/\n(?!\|)/).filter((block) => block.startsWith('|'))) {
    const rows = table.split('\n').filter((r) => r.startsWith('|'));
    const width = cells(rows[0]);
    for (const row of rows) assert.equal(cells(row), width, `${where}: every row of a table has its head's cells: ${row}`);
  }
}

test('a hostile test name renders inert in the job summary, the comment and the check run', async () => {
  const { comparison, original } = await hostileComparison();
  const summary = renderSummary([comparison], [], { dryRun: false });
  assert.ok(summary.includes('| pwn\\]'), 'the renamed test has its row in the summary');
  assertInert(summary, 'job summary');
  const verdict = renderVerdict(comparison, { sha: SHA, reportUrl: null, siteUrl: null, runUrl: null });
  assertInert(verdict.comment, 'pull-request comment');
  assertInert(verdict.output.summary, 'check run summary');
  assert.ok(!comparison.tests.some((t) => t.test === original), 'the test was renamed everywhere');
});

test('a hostile test name renders inert in the Markdown comparison', async () => {
  const { comparison } = await hostileComparison();
  const md = renderComparison(/** @type {any} */ (comparison), { format: 'markdown' });
  assert.ok(md.includes('| pwn\\]'), 'the renamed test has its row in the table of every gated metric');
  assertInert(md, 'Markdown comparison');
});

test('a plain test name reads exactly as before (nothing escaped that needs no escape)', async () => {
  const [first] = (await readdir(CAPTURED)).sort();
  const comparison = await readComparisonFile(join(CAPTURED, first));
  const md = renderComparison(/** @type {any} */ (comparison), { format: 'markdown' });
  for (const t of comparison.tests) assert.ok(md.includes(`| ${t.test} | `), `${t.test} as it is`);
});
