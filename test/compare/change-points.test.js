/**
 * Change points of long series (apache-otava) are never reported inside a release, a long series
 * without otava still gets the release-series rule, and the rendering says kind, release, size
 * and evidence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, chmod, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectChangePoints, renderChangePoints } from '../../scripts/compare/index.js';
import { placeAtReleaseBoundaries } from '../../scripts/compare/run-change-points.js';
import { makeRecord } from './make-record.js';

/**
 * @param {number[]} levels throughput per release, 3 repeats each (±1 %)
 * @returns {import('../../scripts/compare/types.js').ReleaseRecords[]}
 */
function series(levels) {
  return levels.map((level, i) => ({
    version: `11.4.${i}`,
    records: [makeRecord({ id: `r${i}`, version: `11.4.${i}`, steps: [{ name: 'point-query', group: 'point', throughput: [level * 0.99, level, level * 1.01] }] })],
  }));
}

test('a point between two repeats of one release moves to the nearest boundary of that release, never stays inside', () => {
  const labels = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c'];
  const values = [10, 10, 10, 8, 8, 8, 8, 8, 8];
  const p = (/** @type {number} */ index, /** @type {number} */ pValue) => ({ index, pValue, meanBefore: 0, meanAfter: 0, forwardChangePct: 0 });
  // 4 is one repeat into b: b's start (3); 5 is two repeats in: c's start (6)
  const moved = placeAtReleaseBoundaries([p(4, 0.001)], labels, values);
  assert.deepEqual(moved.points.map((x) => x.index), [3]);
  assert.equal(moved.moved, 1);
  // means recomputed around the new boundary: 10 before, 8 after
  assert.deepEqual([moved.points[0].meanBefore, moved.points[0].meanAfter], [10, 8]);
  assert.ok(Math.abs(moved.points[0].forwardChangePct + 20) < 1e-9);
  assert.deepEqual(placeAtReleaseBoundaries([p(5, 0.001)], labels, values).points.map((x) => x.index), [6]);
  // inside the first release: no boundary before it, dropped
  assert.deepEqual(placeAtReleaseBoundaries([p(1, 0.001)], labels, values).points, []);
  // two points landing on one boundary: the more significant one stays; a point already at a
  // boundary keeps otava's numbers
  const merged = placeAtReleaseBoundaries([{ index: 3, pValue: 0.0001, meanBefore: 10, meanAfter: 8, forwardChangePct: -20 }, p(4, 0.01)], labels, values);
  assert.deepEqual(merged.points, [{ index: 3, pValue: 0.0001, meanBefore: 10, meanAfter: 8, forwardChangePct: -20 }]);
});

test('a series of 11 releases goes to apache-otava (here a stand-in), and its point inside a release is reported at the release boundary', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-cp-'));
  try {
    // Stand-in for detect-change-points.py + otava: answers with the documented JSON shape, one
    // point per series at index 16, one repeat into release 5 (0-based: 15 is its first repeat),
    // which is where otava puts splits it cannot place better. It enforces what otava guarantees
    // (0 < index < number of points) by checking the input length.
    const standIn = join(dir, 'python3');
    await writeFile(standIn, `#!/usr/bin/env node
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const request = JSON.parse(input);
  const results = request.series.map((s) => {
    if (s.values.length <= 16) throw new Error('series too short for the stand-in');
    return { key: s.key, changePoints: [{ index: 16, pValue: 0.0001, meanBefore: 1000, meanAfter: 800, forwardChangePct: -20 }] };
  });
  process.stdout.write(JSON.stringify({ otavaVersion: '0.0.0-stand-in', results }));
});
`);
    await chmod(standIn, 0o755);
    const levels = [1000, 1000, 1000, 1000, 1000, 800, 800, 800, 800, 800, 800];
    const report = await detectChangePoints(series(levels), { python: standIn });
    assert.equal(report.method?.tool, 'apache-otava');
    assert.match(report.note, /\(1 moved\)/);
    assert.deepEqual(report.changePoints.map((c) => [c.version, c.previousVersion, c.atReleaseBoundary, c.index]), [['11.4.5', '11.4.4', true, 15]]);
    assert.ok(Math.abs(report.changePoints[0].forwardChangePct + 20) < 1e-9);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a series of 11 releases without apache-otava gets the release-series rule and says why', async () => {
  const report = await detectChangePoints(series([1000, 1000, 1000, 1000, 1000, 800, 800, 800, 800, 800, 800]), { python: '/nonexistent/python3' });
  assert.equal(report.status, 'ok');
  assert.equal(report.method, null);
  assert.match(report.note, /apache-otava not run on this series of 11 releases: cannot start \/nonexistent\/python3 \(ENOENT\)/);
  assert.deepEqual(report.changePoints.map((c) => [c.kind, c.version]), [['step', '11.4.5']]);
});

