/**
 * `tagbench compare` and `tagbench baseline promote` end to end on a real results store in a
 * temp dir (records written through scripts/store); change points of a short series by the
 * release-series rule (no python3 needed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecord, readComparisons, readChangePoints } from '../../scripts/store/index.js';
import { compareCommand as compare } from '../../scripts/verify/commands.js';
import { promoteCommand as promote } from '../../scripts/store/commands.js';
import { makeRecord } from '../compare/make-record.js';

/**
 * Three releases: point-query drops 15 % at 10.11.20; update-index steady; 10.11.18 has two runs,
 * the second one slow (a bad run that the baseline file leaves out).
 * @param {string} store
 */
async function fillStore(store) {
  const rel = (/** @type {string} */ id, /** @type {string} */ v, /** @type {number[]} */ pq, /** @type {number[]} */ ui) =>
    writeRecord(store, makeRecord({ id, version: v, steps: [{ name: 'point-query', group: 'point', throughput: pq }, { name: 'update-index', group: 'write', throughput: ui }] }));
  await rel('r18a', '10.11.18', [1000, 1010, 990], [500, 505, 495]);
  await rel('r18b', '10.11.18', [700, 710, 690], [500, 505, 495]);
  await rel('r19', '10.11.19', [1002, 1008, 992], [501, 504, 496]);
  await rel('r20', '10.11.20', [850, 855, 845], [500, 506, 494]);
}

