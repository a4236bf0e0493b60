/**
 * `tagbench calibrate --meter instructions` on real servers, cut to one run of one test: a
 * reference count, then A, B and two injected servers (2 % of a point select added by the
 * preload library, and performance_schema turned on) under callgrind, judged through compare and
 * confirm, with the function findings (compare's, as a run's report shows them) naming where the
 * instructions went, and a report that
 * later calls add runs to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { calibrateHost } from '../../../scripts/verify/calibrate/pipeline.js';
import { readCalibrations, readRecords } from '../../../scripts/store/index.js';

const execFileP = promisify(execFile);
const hasValgrind = await execFileP('valgrind', ['--version']).then(() => true, () => false);
const hasGcc = await execFileP('gcc', ['--version']).then(() => true, () => false);
const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');

test('one instructions calibration run: A/A and injected costs under callgrind, detection, attribution, noise, exact bounds', {
  skip: (!hasValgrind && 'valgrind is not installed (Debian: apt-get install valgrind)') || (!hasGcc && 'gcc is not installed'),
  timeout: 1_500_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-calibrate-instr-'));
  try {
    const report = join(dir, 'calibration-instructions-local.md');
    const store = join(dir, 'store');
    const common = { meter: 'instructions', product: 'mariadb', version: '10.11.18', hostClass: 'local', only: 'point-query', sizes: '0.02,performance_schema', report, store, workDir: join(dir, 'work'), cacheDir };
    assert.equal(await calibrateHost({ ...common, runs: 1, note: 'Test conditions: whatever else CI runs.' }), 0);
    const result = JSON.parse(await readFile(report.replace(/\.md$/, '.json'), 'utf8'));
    assert.equal(result.format, 'tagbench-calibration-instructions/1');
    assert.equal(result.meter, 'instructions');
    assert.equal(result.runs.length, 1);
    const perQuery = result.reference.queryPathPerOp;
    assert.ok(perQuery > 30_000 && perQuery < 100_000, `point select ${perQuery} instructions`);
    // 2 % of it, rounded up to the library loop's step of 2
    const [two, pfs] = result.injections;
    assert.deepEqual({ ...two, instructions: undefined }, { name: '0.02', label: 'S2', share: 0.02, instructions: undefined, mycnf: null });
    assert.equal(two.instructions, Math.ceil((0.02 * perQuery) / 2) * 2);
    assert.deepEqual(pfs, { name: 'performance_schema', label: 'PFS', share: null, instructions: 0, mycnf: 'innodb-performance-schema' });
    assert.equal(result.counting.rounds, 3, 'the host class\'s counting rounds');
    assert.match(result.meterSetup.dependsOn.valgrind, /^valgrind-3\./);
    assert.equal(result.meterSetup.dependsOn.cpuFlags, undefined, 'the long flags line is left out');

    const run = result.runs[0];
    assert.equal(run.aa.family.method, 'holm');
    // The calibration a run's "how sure" cites, beside the report: counted, 3 paired rounds, the
    // injected 2 % with its trial; performance_schema has no size and is left out.
    const [stored] = await readCalibrations(dir, 'local');
    assert.deepEqual({ meter: stored.meter, kind: stored.kind, metric: stored.metric, design: stored.design, sizes: stored.detection.map((x) => [x.size, x.trials]) },
      { meter: 'instructions', kind: 'counted', metric: 'instructionsPerOp', design: { paired: true, instances: 3 }, sizes: [[0.02, 1]] });
    assert.equal(stored.load.conditions, 'Test conditions: whatever else CI runs.');
    assert.ok(run.aa.verdicts.some((/** @type {any} */ v) => v.test === 'point-query' && v.metric === 'instructionsPerOp' && v.pairedRounds === 3), JSON.stringify(run.aa.verdicts));
    assert.deepEqual(run.injections.map((/** @type {any} */ i) => i.label), ['S2', 'PFS']);
    assert.deepEqual(Object.keys(run.runIds), ['A', 'B', 'S2', 'PFS']);
    assert.deepEqual(run.noise['point-query'].A.queryPath.length, 3, 'one figure per process and round');
    assert.ok(run.loadAverage.one >= 0 && run.startedAt < run.finishedAt);

    // 2 % is twice the issue threshold: an issue, confirmed, and the diff names the injected function.
    const d2 = result.detection['0.02'].byTest['point-query'];
    assert.equal(d2.trials, 1);
    assert.equal(d2.detected, 1, JSON.stringify(run.injections[0].verdicts));
    assert.ok(Math.abs(d2.medianRatio - 1 - two.instructions / perQuery) < 0.001, `realised ratio ${d2.medianRatio}`);
    assert.deepEqual(d2.firstNames, { tagbench_injected_cost: 1 });
    assert.equal(d2.attributedToInjected, 1);
    assert.deepEqual([d2.named.judged, d2.named.found, d2.named.first], [1, 1, 1], 'the function findings found the injected cost, the largest finding');
    assert.ok(run.confirmRunIds.length >= 2, 'the detection went through a confirmation rerun');
    assert.ok(Math.abs(run.injections[0].attribution['point-query'].injectedSelfDelta - two.instructions) < 0.02 * two.instructions);
    // performance_schema on costs a point select more; the findings name some function first
    const dp = result.detection.performance_schema.byTest['point-query'];
    assert.equal(dp.trials, 1);
    assert.ok(dp.medianRatio > 1, `performance_schema ratio ${dp.medianRatio}`);
    assert.ok(run.injections[1].attribution['point-query'].findings.length > 0);

    // The performance_schema server ran its own template; the others the shipped one.
    const records = await readRecords(store, {});
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    assert.match(byId[run.runIds.PFS].config.mycnf.text, /^performance_schema=ON$/m);
    assert.equal(byId[run.runIds.PFS].config.mycnf.name, 'innodb-performance-schema');
    assert.doesNotMatch(byId[run.runIds.A].config.mycnf.text, /performance_schema/);

    assert.equal(result.falseIssues.runs, 1);
    assert.ok([0.95, 1].includes(Number(result.falseIssues.upper95.toFixed(6))), String(result.falseIssues.upper95));
    assert.equal(result.noiseByTest['point-query'].processes, 6);
    assert.equal(result.calls.length, 1);
    assert.ok(result.calls[0].endedAt && result.calls[0].loadAverageAtEnd, 'the call\'s end and load are kept');
    assert.equal(result.calls[0].note, 'Test conditions: whatever else CI runs.');

    const md = await readFile(report, 'utf8');
    assert.match(md, /^# Calibration of the instructions meter: mariadb 10\.11\.18, suite smoke, host class local$/m);
    assert.match(md, /\*\*[01] of 1 runs opened an issue for a release compared with itself/);
    assert.match(md, /\| 2\.0 % \(\+[\d,]+\) \| point-query \| 1 \| 1 \| .* \| found in 1 of 1 .*; largest: `tagbench_injected_cost` 1 \|/);
    assert.match(md, /\| point-query \| 6 \| [\d,]+ \|/);
    assert.match(md, /Test conditions: whatever else CI runs\./);

    // other settings are refused, naming what differs
    await assert.rejects(calibrateHost({ ...common, sizes: '0.01', runs: 2 }), /measured with other settings \(sizes \["0\.02","performance_schema"\] there, \["0\.01"\] now\)/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('calibrate refuses an unknown meter, bad sizes and a report of other settings before starting anything', async () => {
  await assert.rejects(calibrateHost({ meter: 'sundial', product: 'mariadb', version: '10.11.18' }), /--meter sundial: calibrate knows wall, counters, instructions/);
  await assert.rejects(calibrateHost({ meter: 'instructions', product: 'mariadb', version: '10.11.18', sizes: '0.01,2,x' }), /--sizes: 2, x: give shares of point-query's instructions per query between 0 and 0\.5/);
  await assert.rejects(calibrateHost({ meter: 'instructions', product: 'mysql', version: '9.7.4', sizes: '0.01,performance_schema' }), /mysql servers run with performance_schema on by default/);
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-calibrate-instr-settings-'));
  try {
    const report = join(dir, 'calibration-instructions-local.md');
    const earlier = { format: 'tagbench-calibration-instructions/1', product: 'mariadb', version: '10.11.18', meter: 'instructions', hostClass: 'local', suite: 'smoke', tests: ['point-query'], sizes: ['0.02', 'performance_schema'], hostCounting: null, runs: [] };
    await writeFile(report.replace(/\.md$/, '.json'), JSON.stringify(earlier));
    await assert.rejects(calibrateHost({ meter: 'instructions', product: 'mariadb', version: '10.11.18', only: 'point-query', sizes: '0.01', report, cacheDir }),
      /calibration-instructions-local\.json was measured with other settings \(sizes \["0\.02","performance_schema"\] there, \["0\.01"\] now[;)]/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
