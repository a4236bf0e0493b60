/**
 * The pure parts of bench/paired-rounds.js: grouping a calibration's records into rounds of A, B
 * and S, the pooled spreads with and without pairing by round, and the options. The figures in
 * bench/paired-rounds.md come from real calibration records (the committed extracts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundsOf, pairedSpread, orderOffset, parseOptions, renderReport } from '../../bench/paired-rounds.js';
import { UserError } from '../../scripts/errors.js';

/**
 * A record as calibrate writes it, reduced to what the bench reads.
 * @param {string} id @param {Record<string, (number|null)[]>} byTest throughput per instance
 */
function record(id, byTest) {
  return /** @type {any} */ ({
    id,
    release: { product: 'mariadb', version: '10.11.18' },
    config: { suite: 'smoke-15s' },
    steps: Object.entries(byTest).map(([name, values]) => ({
      name,
      repeats: values.map((v, i) => ({ index: i, instance: i, status: v === null ? 'failed' : 'ok', throughput: v })),
    })),
  });
}

test('roundsOf groups a run\'s A, B and S by the id\'s run suffix and the instance, leaving out reference runs', () => {
  const records = [
    record('20261123T061745Z-local-mariadb-10.11.18-ref2809-smoke-15s-8a0690', { 'point-query': [100] }),
    record('20261123T061844Z-local-mariadb-10.11.18-smoke-15s-ae3881', { 'point-query': [100, 120] }),
    record('20261123T061844Z-local-mariadb-10.11.18-B-smoke-15s-ae3881', { 'point-query': [110, 130] }),
    record('20261123T061844Z-local-mariadb-10.11.18-S2809-smoke-15s-ae3881', { 'point-query': [90, null] }),
    // an adaptive round of A against S only
    record('20261123T063638Z-local-mariadb-10.11.18-smoke-15s-eed0e3', { 'point-query': [105] }),
    record('20261123T063638Z-local-mariadb-10.11.18-S2809-smoke-15s-eed0e3', { 'point-query': [95] }),
    // B without its A: no round to pair
    record('20261123T070000Z-local-mariadb-10.11.18-B-smoke-15s-ffffff', { 'point-query': [1] }),
  ];
  assert.deepEqual(roundsOf(records, ['point-query']), [
    { run: 'ae3881', test: 'point-query', rounds: [{ instance: 0, A: 100, B: 110, S: 90 }, { instance: 1, A: 120, B: 130, S: null }] },
    { run: 'eed0e3', test: 'point-query', rounds: [{ instance: 0, A: 105, B: null, S: 95 }] },
  ]);
});

test('pairedSpread: a drift common to both sides is in the unpaired spread and gone from the paired one', () => {
  // Two runs; in each, B is A times a constant, while A drifts by round: the pairing removes all of it.
  const series = [
    { run: 'r1', test: 't', rounds: [100, 150, 80].map((a, i) => ({ instance: i, A: a, B: a * 1.1, S: null })) },
    { run: 'r2', test: 't', rounds: [200, 120].map((a, i) => ({ instance: i, A: a, B: a * 0.9, S: null })) },
  ];
  const p = pairedSpread(series, 't', 'B');
  assert.equal(p.runs, 2);
  assert.equal(p.rounds, 5);
  assert.ok(p.unpaired && p.paired);
  assert.equal(p.unpaired.df, 2 * 2 + 2 * 1);
  assert.equal(p.paired.df, 2 + 1);
  assert.ok(p.unpaired.sd > 0.2, `the drift is in the unpaired spread: ${p.unpaired.sd}`);
  assert.ok(p.paired.sd < 1e-12, `and not in the paired one: ${p.paired.sd}`);
  // Without a common drift the two agree in expectation; here by hand: A = {1, e^0.2}, B = {e^0.1, e^0.1}
  const flat = [{ run: 'r', test: 't', rounds: [{ instance: 0, A: 1, B: Math.exp(0.1), S: null }, { instance: 1, A: Math.exp(0.2), B: Math.exp(0.1), S: null }] }];
  const q = pairedSpread(flat, 't', 'B');
  // unpaired: SS = 0.02 + 0, df 2 → sd 0.1; paired: d = {0.1, -0.1}, SS 0.02, df 1 → sd 0.1414 / √2 = 0.1
  assert.ok(q.unpaired && Math.abs(q.unpaired.sd - 0.1) < 1e-12);
  assert.ok(q.paired && Math.abs(q.paired.sd - 0.1) < 1e-12);
  assert.ok(q.paired.ci[0] < q.paired.sd && q.paired.sd < q.paired.ci[1]);
  assert.deepEqual(pairedSpread(flat, 't', 'S'), { runs: 0, rounds: 0, unpaired: null, paired: null });
});

