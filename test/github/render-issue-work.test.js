// The work counters beside the functions in a regression issue (renderWorkBeside), on a real
// comparison: the demo of 2026-11-28 17:39 (MariaDB 10.11.19 vs 10.11.18, /tmp/demo-results),
// trimmed to range-covered-si, whose instructions per operation rose with its functions named and
// whose 9 counted work counters did not move. Its instructions verdict was a warning, not
// confirmed: the tests raise it to a confirmed issue, as a confirmation rerun would, so that the
// issue is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderIssue, renderWorkBeside } from '../../scripts/github/render-issue.js';

const context = { siteUrl: null, runUrl: null, label: 'tagbench-regression' };

/** @returns {import('../../scripts/types.js').Comparison} the fixture, its instructions verdict a confirmed issue */
function demoComparison() {
  const cmp = JSON.parse(readFileSync(new URL('../fixtures/github/work-beside/demo-range-covered-si.json', import.meta.url), 'utf8'));
  const t = cmp.tests.find((/** @type {any} */ v) => v.metric === 'instructionsPerOp');
  Object.assign(t, { level: 'issue', confirmed: true });
  return cmp;
}

test('no counter moved: the issue says so beside the functions, with the counters\' figures', () => {
  const plan = renderIssue(demoComparison(), new Map(), context);
  assert.ok(plan);
  const body = plan.body;
  const functions = body.indexOf('Where the instructions went: range-covered-si');
  const work = body.indexOf('**Server work of `range-covered-si`**');
  assert.ok(functions >= 0 && work > functions, 'the work line follows the functions');
  assert.match(body, /none of its 9 gated counters moved \(rows read per op 114\.3 → 114\.3, index lookups per op 1\.00 → 1\.00, rows read along an index per op 113\.3 → 113\.3, buffer pool page requests per op 4\.28 → 4\.28\): the same work per operation/);
});

test('counters that moved are named with their verdicts, the unchanged ones counted', () => {
  const cmp = demoComparison();
  const t = /** @type {any} */ (cmp.tests.find((v) => v.metric === 'instructionsPerOp'));
  const pages = /** @type {any} */ (cmp.tests.find((v) => v.metric === 'bufferPoolRequestsPerOp'));
  // As if the candidate's plan had read more pages per operation.
  Object.assign(pages, { verdict: 'regression', candidate: { ...pages.candidate, median: 5.61 } });
  const text = renderWorkBeside(t, cmp);
  assert.match(text, /buffer pool page requests per op 4\.28 → 5\.61 \(regression\); 8 other counters unchanged: the release does more \(or other\) work per operation/);
  assert.doesNotMatch(text, /rows read per op/, 'unmoved counters are counted, not listed');
});

test('without counted work verdicts: the timed repeats\' counters that moved most, marked as context', () => {
  const cmp = demoComparison();
  const t = /** @type {any} */ (cmp.tests.find((v) => v.metric === 'instructionsPerOp'));
  cmp.tests = cmp.tests.filter((v) => /** @type {any} */ (v).meter !== 'work');
  assert.equal(renderWorkBeside(t, cmp), '', 'no work figures at all: nothing');
  cmp.timedWork = [{ test: 'range-covered-si', repeats: { base: 3, candidate: 3 }, counters: [
    { counter: 'pagesWritten', base: 0.21, candidate: 0.34 }, { counter: 'rowsRead', base: 114.3, candidate: 114.3 }, { counter: 'tmpTables', base: 0, candidate: 0.001 },
    { counter: 'logFsyncs', base: null, candidate: null, missing: 'MariaDB reports no Innodb_os_log_fsyncs' },
  ] }];
  const text = renderWorkBeside(t, cmp);
  assert.match(text, /on the timed repeats\*\* \(context, not gated: .*\): pages written\/op 0\.210 → 0\.340, rows read\/op 114\.3 → 114\.3\./);
  assert.doesNotMatch(text, /tmp tables|log fsyncs/, 'counters under a hundredth per op and missing ones are left out');
});
