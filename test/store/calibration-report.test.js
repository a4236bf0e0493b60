// The calibration report reader: the repository's own calibration report (a committed copy in
// test/fixtures/store/, since `tagbench calibrate` keeps rewriting bench/) reads into the figures
// compare and the site show; a missing or older report is null; broken ones are refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCalibrationReport, CALIBRATION_FORMAT } from '../../scripts/store/index.js';
import { readCalibrationSummary } from '../../scripts/verify/calibration-summary.js';
import { UserError } from '../../scripts/errors.js';

const FIXTURE = new URL('../fixtures/store/calibration-local.json', import.meta.url);

/** A project root whose bench/ holds `report` as calibration-<host>.json. */
async function projectWith(/** @type {string} */ host, /** @type {unknown} */ report) {
  const root = await mkdtemp(join(tmpdir(), 'tagbench-calibration-'));
  await mkdir(join(root, 'bench'));
  if (report !== undefined) await writeFile(join(root, 'bench', `calibration-${host}.json`), typeof report === 'string' ? report : JSON.stringify(report));
  return root;
}

test('the repository\'s calibration report reads into its figures, and compare keeps its five', async () => {
  const raw = JSON.parse(await readFile(FIXTURE, 'utf8'));
  assert.equal(raw.format, CALIBRATION_FORMAT);
  const root = await projectWith('local', raw);
  try {
    const r = await readCalibrationReport(root, 'local');
    assert.ok(r);
    assert.equal(r.hostClass, 'local');
    assert.equal(r.file, 'bench/calibration-local.json');
    assert.equal(r.runs, raw.falseIssues.runs);
    assert.equal(r.runsWithFalseIssue, raw.falseIssues.runsWithFalseIssue);
    assert.equal(r.upper95, raw.falseIssues.upper95);
    assert.deepEqual(r.detection.map((d) => d.slowdown), [...raw.slowdowns].sort((a, b) => a - b));
    for (const d of r.detection) {
      const src = raw.detection[String(d.slowdown)];
      assert.deepEqual([d.trials, d.detected, d.flagged, d.interval], [src.trials, src.detected, src.flagged, src.interval]);
    }
    assert.deepEqual(r.mdeByTest.map((m) => m.test), Object.keys(raw.mdeByTest).sort());
    assert.equal(r.mdeByTest[0].drop, raw.mdeByTest[r.mdeByTest[0].test].drop);
    assert.deepEqual(await readCalibrationSummary(root, 'local'), {
      hostClass: 'local', measuredAt: raw.measuredAt, runs: raw.falseIssues.runs, runsWithFalseIssue: raw.falseIssues.runsWithFalseIssue,
      upper95: raw.falseIssues.upper95, file: 'bench/calibration-local.json',
      detection: Object.entries(raw.detection).map(([k, d]) => ({ slowdown: Number(k), trials: /** @type {any} */ (d).trials, detected: /** @type {any} */ (d).detected })).sort((a, b) => a.slowdown - b.slowdown),
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('no report, or one of an older format, is no calibration', async () => {
  const none = await projectWith('local', undefined);
  const older = await projectWith('local', { format: 'tagbench-calibration/1', falseIssues: { runs: 3 } });
  try {
    assert.equal(await readCalibrationReport(none, 'local'), null);
    assert.equal(await readCalibrationReport(older, 'local'), null);
    assert.equal(await readCalibrationSummary(older, 'local'), null);
  } finally {
    await rm(none, { recursive: true, force: true });
    await rm(older, { recursive: true, force: true });
  }
});

test('a broken, newer or mislabelled report is refused, naming the file and the field', async () => {
  const raw = JSON.parse(await readFile(FIXTURE, 'utf8'));
  const cases = [
    ['{ not json', /calibration-local\.json: not valid JSON.*rerun tagbench calibrate --host-class local/],
    [{ ...raw, format: 'tagbench-calibration/3' }, /format tagbench-calibration\/3 is newer than this tagbench reads \(tagbench-calibration\/2\)/],
    [{ ...raw, falseIssues: { ...raw.falseIssues, upper95: 1.5 } }, /not a calibration report: .*falseIssues\.upper95/],
    [{ ...raw, detection: { ...raw.detection, '0.05': { ...raw.detection['0.05'], trials: -1 } } }, /detection\.0\.05\.trials/],
    [{ ...raw, hostClass: 'other' }, /hostClass is 'other', but the file is named for 'local'/],
  ];
  for (const [report, message] of cases) {
    const root = await projectWith('local', report);
    try {
      await assert.rejects(readCalibrationReport(root, 'local'), (err) => err instanceof UserError && message.test(err.message));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
});
