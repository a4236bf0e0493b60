/**
 * Issue 12's axes on the site, end to end: a store built from the generator's records of two
 * MariaDB 10.11 releases, reshaped into what `tagbench run` stores for each axis (a config
 * matrix's two cell series, a long run's loop steps with details.loops, DDL and reload steps
 * with their details and latency, an IO-bound series that reads about a page per operation and
 * a cached one that reads next to nothing), the DDL comparison made by the compare stage's
 * compareRuns with the project's thresholds; the site built, served and read in headless
 * Chromium. Every number the pages show is recomputed here from the records.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { READS_SHOWN_FROM, parseCellSeries } from '../../scripts/site-build/build-views-data.js';
import { writeRecord, writeComparison } from '../../scripts/store/index.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { gotoReady } from '../support/browser.js';
import { generateHistory } from '../support/generate-history.js';
import { PROJECT_ROOT, expectedMedian, startSite } from './fixture-store.js';

/** @typedef {import('../../scripts/types.js').RunRecord} RunRecord */

const VERSIONS = ['10.11.18', '10.11.19'];
const LOOPS = 3;

/**
 * @param {number} tests
 * @param {number} seed
 * @returns {RunRecord[]}
 */
function history(tests, seed) {
  return generateHistory({
    lines: [{ product: 'mariadb', line: '10.11', versions: VERSIONS }],
    hosts: ['local'], tests, repeats: 3, intervalsS: 3, changes: [], seed,
  }).records;
}

/** The matrix: two cells, each its own series, two tests each. */
const matrix = ['compression-off', 'compression-on'].flatMap((cell, c) => history(2, 10 + c).map((r) => {
  r.config.suite = `matrix-smoke--${cell}`;
  r.steps.forEach((s, i) => { s.name = ['point-query', 'update-index'][i]; s.group = i === 0 ? 'point' : 'write'; });
  return r;
}));

/** The long run: loop k of read-write.range10, its QPS and the database size after it. */
const loops = history(LOOPS, 20).map((r) => {
  r.config.suite = 'loops-smoke';
  r.steps.forEach((s, i) => {
    const loop = i + 1;
    Object.assign(s, { name: `read-write.range10.loop${loop}`, kind: 'loops', group: 'write', params: { ...s.params, loop, loops: LOOPS } });
    s.repeats.forEach((rep, j) => {
      const grown = 1_000_000 * (1 + loop / 10) + j * 1000 + (r.release.version === '10.11.19' ? 500_000 : 0);
      rep.details = { loops: { test: 'read-write.range10', loop, loops: LOOPS, qps: rep.throughput, dbSize: { logicalBytes: Math.round(grown), onDiskBytes: Math.round(grown * 1.5) } } };
    });
  });
  return r;
});

/** DDL statements and a reload, each a step whose duration is its latency (as the runners record it). */
const TIMED = [
  { name: 'ddl.create-index', kind: 'ddl', statement: 'CREATE INDEX ddl_c ON {t} (c)', seconds: 0.8 },
  { name: 'ddl.drop-table', kind: 'ddl', statement: 'DROP TABLE {t}', seconds: 0.05 },
  { name: 'reload.extended-insert', kind: 'reload', statement: 'extended-insert', seconds: 2 },
];
const ROWS = 30_000;
const timed = history(TIMED.length, 30).map((r) => {
  r.config.suite = 'ddl-smoke';
  r.steps.forEach((s, i) => {
    const t = TIMED[i];
    Object.assign(s, { name: t.name, kind: t.kind, group: 'write', metric: 'rows/s' });
    s.repeats.forEach((rep, j) => {
      // DROP TABLE four times slower on the newer release, as seed 001's finding
      const seconds = t.seconds * (1 + j / 20) * (t.name === 'ddl.drop-table' && r.release.version === '10.11.19' ? 4 : 1);
      rep.throughput = ROWS / seconds;
      rep.latencyMs = { avg: seconds * 1000, p95: seconds * 1000, p99: null, max: seconds * 1000 };
      rep.details = t.kind === 'ddl'
        ? { ddl: { statement: t.statement, tables: 1, rows: ROWS, seconds, perStatementS: [seconds] } }
        : { reload: { form: 'extended-insert', rows: ROWS, statements: 30, dumpBytes: 4_000_000, seconds, clientCpuS: seconds / 4, serverCpuS: seconds / 2, clientCpuShare: 0.25, serverCpuShare: 0.5 } };
    });
  });
  return r;
});

