/**
 * The counted calibration names what the product names: its "found" is compare's function
 * findings (judgeFunctionProfiles, as attach-function-moves.js attaches them to a run's
 * query-path verdicts), judged here on real trimmed profiles of a calibration run
 * (test/fixtures/compare/function-findings: MariaDB 10.11.18 A, B and S0p1, +64 instructions per
 * query in the preload library's tagbench_injected_cost, 3 rounds side by side).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { judgeFunctionProfiles } from '../../../scripts/compare/index.js';
import { THRESHOLD_DEFAULTS } from '../../../scripts/compare/thresholds.js';
import { summarizeCountedRun, summarizeCountedCalibration } from '../../../scripts/verify/calibrate/summarize.js';
import { renderCountedCalibration } from '../../../scripts/verify/calibrate/render.js';

const JUDGED = { queryPath: { metric: 'instructionsPerOp' }, process: { metric: 'processInstructionsPerOp' } };
const TESTS = ['point-query', 'read-only.range100'];

/**
 * @param {string} label
 * @param {string} name
 * @param {number} round
 */
function profile(label, name, round) {
  return JSON.parse(readFileSync(new URL(`../../fixtures/compare/function-findings/10.11.18-${label}-${name}.i${round}.profile.json`, import.meta.url), 'utf8'));
}

/**
 * A comparison of A with a server, as the calibration round holds it after attachFunctionMoves:
 * the query-path verdict of each test under its threshold (unchanged), with the findings.
 * @param {string} label
 * @returns {any}
 */
function comparisonOf(label) {
  return {
    family: null,
    tests: TESTS.flatMap((name) => [
      {
        test: name, metric: 'instructionsPerOp', verdict: 'unchanged', level: null, ratio: 1.001, base: { n: 3 }, candidate: { n: 3 }, noiseCv: 0,
        functions: { queryPathDelta: 64, totalDelta: 66, unnamedDelta: 0.4, added: [] },
        functionFindings: judgeFunctionProfiles([0, 1, 2].map((i) => ({ base: profile('A', name, i), candidate: profile(label, name, i) })), THRESHOLD_DEFAULTS.functionFindings),
      },
      { test: name, metric: 'processInstructionsPerOp', verdict: 'unchanged', level: null, ratio: 1.001, base: { n: 3 }, candidate: { n: 3 }, noiseCv: 0 },
    ]),
  };
}

test('the injected 0.1 % is found by the function findings on both tests though no total is detected: by itself on point-query, by its caller in the library on read-only.range100', () => {
  const run = summarizeCountedRun(1, ['0.001'], { aa: comparisonOf('B'), injected: { S0p1: comparisonOf('S0p1') }, runIds: {}, confirmRunIds: [], noise: {} }, 100, '2026-11-28T16:00:00.000Z', JUDGED);
  const [injection] = run.injections;
  const point = injection.attribution['point-query'];
  assert.deepEqual([point.injected.name, point.injected.kind, point.injected.measure, point.injected.first], ['tagbench_injected_cost', 'appeared', 'self', true]);
  assert.ok(Math.abs(point.injectedSelfDelta - 64) < 8, `self +${point.injectedSelfDelta} per point select`);
  const range = injection.attribution['read-only.range100'];
  assert.deepEqual([range.injected.name, range.injected.measure], ['send', 'inclusive'], 'below the profile\'s cut, the library\'s send() carries it');
  assert.equal(range.injectedSelfDelta, 0, 'no self count of the injected function there');

  const injections = [{ name: '0.001', label: 'S0p1', share: 0.001, instructions: 64, mycnf: null }];
  const summary = summarizeCountedCalibration([run], injections, JUDGED, 'instructions');
  for (const name of TESTS) {
    const t = summary.detection['0.001'].byTest[name];
    assert.equal(t.detected, 0, `${name}: the total stays under the threshold`);
    assert.deepEqual({ judged: t.named.judged, found: t.named.found, first: t.named.first }, { judged: 1, found: 1, first: 1 }, name);
  }
  assert.deepEqual(summary.detection['0.001'].byTest['point-query'].firstNames, { tagbench_injected_cost: 1 });
  assert.deepEqual(summary.detection['0.001'].byTest['read-only.range100'].firstNames, { send: 1 });

  const md = renderCountedCalibration({ format: 'tagbench-calibration-instructions/1', meter: 'instructions', tests: TESTS, thresholds: { instructionsPerOp: null, processInstructionsPerOp: null }, injections, runs: [{ ...run, loadAverage: { one: 0.5 } }], calls: [], ...summary });
  assert.match(md, /\| 0\.1 % \(\+64\) \| point-query \| 1 \| 0 \| .* \| found in 1 of 1 \(2\.5 %–100\.0 %\); largest: `tagbench_injected_cost` 1 \| 0 of 1 \|/);
  assert.match(md, /\| 0\.1 % \(\+64\) \| read-only\.range100 \| 1 \| 0 \| .* \| found in 1 of 1 .*; largest: `send` 1 \|/);
  assert.match(md, /\| S0p1 \| point-query \| 1 \| `tagbench_injected_cost` appeared \+67\.1 \|/, 'the largest findings of the last run');
});

test('an A/A pair has no finding, and a run without findings (profiles not judged per function) is not counted as judged', () => {
  const aa = summarizeCountedRun(1, ['0.001'], { aa: comparisonOf('B'), injected: { S0p1: comparisonOf('B') }, runIds: {}, confirmRunIds: [], noise: {} }, 100, '2026-11-28T16:00:00.000Z', JUDGED);
  assert.equal(aa.injections[0].attribution['point-query'].injected, null);
  assert.deepEqual(aa.injections[0].attribution['point-query'].findings, []);
  const unjudged = structuredClone(aa);
  for (const a of Object.values(unjudged.injections[0].attribution)) /** @type {any} */ (a).findings = null;
  const summary = summarizeCountedCalibration([aa, unjudged], [{ name: '0.001', label: 'S0p1', share: 0.001, instructions: 64, mycnf: null }], JUDGED, 'instructions');
  const t = summary.detection['0.001'].byTest['point-query'];
  assert.equal(t.trials, 2);
  assert.deepEqual({ judged: t.named.judged, found: t.named.found }, { judged: 1, found: 0 });
  assert.deepEqual(t.firstNames, { '(no finding)': 1 });
});
