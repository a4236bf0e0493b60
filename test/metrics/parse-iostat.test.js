import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseIostat } from '../../scripts/metrics/parse-iostat.js';
import { assertGolden, fixture } from './golden.js';

/** Real `iostat -dxk 1` output captured on a 2-vCPU Debian 12 VM (sysstat 12.6.1). */
const cases = [
  { file: 'iostat/12.6.1-idle.txt', reports: 4 },
  { file: 'iostat/12.6.1-load.txt', reports: 6 }, // dd writing then reading 600 MB with O_DIRECT
];

for (const c of cases) {
  test(`parseIostat ${c.file}`, async () => {
    const url = fixture(c.file);
    const reports = parseIostat(await readFile(url, 'utf8'));
    assert.equal(reports.length, c.reports);
    for (const r of reports) {
      assert.deepEqual(r.devices.map((d) => d.device), ['vda']);
      for (const d of r.devices) assert.ok(d.readsPerS >= 0 && d.kbWrittenPerS >= 0 && d.utilPct !== null);
    }
    await assertGolden(url, reports);
  });
}

test('parseIostat: the load capture shows the dd traffic', async () => {
  const reports = parseIostat(await readFile(fixture('iostat/12.6.1-load.txt'), 'utf8'));
  const totalWrittenKb = reports.slice(1).reduce((s, r) => s + r.devices[0].kbWrittenPerS, 0);
  const totalReadKb = reports.slice(1).reduce((s, r) => s + r.devices[0].kbReadPerS, 0);
  assert.ok(totalWrittenKb > 500_000, `written ${totalWrittenKb} kB`);
  assert.ok(totalReadKb > 500_000, `read ${totalReadKb} kB`);
});

test('parseIostat reads sysstat 11 layout (Device: with a colon, other column order)', () => {
  const text = [
    'Linux 4.9.0 (host) \t01/02/2020 \t_x86_64_\t(4 CPU)',
    '',
    'Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util',
    'sda               0,10     2,00    1,50    3,25    12,00    40,50    10,00     0,01    1,00    1,00    1,00   0,50   0,20',
    '',
  ].join('\n');
  assert.deepEqual(parseIostat(text), [{ devices: [{ device: 'sda', readsPerS: 1.5, writesPerS: 3.25, kbReadPerS: 12, kbWrittenPerS: 40.5, utilPct: 0.2 }] }]);
});

test('parseIostat: empty text, missing -k columns, short lines', () => {
  assert.deepEqual(parseIostat(''), []);
  assert.throws(() => parseIostat('Device r/s w/s rsec/s wsec/s\n'), /lacks column\(s\) rkB\/s, wkB\/s/);
  assert.throws(() => parseIostat('Device r/s w/s rkB/s wkB/s\nvda 1 2\n'), /3 fields, header has 5/);
});
