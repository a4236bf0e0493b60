// Which calibration a run's "how sure" cites (scripts/compare/select-calibration.js, through
// describeHowSure): only one of the run's host class, meter (its metric) and design, measured at
// most CALIBRATION_MAX_AGE_DAYS before the run; a stale or mismatched one is never cited, and the
// sentence says there is none and why. Calibrations: the repository's own (bench/calibrations/),
// varied one field at a time; the run: a real comparison (test/fixtures/compare/time-and-work,
// 3 paired rounds of wall and instructions on host class local, 2026-11-28).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readCalibrations, readComparisonFile } from '../../scripts/store/index.js';
import { describeHowSure, describeMeasuredFalseIssues, renderComparison, selectCalibration, computeRunDesign, CALIBRATION_MAX_AGE_DAYS } from '../../scripts/compare/index.js';

const BENCH = fileURLToPath(new URL('../../bench', import.meta.url));
const COMPARISON = fileURLToPath(new URL('../fixtures/compare/time-and-work/verdicts/local/mariadb/10.11.19/smoke/vs-10.11.18-20261128T130217Z-284138fa.json', import.meta.url));
const real = await readCalibrations(BENCH, 'local');
const comparison = await readComparisonFile(COMPARISON);
/** The instructions calibration this comparison cites (3 rounds paired, 2026-11-27, the newest before it). */
const counted = /** @type {import('../../scripts/types.js').Calibration} */ (real.find((c) => c.source === 'bench/calibration-instructions-held.json'));
const run = { hostClass: 'local', metric: 'instructionsPerOp', meter: 'instructions', design: computeRunDesign(comparison.tests, 'instructionsPerOp'), at: comparison.createdAt };

test('the real comparison\'s design is read from its verdicts: 3 rounds paired for both meters', () => {
  assert.deepEqual(computeRunDesign(comparison.tests, 'instructionsPerOp'), { paired: true, instances: 3 });
  assert.deepEqual(computeRunDesign(comparison.tests, 'throughput'), { paired: true, instances: 3 });
  assert.equal(computeRunDesign(comparison.tests, 'noSuchMetric'), null);
});

test('a matching calibration is cited with its age; of two, the newer', () => {
  assert.ok(counted, 'the repository has an instructions calibration');
  const choice = selectCalibration(real, run);
  assert.equal(choice.calibration?.source, 'bench/calibration-instructions-held.json', 'the newer of the two matching ones');
  assert.equal(choice.ageDays, 1, '2026-11-27 04:13 to 2026-11-28 13:02');
  const sentence = describeHowSure(comparison, real);
  assert.match(sentence, /the calibration of 2026-11-27 \(1 day before this run; smoke, 3 rounds paired, load up to 11\.97; bench\/calibration-instructions-held\.json\) found an injected 0\.5 % in 8 of 20 trials, 1\.0 % in 56 of 60 trials\./);
});

test('a stale, or a mismatched host class, meter or design, is not cited, and the sentence says there is none', () => {
  const at = Date.parse(counted.measuredAt);
  const variants = {
    stale: { ...counted, measuredAt: new Date(at - (CALIBRATION_MAX_AGE_DAYS + 1) * 86_400_000).toISOString() },
    'host class': { ...counted, hostClass: 'large-server' },
    meter: { ...counted, meter: 'counters' },
    'design (rounds)': { ...counted, design: { paired: true, instances: 5 } },
    'design (unpaired)': { ...counted, design: { paired: false, instances: 3 } },
    'measured after the run': { ...counted, measuredAt: '2026-11-29T00:00:00.000Z' },
  };
  for (const [what, calibration] of Object.entries(variants)) {
    const choice = selectCalibration([calibration], run);
    assert.equal(choice.calibration, null, `${what}: not cited`);
    assert.equal(choice.passedOver.length, 1, `${what}: said why`);
    const sentence = describeHowSure(comparison, [calibration]);
    assert.doesNotMatch(sentence, /the calibration of/, `${what}: the sentence cites none`);
    assert.match(sentence, /instructions per op in the query path .*no calibration of this host class matches this meter and design \(3 rounds paired, at most 30 days old: tagbench calibrate\); not cited: /, what);
  }
  assert.match(selectCalibration([variants.stale], run).passedOver[0], /32 days old, over the 30 a calibration is cited for/);
  assert.match(selectCalibration([variants['design (rounds)']], run).passedOver[0], /another design \(5 rounds paired\)/);
  // The limit itself is still cited: 30 days is "at most".
  const edge = { ...counted, measuredAt: new Date(Date.parse(comparison.createdAt) - CALIBRATION_MAX_AGE_DAYS * 86_400_000).toISOString() };
  assert.equal(selectCalibration([edge], run).ageDays, CALIBRATION_MAX_AGE_DAYS);
});

