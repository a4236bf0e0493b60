/**
 * The exact rank-sum p-value and Holm's adjustment that decide what reaches a person.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeRankSumP, adjustHolm, minInstancesFor } from '../../scripts/compare/index.js';
import { computeUCounts } from '../../scripts/compare/shift-interval.js';

test('without ties the p-value is the exact Mann-Whitney tail (checked against the U distribution)', () => {
  // y entirely below x: the most extreme ranking, 1 / C(6, 3)
  assert.equal(computeRankSumP([10, 11, 12], [1, 2, 3], 'less'), 1 / 20);
  assert.equal(computeRankSumP([10, 11, 12], [1, 2, 3], 'greater'), 1);
  // one inversion: U(y > x) = 1 -> P(U <= 1) = 2 / 20
  assert.equal(computeRankSumP([10, 11, 12], [1, 2, 10.5], 'less'), 2 / 20);
  // against the independent recurrence for 5 vs 4
  const x = [5, 7, 9, 11, 13];
  const y = [6, 8, 3, 4];
  const u = y.reduce((s, yi) => s + x.filter((xi) => yi > xi).length, 0);
  const counts = computeUCounts(5, 4);
  const total = counts.reduce((a, b) => a + b, 0);
  const tail = counts.slice(0, u + 1).reduce((a, b) => a + b, 0) / total;
  assert.ok(Math.abs((computeRankSumP(x, y, 'less') ?? 0) - tail) < 1e-15);
});

test('ties get mid-ranks and the exact distribution of those ranks', () => {
  // every value equal: no evidence either way
  assert.equal(computeRankSumP([0, 0, 0], [0, 0, 0], 'less'), 1);
  // stall shares often tie at 0: two zeros each side, the candidate's others higher
  const p = computeRankSumP([0, 0, 0.01], [0, 0, 0.2], 'greater') ?? 0;
  assert.ok(p > 1 / 20 && p < 1, `p ${p}`);
  assert.equal(computeRankSumP([], [1], 'less'), null);
});

test('Holm: adjusted p-values are monotone and at least the raw ones', () => {
  const adj = adjustHolm([0.01, 0.04, 0.03, 0.2]);
  assert.deepEqual(adj.map((v) => Number(v.toFixed(6))), [0.04, 0.09, 0.09, 0.2]);
  assert.deepEqual(adjustHolm([]), []);
});

test('minimum instances per side the exact test needs for a one-sided level', () => {
  assert.equal(minInstancesFor(0.05), 3); // 1 / 20
  assert.equal(minInstancesFor(0.05 / 38), 6); // 1 / 924
  assert.equal(minInstancesFor(0.05 / 114), 7); // 1 / 3432
});

// The run's level split between meters (Bonferroni), Holm within each (docs/method.md,
// "Family-wise control"): the split itself, then a real comparison of two meters (wall and
// instructions: test/fixtures/compare/time-and-work, 3 paired rounds on host class local).
import { fileURLToPath } from 'node:url';
import { mkdtemp, cp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitFamilyAlpha } from '../../scripts/compare/family-wise.js';
import { compareRuns, resolveThresholds, renderComparison } from '../../scripts/compare/index.js';
import { readRecords } from '../../scripts/store/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { METERS } from '../../scripts/metrics/index.js';
import { UserError } from '../../scripts/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIME_AND_WORK = fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url));

test('splitFamilyAlpha: equal shares by default, a set share holds, the others split what is left; never above alpha', () => {
  const sum = (/** @type {Map<string, number>} */ m) => [...m.values()].reduce((a, b) => a + b, 0);
  const equal = splitFamilyAlpha(['wall', 'instructions', 'work'], 0.05);
  for (const v of equal.values()) assert.ok(Math.abs(v - 0.05 / 3) < 1e-15);
  const set = splitFamilyAlpha(['wall', 'instructions', 'work'], 0.05, { wall: 0.5 });
  assert.equal(set.get('wall'), 0.025);
  assert.equal(set.get('work'), 0.0125);
  assert.equal(set.get('instructions'), 0.0125);
  // A share set for a meter absent from the run is not handed to the others: the bound stays conservative.
  const absent = splitFamilyAlpha(['wall'], 0.05, { wall: 0.4, work: 0.6 });
  assert.ok(Math.abs(/** @type {number} */ (absent.get('wall')) - 0.02) < 1e-15);
  // The listed shares take it all: a meter left out gets 0 and can open no issue.
  assert.equal(splitFamilyAlpha(['wall', 'work'], 0.05, { wall: 1 }).get('work'), 0);
  for (const m of [equal, set, absent]) assert.ok(sum(m) <= 0.05 + 1e-15);
  assert.equal(splitFamilyAlpha(['wall'], 0.05).get('wall'), 0.05, 'one meter holds the whole level');
});

/**
 * The real two-meter comparison under the shipped thresholds, with `more` merged in.
 * @param {Record<string, unknown>} [more]
 */
async function compareTimeAndWork(more = {}) {
  const records = await readRecords(TIME_AND_WORK);
  const { thresholds } = await loadConfig(ROOT);
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  return compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds: resolveThresholds({ ...thresholds, ...more }), createdAt: '2026-11-28T13:02:17Z' });
}

