import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { computeEfficiency } from '../../scripts/metrics/compute-efficiency.js';
import { computeStepSamples, computeStatusDelta } from '../../scripts/metrics/compute-step-samples.js';
import { fixture } from './golden.js';

/** @typedef {import('../../scripts/metrics/types.js').StepSamples} StepSamples */

/**
 * Known-answer samples: `n` seconds at constant rates.
 * @param {{n: number, cores: number, us: number, sy: number, cs: number, r: number, rkb: number, wkb: number, durationS?: number}} o
 * @returns {StepSamples}
 */
function steady(o) {
  const cpu = Array.from({ length: o.n }, (_, i) => ({ t: i + 1, usPct: o.us, syPct: o.sy, idPct: 100 - o.us - o.sy, waPct: 0, stPct: 0, csPerS: o.cs, runnable: 1 }));
  const io = Array.from({ length: o.n }, (_, i) => ({ t: i + 1, readsPerS: o.r, writesPerS: 1, kbReadPerS: o.rkb, kbWrittenPerS: o.wkb }));
  return {
    startedAt: '2026-01-01T00:00:00.000Z', durationS: o.durationS ?? o.n, intervalS: 1, cores: o.cores, cpu, io, ioByDevice: { vda: io },
    devices: { basis: 'datadir', devices: ['vda'], note: '' }, rss: [], rssKb: 1000, rssMaxKb: 1000, status: null, warnings: [],
  };
}

test('computeEfficiency: known answer — 2 cores at 40+10 % for 10 s over 1e6 ops = 10 µs/op', () => {
  const eff = computeEfficiency(steady({ n: 10, cores: 2, us: 40, sy: 10, cs: 20000, r: 50, rkb: 400, wkb: 1000 }), 1e6);
  assert.ok(eff);
  assert.ok(Math.abs(eff.cpuUsPerOp - 10) < 1e-9, `cpuUsPerOp ${eff.cpuUsPerOp}`); // 0.5 × 2 CPUs × 10 s = 10 CPU-s
  assert.ok(Math.abs(eff.csPerOp - 0.2) < 1e-12); // 20000/s × 10 s / 1e6
  assert.ok(Math.abs(eff.readsPerOp - 0.0005) < 1e-12);
  assert.ok(Math.abs(eff.kbReadPerOp - 0.004) < 1e-12);
  assert.ok(Math.abs(eff.kbWrittenPerOp - 0.01) < 1e-12);
});

test('computeEfficiency: CPU per op counts the step\'s own processes, not the machine: a busy neighbour CPU changes nothing', () => {
  // The demo's pattern: server + client pinned to one CPU of two, using it fully (50 % us+sy
  // system-wide), then the same step with the other CPU kept busy by something else (100 %).
  const processCpu = { serverS: 7.5, clientS: 2.5, wallS: 10 };
  const quiet = computeEfficiency({ ...steady({ n: 10, cores: 2, us: 40, sy: 10, cs: 20000, r: 50, rkb: 400, wkb: 1000 }), processCpu }, 1e6);
  const busy = computeEfficiency({ ...steady({ n: 10, cores: 2, us: 85, sy: 15, cs: 20000, r: 50, rkb: 400, wkb: 1000 }), processCpu }, 1e6);
  assert.ok(quiet && busy);
  // (7.5 + 2.5) s over 10 s = 1 CPU-s/s; × 10 s / 1e6 ops = 10 µs/op, in both.
  assert.ok(Math.abs(quiet.cpuUsPerOp - 10) < 1e-9, String(quiet.cpuUsPerOp));
  assert.equal(busy.cpuUsPerOp, quiet.cpuUsPerOp);
  // The system-wide form (samples without processCpu) doubles: what the demo's records showed.
  const systemWide = computeEfficiency(steady({ n: 10, cores: 2, us: 85, sy: 15, cs: 20000, r: 50, rkb: 400, wkb: 1000 }), 1e6);
  assert.ok(systemWide && Math.abs(systemWide.cpuUsPerOp - 20) < 1e-9, String(systemWide?.cpuUsPerOp));
  // The record says which accounting it holds: compare never judges one against the other.
  assert.equal(quiet.cpuScope, 'processes');
  assert.equal(systemWide && 'cpuScope' in systemWide, false);
  // The rate is scaled to the ops' window like the other figures: 1 CPU-s/s over a 5 s window.
  const windowed = computeEfficiency({ ...steady({ n: 10, cores: 2, us: 40, sy: 10, cs: 0, r: 0, rkb: 0, wkb: 0 }), processCpu }, 1e6, { windowS: 5 });
  assert.ok(windowed && Math.abs(windowed.cpuUsPerOp - 5) < 1e-9, String(windowed?.cpuUsPerOp));
  // Unreadable process CPU (the server gone): no figure rather than the machine's.
  assert.equal(computeEfficiency({ ...steady({ n: 10, cores: 2, us: 40, sy: 10, cs: 1, r: 1, rkb: 1, wkb: 1 }), processCpu: null }, 1e6), null);
  assert.equal(computeEfficiency({ ...steady({ n: 10, cores: 2, us: 40, sy: 10, cs: 1, r: 1, rkb: 1, wkb: 1 }), processCpu: { serverS: 1, clientS: 1, wallS: 0 } }, 1e6), null);
});

