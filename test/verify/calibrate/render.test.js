/**
 * The counted calibration's summary and report know no meter by name: a real report of the
 * instructions meter (bench/calibration-instructions-local.json, 30 runs of tagbench calibrate)
 * with its meter and metrics renamed summarizes and renders to the same report, names changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { summarizeCountedCalibration } from '../../../scripts/verify/calibrate/summarize.js';
import { renderCountedCalibration } from '../../../scripts/verify/calibrate/render.js';

const REPORT = new URL('../../../bench/calibration-instructions-local.json', import.meta.url);

/** The metrics of the instructions meter, and the made-up meter's in their place. */
const RENAMED = { instructionsPerOp: 'ticksPerOp', processInstructionsPerOp: 'allTicksPerOp' };

/**
 * @param {any} report the instructions meter's report
 * @returns {any} the same report as a `ticks` meter's: its name, its metrics, its added counts' key
 */
function asTicks(report) {
  const metric = (/** @type {string} */ m) => RENAMED[/** @type {keyof typeof RENAMED} */ (m)] ?? m;
  const verdicts = (/** @type {any[]} */ vs) => vs.map((v) => ({ ...v, metric: metric(v.metric) }));
  const count = (/** @type {any} */ i) => {
    const { instructions: added, ...rest } = i;
    return { ...rest, ticks: added };
  };
  return {
    ...report, meter: 'ticks', format: 'tagbench-calibration-ticks/1',
    thresholds: Object.fromEntries(Object.entries(report.thresholds).map(([m, t]) => [metric(m), t])),
    injections: report.injections.map(count),
    runs: report.runs.map((/** @type {any} */ r) => ({
      ...r, aa: { ...r.aa, verdicts: verdicts(r.aa.verdicts) },
      injections: r.injections.map((/** @type {any} */ i) => ({ ...i, verdicts: verdicts(i.verdicts) })),
    })),
  };
}

test('a counted report summarizes and renders the same for a meter of other names: nothing in it is the instructions meter\'s by name', async () => {
  const report = JSON.parse(await readFile(REPORT, 'utf8'));
  assert.ok(report.runs.length >= 10, 'a real report of many runs');
  const judgedOf = (/** @type {string} */ q, /** @type {string} */ p) => ({ queryPath: { metric: q }, process: { metric: p } });
  const own = summarizeCountedCalibration(report.runs, report.injections, judgedOf('instructionsPerOp', 'processInstructionsPerOp'), 'instructions');
  const ticks = asTicks(report);
  const theirs = summarizeCountedCalibration(ticks.runs, ticks.injections, judgedOf('ticksPerOp', 'allTicksPerOp'), 'ticks');
  assert.deepEqual(own.falseIssues, theirs.falseIssues);
  assert.deepEqual(own.noiseByTest, theirs.noiseByTest, 'the A/A ratios found by the query-path metric the meter names');
  const first = Object.keys(own.detection)[0];
  assert.equal(theirs.detection[first].ticks, own.detection[first].instructions, 'the added count under the meter\'s name');
  assert.ok(own.detection[first].byTest['point-query'].trials > 0);
  const { ticks: _t, ...theirRest } = theirs.detection[first];
  const { instructions: _i, ...ownRest } = own.detection[first];
  assert.deepEqual(theirRest, ownRest);

  const expected = renderCountedCalibration({ ...report, ...own })
    .replaceAll('processInstructionsPerOp', 'allTicksPerOp').replaceAll('instructionsPerOp', 'ticksPerOp')
    .replaceAll('the instructions meter', 'the ticks meter').replaceAll('--meter instructions', '--meter ticks');
  assert.equal(renderCountedCalibration({ ...ticks, ...theirs }), expected);
  assert.match(expected, /\| 1\.0 % \(\+[\d,]+\) \| point-query \| \d+ \| \d+ \|/, 'the added count is in the detection table');
});
