/**
 * What a comparison report tells a reader about the run as a whole: the family-wise bound and
 * the measured rate, the adaptive rounds, and the metrics left unjudged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, renderComparison } from '../../scripts/compare/index.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 } }, metrics: { kbWrittenPerOp: { warn: 0.1, issue: 0.2, floor: 0.01, minDurationS: 60 } } });

function comparison() {
  const steps = (/** @type {number[]} */ tp) => ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => ({ name, throughput: tp, kbWrittenPerOp: [1, 1.1, 0.9] }));
  return compareRuns({
    base: { version: '1', records: [makeRecord({ id: 'b', version: '1', steps: steps([1000, 1010, 990]) })] },
    candidate: { version: '2', records: [makeRecord({ id: 'c', version: '2', steps: steps([900, 905, 895]) })] },
    thresholds, createdAt: 'x',
  });
}

test('terminal and Markdown say how issues are controlled, what the adaptive rounds did and what was not judged', () => {
  const cmp = {
    ...comparison(),
    adaptive: { rounds: 2, seconds: 140, budgetS: 300, undecidedBefore: 12, resolved: 5, instancesNeeded: { a: 7, b: 7, c: 3, d: 3, e: 3, f: 3, g: 3, h: 3 }, stopped: 'the 300 s budget is spent' },
  };
  const calibration = { runs: 12, runsWithFalseIssue: 0, upper95: 0.221, file: 'bench/calibration-local.json', detection: [{ slowdown: 0.1, trials: 20, detected: 0 }, { slowdown: 0.15, trials: 20, detected: 2 }] };
  const term = renderComparison(cmp, { format: 'terminal', calibration });
  // How sure, right under the title: 3 unpaired instances reach no issue-level detectable
  // change, and no calibration was given, so none is cited (the false-issue rate is another line).
  const howSure = term.split('\n').findIndex((l) => l.startsWith('how sure: '));
  assert.equal(howSure, 1, term.split('\n').slice(0, 5).join('\n'));
  assert.match(term, /how sure: Throughput: no verdict of this run could detect a change at the issue level \(too few instances for it\); no calibration of this host class matches this meter and design \(3 instances per side, at most 30 days old: tagbench calibrate\)\./);
  assert.match(term, /issues: Holm over 8 gated verdicts at 5\.0 %: expected false issues per run at most 0\.0500 before the confirmation rerun; measured on this host class: 0 of 12 A\/A runs opened an issue \(95 % upper bound 22\.1 % per run, bench\/calibration-local\.json\)\. An issue judged on independent instances needs at least 5 instances per side\./);
  assert.match(term, /adaptive repeats: 2 round\(s\) in 140 s of a 300 s budget resolved 5 of 12 undecided verdicts \(instances per side: 7 for a, b; 3 for c, d, e, f, g, h\); stopped: the 300 s budget is spent/);
  assert.match(term, /not judged .*kbWrittenPerOp of 8 test\(s\), e\.g\. a: repeats of 3 s are shorter than the 60 s this metric needs/);
  assert.match(term, /issue MDE/);
  assert.match(term, /needs 5/, 'a test that cannot reach the issue level yet says how many instances it needs');
  const md = renderComparison(cmp, { format: 'markdown', calibration: null });
  assert.match(md, /not yet measured on this host class \(run tagbench calibrate\)/);
  assert.match(md, /^## .*\n\n\*\*How sure:\*\* Throughput: no verdict of this run could detect/);
  assert.match(md, /\| MDE drop \| MDE rise \| MDE for an issue \|/);
  assert.match(md, /Not judged:\n\n- a kbWrittenPerOp: repeats of 3 s/);
});

test('a comparison paired by round says so: method, the rounds instead of instance counts, no instance floor', () => {
  const id = (/** @type {string} */ v) => `20261122T200823Z-local-mariadb-${v}-smoke-abc123`;
  const instances = [0, 1, 2];
  const cmp = compareRuns({
    base: { version: '1', records: [makeRecord({ id: id('1'), version: '1', steps: [{ name: 'a', throughput: [1000, 1500, 800], instances }] })] },
    candidate: { version: '2', records: [makeRecord({ id: id('2'), version: '2', steps: [{ name: 'a', throughput: [900, 1360, 715], instances }] })] },
    thresholds, createdAt: 'x',
  });
  assert.equal(cmp.tests[0].pairedRounds, 3);
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, /Method: paired by round \(releases side by side\): geometric mean of the rounds' ratios, paired t interval at 90\.0 %, MDE at power 80\.0 %/);
  assert.match(md, /\| a \| throughput \| [^|]+ \| [^|]+ \| 3 rounds, paired \| 0\.900 \| 0\.889–0\.911 \|/);
  // The 30-second view comes first: one row per test with the verdict, then every metric.
  const glance = md.indexOf('**At a glance**');
  assert.ok(glance > 0 && glance < md.indexOf('**Every gated metric**'), 'the per-test verdict table comes before the full table');
  assert.match(md.slice(glance), /\n\| a \| 0\.900 \| 0\.889–0\.911 \| [\d.]+ % \| \*\*regression \(issue\)\*\* \|\n/);
  assert.doesNotMatch(md, /needs at least \d+ instances per side|needs \d/);
  const term = renderComparison(cmp, { format: 'terminal' });
  assert.match(term, /noise = CV between server instances, or per side of the rounds' ratio when paired by round/);
});

test('a detectable change past 100 % is printed as words, and the Holm column gives the p-value an improvement\'s reason cites', () => {
  const id = (/** @type {string} */ v) => `20261122T200823Z-local-mariadb-${v}-smoke-abc123`;
  const instances = [0, 1, 2];
  // Two tests side by side: one whose rounds disagree wildly (the MDE runs into the thousands of
  // per cent), one a 20 % improvement whose interval clears the issue threshold but which Holm
  // over the family of two holds at the warn level.
  const cmp = compareRuns({
    base: { version: '1', records: [makeRecord({ id: id('1'), version: '1', steps: [{ name: 'wild', throughput: [1000, 100, 5000], instances }, { name: 'faster', throughput: [1000, 1000, 1000], instances }] })] },
    candidate: { version: '2', records: [makeRecord({ id: id('2'), version: '2', steps: [{ name: 'wild', throughput: [100, 2000, 900], instances }, { name: 'faster', throughput: [1200, 1300, 1100], instances }] })] },
    thresholds, createdAt: 'x',
  });
  const wild = /** @type {any} */ (cmp.tests.find((t) => t.test === 'wild'));
  assert.ok(wild.mdeRise > 1, `the wild test's MDE rise ${wild.mdeRise}`);
  const md = renderComparison(cmp, { format: 'markdown' });
  const wildRow = md.split('\n').find((l) => l.startsWith('| wild | throughput |')) ?? '';
  assert.match(wildRow, /not detectable at this noise/);
  assert.doesNotMatch(md, /\d{1,3},\d{3}(\.\d)? %/, 'no detectable change in the thousands of per cent');
  const term = renderComparison(cmp, { format: 'terminal' });
  assert.match(term, /> 100 %: not detectable at this noise/);
  const faster = /** @type {any} */ (cmp.tests.find((t) => t.test === 'faster'));
  assert.equal(faster.verdict, 'improvement');
  assert.equal(faster.level, 'warn');
  assert.equal(typeof faster.pAdjustedBetter, 'number');
  const fasterRow = md.split('\n').find((l) => l.startsWith('| faster | throughput |')) ?? '';
  assert.match(md, /\| p worse \/ better \(Holm\) \|/);
  // The column's second figure is the one the reason cites when Holm holds the improvement back.
  const cited = /Holm-adjusted p (\S+) over/.exec(faster.reason)?.[1];
  const cells = fasterRow.split('|').map((c) => c.trim());
  const holm = cells[cells.length - 3];
  assert.match(holm, /^\S+ \/ \S+$/);
  assert.equal(holm.split(' / ')[1], cited, `${holm} vs the reason's ${cited}`);
  assert.equal(holm.split(' / ')[1], faster.pAdjustedBetter < 0.001 ? faster.pAdjustedBetter.toExponential(1) : faster.pAdjustedBetter.toFixed(3));
});

test('a figure without noise (an exact counter) prints what is true of its MDE and noise, not "0.0 %", in the terminal and Markdown', () => {
  const steps = (/** @type {number[]} */ tp) => ['a', 'b', 'c'].map((name) => ({ name, throughput: tp }));
  // The same throughput in every instance of both releases: no spread at all.
  const cmp = compareRuns({
    base: { version: '1', records: [makeRecord({ id: 'b', version: '1', steps: steps([1000, 1000, 1000]) })] },
    candidate: { version: '2', records: [makeRecord({ id: 'c', version: '2', steps: steps([1000, 1000, 1000]) })] },
    thresholds, createdAt: 'x',
  });
  assert.equal(cmp.tests[0].mde, 0, 'no noise: the detectable change is 0');
  const md = renderComparison(cmp, { format: 'markdown' });
  const row = md.split('\n').find((l) => l.startsWith('| a | throughput |')) ?? '';
  assert.match(row, /\| none \| exact: any change is seen \| exact: any change is seen \|/);
  assert.doesNotMatch(row, /0\.0 %/);
  const term = renderComparison(cmp, { format: 'terminal' });
  const line = term.split('\n').find((l) => l.startsWith('a ')) ?? '';
  assert.match(line, /^a\s+1\.000\s+1\.000–1\.000\s+none\s+exact\s/);
});
