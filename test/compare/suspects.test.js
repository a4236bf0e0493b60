/**
 * Suspects: inconclusive verdicts that lean the bad way, told apart from noise, with what would
 * settle them; through compareRuns on records shaped like the demo's (five rounds side by side).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, renderComparison, findSuspects } from '../../scripts/compare/index.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 } } });
const id = (/** @type {string} */ v) => `20261122T200823Z-local-mariadb-${v}-smoke-abc123`;
const instances = [0, 1, 2, 3, 4];

/**
 * @param {Record<string, [number[], number[]]>} tests base and candidate throughput per round
 */
function compare(tests) {
  const side = (/** @type {0|1} */ k, /** @type {string} */ v) => makeRecord({ id: id(v), version: v, steps: Object.entries(tests).map(([name, pair]) => ({ name, throughput: pair[k], instances })) });
  return compareRuns({ base: { version: '1', records: [side(0, '1')] }, candidate: { version: '2', records: [side(1, '2')] }, thresholds, createdAt: 'x' });
}

test('a verdict leaning the bad way is a suspect, one straddling no change is noise; each suspect says what would settle it', () => {
  const cmp = compare({
    // Like the demo's l.i1: four of five rounds 28-57 % slower, one 30 % faster.
    leaning: [[1000, 1000, 1000, 1000, 1000], [700, 430, 720, 600, 1300]],
    // Like scan: rounds all over the place, centred on no change.
    noise: [[1000, 1000, 1000, 1000, 1000], [450, 2200, 1000, 600, 1700]],
    // A steady 2 % drop: decided (unchanged at these thresholds or a warn), never a suspect.
    steady: [[1000, 1010, 990, 1000, 1005], [980, 990, 970, 981, 985]],
  });
  const byTest = Object.fromEntries(cmp.tests.map((t) => [t.test, t]));
  assert.equal(byTest.leaning.verdict, 'inconclusive', byTest.leaning.reason);
  assert.equal(byTest.noise.verdict, 'inconclusive', byTest.noise.reason);
  assert.notEqual(byTest.steady.verdict, 'inconclusive', byTest.steady.reason);
  const suspects = findSuspects(cmp);
  assert.deepEqual(suspects.map((s) => s.test), ['leaning']);
  const [s] = suspects;
  assert.ok(s.badShare >= 0.9 && s.badShare < 1, `share on the bad side ${s.badShare}`);
  assert.equal(s.pastIssue, true);
  assert.equal(s.paired, true);
  assert.equal(s.instances, 5);
  assert.ok(s.settleInstances === null || s.settleInstances > 5, `settle at ${s.settleInstances}`);
  // A 30 % lean needs fewer rounds to confirm or dismiss than the 5 % threshold needs to settle.
  assert.ok(s.estimateInstances !== null && s.estimateInstances > 5 && (s.settleInstances === null || s.estimateInstances < s.settleInstances), `estimate at ${s.estimateInstances}, threshold at ${s.settleInstances}`);
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, /\*\*Suspects\.\*\* 1 inconclusive throughput or instruction verdict\(s\) lean the bad way/);
  assert.match(md, /\| leaning \| throughput \| 0\.\d{3} \[0\.\d{3}, 1\.\d{3}\] \| \d+ % of its interval is on the bad side and its estimate is past the issue threshold \| about \d+ rounds per side would show whether a change of the estimate's size is real; (the issue threshold is not settled by more rounds at this noise|about \d+ rounds per side would settle it at the issue threshold \(has 5)/);
  assert.doesNotMatch(md, /\| noise \| throughput \| [^|]+ \| \d+ % of its interval/);
  const term = renderComparison(cmp, { format: 'terminal' });
  assert.match(term, /suspects: 1 inconclusive throughput or instruction verdict\(s\) lean the bad way[^\n]*:\n {2}leaning throughput 0\.\d{3} \[/);
});

test('how many rounds settle a suspect falls as its noise falls; a lower-is-better metric leans the other way; secondary metrics are left out', () => {
  const settle = (/** @type {number} */ noiseCv) => findSuspects(/** @type {any} */ ({
    thresholds: { confidence: 0.9, power: 0.8 },
    tests: [{ test: 't', metric: 'throughput', verdict: 'inconclusive', scale: 'log', higherIsBetter: true, ratio: 0.93, ci: [0.8, 1.02], pairedRounds: 3, noiseCv, noiseDf: 2, threshold: { warn: 0.03, issue: 0.05 } }],
  }))[0].settleInstances;
  const quiet = settle(0.02);
  const loud = settle(0.05);
  assert.ok(quiet !== null && loud !== null && quiet < loud, `${quiet} rounds at 2 % noise, ${loud} at 5 %`);
  assert.equal(settle(0.5), null, 'at 50 % noise no number of rounds up to 60 settles a 5 % threshold');
  const counted = findSuspects(/** @type {any} */ ({
    tests: [
      { test: 'up', metric: 'instructionsPerOp', verdict: 'inconclusive', scale: 'log', higherIsBetter: false, ratio: 1.004, ci: [0.9998, 1.008], pairedRounds: 3, noiseCv: 0.003, noiseDf: 2, threshold: { warn: 0.0025, issue: 0.005 } },
      { test: 'down', metric: 'instructionsPerOp', verdict: 'inconclusive', scale: 'log', higherIsBetter: false, ratio: 0.996, ci: [0.992, 1.0002], pairedRounds: 3, noiseCv: 0.003, noiseDf: 2, threshold: { warn: 0.0025, issue: 0.005 } },
      // Leaning as far, but a secondary metric: its many verdicts would bury the suspects in chance.
      { test: 'slow', metric: 'latencyP95Ms', verdict: 'inconclusive', scale: 'log', higherIsBetter: false, ratio: 1.2, ci: [0.99, 1.4], base: { n: 3 }, candidate: { n: 3 }, noiseCv: 0.1, noiseDf: 4, threshold: { warn: 0.05, issue: 0.1 } },
    ],
  }));
  assert.deepEqual(counted.map((s) => s.test), ['up'], 'instructions that rose are the suspect; fewer instructions, or a latency, are not');
});

test('a stored verdict without its thresholds (older comparisons, hand-written ones) is judged a suspect by its interval alone, without failing', () => {
  const suspects = findSuspects(/** @type {any} */ ({
    tests: [
      { test: 'old', metric: 'throughput', verdict: 'inconclusive', higherIsBetter: true, ratio: 0.9, ci: [0.8, 1.005], base: { n: 3 }, candidate: { n: 3 } },
      { test: 'no-interval', metric: 'throughput', verdict: 'inconclusive', higherIsBetter: true, ratio: 0.8, ci: null },
    ],
  }));
  assert.deepEqual(suspects.map((s) => [s.test, s.pastIssue, s.settleInstances]), [['old', false, null]]);
});
