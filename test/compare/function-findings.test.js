// Findings per function judged on real profiles: MariaDB 10.11.18 (Debian) counted under callgrind
// by `tagbench calibrate --meter instructions` (run 20261128T154233Z-c459e3, 3 rounds side by
// side): servers A and B of the same release (A/A), and S0p1, whose preload library adds 64
// instructions (0.1 % of a point select) in `tagbench_injected_cost` on each query answer.
// Trimmed to the functions that matter (the largest, those that moved most between servers, the
// library's): a function trimmed is gone from every file alike, so the rest judge as in full.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { judgeFunctionProfiles } from '../../scripts/compare/function-findings.js';
import { THRESHOLD_DEFAULTS } from '../../scripts/compare/thresholds.js';

/**
 * @param {string} label
 * @param {string} testName
 * @param {number} round
 * @returns {import('../../scripts/compare/function-diff.js').CompactProfile}
 */
function profile(label, testName, round) {
  return JSON.parse(readFileSync(new URL(`../fixtures/compare/function-findings/10.11.18-${label}-${testName}.i${round}.profile.json`, import.meta.url), 'utf8'));
}

/**
 * @param {string} base
 * @param {string} candidate
 * @param {string} testName
 */
function rounds(base, candidate, testName) {
  return [0, 1, 2].map((i) => ({ base: profile(base, testName, i), candidate: profile(candidate, testName, i) }));
}

const SHIPPED = THRESHOLD_DEFAULTS.functionFindings;
const INJECTED = 'tagbench_injected_cost';

test('an A/A pair (two servers of one release) gives no finding on point-query or read-only.range100', () => {
  for (const name of ['point-query', 'read-only.range100']) {
    const judged = judgeFunctionProfiles(rounds('A', 'B', name), SHIPPED);
    assert.ok(judged);
    assert.ok(judged.judged >= 30, `${name}: judged ${judged.judged} functions`);
    assert.deepEqual(judged.findings.map((f) => f.name), [], `${name}: no finding in A/A`);
  }
});

test('a cost of 0.1 % of a point select in one function of the preload library is found, named and sized', () => {
  const judged = judgeFunctionProfiles(rounds('A', 'S0p1', 'point-query'), SHIPPED);
  assert.ok(judged);
  // One finding: the library's send() rose only by what the injected function (its callee) adds,
  // which the self finding explains, so its inclusive rise is not listed again.
  assert.deepEqual(judged.findings.map((f) => [f.name, f.kind, f.measure]), [[INJECTED, 'appeared', 'self']]);
  const [f] = judged.findings;
  assert.match(f.object, /^[0-9a-f]{64}\.so$/);
  // 64 instructions per query asked (0.1 % of 63,261), plus the function's call and loop.
  assert.ok(f.deltaPerOp >= 64 && f.deltaPerOp < 72, `+${f.deltaPerOp} /op`);
  assert.ok(f.shareOfTotal > 0.001 && f.shareOfTotal < 0.0012, `${f.shareOfTotal} of the total`);
  assert.equal(f.shareOfFunction, null, 'nothing to be a share of: the base has no row');
  // Missing from every base round: the test takes the base at its cut (0.05 % of the process,
  // about 32 per query), so the least rise is about half the shown one.
  assert.ok(f.self.leastPerOp < f.deltaPerOp && f.self.leastPerOp >= judged.floorPerOp);
});

test('below the total\'s warn threshold, the cost is still named: on read-only.range100 by its caller in the library', () => {
  const r = rounds('A', 'S0p1', 'read-only.range100');
  const mean = (/** @type {number[]} */ xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ratio = mean(r.map((x) => /** @type {number} */ (x.candidate.queryPathPerOp))) / mean(r.map((x) => /** @type {number} */ (x.base.queryPathPerOp)));
  assert.ok(ratio - 1 < THRESHOLD_DEFAULTS.functionFindings.floorShare * 5 && ratio - 1 < 0.0025, `total moved ${ratio}`);
  const judged = judgeFunctionProfiles(r, SHIPPED);
  assert.ok(judged);
  // 64 per query is under this profile's cut (0.05 % of a 165k process): the injected function
  // has no row, and the deepest named function that carries it is the library's send().
  assert.deepEqual(judged.findings.map((f) => [f.name, f.kind, f.measure]), [['send', 'rose', 'inclusive']]);
  assert.match(judged.findings[0].object, /^[0-9a-f]{64}\.so$/);
  assert.ok(judged.findings[0].deltaPerOp > 60 && judged.findings[0].deltaPerOp < 70);
});

test('the floor keeps a rise smaller than it out', () => {
  // Over the injected function's least rise (about 35 /op) but under its caller's (64): the
  // library's send() carries the rise, named by its inclusive count.
  const caller = judgeFunctionProfiles(rounds('A', 'S0p1', 'point-query'), { ...SHIPPED, floorPerOp: 40 });
  assert.deepEqual(caller?.findings.map((f) => [f.name, f.measure]), [['send', 'inclusive']]);
  const none = judgeFunctionProfiles(rounds('A', 'S0p1', 'point-query'), { ...SHIPPED, floorPerOp: 70 });
  assert.deepEqual(none?.findings, [], 'a floor of 70 /op is over every rise');
  const share = judgeFunctionProfiles(rounds('A', 'S0p1', 'point-query'), { ...SHIPPED, floorShare: 0.0012 });
  assert.ok(share);
  assert.equal(share.floorPerOp, Math.max(SHIPPED.floorPerOp, 0.0012 * share.totalPerOp));
  assert.deepEqual(share?.findings, [], 'a floor of 0.12 % of 63k is 76 /op');
});

test('a rise seen in two rounds of three is not beyond the function\'s noise', () => {
  const r = rounds('A', 'S0p1', 'point-query');
  // Take the injected function out of the candidate's last round: the rounds now disagree.
  r[2].candidate = { ...r[2].candidate, functions: r[2].candidate.functions.filter((f) => f.name !== INJECTED) };
  const judged = judgeFunctionProfiles(r, SHIPPED);
  assert.equal(judged?.findings.some((f) => f.name === INJECTED), false);
});

test('fewer than two paired rounds are not judged', () => {
  assert.equal(judgeFunctionProfiles(rounds('A', 'S0p1', 'point-query').slice(0, 1), SHIPPED), null);
});
