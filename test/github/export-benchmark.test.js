/**
 * `tagbench export --format github-action-benchmark` on the captured pipeline output: the
 * entries follow the action's custom-tool input (checked here against the rules written in
 * export-benchmark.js: array of {name, value, unit, range?, extra?}, finite values, a range
 * the action can read, names without release or run) and series names stay the same across
 * releases. The act test of the workflows runs the real action on this output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportCommand } from '../../scripts/github/commands.js';
import { exportBenchmarkEntries } from '../../scripts/github/export-benchmark.js';
import { readRecords } from '../../scripts/store/index.js';

const STORE = fileURLToPath(new URL('../fixtures/github/captured-store/', import.meta.url));
const RUN_18 = '20261121T135507Z-local-mariadb-10.11.18-smoke-495fd6';
const RUN_19 = '20261121T135507Z-local-mariadb-10.11.19-smoke-495fd6';
const qos = { stallFraction: 0.5, minIntervals: 10 };
/** The action's own pattern for a range it rescales with the value (extractRangeInfo). */
const ACTION_RANGE = /(?<prefix>(\+-|±)\s*)(?<value>\d.*)/;

/** @param {any[]} entries */
function assertActionInput(entries) {
  assert.ok(Array.isArray(entries) && entries.length > 0);
  for (const e of entries) {
    assert.deepEqual(Object.keys(e).sort(), ['extra', 'name', 'range', 'unit', 'value']);
    assert.equal(typeof e.name, 'string');
    assert.ok(typeof e.value === 'number' && Number.isFinite(e.value), `${e.name}: value ${e.value}`);
    assert.equal(typeof e.unit, 'string');
    const range = ACTION_RANGE.exec(e.range);
    assert.ok(range && Number.isFinite(Number(range.groups?.value)), `${e.name}: range '${e.range}' is not one the action reads`);
  }
  assert.equal(new Set(entries.map((e) => e.name)).size, entries.length, 'names are unique in one file');
}

test('bigger-is-better: throughput per reported test, median of the repeats, range covering them, extra with release, host class and run', async () => {
  const [record] = await readRecords(STORE, { ids: [RUN_19] });
  const entries = exportBenchmarkEntries([record], { tool: 'customBiggerIsBetter', qos });
  assertActionInput(entries);
  assert.deepEqual(entries.map((e) => e.name), ['mariadb 10.11 · local · smoke · update-index · throughput', 'mariadb 10.11 · local · smoke · point-query · throughput'], 'reported tests only, no warm-up steps');
  const step = record.steps.find((s) => s.name === 'point-query');
  const values = (step?.repeats ?? []).map((r) => /** @type {number} */ (r.throughput)).sort((a, b) => a - b);
  const point = entries[1];
  assert.equal(point.value, values[Math.floor(values.length / 2)]);
  assert.equal(point.unit, 'op/s');
  const half = Number(point.range?.slice(2));
  assert.ok(values.every((v) => Math.abs(v - point.value) <= half + 1e-6), 'the range covers every repeat');
  assert.equal(point.extra, `release: mariadb 10.11.19\nhost class: local\nrun: ${RUN_19}\nrepeats: ${values.length}`);
});

test('smaller-is-better: latency p95, CPU per operation, and stall share when a repeat has enough seconds', async () => {
  const [record] = await readRecords(STORE, { ids: [RUN_19] });
  const entries = exportBenchmarkEntries([record], { tool: 'customSmallerIsBetter', qos });
  assertActionInput(entries);
  assert.deepEqual(entries.filter((e) => e.name.includes('point-query')).map((e) => [e.name.split(' · ').at(-1), e.unit]), [['latency p95', 'ms'], ['CPU per operation', 'µs/op']], 'too few per-second samples for a stall share (as in compare)');
  const longer = structuredClone(record);
  const step = longer.steps.find((s) => s.name === 'point-query');
  assert.ok(step);
  // 20 seconds, 5 of them below half the median: a stall share of 0.25 in every repeat.
  for (const r of step.repeats) r.intervals = Array.from({ length: 20 }, (_, i) => ({ t: i + 1, qps: i < 5 ? 10 : 100, tps: 0, latencyMs: 1, errors: 0 }));
  const stall = exportBenchmarkEntries([longer], { tool: 'customSmallerIsBetter', qos }).find((e) => e.name.endsWith('point-query · stall share'));
  assert.deepEqual([stall?.value, stall?.unit, stall?.range], [0.25, 'share of seconds', '± 0']);
});

test('series names are the same for two releases; two runs of one release in one file are refused', async () => {
  const records = await readRecords(STORE, { ids: [RUN_18, RUN_19] });
  const names = (/** @type {string} */ id) => exportBenchmarkEntries(records.filter((r) => r.id === id), { tool: 'customSmallerIsBetter', qos }).map((e) => e.name);
  assert.deepEqual(names(RUN_18), names(RUN_19));
  assert.throws(() => exportBenchmarkEntries(records, { tool: 'customBiggerIsBetter', qos }), /both give the series 'mariadb 10\.11 · local · smoke · update-index · throughput'/);
});

test('the command writes the file; bad format, unknown run and nothing to export are named', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-export-'));
  try {
    const out = join(dir, 'bench.json');
    assert.equal(await exportCommand({ format: 'github-action-benchmark', tool: 'customBiggerIsBetter', store: STORE, run: [RUN_19], out }), 0);
    assertActionInput(JSON.parse(await readFile(out, 'utf8')));
    await assert.rejects(exportCommand({ format: 'csv', store: STORE, out }), /--format is 'csv'; valid: github-action-benchmark/);
    await assert.rejects(exportCommand({ format: 'github-action-benchmark', tool: 'customBiggerIsBetter', store: STORE, run: ['nope'], out }), /no completed run .* --run nope/);
    await assert.rejects(exportCommand({ format: 'github-action-benchmark', tool: 'customBiggerIsBetter', store: STORE, run: [RUN_19, 'nope'], out }), /run\(s\) nope not found/);
    const [record] = await readRecords(STORE, { ids: [RUN_19] });
    for (const s of record.steps) s.reported = false;
    assert.throws(() => exportBenchmarkEntries([record], { tool: 'customBiggerIsBetter', qos }), /refuses an empty file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