test('renderReport prints a row per test and pair with the share of variance the pairing removes', () => {
  const series = [{ run: 'r', test: 'point-query', rounds: [{ instance: 0, A: 1, B: Math.exp(0.1), S: null }, { instance: 1, A: Math.exp(0.2), B: Math.exp(0.1), S: null }] }];
  const text = renderReport([{ suite: 'smoke', source: 'test', series }]);
  assert.match(text, /\n\| smoke \(test\) \| point-query \| A–B \| 1 \| 2 \| 10\.0 % \([\d.]+–[\d.]+ %, 2 df\) \| 10\.0 % \([\d.]+–[\d.]+ %, 1 df\) \| 0 % \|\n/);
  assert.doesNotMatch(text, /A–S/);
});

test('orderOffset: the geometric mean of B/A over every round of every run, with its paired interval', () => {
  // B runs 5 % slower than A in every round, A drifting: the offset is exactly 0.95, the interval shut
  const steady = [
    { run: 'r1', test: 't', rounds: [100, 150].map((a, i) => ({ instance: i, A: a, B: a * 0.95, S: null })) },
    { run: 'r2', test: 't', rounds: [80].map((a, i) => ({ instance: i, A: a, B: a * 0.95, S: null })) },
  ];
  const o = orderOffset(steady, 't');
  assert.ok(o);
  assert.equal(o.rounds, 3, 'rounds pool across runs');
  assert.ok(Math.abs(o.estimate - 0.95) < 1e-12);
  assert.ok(Math.abs(o.lo - 0.95) < 1e-12 && Math.abs(o.hi - 0.95) < 1e-12);
  // ratios e^0.1 and e^-0.1: no offset, an interval around 1; rounds without B are left out
  const even = [{ run: 'r', test: 't', rounds: [{ instance: 0, A: 1, B: Math.exp(0.1), S: null }, { instance: 1, A: 1, B: Math.exp(-0.1), S: null }, { instance: 2, A: 1, B: null, S: 2 }] }];
  const e = orderOffset(even, 't');
  assert.ok(e && e.rounds === 2 && Math.abs(e.estimate - 1) < 1e-12 && e.lo < 1 && e.hi > 1);
  assert.equal(orderOffset(even, 'other'), null, 'no rounds, no estimate');
  const text = renderReport([{ suite: 'smoke', source: 'test', series: steady.map((s) => ({ ...s, test: 'point-query' })) }]);
  assert.match(text, /\n\| smoke \(test\) \| point-query \| 3 \| -5\.0 % \| -5\.0 % to -5\.0 % \| 0\.00 \|\n/);
});

test('parseOptions wants a store with its suite, or an extract', () => {
  assert.throws(() => parseOptions([]), (err) => err instanceof UserError && /--store DIR --suite NAME/.test(err.message));
  assert.throws(() => parseOptions(['--store', '/x']), /--store needs --suite/);
  assert.deepEqual(parseOptions(['--extract', 'a.json', '--extract', 'b.json']).extracts, ['a.json', 'b.json']);
});