test('the wall calibrations are not cited for 3 paired rounds of throughput: 5 and 7 unpaired instances, and the paired one measured after the run', () => {
  const choice = selectCalibration(real, { ...run, metric: 'throughput', meter: undefined, design: computeRunDesign(comparison.tests, 'throughput') });
  assert.equal(choice.calibration, null);
  assert.deepEqual(choice.passedOver, ['2026-11-23 (smoke): another design (5 instances per side)', '2026-11-23 (smoke-15s): another design (7 instances per side)', '2026-11-28 (demo): measured after this run']);
  // Each meter gets its own sentence: throughput's cites none, the instructions' cites its own.
  const [throughput, instructions] = describeHowSure(comparison, real).split(/(?<=\.) (?=A rise)/);
  assert.match(throughput, /^A throughput drop of [\d.]+ % would have been found in every test, one under [\d.]+ % might not have been \(issue-level detectable change over 2 of 2 tests: median [\d.]+ %, [\d.]+ %–[\d.]+ %\); no calibration/);
  assert.match(instructions, /^A rise in instructions per op in the query path of 0\.6 % would have been found in every test, one under 0\.5 % might not have been .*the calibration of 2026-11-27/);
  // The issue-level figures are the verdicts' own: median and range of mdeIssue.
  const mdes = comparison.tests.filter((t) => t.metric === 'throughput').map((t) => /** @type {number} */ (/** @type {any} */ (t).mdeIssue)).sort((a, b) => a - b);
  assert.ok(throughput.includes(`${(mdes[1] * 100).toFixed(1)} % would have been found in every test`), throughput);
});

test('plain words at the edges: a drop no test could find, a median under 0.1 %, a figure without noise', () => {
  const verdict = (/** @type {string} */ test, /** @type {number} */ mdeIssue, /** @type {any} */ more = {}) => ({ test, metric: 'throughput', higherIsBetter: true, scale: /** @type {const} */ ('log'), mdeIssue, pairedRounds: 3, base: { n: 3 }, candidate: { n: 3 }, ...more });
  const at = { hostClass: 'local', createdAt: '2026-11-28T00:00:00Z' };
  assert.match(describeHowSure({ ...at, tests: [verdict('a', 0.2), verdict('b', 0.99999)] }, []), /^Some test could not have found a throughput drop of any size, one under [\d.]+ % might not have been/);
  const counted = { metric: 'instructionsPerOp', higherIsBetter: false, meter: 'instructions', label: 'instructions per op' };
  assert.match(describeHowSure({ ...at, tests: [verdict('a', 0.0004, counted), verdict('b', 0.0006, counted), verdict('c', 0.004, counted)] }, []),
    /^A rise in instructions per op of 0\.4 % would have been found in every test, half of the tests would have found one under 0\.1 % \(issue-level detectable change over 3 of 3 tests: median < 0\.1 %/);
  // Exact counters: no "median 0.0 %, 0.0 %–0.0 %", but what is true of them.
  const exact = describeHowSure({ ...at, tests: [verdict('a', 0, { ...counted, label: 'rows read per op' }), verdict('b', 0, { ...counted, label: 'rows read per op' })] }, []);
  assert.match(exact, /^Any rise in rows read per op would have been found in every test \(no noise over 2 of 2 tests: each repeated exactly in every round\)/);
  assert.doesNotMatch(exact, /0\.0 %/);
  // Some exact, some not: the exact ones are "0 (exact)" in the range.
  assert.match(describeHowSure({ ...at, tests: [verdict('a', 0, counted), verdict('b', 0.004, counted)] }, []), /median 0\.2 %, 0 \(exact\)–0\.4 %/);
});

test('the CPU model and core count a calibration stored must be the run\'s: a mismatch is passed over with the reason; an unstored fact is not held against it', () => {
  const amd = { cpuModel: 'AMD EPYC', cores: 2 };
  const here = { ...counted, host: amd };
  assert.equal(selectCalibration([here], { ...run, host: amd }).calibration, here, 'same CPU and cores: cited');
  const otherCpu = selectCalibration([counted], { ...run, host: amd });
  assert.equal(otherCpu.calibration, null, 'the repository\'s instructions calibration ran on an Intel Xeon');
  assert.deepEqual(otherCpu.passedOver, ['2026-11-27 (smoke): another CPU model (Intel(R) Xeon(R) Processor, this run AMD EPYC)']);
  const otherCores = selectCalibration([here], { ...run, host: { ...amd, cores: 8 } });
  assert.equal(otherCores.calibration, null);
  assert.match(otherCores.passedOver[0], /another core count \(2, this run 8\)/);
  // A calibration without host facts, or a comparison made before comparisons kept them: nothing to compare.
  assert.equal(selectCalibration([{ ...counted, host: null }], { ...run, host: amd }).calibration?.source, counted.source);
  assert.equal(selectCalibration([counted], { ...run, host: undefined }).calibration, counted);
  // The sentence says which calibration was passed over and why.
  assert.match(describeHowSure({ ...comparison, host: amd }, [counted]), /no calibration of this host class matches this meter and design \(3 rounds paired, at most 30 days old: tagbench calibrate\); not cited: 2026-11-27 \(smoke\): another CPU model \(Intel\(R\) Xeon\(R\) Processor, this run AMD EPYC\)/);
});

test('compare keeps the machine facts its records agree on, and null for one they do not', async () => {
  const { compareRuns, resolveThresholds } = await import('../../scripts/compare/index.js');
  const { readRecords } = await import('../../scripts/store/index.js');
  const records = await readRecords(fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url)));
  const side = (/** @type {string} */ version, /** @type {typeof records} */ from = records) => ({ version, records: from.filter((r) => r.release.version === version) });
  const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 }, write: { warn: 0.03, issue: 0.05 }, range: { warn: 0.03, issue: 0.05 } } });
  const cmp = compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds, createdAt: comparison.createdAt });
  assert.deepEqual(cmp.host, { cpuModel: 'AMD EPYC', cores: 2 });
  const moved = records.map((r) => (r.release.version === '10.11.19' ? { ...r, host: { ...r.host, cpuModel: 'Intel(R) Xeon(R) Processor' } } : r));
  assert.deepEqual(compareRuns({ base: side('10.11.18', moved), candidate: side('10.11.19', moved), thresholds, createdAt: comparison.createdAt }).host, { cpuModel: null, cores: 2 });
});

