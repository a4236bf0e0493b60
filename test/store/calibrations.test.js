// Calibrations as data (scripts/store/calibrations.js): the repository's calibration reports
// (bench/calibration-*.json: three timed, three counted) condense to the committed files of
// bench/calibrations/local/ (the one-time conversion is reproducible, and `tagbench calibrate`
// writes the same from its report), with the conditions they ran under; a written calibration
// reads back; a broken or newer file is refused naming the file and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrationFromReport, calibrationPath, readCalibrations, writeCalibration, isCondensedFormat } from '../../scripts/store/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REPORTS = ['calibration-local.json', 'calibration-local-15s.json', 'calibration-instructions-local.json', 'calibration-instructions-held.json', 'calibration-preload-local.json', 'calibration-instructions-local-epyc.json'];

/** @param {string} name */
async function report(name) {
  return JSON.parse(await readFile(join(ROOT, 'bench', name), 'utf8'));
}

test('the repository\'s reports condense to the committed calibrations, with their conditions', async () => {
  const committed = await readCalibrations(join(ROOT, 'bench'), 'local');
  assert.equal(committed.length, REPORTS.length);
  for (const name of REPORTS) {
    const c = calibrationFromReport(await report(name), `bench/${name}`);
    const stored = committed.find((x) => x.source === `bench/${name}`);
    assert.deepEqual(stored, c, `${name}: the committed file is what the conversion gives`);
    assert.ok((await readdir(join(ROOT, 'bench', 'calibrations', 'local'))).includes(String(calibrationPath(c).split('/').at(-1))), `${name}: named from its identity`);
  }
  const wall = calibrationFromReport(await report('calibration-local.json'), 'bench/calibration-local.json');
  assert.deepEqual({ meter: wall.meter, kind: wall.kind, metric: wall.metric, suite: wall.suite, design: wall.design, host: wall.host },
    { meter: 'wall', kind: 'timed', metric: 'throughput', suite: 'smoke', design: { paired: false, instances: 5 }, host: { cores: 2, cpuModel: 'Intel(R) Xeon(R) Processor @ 2.50GHz' } });
  // The load the issue quotes ("a host at load up to 19.7"), from the runs that recorded it.
  assert.equal(wall.load.maxOneMinute, 19.69);
  assert.match(String(wall.load.conditions), /shared with other work/);
  assert.deepEqual(wall.detection, [{ size: 0.05, trials: 20, detected: 0 }, { size: 0.1, trials: 20, detected: 0 }, { size: 0.15, trials: 20, detected: 2 }]);
  const held = calibrationFromReport(await report('calibration-instructions-held.json'), 'bench/calibration-instructions-held.json');
  assert.deepEqual({ meter: held.meter, kind: held.kind, metric: held.metric, design: held.design }, { meter: 'instructions', kind: 'counted', metric: 'instructionsPerOp', design: { paired: true, instances: 3 } });
  // Per test summed (update-nonindex 0 of 10 and point-query 8 of 10 at 0.5 %); performance_schema has no size.
  assert.deepEqual(held.detection.map((d) => [d.size, d.detected, d.trials]), [[0.005, 8, 20], [0.01, 56, 60], [0.02, 20, 20]]);
});

test('a written calibration reads back; a broken, misplaced or newer one is refused naming the file and field', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-calibrations-'));
  try {
    assert.deepEqual(await readCalibrations(dir, 'local'), [], 'none is empty');
    const c = calibrationFromReport(await report('calibration-instructions-held.json'), 'bench/calibration-instructions-held.json');
    const file = await writeCalibration(dir, c);
    assert.equal(file, 'calibrations/local/instructions-smoke-20261126T221216Z.json');
    assert.deepEqual(await readCalibrations(dir, 'local'), [c]);
    await assert.rejects(writeCalibration(dir, /** @type {any} */ ({ ...c, design: { paired: true, instances: 0 } })), /instructions-smoke-20261126T221216Z\.json: not a calibration: .*design\.instances/);
    const bad = join(dir, 'calibrations', 'local', 'wall-smoke-20261101T000000Z.json');
    await writeFile(bad, JSON.stringify({ ...c, meter: 'wall', detection: [{ size: 0, trials: 1, detected: 0 }] }));
    await assert.rejects(readCalibrations(dir, 'local'), (err) => err instanceof Error && err.message.includes(bad) && /detection\/0\/size|detection\.0\.size/.test(err.message));
    await writeFile(bad, JSON.stringify({ ...c, schemaVersion: 2 }));
    await assert.rejects(readCalibrations(dir, 'local'), /schemaVersion 2 is newer than this tagbench reads \(1\); update tagbench/);
    await writeFile(bad, '{ not json');
    await assert.rejects(readCalibrations(dir, 'local'), /not valid JSON/);
    await rm(bad);
    await mkdir(join(dir, 'calibrations', 'other'), { recursive: true });
    await writeFile(join(dir, 'calibrations', 'other', 'x.json'), JSON.stringify(c));
    await assert.rejects(readCalibrations(dir, 'other'), /hostClass is 'local', but the file is in calibrations\/other\//);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('only the timed and counted strategies\' formats are condensed; another is refused by name', () => {
  assert.ok(isCondensedFormat('tagbench-calibration/2') && isCondensedFormat('tagbench-calibration-instructions/1'));
  assert.ok(!isCondensedFormat('tagbench-calibration/1') && !isCondensedFormat('test-calibration-sundial/1'));
  assert.throws(() => calibrationFromReport({ format: 'tagbench-calibration/1', runs: [] }, 'bench/x.json'), /bench\/x\.json: format 'tagbench-calibration\/1' is not a calibration report/);
  assert.throws(() => calibrationFromReport({ format: 'tagbench-calibration/2', runs: [] }, 'bench/x.json'), /bench\/x\.json: no finished run yet/);
});