test('rendering says the kind, the release, the size and the evidence, in the terminal and in Markdown', async () => {
  const report = await detectChangePoints(series([1000, 1000, 700, 1000, 1000, 900]), { python: 'unused' });
  assert.deepEqual(report.changePoints.map((c) => [c.kind, c.version]), [['dip', '11.4.2'], ['step', '11.4.5']]);
  const terminal = renderChangePoints(report, { format: 'terminal' });
  assert.match(terminal, /point-query throughput: one-release dip, back in 11\.4\.3 -30\.0 % \(worse\) at 11\.4\.2 \(from 11\.4\.1\)\n {6}11\.4\.2 alone -30\.0 % \(worse; 1000 → 700\), back in 11\.4\.3: 11\.4\.2\/11\.4\.1 0\.70 /);
  assert.match(terminal, /point-query throughput: step -10\.0 % \(worse\) at 11\.4\.5 \(from 11\.4\.4\)\n {6}-10\.0 % from 11\.4\.5 on/);
  assert.match(terminal, /scan \|z\| [\d.]+ ≥ [\d.]+ over 19 release-aligned shapes/);
  const md = renderChangePoints(report, { format: 'markdown' });
  assert.match(md, /\| test \| metric \| kind \| at release \| from \| change \| evidence \|/);
  assert.match(md, /\| point-query \| throughput \| one-release dip, back in 11\.4\.3 \| 11\.4\.2 \| 11\.4\.1 \| -30\.0 % \(worse\) \| 11\.4\.2 alone/);
  assert.match(md, /\| point-query \| throughput \| step \| 11\.4\.5 \| 11\.4\.4 \| -10\.0 % \(worse\) \|/);
  // an apache-otava point (no kind) read back from an older report still renders, with its numbers
  const old = renderChangePoints({ status: 'ok', note: 'n', method: null, series: [], changePoints: [{ test: 't', metric: 'throughput', index: 4, version: 'b', previousVersion: 'b', atReleaseBoundary: false, forwardChangePct: -28.4, pValue: 1e-5, meanBefore: 10, meanAfter: 7 }] }, { format: 'terminal' });
  assert.match(old, /t throughput: step \(apache-otava\) -28\.4 % at b \(inside the release's repeats\) \(from b\)\n {6}mean 10\.0 before, 7\.00 after; p 1\.0e-5/);
  assert.match(renderChangePoints({ ...report, changePoints: [] }, { format: 'markdown' }), /No dip, step or drift found\./);
  const drift = await detectChangePoints(series([1000, 1000, 950, 900, 850, 800]), { python: 'unused' });
  assert.deepEqual(drift.changePoints.map((c) => [c.kind, c.version, c.untilVersion]), [['drift', '11.4.2', '11.4.5']]);
  assert.match(renderChangePoints(drift, { format: 'terminal' }), /point-query throughput: drift through 11\.4\.5 -19\.9 % \(worse\) at 11\.4\.2 \(from 11\.4\.1\)\n {6}-19\.9 % over 4 releases, 11\.4\.1 to 11\.4\.5 \(-5\.4 % a release, worse; 1002 → 803\), no single step explains it as well: 11\.4\.5\/11\.4\.1 0\.80 /);
});
