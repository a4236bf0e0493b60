// LinkBench per operation type in compare (scripts/compare/counted-types.js), on a real counted
// LinkBench run: MariaDB 10.11.18 and 10.11.19 side by side on this 2-core VM at 19:14 on
// 2026-11-28 (`run --suite sequences-counted --only linkbench.request.1 --meter instructions`,
// 3 rounds; instruction counts do not depend on the host's load, which was 1-19 then), whose
// request phase was followed by 200 requests of each of the 10 operation types alone (byType).
// The records are stored whole (three steps each). Then the missing-type and unpaired cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { compareRuns, renderComparison, resolveThresholds } from '../../scripts/compare/index.js';
import { compareCountedTypes, renderCountedTypes } from '../../scripts/compare/counted-types.js';
import { validateComparison } from '../../scripts/store/index.js';
import { loadConfig } from '../../scripts/config/index.js';

const dir = new URL('../fixtures/compare/linkbench-types/', import.meta.url);
/** @type {import('../../scripts/types.js').RunRecord[]} */
const records = readdirSync(dir).map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
const side = (/** @type {string} */ v) => records.filter((r) => r.release.version === v);
const TYPES = ['ADD_LINK', 'DELETE_LINK', 'UPDATE_LINK', 'COUNT_LINK', 'MULTIGET_LINK', 'GET_LINKS_LIST', 'ADD_NODE', 'UPDATE_NODE', 'DELETE_NODE', 'GET_NODE'];

test('each operation type of the real run: medians per side, paired over the 3 rounds, ratio with its interval', () => {
  const [entry, ...others] = compareCountedTypes(side('10.11.18'), side('10.11.19'), ['linkbench.load', 'linkbench.index', 'linkbench.request.1'], 0.9);
  assert.equal(others.length, 0, 'only the request phase has parts');
  assert.deepEqual([entry.test, entry.meter, entry.metric, entry.unit], ['linkbench.request.1', 'instructions', 'instructionsPerOp', 'instructions/op']);
  assert.deepEqual(entry.types.map((r) => r.type), TYPES, 'in the order they were counted');
  const add = /** @type {import('../../scripts/types.js').CountedTypeRow} */ (entry.types.find((r) => r.type === 'ADD_LINK'));
  // Each round draws its own seed: ADD_LINK's rounds are 465,405, 458,343 and 451,428 on the base.
  assert.equal(add.base, 458343.3);
  assert.equal(add.candidate, 458848.6);
  assert.equal(add.rounds, 3);
  for (const r of entry.types) {
    assert.ok(r.ratio !== null && Math.abs(r.ratio - 1) < 0.002, `${r.type}: the same work in both releases, ${r.ratio}`);
    assert.ok(r.ci && r.ci[0] <= /** @type {number} */ (r.ratio) && /** @type {number} */ (r.ratio) <= r.ci[1], `${r.type}: the ratio inside its interval`);
  }
  // Paired: the geometric mean of the rounds' ratios (not the ratio of the medians).
  const rounds = (/** @type {string} */ v) => side(v)[0].steps[2].meters?.instructions.repeats.map((rep) => /** @type {any} */ (rep.byType?.ADD_LINK).instructions.queryPathPerOp) ?? [];
  const [b, c] = [rounds('10.11.18'), rounds('10.11.19')];
  const geo = Math.exp(b.reduce((s, x, i) => s + Math.log(c[i] / x), 0) / b.length);
  assert.ok(Math.abs(/** @type {number} */ (add.ratio) - geo) < 1e-12);
});

test('the comparison keeps them, schema-valid, never as verdicts, and prints a table under the test', async () => {
  const config = await loadConfig(new URL('../..', import.meta.url).pathname);
  const cmp = compareRuns({ base: { version: '10.11.18', records: side('10.11.18') }, candidate: { version: '10.11.19', records: side('10.11.19') }, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-11-28T19:30:00Z' });
  assert.deepEqual(validateComparison(cmp), []);
  assert.equal(cmp.countedTypes?.[0].types.length, 10);
  assert.equal(cmp.tests.some((t) => TYPES.some((type) => t.test.includes(type) || t.metric.includes(type))), false, 'no verdict per type');
  const text = renderComparison(cmp, { format: 'terminal' });
  assert.match(text, /linkbench\.request\.1: instructionsPerOp per operation type \(not gated: context under the phase's own verdict;.*\):\n  type .*interval\n  ADD_LINK\s+458,343\s+458,849\s+1\.000\d\d\s+0\.99\d+–1\.00\d+\n/);
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, /\*\*linkbench\.request\.1 per operation type\*\* \(instructions\/op, not gated: context.*\n\n\| type \| base \| candidate \| rounds \| ratio \| interval \|\n.*\n\| ADD_LINK \| 458,343 \| 458,849 \| 3 \| 1\.000\d\d \| 0\.99\d+–1\.00\d+ \|/);
  assert.ok(md.indexOf('per operation type**') > md.indexOf('**Counted figures per test**'), 'under the counted figures of the test');
});

test('a type counted on one side only, and releases not counted side by side', () => {
  const cand = structuredClone(side('10.11.19'));
  for (const rep of cand[0].steps[2].meters?.instructions.repeats ?? []) delete rep.byType?.GET_NODE;
  const [entry] = compareCountedTypes(side('10.11.18'), cand, ['linkbench.request.1'], 0.9);
  const node = entry.types.find((r) => r.type === 'GET_NODE');
  assert.deepEqual(node && [node.candidate, node.rounds, node.ratio, node.ci], [null, 0, null, null], 'no figure: null, never 0');
  assert.match(renderCountedTypes({ countedTypes: [entry] }, 'markdown'), /\| GET_NODE \| 302,730 \| – \| 0 \| n\/a \| n\/a \(0 paired rounds\) \|/);
  // Another run's records: no round pairs, the ratio of the medians and no interval.
  const apart = structuredClone(side('10.11.19'));
  apart[0].id = apart[0].id.replace('3c10ca', 'aaaaaa');
  const [unpaired] = compareCountedTypes(side('10.11.18'), apart, ['linkbench.request.1'], 0.9);
  const add = unpaired.types[0];
  assert.deepEqual([add.rounds, add.ci], [0, null]);
  assert.equal(add.ratio, 458848.6 / 458343.3);
});

test('nothing to show without parts', () => {
  assert.deepEqual(compareCountedTypes(side('10.11.18'), side('10.11.19'), ['linkbench.load'], 0.9), []);
  assert.equal(renderCountedTypes({}, 'text'), '');
});
