/**
 * `tagbench calibrate` on real servers, cut to one run of one test: three servers of one
 * release from three installs side by side, the A/A and injected comparisons through the path
 * that opens issues, and a report that later calls add runs to. It needs a quiet host
 * (test/support/test-plan.js ALONE): the quota is sized from the reference run's measured server
 * CPU. The preload injection, which holds beside other files, is calibrate-preload.test.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrateHost } from '../../../scripts/verify/calibrate/pipeline.js';
import { readCalibrations, readRecords } from '../../../scripts/store/index.js';

const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');

test('one calibration run: A/A of two installs and an injected slowdown, reported with exact bounds', { timeout: 900_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-calibrate-'));
  try {
    const report = join(dir, 'calibration-local.md');
    const store = join(dir, 'store');
    const common = { product: 'mariadb', version: '10.11.18', hostClass: 'local', only: 'point-query', adaptiveBudget: 30, slowdowns: '0.15', instances: 2, report, store, workDir: join(dir, 'work'), cacheDir };
    assert.equal(await calibrateHost({ ...common, runs: 1, note: 'Test conditions: whatever else CI runs.' }), 0);
    const result = JSON.parse(await readFile(report.replace(/\.md$/, '.json'), 'utf8'));
    assert.equal(result.format, 'tagbench-calibration/2');
    assert.equal(result.instances, 2);
    assert.equal(result.repeats, 2);
    assert.equal(result.runs[0].conditions, 'Test conditions: whatever else CI runs.');
    assert.equal(result.runs.length, 1);
    assert.equal(result.falseIssues.runs, 1);
    // 0 of 1: the one-sided 95 % bound is 95 %; 1 of 1 would be 100 %
    assert.ok([0.95, 1].includes(Number(result.falseIssues.upper95.toFixed(6))), String(result.falseIssues.upper95));
    assert.ok(result.reference.serverCpusByTest['point-query'] > 0.05, 'the reference run measured the server CPU of the test');
    const d = result.detection['0.15'];
    assert.equal(d.trials, 1);
    assert.equal(d.interval.length, 2);
    assert.ok(d.medianRatio > 0.5 && d.medianRatio < 1.1, `realised ratio ${d.medianRatio}`);
    assert.equal(result.runs[0].aa.family.method, 'holm');
    // The calibration a run's "how sure" cites, beside the report: its conditions and detection.
    const [stored] = await readCalibrations(dir, 'local');
    assert.deepEqual({ meter: stored.meter, metric: stored.metric, suite: stored.suite, design: stored.design, runs: stored.falseIssues.runs, detection: stored.detection },
      { meter: 'wall', metric: 'throughput', suite: result.suite, design: { paired: Boolean(result.runs[0].aa.verdicts.find((/** @type {any} */ v) => v.metric === 'throughput').pairedRounds), instances: stored.design.instances }, runs: 1, detection: [{ size: 0.15, trials: 1, detected: d.detected }] });
    assert.ok(stored.design.instances >= 2, 'two instances per side, or more after the adaptive round');
    // three servers, each from its own install: A from the cache, B and S from copies (path provider)
    const records = await readRecords(store, {});
    const ids = result.runs[0].runIds;
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    assert.deepEqual(ids.map((/** @type {string} */ id) => byId[id].release.provider), ['deb', 'path', 'path']);
    assert.ok(ids[1].includes('-B-') && /-S\d+-/.test(ids[2]), ids.join(' '));
    // --instances 2: each server's point-query ran on two instances, one repeat each
    for (const id of ids) {
      const step = byId[id].steps.find((/** @type {any} */ s) => s.name === 'point-query');
      assert.deepEqual(step?.repeats.map((/** @type {any} */ r) => r.instance).sort(), [0, 1], id);
    }
    const md = await readFile(report, 'utf8');
    assert.match(md, /\*\*0 of 1 runs opened an issue|\*\*1 of 1 runs opened an issue/);
    assert.match(md, /\| 15\.0 % \| 1 \| [01] \|/);
    assert.match(md, /with 2 repeats per test and side over 2 instances;/);
    assert.match(md, /Conditions: Test conditions: whatever else CI runs\. The host's 5-minute load average after each run is in the table: the benchmark itself keeps one CPU busy/);
    // a report made with --instances is not extended by runs of the host class's (3 on local)
    await assert.rejects(calibrateHost({ ...common, instances: undefined, runs: 2 }), /repeats 2 there, 3 now; instances 2 there, 3 now/);
    // the same settings again add runs; other settings are refused, naming what differs
    await assert.rejects(calibrateHost({ ...common, only: 'update-index', runs: 2 }), /measured with other settings \(tests \["point-query"\] there, \["update-index"\] now\)/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
