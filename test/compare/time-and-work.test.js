// Time and work side by side (scripts/compare/time-and-work.js and its words), and the verdict
// words that never say "unchanged" for an interval excluding no change (verdict-words.js).
// The records of test/fixtures/store/meters (wall, counters and instructions figures of two
// releases, the store the meter seam was checked on) are compared as `tagbench compare` does;
// the disagreement cases are constructed verdicts, since no stored run has them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readComparisons, readRecords } from '../../scripts/store/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import {
  compareRuns, resolveThresholds, compareTimeAndWork, describeTimeAndWork, renderComparison, describeVerdict,
} from '../../scripts/compare/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STORE = fileURLToPath(new URL('../fixtures/store/meters/', import.meta.url));

/** The fixture store's comparison, 10.11.19 against 10.11.18, with the project's thresholds. */
async function storedComparison() {
  const records = await readRecords(STORE);
  const { thresholds } = await loadConfig(ROOT);
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  return compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds: resolveThresholds(thresholds), createdAt: '2025-03-02T00:00:00Z' });
}

/**
 * A verdict with only what the statement reads.
 * @param {string} metric
 * @param {string} verdict
 * @param {number} ratio
 * @param {[number, number]} ci
 * @param {{unit?: string, counted?: boolean, mde?: number, level?: string|null, higherIsBetter?: boolean}} [more]
 * @returns {any}
 */
function v(metric, verdict, ratio, ci, more = {}) {
  return {
    test: 'point-query', group: 'point', metric, verdict, ratio, ci, scale: 'log', mde: more.mde ?? null, level: more.level ?? null,
    unit: more.unit ?? 'op/s', higherIsBetter: more.higherIsBetter ?? false, reason: 'constructed', ...(more.counted ? { counted: true } : {}),
  };
}
const INSTR = { unit: 'instructions/op', counted: true };
const throughput = (/** @type {string} */ verdict, /** @type {number} */ ratio, /** @type {[number, number]} */ ci, mde = 0.03) =>
  v('throughput', verdict, ratio, ci, { mde, higherIsBetter: true, level: verdict === 'regression' || verdict === 'improvement' ? 'issue' : null });
const one = (/** @type {any[]} */ tests) => {
  const all = compareTimeAndWork({ tests });
  assert.equal(all.length, 1);
  return all[0];
};

test('the stored records: time undecided beside counted work says it cannot tell, and names the work that moved', async () => {
  const cmp = await storedComparison();
  const [s, ...rest] = compareTimeAndWork(cmp);
  assert.equal(rest.length, 0);
  assert.equal(s.test, 'point-query');
  assert.equal(s.agreement, 'undecided');
  assert.equal(s.moved, null);
  assert.deepEqual(s.work.map((f) => [f.metric, f.role, f.moved]), [['instructionsPerOp', 'cpu-work', 'worse'], ['processInstructionsPerOp', 'cpu-work', 'worse']]);
  assert.equal(s.counters, 'undecided');
  const text = describeTimeAndWork(s);
  assert.match(text, /^cannot tell whether time and work agree: time: throughput undecided; CPU work: instructionsPerOp \+4\.99 % \[4\.94, 5\.05\] \(regression/);
  assert.match(text, /Only decided verdicts decide, and throughput is undecided/);
  // shown in both reports
  assert.match(renderComparison(cmp, { format: 'terminal' }), /time and work \(tests judged by more than one meter.*0 of 1 disagree\):\n {2}point-query: cannot tell whether time and work agree/);
  assert.match(renderComparison(cmp, { format: 'markdown' }), /\*\*Time and work\.\*\*.*\n\n- \*\*point-query\*\*: cannot tell whether time and work agree/);
});

test('real records, timed and counted on a loaded host: the time undecided, the work unchanged — it cannot tell, and unchanged stays unchanged where the interval holds 1', async () => {
  const store = fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url));
  const [stored] = await readComparisons(store);
  assert.ok(stored, 'the captured comparison');
  const records = await readRecords(store);
  const { thresholds } = await loadConfig(ROOT);
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  const cmp = compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds: resolveThresholds(thresholds), createdAt: stored.createdAt });
  for (const c of [cmp, stored]) {
    const statements = compareTimeAndWork(/** @type {any} */ (c));
    assert.deepEqual(statements.map((s) => [s.test, s.agreement, s.time.moved, s.work.map((f) => f.moved).join()]),
      [['update-index', 'undecided', 'undecided', 'none,none'], ['point-query', 'undecided', 'undecided', 'none,none']]);
    assert.equal(describeTimeAndWork(statements[1]), 'cannot tell whether time and work agree: time: throughput undecided; CPU work: instructionsPerOp unchanged, processInstructionsPerOp unchanged. '
      + 'Only decided verdicts decide, and throughput is undecided.');
  }
  const counted = cmp.tests.find((t) => t.test === 'point-query' && t.metric === 'instructionsPerOp');
  assert.ok(counted?.ci && counted.ci[0] < 1 && counted.ci[1] > 1, 'its interval holds no change');
  assert.equal(describeVerdict(counted), 'unchanged');
});