test('computeEfficiency: windowS scales the mean rates to the window the ops were counted in', () => {
  const s = steady({ n: 15, cores: 2, us: 50, sy: 0, cs: 1000, r: 0, rkb: 0, wkb: 0, durationS: 15.4 });
  const eff = computeEfficiency(s, 10_000, { windowS: 10 });
  assert.ok(eff);
  assert.ok(Math.abs(eff.cpuUsPerOp - 1000) < 1e-9); // 1 CPU-s/s × 10 s / 1e4 ops = 1 ms
  const byDuration = computeEfficiency(s, 10_000);
  assert.ok(byDuration && Math.abs(byDuration.cpuUsPerOp - 1540) < 1e-9);
});

test('computeEfficiency: ops = 0, negative, NaN, Infinity, and no samples give null, never Infinity/NaN', () => {
  const s = steady({ n: 5, cores: 2, us: 10, sy: 10, cs: 100, r: 1, rkb: 1, wkb: 1 });
  for (const ops of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(computeEfficiency(s, ops), null, `ops=${ops}`);
  assert.equal(computeEfficiency({ ...s, cpu: [] }, 100), null);
  assert.equal(computeEfficiency({ ...s, io: [] }, 100), null);
  assert.equal(computeEfficiency({ ...s, durationS: 0 }, 100), null);
  assert.equal(computeEfficiency(s, 100, { windowS: 0 }), null);
});

test('computeStepSamples on real captures: drops since-boot lines, sums the counted device only', async () => {
  const vmstatText = await readFile(fixture('vmstat/4.0.2-load.txt'), 'utf8');
  const iostatText = await readFile(fixture('iostat/12.6.1-load.txt'), 'utf8');
  const base = {
    startedAt: '2026-11-21T13:00:00.000Z', durationS: 5.5, intervalS: 1, cores: 2, vmstatText, iostatText,
    rss: [{ t: 1, rssKb: 90000 }, { t: 2, rssKb: 95000 }], rssKb: 93000, statusBefore: null, statusAfter: null, warnings: [],
  };
  const s = computeStepSamples({ ...base, devices: { basis: 'datadir', devices: ['vda'], note: 'test' } });
  assert.equal(s.cpu.length, 5);
  assert.deepEqual(s.cpu.map((c) => c.t), [1, 2, 3, 4, 5]);
  assert.equal(s.cpu[0].usPct, 88, 'first interval, not the since-boot average (14)');
  assert.equal(s.io.length, 5);
  assert.equal(s.io[0].kbWrittenPerS, 651008);
  assert.deepEqual(s.ioByDevice.vda, s.io);
  assert.equal(s.rssMaxKb, 95000);
  assert.deepEqual(s.warnings, []);
  const eff = computeEfficiency(s, 100_000);
  assert.ok(eff && [eff.cpuUsPerOp, eff.csPerOp, eff.readsPerOp, eff.kbReadPerOp, eff.kbWrittenPerOp].every((v) => Number.isFinite(v) && v > 0));

  const other = computeStepSamples({ ...base, devices: { basis: 'datadir', devices: ['sdb'], note: 'test' } });
  assert.ok(other.io.every((x) => x.kbWrittenPerS === 0), 'a device iostat did not list counts as idle');
});

test('computeStepSamples turns unreadable tool output into warnings, not exceptions', () => {
  const s = computeStepSamples({
    startedAt: '2026-11-21T13:00:00.000Z', durationS: 2, intervalS: 1, cores: 2, vmstatText: ' 1 2 3\n', iostatText: 'Device r/s\n',
    devices: { basis: 'all', devices: [], note: '' }, rss: [], rssKb: null, statusBefore: null, statusAfter: null, warnings: [],
  });
  assert.equal(s.cpu.length, 0);
  assert.equal(s.warnings.length, 2);
  assert.match(s.warnings[0], /vmstat output not understood/);
  assert.equal(s.rssMaxKb, null);
  assert.equal(computeEfficiency(s, 10), null);
});

test('computeStatusDelta keeps numeric variables only', () => {
  assert.deepEqual(
    computeStatusDelta({ Questions: '10', Uptime: '5', Ssl_version: '', Innodb_buffer_pool_load_status: 'done' }, { Questions: '110', Uptime: '7', Ssl_version: '', Innodb_buffer_pool_load_status: 'done', New_one: '1' }),
    { Questions: 100, Uptime: 2 },
  );
});