test('a real comparison of two meters: each meter\'s verdicts are Holm-adjusted among themselves at half of familyAlpha', async () => {
  const cmp = await compareTimeAndWork();
  const family = /** @type {import('../../scripts/types.js').FamilyControl} */ (cmp.family);
  assert.deepEqual(family.meters?.map((m) => [m.meter, m.share, m.alpha]), [['wall', 0.5, 0.025], ['instructions', 0.5, 0.025]], 'the timed repeats\' own figures are the meter the records name for them');
  assert.equal(family.size, family.meters?.reduce((s, m) => s + m.size, 0));
  for (const m of family.meters ?? []) {
    const own = cmp.tests.filter((t) => (t.meter ?? 'wall') === m.meter && t.pWorse !== null && t.pWorse !== undefined);
    assert.equal(own.length, m.size);
    assert.deepEqual(own.map((t) => t.pAdjusted), adjustHolm(own.map((t) => /** @type {number} */ (t.pWorse))), `${m.meter}: Holm within the meter`);
  }
  // The split shows in the reports' family line.
  assert.match(renderComparison(cmp, { format: 'terminal' }), /issues: 5\.0 % split between the meters, Holm within each over its gated verdicts \(wall 2\.50 % over \d+, instructions 2\.50 % over \d+\)/);
});

test('familyAlphaShare moves the level between meters: a larger share, a smaller issue-level detectable change', async () => {
  const equal = await compareTimeAndWork();
  const timed = await compareTimeAndWork({ familyAlphaShare: { wall: 0.9 } });
  assert.deepEqual(timed.family?.meters?.map((m) => [m.meter, Number(m.alpha.toFixed(6))]), [['wall', 0.045], ['instructions', 0.005]]);
  const mde = (/** @type {typeof equal} */ c, /** @type {string} */ metric) => c.tests.filter((t) => t.metric === metric).map((t) => /** @type {number} */ (t.mdeIssue));
  mde(equal, 'throughput').forEach((m, i) => assert.ok(mde(timed, 'throughput')[i] < m, 'throughput: more of the level, smaller issue MDE'));
  mde(equal, 'instructionsPerOp').forEach((m, i) => assert.ok(mde(timed, 'instructionsPerOp')[i] > m, 'instructions: less of the level, larger issue MDE'));
});

test('familyAlphaShare is checked on load: an unknown meter and a share out of range name the file, field and value; a sum above 1 is refused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tb-family-'));
  await cp(join(ROOT, 'configs'), join(dir, 'configs'), { recursive: true });
  const file = join(dir, 'configs/thresholds.yml');
  const text = await readFile(file, 'utf8');
  await writeFile(file, `${text}\nfamilyAlphaShare: { walls: 0.5, work: 1.5 }\n`);
  await assert.rejects(loadConfig(dir), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /configs\/thresholds\.yml: in 'familyAlphaShare': unknown field 'walls'; allowed: wall, counters, instructions, work/);
    assert.match(err.message, /configs\/thresholds\.yml: field 'familyAlphaShare\.work' \(got 1\.5\) must be <= 1/);
    return true;
  });
  assert.throws(() => resolveThresholds({ groups: {}, familyAlphaShare: { wall: 0.7, work: 0.6 } }), (err) => {
    assert.ok(err instanceof UserError);
    assert.equal(err.message, 'configs/thresholds.yml: field \'familyAlphaShare\' (wall: 0.7, work: 0.6) adds up to 1.3; the meters\' shares of familyAlpha must add up to at most 1: lower some share.');
    return true;
  });
  assert.deepEqual(resolveThresholds({ groups: {}, familyAlphaShare: { wall: 0.5, work: 0.5 } }).familyAlphaShare, { wall: 0.5, work: 0.5 });
});

test('the thresholds schema knows exactly the meter registry\'s names (familyAlphaShare)', async () => {
  const schema = JSON.parse(await readFile(join(ROOT, 'scripts/config/schemas/thresholds.schema.json'), 'utf8'));
  assert.deepEqual(Object.keys(schema.properties.familyAlphaShare.properties).sort(), Object.keys(METERS).sort());
});

test('records that name no meter: their verdicts are one family, unnamed, holding the whole level (as before the split)', async () => {
  const { makeRecord } = await import('./make-record.js');
  const steps = (/** @type {number[]} */ tp) => ['a', 'b'].map((name) => ({ name, throughput: tp }));
  const cmp = compareRuns({
    base: { version: '1', records: [makeRecord({ id: 'b', version: '1', steps: steps([1000, 1010, 990]) })] },
    candidate: { version: '2', records: [makeRecord({ id: 'c', version: '2', steps: steps([900, 905, 895]) })] },
    thresholds: resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 } }, familyAlphaShare: { wall: 0.5 } }), createdAt: 'x',
  });
  // wall's share names no family of these records: the unnamed one is the only meter present and
  // takes what the listed meters present leave, all of it.
  assert.deepEqual(cmp.family?.meters?.map((m) => [m.meter, m.share, m.size]), [[null, 1, 2]]);
  assert.match(cmp.tests[0].reason, /Not an issue: Holm-adjusted p [\d.]+ over the run's 2 gated verdicts is above 0\.050 \(the exact test needs at least 4 instances per side/);
});

test('a meter the listed shares leave nothing opens no issue, and says why', async () => {
  const cmp = await compareTimeAndWork({ familyAlphaShare: { instructions: 1 } });
  assert.deepEqual(cmp.family?.meters?.map((m) => [m.meter, m.alpha]), [['wall', 0], ['instructions', 0.05]]);
  for (const t of cmp.tests.filter((v) => !v.meter)) {
    assert.equal(t.mdeIssue, null, `${t.test} ${t.metric}: no change can reach a level of 0`);
    assert.notEqual(t.level, 'issue');
  }
});