test('slower with the same instructions: they disagree, and it points to waiting rather than CPU work', () => {
  const s = one([throughput('regression', 0.9, [0.88, 0.92]), v('instructionsPerOp', 'unchanged', 1.0025, [1.0022, 1.0028], INSTR)]);
  assert.equal(s.agreement, 'disagree');
  assert.equal(s.moved, 'time');
  assert.equal(s.pointsTo, 'waiting');
  assert.equal(describeTimeAndWork(s), 'time and work disagree: time: throughput -10.0 % [-12.0, -8.0] (regression, issue); CPU work: instructionsPerOp +0.25 % [0.22, 0.28], under the warn threshold. Time moved and the work did not: this points to waiting (I/O, locks, the host) rather than CPU work.');
});

test('where the counters ran: unchanged cycles say the time was off the CPU; cycles that moved with the time say the CPU ran slower', () => {
  const base = [throughput('regression', 0.9, [0.88, 0.92]), v('instructionsPerOp', 'unchanged', 1.0001, [0.9999, 1.0003], INSTR)];
  const off = one([...base, v('cyclesPerOp', 'unchanged', 1.002, [0.99, 1.01], { unit: 'cycles/op' }), v('ipc', 'unchanged', 0.999, [0.99, 1.01], { unit: 'instructions/cycle', higherIsBetter: true })]);
  assert.equal(off.counters, 'off-cpu');
  assert.equal(off.pointsTo, 'waiting');
  assert.match(describeTimeAndWork(off), /; counters: cycles per operation did not move, so the time was spent off the CPU, waiting \(cyclesPerOp unchanged, ipc unchanged\)\.$/);
  const slow = one([...base, v('cyclesPerOp', 'regression', 1.11, [1.09, 1.13], { unit: 'cycles/op', level: 'issue' }), v('ipc', 'regression', 0.9, [0.88, 0.92], { unit: 'instructions/cycle', higherIsBetter: true, level: 'issue' })]);
  assert.equal(slow.counters, 'stalls');
  assert.equal(slow.agreement, 'disagree');
  assert.equal(slow.pointsTo, 'cpu-speed');
  assert.match(describeTimeAndWork(slow), /the same work ran at another speed on the CPU .*, not waiting; counters: cycles per operation moved while the instructions did not.*\(cyclesPerOp \+11\.0 % \[9\.0, 13\.0\] \(regression, issue\), ipc -10\.0 % \[-12\.0, -8\.0\] \(regression, issue\)\)\.$/);
});

test('more instructions and the same time: CPU work hidden by waiting, unless time could not have seen it', () => {
  const hidden = one([throughput('unchanged', 1.0, [0.99, 1.01], 0.02), v('instructionsPerOp', 'regression', 1.05, [1.049, 1.051], { ...INSTR, level: 'issue' })]);
  assert.equal(hidden.agreement, 'disagree');
  assert.equal(hidden.moved, 'work');
  assert.equal(hidden.pointsTo, 'hidden-work');
  assert.match(describeTimeAndWork(hidden), /^time and work disagree: time: throughput unchanged; CPU work: instructionsPerOp \+5\.0 % \[4\.9, 5\.1\] \(regression, issue\)\. The work rose and time did not: CPU work hidden by waiting/);
  const unseen = one([throughput('unchanged', 1.0, [0.95, 1.05], 0.08), v('instructionsPerOp', 'regression', 1.01, [1.009, 1.011], { ...INSTR, level: 'warn' })]);
  assert.equal(unseen.agreement, 'agree');
  assert.equal(unseen.pointsTo, 'below-time-resolution');
  assert.match(describeTimeAndWork(unseen), /The work moved by less than the smallest change the timed verdict can detect \(8\.0 %\), so time could not have shown it\.$/);
});

test('a time that moved under its threshold, the way the work moved past its own, agrees with it', () => {
  const s = one([throughput('unchanged', 0.985, [0.972, 0.997], 0.03), v('instructionsPerOp', 'regression', 1.02, [1.019, 1.021], { ...INSTR, level: 'issue' })]);
  assert.equal(s.time.lean, 'worse');
  assert.equal(s.agreement, 'agree');
  assert.equal(s.moved, 'both');
  assert.equal(describeTimeAndWork(s), 'time and work agree: time: throughput -1.5 % [-2.8, -0.3], under the warn threshold; CPU work: instructionsPerOp +2.0 % [1.9, 2.1] (regression, issue). '
    + 'Both moved the same way: the time follows the CPU work (the time by less than its warn threshold).');
  // The same time leaning the other way (faster) does not agree with more work.
  const against = one([throughput('unchanged', 1.015, [1.003, 1.028], 0.01), v('instructionsPerOp', 'regression', 1.02, [1.019, 1.021], { ...INSTR, level: 'issue' })]);
  assert.equal(against.agreement, 'disagree');
  assert.equal(against.pointsTo, 'hidden-work');
});

