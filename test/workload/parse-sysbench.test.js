/**
 * parseSysbench over real sysbench 1.0.20 output (captured by test/workload/capture-fixtures.js).
 * Table-driven: each fixture has a golden `<name>.expected.json` (UPDATE_GOLDEN=1 rewrites
 * them; review the diff), plus checks that hold for any capture of the same case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { parseSysbench } from '../../scripts/workload/sysbench/parse-sysbench.js';

const dir = new URL('../fixtures/workload/sysbench/', import.meta.url);

/** @type {{name: string, ok: boolean, reason?: RegExp, warmup?: boolean}[]} */
const CASES = [
  { name: '1.0.20-point-query-warmup', ok: true, warmup: true },
  { name: '1.0.20-read-write-nowarmup', ok: true, warmup: false },
  { name: '1.0.20-read-only-2threads', ok: true, warmup: true },
  { name: '1.0.20-scan', ok: true, warmup: true },
  { name: '1.0.20-update-zipf', ok: true, warmup: true },
  { name: '1.0.20-fatal-connect', ok: false, reason: /unable to connect to MySQL server/ },
  { name: '1.0.20-server-killed', ok: false, reason: /error 2013 \(Lost connection/ },
  { name: '1.0.20-truncated', ok: false, reason: /no final summary/ },
  { name: '1.0.20-invalid-option', ok: false, reason: /invalid option: --warmup-time/ },
  { name: '1.0.20-lua-error', ok: false, reason: /--key-index must be pk or si/ },
];

for (const c of CASES) {
  test(`parseSysbench: ${c.name}`, async () => {
    const text = await readFile(new URL(`${c.name}.txt`, dir), 'utf8');
    const parsed = parseSysbench(text);
    assert.equal(parsed.ok, c.ok, parsed.ok ? 'parsed as ok' : parsed.reason);
    assert.equal(parsed.version, '1.0.20');
    if (parsed.ok) {
      assert.ok(parsed.qps > 0 && parsed.tps > 0, 'positive rates');
      assert.ok(parsed.qps >= parsed.tps, 'at least one query per event');
      assert.ok(parsed.latencyMs.min <= parsed.latencyMs.avg && parsed.latencyMs.avg <= parsed.latencyMs.max);
      assert.equal(parsed.queries.total, parsed.queries.read + parsed.queries.write + parsed.queries.other);
      assert.ok(parsed.intervals.length >= 1);
      // Warm-up seconds are dropped and the measured ones renumbered from 1.
      assert.deepEqual(parsed.intervals.map((i) => i.t), parsed.intervals.map((_, k) => k + 1));
      // The summary's rates are over the measured part only: events / rate = measured seconds.
      assert.ok(Math.abs(parsed.transactions / parsed.tps - parsed.measuredS) < 0.05, 'rates cover the measured part');
      assert.equal(parsed.totalTimeS > parsed.measuredS, Boolean(c.warmup));
    } else {
      assert.match(parsed.reason, /** @type {RegExp} */ (c.reason));
      assert.equal('qps' in parsed, false, 'a failure carries no numbers');
    }
    await assertGolden(new URL(`${c.name}.expected.json`, dir), parsed);
  });
}

test('parseSysbench: output cut inside the final summary is a failure, never numbers', async () => {
  const text = await readFile(new URL('1.0.20-read-write-nowarmup.txt', dir), 'utf8');
  const cut = text.slice(0, text.indexOf('Latency (ms):'));
  const parsed = parseSysbench(cut);
  assert.equal(parsed.ok, false);
  assert.match(parsed.ok ? '' : parsed.reason, /incomplete \(missing: .*avg/);
  assert.equal(parsed.intervals.length, 2, 'intervals before the cut are kept');
});

test('parseSysbench: empty output', () => {
  const parsed = parseSysbench('');
  assert.equal(parsed.ok, false);
  assert.deepEqual(parsed.intervals, []);
});

/**
 * @param {URL} file
 * @param {unknown} actual
 */
async function assertGolden(file, actual) {
  const json = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    await writeFile(file, json);
    return;
  }
  const expected = await readFile(file, 'utf8').catch(() => {
    throw new Error(`no golden file ${file.pathname}; run with UPDATE_GOLDEN=1 to create it, then review it`);
  });
  assert.deepEqual(actual, JSON.parse(expected));
}
