/**
 * A counted leg split into shards (`run --count-shard k/n`) is judged like the whole: each shard's
 * record of a release has the meter's slot skipped, with the reason, for the tests another shard
 * counted, and compare reads such a slot as missing (collect-side.js collectCounted), so the
 * shards' records of one release merge into the same verdicts the unsplit run gives. Real records:
 * two servers of MariaDB 10.11.18 (an A/A pair) counting the demo's 8 sysbench tests, two at once
 * (test/fixtures/run/count-parallel/, the parallel run of bench/count-parallel.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { shardUnits } from '../../scripts/run/count-schedule.js';

const config = await loadConfig(new URL('../..', import.meta.url).pathname);
const read = async (/** @type {string} */ name) => /** @type {import('../../scripts/types.js').RunRecord} */ (JSON.parse(await readFile(new URL(`../fixtures/run/count-parallel/${name}`, import.meta.url), 'utf8')));
const a = await read('20261128T155202Z-local-mariadb-10.11.18-demo-9bd4fd.json');
const b = await read('20261128T155202Z-local-mariadb-10.11.18-b-demo-9bd4fd.json');

/**
 * The record shard k of n would have written: the same counts for its own tests, a skipped slot
 * for the others (as count-phase.js writes it), its own run id (each shard is a run of its own).
 * @param {import('../../scripts/types.js').RunRecord} record
 * @param {{index: number, of: number}} shard
 */
function asShard(record, shard) {
  const copy = /** @type {import('../../scripts/types.js').RunRecord} */ (structuredClone(record));
  const counted = copy.steps.filter((s) => s.meters?.instructions?.repeats.length).map((s) => s.name);
  const mine = shardUnits(counted, shard);
  copy.id = copy.id.replace('155202Z', `15520${shard.index}Z`).replace(/9bd4fd$/, `00000${shard.index}`);
  for (const step of copy.steps) {
    if (!counted.includes(step.name) || mine.has(step.name)) continue;
    step.meters = { instructions: { status: 'skipped', reason: `counted by another shard of ${shard.of} (this run is shard ${shard.index})`, repeats: [] } };
  }
  return copy;
}

const judge = (/** @type {import('../../scripts/types.js').RunRecord[]} */ base, /** @type {import('../../scripts/types.js').RunRecord[]} */ candidate) => compareRuns({
  base: { version: '10.11.18', records: base }, candidate: { version: '10.11.18#b', records: candidate },
  thresholds: resolveThresholds(config.thresholds), createdAt: '2026-11-28T16:30:00.000Z',
}).tests.filter((t) => t.metric === 'instructionsPerOp' || t.metric === 'processInstructionsPerOp');

test('two shards\' records of each release give the verdicts of the whole counted run', () => {
  const whole = judge([a], [b]);
  assert.equal(whole.length, 16, '8 tests x 2 counted metrics');
  const shards = [1, 2].map((index) => ({ index, of: 2 }));
  const split = judge(shards.map((s) => asShard(a, s)), shards.map((s) => asShard(b, s)));
  const key = (/** @type {any} */ t) => `${t.test}/${t.metric}`;
  assert.deepEqual(split.map(key).sort(), whole.map(key).sort(), 'every counted test judged once, from the shard that counted it');
  for (const w of whole) {
    const s = /** @type {any} */ (split.find((t) => key(t) === key(w)));
    assert.notEqual(s.verdict, 'failed', `${key(w)}: ${s.reason ?? ''}`);
    assert.equal(s.verdict, w.verdict, key(w));
    assert.equal(s.ratio, w.ratio, `${key(w)}: the same ratio`);
    assert.equal(s.pairedRounds, 3, `${key(w)}: paired round by round within each shard (both releases of a shard are one run)`);
    assert.equal(s.pairedRounds, w.pairedRounds);
  }
  // The A/A pair: no regression, no improvement, whatever the split.
  assert.ok(split.every((t) => t.verdict !== 'regression' && t.verdict !== 'improvement'), split.map((t) => `${key(t)} ${t.verdict}`).join(', '));
});

test('one shard alone judges its own tests only: the others are missing, never failed', () => {
  const shard = { index: 1, of: 2 };
  const own = judge([asShard(a, shard)], [asShard(b, shard)]);
  assert.deepEqual([...new Set(own.map((t) => t.test))].sort(), [...shardUnits(a.steps.filter((s) => s.meters?.instructions?.repeats.length).map((s) => s.name), shard)].sort());
  assert.ok(own.every((t) => t.verdict !== 'failed'));
});