test('a work meter plugs in by its facts (a counted metric in another unit is the server\'s own work), whatever its name', () => {
  const s = one([
    throughput('regression', 0.9, [0.88, 0.92]),
    v('instructionsPerOp', 'unchanged', 1.0, [0.9998, 1.0002], INSTR),
    v('madeUpPagesReadPerOp', 'regression', 1.4, [1.3, 1.5], { unit: 'pages/op', counted: true, level: 'issue' }),
  ]);
  assert.deepEqual(s.work.map((f) => f.role), ['cpu-work', 'server-work']);
  assert.equal(s.agreement, 'agree');
  assert.equal(s.pointsTo, 'server-work');
  assert.match(describeTimeAndWork(s), /; server work: madeUpPagesReadPerOp \+40\.0 % \[30\.0, 50\.0\] \(regression, issue\)\. Both moved the same way, the server's own work with them/);
});

test('faster with the same work points to less waiting; a test judged by one meter has no statement', () => {
  const s = one([throughput('improvement', 1.12, [1.1, 1.14]), v('instructionsPerOp', 'unchanged', 1.0, [0.9999, 1.0001], INSTR)]);
  assert.equal(s.pointsTo, 'less-waiting');
  assert.match(describeTimeAndWork(s), /this points to less waiting \(I\/O, locks, the host\) rather than less CPU work\.$/);
  assert.deepEqual(compareTimeAndWork({ tests: [throughput('regression', 0.9, [0.88, 0.92]), v('latencyP95Ms', 'regression', 1.1, [1.05, 1.15], { unit: 'ms' })] }), []);
  // Timed and counters only: the cycles stand in for the work.
  const cycles = one([throughput('regression', 0.9, [0.88, 0.92]), v('cyclesPerOp', 'unchanged', 1.0, [0.99, 1.01], { unit: 'cycles/op' })]);
  assert.equal(describeTimeAndWork(cycles), 'time and cycles disagree: time: throughput -10.0 % [-12.0, -8.0] (regression, issue); cycles: cyclesPerOp unchanged. Cycles per operation did not move, so the time was spent off the CPU, waiting.');
  // Work undecided: never a guess either way.
  const undecided = one([throughput('regression', 0.9, [0.88, 0.92]), v('instructionsPerOp', 'inconclusive', 1.002, [0.99, 1.01], INSTR)]);
  assert.equal(undecided.agreement, 'undecided');
  assert.match(describeTimeAndWork(undecided), /CPU work: instructionsPerOp undecided\. Only decided verdicts decide, and instructionsPerOp is undecided\.$/);
});

test('"unchanged" is not printed for an interval that excludes no change, in the terminal and the Markdown', async () => {
  assert.equal(describeVerdict(v('instructionsPerOp', 'unchanged', 1.0025, [1.0022, 1.0028], INSTR)), '+0.25 % [0.22, 0.28], under the warn threshold');
  assert.equal(describeVerdict(v('throughput', 'unchanged', 0.98, [0.97, 0.995])), '-2.0 % [-3.0, -0.5], under the warn threshold');
  assert.equal(describeVerdict(v('throughput', 'unchanged', 1.001, [0.99, 1.01])), 'unchanged');
  assert.equal(describeVerdict({ verdict: 'unchanged', scale: 'linear', ratio: null, ci: null, difference: 0.02, differenceCi: [0.01, 0.03], unit: 'ratio' }), '+0.0200 ratio [0.0100, 0.0300], under the warn threshold');
  // The stored comparison with its query-path verdict as the issue's injected cost measured it.
  const cmp = await storedComparison();
  const tests = cmp.tests.map((t) => (t.metric === 'instructionsPerOp' ? { ...t, verdict: /** @type {const} */ ('unchanged'), level: null, ratio: 1.0025, ci: /** @type {[number, number]} */ ([1.0022, 1.0028]) } : t));
  const shown = { ...cmp, tests };
  const terminal = renderComparison(shown, { format: 'terminal' });
  const line = terminal.split('\n').find((l) => l.startsWith('point-query') && l.includes('1.00250'));
  assert.ok(line, terminal);
  assert.match(line, /\+0\.25 % \[0\.22, 0\.28\], under the warn threshold$/);
  assert.doesNotMatch(line, /unchanged/);
  const markdown = renderComparison(shown, { format: 'markdown' });
  const row = markdown.split('\n').find((l) => l.startsWith('| point-query | instructionsPerOp |'));
  assert.ok(row);
  assert.match(row, /\| \+0\.25 % \[0\.22, 0\.28\], under the warn threshold \|$/);
  assert.match(markdown, /\| \*\*\+0\.25 % \[0\.22, 0\.28\], under the warn threshold\*\* \|/, 'the glance table too');
});