test('the quiet preload calibration (AMD EPYC, 3 rounds paired) is cited for a later run of its design on its CPU, and only there', () => {
  const wall = real.find((c) => c.source === 'bench/calibration-preload-local.json');
  assert.ok(wall, 'the repository has the preload wall calibration');
  assert.deepEqual([wall.meter, wall.design, wall.host?.cpuModel, wall.host?.cores], ['wall', { paired: true, instances: 3 }, 'AMD EPYC', 2]);
  const later = { hostClass: 'local', host: { cpuModel: 'AMD EPYC', cores: 2 }, metric: 'throughput', meter: 'wall', design: { paired: true, instances: 3 }, at: new Date(Date.parse(wall.measuredAt) + 3_600_000).toISOString() };
  const choice = selectCalibration(real, later);
  assert.equal(choice.calibration?.source, 'bench/calibration-preload-local.json');
  assert.equal(choice.ageDays, 0);
  // Another CPU, another design, or a run before it: not cited, and said why.
  const intel = selectCalibration(real, { ...later, host: { cpuModel: 'Intel(R) Xeon(R) Processor @ 2.50GHz', cores: 2 } });
  assert.equal(intel.calibration, null);
  assert.ok(intel.passedOver.includes('2026-11-28 (demo): another CPU model (AMD EPYC, this run Intel(R) Xeon(R) Processor @ 2.50GHz)'), intel.passedOver.join('; '));
  // 5 unpaired instances: the one calibration of that design was measured on the Intel host.
  assert.equal(selectCalibration(real, { ...later, design: { paired: false, instances: 5 } }).calibration, null);
  assert.equal(selectCalibration(real, { ...later, at: '2026-11-28T13:02:17.000Z' }).calibration, null);
});

test('the family line cites the false issues of the calibrations the run cites, per meter, never the host class\'s report of another CPU and design', () => {
  // The real comparison, dated after the preload calibration as a run of today would be, with the
  // host facts of its records (AMD EPYC, 2 cores: it was made before comparisons kept them).
  const later = { ...comparison, createdAt: '2026-11-29T12:00:00.000Z', host: { cpuModel: 'AMD EPYC', cores: 2 } };
  const amd = /** @type {import('../../scripts/types.js').Calibration} */ (real.find((c) => c.source === 'bench/calibration-instructions-local-epyc.json'));
  assert.equal(describeMeasuredFalseIssues(later, real),
    'wall: 0 of 10 A/A runs opened an issue (95 % upper bound 25.9 % per run, bench/calibration-preload-local.json); '
    + `instructions: 0 of ${amd.falseIssues.runs} A/A runs opened an issue (95 % upper bound ${(amd.falseIssues.upper95 * 100).toFixed(1)} % per run, bench/calibration-instructions-local-epyc.json)`);
  const full = /** @type {import('../../scripts/compare/index.js').FullComparison} */ (/** @type {unknown} */ (later));
  const legacy = { runs: 30, runsWithFalseIssue: 0, upper95: 0.095, file: 'bench/calibration-local.json' };
  const md = renderComparison(full, { format: 'markdown', calibration: legacy, calibrations: real });
  assert.match(md, /measured by the calibrations this run cites: wall: 0 of 10 A\/A runs opened an issue \(95 % upper bound 25\.9 % per run, bench\/calibration-preload-local\.json\); instructions: 0 of \d+ A\/A runs .*bench\/calibration-instructions-local-epyc\.json/);
  assert.doesNotMatch(md, /bench\/calibration-local\.json/, 'the Intel report of 5 unpaired instances is not cited');
  // As stored (no host facts, made before the wall calibration): the timed repeats cite none.
  assert.match(describeMeasuredFalseIssues(comparison, real), /^timed repeats: no matching calibration; instructions: 0 of 30 A\/A runs/);
});