/** IO-bound: about a page read per operation; the cached suite keeps the generator's few reads. */
const iobound = history(2, 40).map((r) => {
  r.config.suite = 'iobound-smoke';
  r.steps.forEach((s) => s.repeats.forEach((rep, j) => { if (rep.efficiency) rep.efficiency.readsPerOp = 0.9 + j / 10 + (r.release.version === '10.11.19' ? 0.2 : 0); }));
  return r;
});
const cached = history(2, 41);

const records = [...matrix, ...loops, ...timed, ...iobound, ...cached];

/**
 * Median of one figure over the ok repeats of one step of one release, from the records.
 * @param {RunRecord[]} rs
 * @param {string} version
 * @param {string} step
 * @param {(rep: any) => number} pick
 */
function medianOf(rs, version, step, pick) {
  return expectedMedian(rs.filter((r) => r.release.version === version)
    .flatMap((r) => r.steps.filter((s) => s.name === step).flatMap((s) => s.repeats.filter((rep) => rep.status === 'ok').map(pick))));
}

/** @type {Awaited<ReturnType<typeof startSite>>} */
let site;
/** @type {string} */
let out;
/** @type {{url: string}} */
let server;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;
/** @type {import('../../scripts/types.js').Comparison} */
let ddlComparison;

before(async () => {
  site = await startSite('tagbench-views-site-', async (store) => {
    for (const r of records) await writeRecord(store, r);
    const config = await loadConfig(PROJECT_ROOT);
    const thresholds = resolveThresholds(/** @type {any} */ (config.thresholds));
    const side = (/** @type {string} */ v) => ({ version: v, records: timed.filter((r) => r.release.version === v) });
    ddlComparison = compareRuns({ base: side(VERSIONS[0]), candidate: side(VERSIONS[1]), createdAt: '2025-02-01T00:00:00Z', thresholds });
    await writeComparison(store, ddlComparison);
  }, { now: new Date('2025-03-01T00:00:00Z') });
  ({ out, server, page, problems } = site);
});

after(async () => {
  await site?.close();
});

/** @param {string} suite */
const lineUrl = (suite) => `${server.url}site/line.html?product=mariadb&line=10.11&host=local&suite=${suite}`;

describe('issue 12 views: data', () => {
  it('parses cell series as variants.js names them', () => {
    assert.deepEqual(parseCellSeries('matrix-smoke--compression-on'), { matrix: 'matrix-smoke', cell: 'compression-on' });
    assert.deepEqual(parseCellSeries('m--compression-on--partitioning-hash'), { matrix: 'm', cell: 'compression-on--partitioning-hash' });
    assert.equal(parseCellSeries('linkbench-cached'), null);
    assert.equal(parseCellSeries('iobound-smoke'), null);
  });

  it('the index lists the matrix with its cells and which tables have which views; a cached table has none', async () => {
    const index = JSON.parse(await readFile(join(out, 'data', 'views', 'index.json'), 'utf8'));
    assert.deepEqual(index.matrices.map((/** @type {any} */ m) => ({ suite: m.suite, cells: m.cells.map((/** @type {any} */ c) => [c.cell, c.series]) })), [
      { suite: 'matrix-smoke', cells: [['compression-off', 'matrix-smoke--compression-off'], ['compression-on', 'matrix-smoke--compression-on']] },
    ]);
    const flags = Object.fromEntries(index.tables.map((/** @type {any} */ t) => [t.suite, { loops: t.loops, timings: t.timings, reads: t.reads }]));
    assert.deepEqual(flags['loops-smoke'], { loops: true, timings: false, reads: false });
    assert.deepEqual(flags['ddl-smoke'], { loops: false, timings: true, reads: false });
    assert.deepEqual(flags['iobound-smoke'], { loops: false, timings: false, reads: true });
    assert.equal(flags.smoke, undefined, 'the cached series reads too little to show reads/op');
  });
});

