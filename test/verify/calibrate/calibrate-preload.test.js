/**
 * `tagbench calibrate --inject preload` on real servers, cut to one run of one test: S's server
 * spins in the preload library for a share of each query's CPU time, A and B load it at 0. Apart
 * from calibrate-host.test.js (the cgroup quota, which needs a quiet host) because the spin is
 * sized per query, not from a measured CPU: at 50 % it is far beyond the noise of the files
 * running beside it, so this file runs in the suite's side-by-side phase.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrateHost } from '../../../scripts/verify/calibrate/pipeline.js';
import { readRecords } from '../../../scripts/store/index.js';

const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');

test('--inject preload: S spins in the preload library for a share of each query\'s CPU time, A and B load it at 0; no cgroup, no reference run', { timeout: 900_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-calibrate-preload-'));
  try {
    const report = join(dir, 'calibration-preload.md');
    const store = join(dir, 'store');
    // 50 %: S's server spins as long again as each query took it (share 1), far beyond this
    // machine's noise, so that the test can say the spin is real work whatever runs beside it.
    const common = { product: 'mariadb', version: '10.11.18', hostClass: 'local', only: 'point-query', adaptiveBudget: 30, slowdowns: '0.5', instances: 2, inject: 'preload', report, store, workDir: join(dir, 'work'), cacheDir };
    assert.equal(await calibrateHost({ ...common, runs: 1 }), 0);
    const result = JSON.parse(await readFile(report.replace(/\.md$/, '.json'), 'utf8'));
    assert.equal(result.inject, 'preload');
    assert.equal(result.reference, null, 'the spin needs no reference run');
    assert.ok(result.host?.cpuModel, 'the host comes from the run itself');
    const records = await readRecords(store, {});
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    const perOp = result.runs[0].runIds.map((/** @type {string} */ id) => {
      const reps = byId[id].steps.find((/** @type {any} */ s) => s.name === 'point-query')?.repeats ?? [];
      return reps.map((/** @type {any} */ r) => r.efficiency?.cpuUsPerOp).sort((/** @type {number} */ a, /** @type {number} */ b) => a - b)[0];
    });
    // The server's half of each select's CPU doubles (sysbench's half does not): CPU per op of
    // server and client together rises by about half over A's and B's.
    const [a, b, s] = perOp;
    assert.ok(s > 1.25 * Math.max(a, b), `CPU per op: A ${a}, B ${b}, S ${s} µs`);
    const d = result.detection['0.5'];
    assert.equal(d.trials, 1);
    assert.ok(d.medianRatio < 0.85, `realised ratio ${d.medianRatio}`);
    const md = await readFile(report, 'utf8');
    assert.match(md, /S's spins in `tagbench_injected_cpu` on each query answer/);
    // a preload report does not take quota runs, nor a quota report preload ones
    await assert.rejects(calibrateHost({ ...common, inject: 'quota', runs: 2 }), /inject "preload" there, "quota" now/);
    await assert.rejects(calibrateHost({ ...common, inject: 'spin', runs: 2 }), /--inject spin: the wall meter's calibration slows S by quota or preload/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