test('baseline promote, then compare against the baseline: table, verdicts, change points, exit 2', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-compare-'));
  try {
    const store = join(dir, 'results');
    const baselines = join(dir, 'baselines');
    await fillStore(store);
    assert.equal(await promote({ product: 'mariadb', line: '10.11', version: '10.11.18', runs: ['r18a'], store, baselines, now: '2025-01-01T00:00:00Z' }), 0);
    const file = await readFile(join(baselines, 'local', 'mariadb', '10.11', 'smoke.yml'), 'utf8');
    assert.match(file, /version: 10\.11\.18/);
    assert.match(file, /runIds:\n\s+- r18a/);

    let printed = '';
    const code = await compare({ product: 'mariadb', releases: '10.11.18,10.11.19,10.11.20', store, baselines, markdown: join(dir, 'out.md'), json: join(dir, 'out.json'), out: (/** @type {string} */ t) => (printed += t), color: false });
    // 3 vs 3 instances: a regression, but not an issue once the run's family is controlled
    assert.equal(code, 0);
    assert.match(printed, /issues: Holm over 4 gated verdicts at 5\.0 %: expected false issues per run at most 0\.0500 before the confirmation rerun; .*An issue judged on independent instances needs at least 5 instances per side\./);
    assert.match(printed, /base 10\.11\.18 \(baseline file, runs r18a\)/);
    // How sure comes first, as in the Markdown: every comparison's sentence before the table.
    const lines = printed.split('\n');
    const table = lines.findIndex((l) => /throughput and ratio to 10\.11\.18/.test(l));
    const sure = lines.map((l, i) => (l.startsWith('how sure: ') ? i : -1)).filter((i) => i >= 0);
    assert.equal(sure.length, 2, 'one sentence per comparison');
    assert.ok(table > 0 && sure.every((i) => i < table), `how sure (lines ${sure}) before the table (line ${table})`);
    // local's reference release is 10.11.18: its runs are checked for host drift, as a note
    assert.match(printed, /Host check \(not a verdict on any release\): reference mariadb 10\.11\.18 on local, suite smoke: 2 runs in 1 host series/);
    const out = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8'));
    assert.deepEqual(out.comparisons.map((/** @type {any} */ c) => c.base.runIds), [['r18a'], ['r18a']]);
    const v20 = out.comparisons[1].tests.find((/** @type {any} */ t) => t.test === 'point-query' && t.metric === 'throughput');
    assert.equal(v20.verdict, 'regression');
    assert.equal(v20.level, 'warn');
    assert.match(v20.reason, /Not an issue: Holm-adjusted p/);
    assert.equal(v20.ratio, 850 / 1000);
    const v19 = out.comparisons[0].tests.find((/** @type {any} */ t) => t.test === 'point-query');
    assert.equal(v19.verdict, 'unchanged');
    // the table's ratio uses the baseline's run only (not the slow r18b)
    assert.equal(out.table.groups[0].rows[0].cells['10.11.20'].ratio, 850 / 1000);
    // change points of the release-series rule: point-query steps down at 10.11.20, update-index does not
    assert.equal(out.changePoints.status, 'ok', out.changePoints.note);
    const cps = out.changePoints.changePoints;
    assert.deepEqual(cps.map((/** @type {any} */ c) => [c.test, c.kind, c.version, c.atReleaseBoundary, c.worse]), [['point-query', 'step', '10.11.20', true, true]]);
    assert.ok(Math.abs(cps[0].forwardChangePct + 15) < 0.5, String(cps[0].forwardChangePct)); // medians 1000 and 1002, then 850
    const md = await readFile(join(dir, 'out.md'), 'utf8');
    assert.match(md, /## Change points across the releases/);
    assert.match(md, /\| point-query \| throughput \| step \| 10\.11\.20 \| 10\.11\.19 \| -15\.\d % \(worse\) \|/);
    assert.match(md, /\| point-query \| 1000 \[990–1010\] \| 1002 \[992–1008\] \| 1\.00 \| 850 \[845–855\] \| \*\*0\.85 ▼\*\* \|/);
    // the comparisons are in the store, schema-valid
    const stored = await readComparisons(store, { product: 'mariadb' });
    assert.equal(stored.length, 2);
    assert.equal(stored.find((c) => c.candidate.version === '10.11.20')?.summary.regression, 1);
    // the series' change points are in the store too: the same result, grouped per test,
    // with the runs behind each release (the baseline's run only for 10.11.18)
    const [cpFile] = await readChangePoints(store);
    assert.equal(cpFile.line, '10.11');
    assert.deepEqual(cpFile.releases, [{ version: '10.11.18', runIds: ['r18a'] }, { version: '10.11.19', runIds: ['r19'] }, { version: '10.11.20', runIds: ['r20'] }]);
    assert.deepEqual(cpFile.method, { tool: 'release-series', version: '1', alpha: 0.01, maxEvents: 3, simulations: 10000, driftPenalty: 2 });
    assert.match(out.changePoints.note, /^release-series rule/);
    assert.deepEqual(cpFile.tests.map((t) => [t.test, t.changePoints.length]), [['point-query', 1], ['update-index', 0]]);
    const { test: _t, metric: _m, ...point } = cps[0];
    assert.deepEqual(cpFile.tests[0].changePoints, [point]);
    assert.deepEqual(cpFile.tests[0].releases, [{ version: '10.11.18', n: 3 }, { version: '10.11.19', n: 3 }, { version: '10.11.20', n: 3 }]);
    // a compare of part of the series prints its change points but leaves the stored ones
    await compare({ product: 'mariadb', releases: '10.11.19,10.11.20', base: '10.11.19', store, baselines, out: () => {}, color: false });
    assert.deepEqual(await readChangePoints(store), [cpFile]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('--base overrides the baseline; two releases have no dip, step or drift and store none', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-compare-'));
  const saved = process.env.TAGBENCH_PYTHON;
  try {
    const store = join(dir, 'results');
    await fillStore(store);
    // four more instances of each side (a second run each): 7 vs 7 lets the drop pass Holm
    const more = (/** @type {string} */ id, /** @type {string} */ v, /** @type {number[]} */ pq) => writeRecord(store, makeRecord({ id, version: v, steps: [{ name: 'point-query', group: 'point', throughput: pq }, { name: 'update-index', group: 'write', throughput: [500, 502, 498, 501] }] }));
    await more('r19b', '10.11.19', [1001, 1003, 997, 999]);
    await more('r20b', '10.11.20', [851, 853, 847, 849]);
    process.env.TAGBENCH_PYTHON = join(dir, 'no-such-python');
    let printed = '';
    const code = await compare({ product: 'mariadb', releases: ['10.11.19', '10.11.20'], base: '10.11.19', store, baselines: join(dir, 'none'), json: join(dir, 'o.json'), storeVerdicts: false, out: (/** @type {string} */ t) => (printed += t), color: false });
    assert.equal(code, 2);
    const out = JSON.parse(await readFile(join(dir, 'o.json'), 'utf8'));
    assert.equal(out.base.source, 'option');
    assert.equal(out.changePoints.status, 'ok');
    assert.deepEqual(out.changePoints.changePoints, []);
    assert.match(printed, /fewer than 3 releases have no dip, step or drift to find/);
  } finally {
    if (saved === undefined) delete process.env.TAGBENCH_PYTHON;
    else process.env.TAGBENCH_PYTHON = saved;
    await rm(dir, { recursive: true, force: true });
  }
});

test('bad input names what is wrong and what exists', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-compare-'));
  try {
    const store = join(dir, 'results');
    await fillStore(store);
    await assert.rejects(compare({ product: 'mariadb', releases: '10.11.18,10.11.99', store, baselines: dir, out: () => {} }), /no run record of mariadb 10\.11\.99 .*versions with records: 10\.11\.18, 10\.11\.19, 10\.11\.20/);
    await assert.rejects(compare({ product: 'nope', store }), /unknown --product 'nope'; known: mariadb, mysql/);
    await assert.rejects(promote({ product: 'mariadb', line: '10.11', version: '10.11.18', runs: 'r19', store, baselines: dir }), /--runs r19: no such run record of mariadb 10\.11\.18.*available: r18a, r18b/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
