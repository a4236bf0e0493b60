import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseVmstat } from '../../scripts/metrics/parse-vmstat.js';
import { assertGolden, fixture } from './golden.js';

/** Real `vmstat -n 1` output captured on a 2-vCPU Debian 12 VM (procps-ng 4.0.2). */
const cases = [
  { file: 'vmstat/4.0.2-idle.txt', lines: 5 },
  { file: 'vmstat/4.0.2-load.txt', lines: 6 },
  { file: 'vmstat/4.0.2-sigterm.txt', lines: 3 }, // stopped by SIGTERM through a pipe, as the sampler does
];

for (const c of cases) {
  test(`parseVmstat ${c.file}`, async () => {
    const url = fixture(c.file);
    const samples = parseVmstat(await readFile(url, 'utf8'));
    assert.equal(samples.length, c.lines);
    for (const s of samples) {
      // vmstat rounds each CPU share to a whole percent, so the five may add up to 98..102
      const total = s.usPct + s.syPct + s.idPct + s.waPct + s.stPct;
      assert.ok(total >= 97 && total <= 103, `cpu shares add to ${total}`);
      assert.ok(s.csPerS >= 0 && s.runnable >= 0);
    }
    await assertGolden(url, samples);
  });
}

test('parseVmstat: the load capture shows the CPU busy (id 0) after the since-boot line', async () => {
  const samples = parseVmstat(await readFile(fixture('vmstat/4.0.2-load.txt'), 'utf8'));
  assert.ok(samples.slice(1, 3).every((s) => s.idPct === 0 && s.usPct > 50));
});

test('parseVmstat ignores a partial last line (killed mid-write)', async () => {
  const text = await readFile(fixture('vmstat/4.0.2-idle.txt'), 'utf8');
  const cut = text.slice(0, text.length - 10);
  assert.equal(parseVmstat(cut).length, parseVmstat(text).length - 1);
});

test('parseVmstat maps columns by header name (a newer procps adds `gu`)', () => {
  const text = [
    'procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu-------',
    ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu',
    ' 3  1      0 100 5 6    0    0  10  20  30  40 11 22 33 24  7  3',
    '',
  ].join('\n');
  assert.deepEqual(parseVmstat(text), [
    { runnable: 3, blocked: 1, freeKb: 100, inPerS: 30, csPerS: 40, usPct: 11, syPct: 22, idPct: 33, waPct: 24, stPct: 7 },
  ]);
});

test('parseVmstat: empty text gives no samples; data without a header or bad fields throw', () => {
  assert.deepEqual(parseVmstat(''), []);
  assert.throws(() => parseVmstat(' 1 0 0 1 1 1 0 0 0 0 1 1 1 1 98 0 0\n'), /before the column header/);
  assert.throws(() => parseVmstat(' r b free in cs us sy id wa\n 1 2 3\n'), /3 fields, header has 9/);
  assert.throws(() => parseVmstat(' r b free in cs us sy id\n'), /lacks column\(s\) wa/);
});
