/**
 * One question, one gated verdict (scripts/compare/context-verdicts.js): where a test's counted
 * verdict on the CPU cost of an operation decided, the timed CPU µs/op is context: outside the
 * family and the summary, never an issue, shown with its reason. On the real records of
 * test/fixtures/compare/time-and-work (wall and instructions, 10.11.18 vs 10.11.19, 3 paired
 * rounds, both tests counted and decided `unchanged`). Those records were made before the
 * instructions meter stated `answers`; each test gives them the facts the meter states now (what
 * a run made today writes), or leaves them as stored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { compareRuns, resolveThresholds, renderComparison, hasIssueRegression, listRegressedTests } from '../../scripts/compare/index.js';
import { markContextVerdicts } from '../../scripts/compare/context-verdicts.js';
import { readRecords } from '../../scripts/store/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { METERS } from '../../scripts/metrics/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIME_AND_WORK = fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url));

/**
 * The real comparison, the records changed first.
 * @param {{facts?: 'now'|'stored', dropCounted?: string, cpuTimes?: number}} [how] facts: the
 *   instructions meter's metric facts as it states them now, or as the records stored them;
 *   dropCounted: a test whose counted figures are taken out of both records; cpuTimes: the
 *   candidate's timed CPU µs/op of update-index multiplied by this (a CPU-time regression the
 *   instructions do not show)
 */
async function compareChanged({ facts = 'now', dropCounted, cpuTimes } = {}) {
  const records = await readRecords(TIME_AND_WORK);
  for (const r of records) {
    if (facts === 'now' && r.config.meterMetrics) r.config.meterMetrics.instructions = [...METERS.instructions.metrics];
    for (const step of r.steps) {
      if (step.name === dropCounted && step.meters) delete step.meters.instructions;
      if (cpuTimes && r.release.version === '10.11.19' && step.name === 'update-index') {
        for (const rep of step.repeats) if (rep.efficiency) rep.efficiency.cpuUsPerOp *= cpuTimes;
      }
    }
  }
  const { thresholds } = await loadConfig(ROOT);
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  return compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds: resolveThresholds(thresholds), createdAt: '2026-11-28T13:02:17Z' });
}

/** @param {Awaited<ReturnType<typeof compareChanged>>} cmp @param {string} name */
const cpuOf = (cmp, name) => cmp.tests.find((t) => t.test === name && t.metric === 'cpuUsPerOp');

