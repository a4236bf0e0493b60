/**
 * The zipfian id sampler of lua/tagbench_common.lua (used by update-zipf.lua; sysbench 1.0.20
 * has no zipfian --rand-type), run inside real sysbench with no database: the frequencies of
 * 200,000 draws must match P(id) = id^-s / sum(j^-s) within 5 standard deviations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const harness = fileURLToPath(new URL('../fixtures/workload/lua/zipf-sample.lua', import.meta.url));
const DRAWS = 200000;

for (const [n, s] of [[1000, 0.8], [50, 1.0], [100000, 1.2]]) {
  test(`tagbench_zipf(${n}, ${s}) follows id^-${s}`, async () => {
    const { stdout } = await run('sysbench', [harness, `--table-size=${n}`, `--zipf-exp=${s}`, `--draws=${DRAWS}`, '--events=1', '--time=0', 'run']);
    /** @type {Map<number, number>} */
    const counts = new Map();
    for (const m of stdout.matchAll(/^zipf (\d+) (\d+)$/gm)) counts.set(Number(m[1]), Number(m[2]));
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    assert.equal(total, DRAWS);
    for (const id of counts.keys()) assert.ok(id >= 1 && id <= n, `id ${id} outside 1..${n}`);
    let z = 0;
    for (let k = 1; k <= n; k += 1) z += k ** -s;
    // Each of the 10 hottest ids, and the tail beyond them as one bin.
    const bins = [...Array.from({ length: 10 }, (_, i) => ({ label: `id ${i + 1}`, p: (i + 1) ** -s / z, seen: counts.get(i + 1) ?? 0 }))];
    const headP = bins.reduce((a, b) => a + b.p, 0);
    const headSeen = bins.reduce((a, b) => a + b.seen, 0);
    bins.push({ label: 'ids > 10', p: 1 - headP, seen: DRAWS - headSeen });
    for (const b of bins) {
      const mean = DRAWS * b.p;
      const sd = Math.sqrt(DRAWS * b.p * (1 - b.p));
      assert.ok(Math.abs(b.seen - mean) <= 5 * sd + 1, `${b.label}: ${b.seen} draws, expected ${mean.toFixed(0)} ± ${(5 * sd).toFixed(0)}`);
    }
  });
}