describe('issue 12 views in the browser', () => {
  it('the matrix page shows a table per cell, a row per release, the cells\' medians and ratios', async () => {
    assert.equal(await gotoReady(page, `${server.url}site/matrix.html`), 'true');
    assert.equal(await page.getAttribute('a[data-nav="matrix"]', 'aria-current'), 'page');
    await page.click('#matrix-list a');
    await page.waitForSelector('body[data-ready="true"] .matrix-cell');
    const cells = await page.$$eval('.matrix-cell', (sections) => sections.map((s) => ({
      cell: /** @type {HTMLElement} */ (s).dataset.cell,
      rows: [...s.querySelectorAll('tbody tr')].map((tr) => ({
        version: /** @type {HTMLElement} */ (tr).dataset.version,
        cells: [...tr.querySelectorAll('td')].map((td) => ({ test: td.dataset.test, qps: Number(td.dataset.qps), ratio: td.dataset.ratio === '' ? null : Number(td.dataset.ratio) })),
      })),
    })));
    assert.deepEqual(cells.map((c) => c.cell), ['compression-off', 'compression-on']);
    for (const c of cells) {
      const rs = matrix.filter((r) => r.config.suite === `matrix-smoke--${c.cell}`);
      assert.deepEqual(c.rows.map((r) => r.version), VERSIONS, 'a row per release');
      for (const row of c.rows) {
        for (const cell of row.cells) {
          const qps = medianOf(rs, /** @type {string} */ (row.version), /** @type {string} */ (cell.test), (rep) => rep.throughput);
          assert.equal(cell.qps, qps, `${c.cell} ${row.version} ${cell.test}`);
          const baseQps = medianOf(rs, VERSIONS[0], /** @type {string} */ (cell.test), (rep) => rep.throughput);
          assert.ok(Math.abs(/** @type {number} */ (cell.ratio) - qps / baseQps) < 1e-12);
        }
        assert.deepEqual(row.cells.map((x) => x.test), ['point-query', 'update-index'], 'a column per test');
      }
    }
    assert.deepEqual(problems, [], 'no console error');
  });

  it('a cell\'s line page links to its matrix', async () => {
    assert.equal(await gotoReady(page, lineUrl('matrix-smoke--compression-on')), 'true');
    assert.equal(await page.getAttribute('#matrix-note a', 'href'), 'matrix.html?product=mariadb&line=10.11&host=local&suite=matrix-smoke');
  });

  it('the long run\'s line page charts QPS per loop and database size per loop, logical and on disk, a line per release', async () => {
    assert.equal(await gotoReady(page, lineUrl('loops-smoke')), 'true');
    const charts = await page.evaluate(() => [...document.querySelectorAll('[data-loops]')].map((el) => {
      const option = /** @type {any} */ (window).echarts.getInstanceByDom(el).getOption();
      return { kind: /** @type {HTMLElement} */ (el).dataset.kind, width: el.querySelector('canvas')?.width ?? 0, x: option.xAxis[0].data,
        series: option.series.map((/** @type {any} */ s) => ({ name: s.name, data: s.data })) };
    }));
    assert.deepEqual(charts.map((c) => c.kind), ['qps', 'size']);
    for (const c of charts) {
      assert.ok(c.width > 100, 'drawn');
      assert.deepEqual(c.x, ['1', '2', '3']);
    }
    const steps = [1, 2, 3].map((k) => `read-write.range10.loop${k}`);
    assert.deepEqual(charts[0].series, VERSIONS.map((v) => ({ name: v, data: steps.map((s) => medianOf(loops, v, s, (rep) => rep.throughput)) })));
    assert.deepEqual(charts[1].series, VERSIONS.flatMap((v) => [
      { name: `${v} logical`, data: steps.map((s) => medianOf(loops, v, s, (rep) => rep.details.loops.dbSize.logicalBytes)) },
      { name: `${v} on disk`, data: steps.map((s) => medianOf(loops, v, s, (rep) => rep.details.loops.dbSize.onDiskBytes)) },
    ]));
    const headers = await page.$$eval('.loops-table thead th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(headers, ['Release', 'qps@1', 'qps@2', 'qps@3', 'size@1', 'size@2', 'size@3']);
    assert.deepEqual(problems, [], 'no console error');
  });

  it('the DDL and reload table shows seconds per statement, relative performance to the base, and the compare stage\'s duration verdict', async () => {
    assert.equal(await gotoReady(page, lineUrl('ddl-smoke')), 'true');
    const rows = await page.$$eval('#timing-table tbody tr', (trs) => trs.map((tr) => ({
      test: /** @type {HTMLElement} */ (tr).dataset.test,
      cells: [...tr.querySelectorAll('td')].map((td) => ({ version: td.dataset.version, seconds: Number(td.dataset.seconds), relative: td.dataset.relative === '' ? null : Number(td.dataset.relative),
        verdict: /** @type {HTMLElement|null} */ (td.querySelector('[data-verdict]'))?.dataset.verdict ?? null, cpu: td.querySelector('.cpu')?.textContent ?? null })),
    })));
    assert.deepEqual(rows.map((r) => r.test), TIMED.map((t) => t.name));
    for (const row of rows) {
      const seconds = VERSIONS.map((v) => medianOf(timed, v, /** @type {string} */ (row.test), (rep) => (rep.details.ddl ?? rep.details.reload).seconds));
      assert.deepEqual(row.cells.map((c) => c.seconds), seconds);
      assert.equal(row.cells[0].relative, null, 'the base has no ratio to itself');
      assert.ok(Math.abs(/** @type {number} */ (row.cells[1].relative) - seconds[0] / seconds[1]) < 1e-12);
      const verdict = ddlComparison.tests.find((t) => t.test === row.test && t.metric === 'latencyP95Ms')?.verdict ?? null;
      assert.equal(row.cells[1].verdict, verdict === 'unchanged' ? null : verdict, `${row.test}: the stored verdict`);
    }
    const drop = rows.find((r) => r.test === 'ddl.drop-table');
    assert.ok(/** @type {number} */ (drop?.cells[1].relative) < 0.3, 'DROP TABLE four times slower reads as relative performance about 0.25');
    assert.equal(drop?.cells[1].verdict, 'regression', 'the compare stage judged the slower DROP TABLE a regression of its duration');
    const reload = rows.find((r) => r.test === 'reload.extended-insert');
    assert.match(/** @type {string} */ (reload?.cells[0].cpu), /client 0\.5\d*, server 1\.0?\d*/);
    assert.deepEqual(problems, [], 'no console error');
  });

  it('an IO-bound series shows reads per operation under each throughput (also after a new base) and on its test page; a cached one shows none', async () => {
    assert.equal(await gotoReady(page, lineUrl('iobound-smoke')), 'true');
    const readCells = async () => page.$$eval('#line-table td[data-version]', (tds) => tds.map((td) => ({
      test: /** @type {HTMLElement} */ (td.closest('tr')).dataset.test, version: td.dataset.version,
      reads: Number(/** @type {HTMLElement} */ (td.querySelector('.reads')).dataset.readsPerOp),
    })));
    const test = iobound[0].steps[0].name;
    const want = (/** @type {{test: string, version: string}} */ c) => medianOf(iobound, c.version, c.test, (rep) => rep.efficiency.readsPerOp);
    const first = await readCells();
    assert.equal(first.length, 4);
    for (const c of first) assert.equal(c.reads, want(/** @type {any} */ (c)));
    await page.selectOption('#base-select', VERSIONS[1]);
    const again = await readCells();
    assert.deepEqual(again, first, 'the redrawn table keeps its reads/op');

    assert.equal(await gotoReady(page, `${server.url}site/test.html?product=mariadb&line=10.11&host=local&suite=iobound-smoke&test=${test}`), 'true');
    const head = await page.$$eval('#test-history thead th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(head.slice(0, 3), ['Release', 'Median', 'Reads/op']);
    const column = await page.$$eval('#test-history tbody tr', (trs) => trs.map((tr) => ({
      version: /** @type {HTMLElement} */ (tr).dataset.version, reads: Number(/** @type {HTMLElement} */ (tr.querySelector('td.reads')).dataset.readsPerOp) })));
    assert.deepEqual(column, [...VERSIONS].reverse().map((version) => ({ version, reads: want({ test, version }) })));

    assert.equal(await gotoReady(page, lineUrl('smoke')), 'true');
    assert.equal(await page.locator('#line-table .reads').count(), 0);
    assert.equal(await page.locator('#loops, #timings, #matrix-note').count(), 0);
    assert.deepEqual(problems, [], 'no console error');
  });
});
