/**
 * The pure parts of bench/harness-overhead.js: the A B / B A order, the schedule, the ratio of
 * medians with its interval and CVs, the load summary, the options and the table row. The
 * measurement itself needs a server and a quiet CPU and is not run here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  pathOrder, buildSchedule, summarizeOverhead, coefficientOfVariation, summarizeLoad, parseOptions, formatRow, TABLE_HEADER,
} from '../../bench/harness-overhead.js';
import { computeShiftInterval } from '../../scripts/compare/shift-interval.js';
import { UserError } from '../../scripts/errors.js';

test('pathOrder alternates which path goes first, so two rounds are A B B A', () => {
  assert.deepEqual(pathOrder(0), ['tagbench', 'bare']);
  assert.deepEqual(pathOrder(1), ['bare', 'tagbench']);
  assert.deepEqual([...pathOrder(0), ...pathOrder(1)], ['tagbench', 'bare', 'bare', 'tagbench']);
  assert.deepEqual(pathOrder(4), pathOrder(0));
  assert.throws(() => pathOrder(-1), RangeError);
  assert.throws(() => pathOrder(1.5), /integer >= 0, got 1.5/);
});

test('buildSchedule runs every test once per path per round, in test order, with the round\'s path order', () => {
  const s = buildSchedule(['a', 'b'], 3);
  assert.equal(s.length, 12);
  assert.deepEqual(s.slice(0, 4), [
    { round: 0, test: 'a', path: 'tagbench' }, { round: 0, test: 'a', path: 'bare' },
    { round: 0, test: 'b', path: 'tagbench' }, { round: 0, test: 'b', path: 'bare' },
  ]);
  assert.deepEqual(s.slice(4, 6).map((x) => x.path), ['bare', 'tagbench']);
  for (const t of ['a', 'b']) {
    for (const path of ['tagbench', 'bare']) assert.equal(s.filter((x) => x.test === t && x.path === path).length, 3);
  }
  // Over an even number of rounds each path runs first as often as second: drift cancels.
  const firsts = buildSchedule(['a'], 4).filter((_, i) => i % 2 === 0).map((x) => x.path);
  assert.equal(firsts.filter((p) => p === 'tagbench').length, 2);
  assert.deepEqual(buildSchedule(['a'], 0), []);
});

test('summarizeOverhead: ratio of medians, the project\'s rank interval of tagbench/bare, CVs', () => {
  const bare = [100, 102, 98, 101, 99, 100, 103, 97];
  const tagbench = bare.map((x) => x * 0.9);
  const s = summarizeOverhead(tagbench, bare);
  assert.ok(Math.abs(s.ratio - 0.9) < 1e-12, `ratio ${s.ratio}`);
  assert.equal(s.medianBare, 100);
  const expected = computeShiftInterval(bare, tagbench, 0.95, 'ratio');
  assert.ok(expected);
  assert.equal(s.lo, expected.lo);
  assert.equal(s.hi, expected.hi);
  assert.ok(s.lo !== null && s.hi !== null && s.lo <= 0.9 && s.hi >= 0.9 && s.hi < 1, `interval ${s.lo}–${s.hi} should hold 0.9 and exclude 1`);
  assert.ok(s.coverage !== null && s.coverage >= 0.95);
  // Scaling a sample does not change its CV.
  assert.ok(s.cvTagbench !== null && s.cvBare !== null && Math.abs(s.cvTagbench - s.cvBare) < 1e-12);
  assert.deepEqual(s.n, { tagbench: 8, bare: 8 });
});

test('summarizeOverhead: no interval at 95 % for 3 vs 3 values; an identical sample gives ratio 1 and an interval holding 1', () => {
  const few = summarizeOverhead([1, 2, 3], [1, 2, 3]);
  assert.equal(few.lo, null);
  assert.equal(few.hi, null);
  assert.equal(few.ratio, 1);
  const same = summarizeOverhead([10, 11, 12, 13, 14, 15], [10, 11, 12, 13, 14, 15]);
  assert.ok(same.lo !== null && same.hi !== null && same.lo < 1 && same.hi > 1);
});

test('summarizeOverhead refuses empty samples and values that are not positive numbers', () => {
  assert.throws(() => summarizeOverhead([], [1, 2]), /no tagbench values/);
  assert.throws(() => summarizeOverhead([1, 2], [1, 0]), /bare values must be positive numbers, got 0/);
  assert.throws(() => summarizeOverhead([1, NaN], [1, 2]), /tagbench values must be positive numbers, got NaN/);
});

test('coefficientOfVariation and summarizeLoad', () => {
  assert.equal(coefficientOfVariation([5]), null);
  const cv = coefficientOfVariation([9, 11]);
  assert.ok(cv !== null && Math.abs(cv - Math.SQRT2 / 10) < 1e-12);
  assert.equal(summarizeLoad([]), null);
  assert.deepEqual(summarizeLoad([1, 3, 2]), { mean: 2, min: 1, max: 3 });
});

test('parseOptions: defaults, and bad values name the option, the value and what is valid', () => {
  const d = parseOptions([]);
  assert.deepEqual(d, { rounds: 10, timeS: 10, host: 'local', tests: ['point-query', 'update-nonindex', 'read-only.range100'], out: 'bench/harness-overhead.md' });
  assert.deepEqual(parseOptions(['--rounds', '4', '--tests', 'point-query, update-nonindex']).tests, ['point-query', 'update-nonindex']);
  assert.throws(() => parseOptions(['--rounds', '1']), (e) => e instanceof UserError && /--rounds: '1' is not valid; give an integer >= 2/.test(e.message));
  assert.throws(() => parseOptions(['--time', '2.5']), /--time: '2.5' is not valid; give whole seconds >= 1/);
  assert.throws(() => parseOptions(['--tests', ',']), /--tests: ',' names no test/);
});

test('formatRow fills every column of the table header', () => {
  const s = summarizeOverhead([95, 96, 97, 98, 99, 100], [100, 101, 102, 103, 104, 105]);
  const row = formatRow('point-query', s, { mean: 1.5, min: 1, max: 2 });
  assert.equal(row.split('|').length, TABLE_HEADER[0].split('|').length);
  assert.match(row, /^\| point-query \| 6\/6 \| 98 \| 103 \| \*\*0\.95\d\*\* \| 0\.\d{3} – 0\.\d{3} \|/);
  assert.match(row, /\| 1\.50 \(1\.00–2\.00\) \|$/);
  assert.match(formatRow('x', summarizeOverhead([1, 2], [1, 2]), null), /n\/a \(too few rounds\).*\| n\/a \|$/);
});