test('the timed CPU µs/op is context where the counted instructions per op decided, and is outside the family and the summary', async () => {
  const cmp = await compareChanged();
  for (const name of ['point-query', 'update-index']) {
    const cpu = cpuOf(cmp, name);
    assert.equal(cpu?.context, true, `${name}: context`);
    assert.match(cpu?.reason ?? '', /^context: this test's CPU cost per operation is decided by its counted instructions per op in the query path \(unchanged, paired over 3 rounds\); the timed cpuUsPerOp \(µs\/op\), a noisier second answer to the same question, is shown, not gated\. Its own reading: cpuUsPerOp ratio/);
    assert.equal(cpu?.pAdjusted, undefined, 'no Holm adjustment: not a member of any family');
  }
  const gated = cmp.tests.filter((t) => !t.context);
  const members = gated.filter((t) => t.pWorse !== null && t.pWorse !== undefined);
  assert.equal(cmp.family?.size, members.length, 'the family is the gated verdicts only');
  assert.equal(cmp.family?.meters?.find((m) => m.meter === 'wall')?.size, members.filter((t) => t.meter === undefined).length);
  assert.equal(Object.values(cmp.summary).reduce((a, b) => a + b, 0), gated.length, 'the summary counts the gated verdicts only');
  // The same records as stored (no metric states the question it answers): both stay gated.
  const stored = await compareChanged({ facts: 'stored' });
  assert.equal(stored.tests.some((t) => t.context), false);
  assert.equal(stored.family?.size, /** @type {number} */ (cmp.family?.size) + 2, 'the two CPU µs/op verdicts are members when gated');
});

test('a test without a counted verdict keeps its timed CPU µs/op gated; the counted test beside it does not', async () => {
  const cmp = await compareChanged({ dropCounted: 'point-query' });
  assert.equal(cmp.tests.some((t) => t.test === 'point-query' && t.metric === 'instructionsPerOp'), false, 'point-query has no counted verdict now');
  const pointQuery = cpuOf(cmp, 'point-query');
  assert.equal(pointQuery?.context, undefined);
  assert.equal(typeof pointQuery?.pAdjusted, 'number', 'gated: Holm-adjusted within its meter');
  assert.equal(cpuOf(cmp, 'update-index')?.context, true);
});

test('a context verdict never opens an issue nor a confirmation rerun: the same CPU-time regression does both when no counted verdict decided its test', async () => {
  const gated = await compareChanged({ dropCounted: 'update-index', cpuTimes: 3 });
  assert.equal(cpuOf(gated, 'update-index')?.verdict, 'regression');
  assert.equal(cpuOf(gated, 'update-index')?.level, 'issue', 'gated, the tripled CPU time is an issue');
  assert.equal(hasIssueRegression(gated), true);
  assert.deepEqual(listRegressedTests(gated), ['update-index'], 'gated, it is rerun to be confirmed');
  const context = await compareChanged({ cpuTimes: 3 });
  const cpu = cpuOf(context, 'update-index');
  assert.equal(cpu?.verdict, 'regression', 'the timed verdict is kept');
  assert.equal(cpu?.level, 'warn');
  assert.match(cpu?.reason ?? '', /is shown, not gated \(so never an issue\)\. Its own reading: cpuUsPerOp ratio 2\.6/);
  assert.equal(hasIssueRegression(context), false);
  assert.deepEqual(listRegressedTests(context), [], 'as context it calls for no confirmation rerun');
  assert.equal(context.summary.regression, 0, 'not among the gated regressions');
});

test('the Markdown and the terminal show a context verdict with its reason', async () => {
  const cmp = await compareChanged({ cpuTimes: 3 });
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, /; 2 context \(shown, not gated\)\./);
  assert.match(md, /\| update-index \| cpuUsPerOp \|[^\n]*\| not gated \| 10\.0 % \| n\/a \| context, not gated: regression \(warn\) \|/);
  assert.match(md, /- \*\*point-query\*\* cpuUsPerOp: context, not gated: inconclusive: context: this test's CPU cost per operation is decided by its counted instructions per op/);
  const text = renderComparison(cmp, { format: 'terminal' });
  // The terminal: what they share once, then one short line each naming the counted verdict that decided.
  assert.match(text, /\ncontext \(shown, not gated: each is a timed second answer to a question its test's counted verdict decided; its full reason is in the Markdown report\):\n {2}update-index cpuUsPerOp: regression[^\n;]*; decided by its counted instructions per op in the query path \(unchanged, paired over 3 rounds\) \(so never an issue\)\n/);
  assert.match(text, /\n {2}point-query cpuUsPerOp: inconclusive; decided by its counted instructions per op in the query path \(unchanged, paired over 3 rounds\)\n/);
  assert.doesNotMatch(text, /a noisier second answer/, 'the shared words are not repeated per line');
  assert.doesNotMatch(text, /why:\n[^]*update-index cpuUsPerOp/, 'not listed among the verdicts that call for action');
});

test('a counted verdict that did not decide (inconclusive, failed) leaves the timed one gated; another question is not touched', () => {
  const verdict = (/** @type {Record<string, unknown>} */ v) => /** @type {import('../../scripts/compare/types.js').FullVerdict} */ (/** @type {unknown} */ ({ test: 't', level: null, reason: 'r', ...v }));
  const answers = { cpu: 'cpu-cost-per-op', count: 'cpu-cost-per-op' };
  const answersOf = (/** @type {import('../../scripts/compare/types.js').FullVerdict} */ v) => /** @type {Record<string, string>} */ (answers)[v.metric];
  for (const undecided of ['inconclusive', 'failed']) {
    const tests = [verdict({ metric: 'count', counted: true, verdict: undecided }), verdict({ metric: 'cpu', verdict: 'inconclusive' })];
    assert.equal(markContextVerdicts(tests, answersOf), 0, `counted ${undecided}: the timed one stays gated`);
    assert.equal(tests[1].context, undefined);
  }
  const tests = [verdict({ metric: 'count', counted: true, verdict: 'improvement' }), verdict({ metric: 'cpu', verdict: 'inconclusive' }), verdict({ metric: 'latency', verdict: 'inconclusive' }), verdict({ test: 'u', metric: 'cpu', verdict: 'inconclusive' })];
  assert.equal(markContextVerdicts(tests, answersOf), 1);
  assert.deepEqual(tests.map((t) => t.context), [undefined, true, undefined, undefined], 'only the same test\'s timed figure on the same question');
});
