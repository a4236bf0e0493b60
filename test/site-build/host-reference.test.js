/**
 * The host is watched too: a site built from REAL run records shows a host class's reference
 * release over time, its drift annotated as a host change, and a change of the runs' kernel as
 * a new host series, both on the host page and in the per-test history (the line breaks there).
 *
 * The records: mariadb 10.11.18 and 10.11.19 as `tagbench run` measured them on this VM
 * (test/fixtures/github/captured-store; 10.11.19's server was held to a tenth of a CPU then,
 * which does not matter here). 10.11.18 is local's reference release (configs/hosts/local.yml);
 * its series of daily cycles is derived from its two real records (reference-records.js: copies
 * with new ids and dates): update-index's throughput scaled to 0.3 from run 5 on (the injected
 * drift), and an older kernel string on runs 0-9, so the real kernel from 2026-11-20 on is a
 * host change. 10.11.19's two real records are stored as they were (2026-11-21, real kernel).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { writeRecord, readCalibrationReport } from '../../scripts/store/index.js';
import { findHostDrift, resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';
import { releaseHostSeries } from '../../scripts/site-build/host-series.js';
import { deriveReferenceSeries, readRealRecords, OLD_KERNEL } from './reference-records.js';
import { PROJECT_ROOT } from './fixture-store.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/site/', import.meta.url));
const REFERENCE = deriveReferenceSeries({ runs: 12, firstDay: '2026-11-10', driftTest: 'update-index', driftFrom: 5, factor: 0.3, kernelChangeAt: 10 });
const RELEASE = readRealRecords('10.11.19');
const REAL_KERNEL = RELEASE[0].host.kernel;
const CHANGE_LABEL = `kernel ${OLD_KERNEL} → ${REAL_KERNEL} on 2026-11-20`;
const TEST_PAGE = 'test.html?product=mariadb&line=10.11&host=local&suite=smoke&test=update-index';

/** @type {string} */
let tmp;
/** @type {string} */
let out;

/**
 * The host list's calibration column: what the project's own bench/calibration-<host>.json holds
 * (the calibration keeps rewriting it, so read it now rather than pin numbers).
 * @param {string} host
 */
async function projectCalibration(host) {
  const report = await readCalibrationReport(PROJECT_ROOT, host);
  return report ? { runs: report.runs, withIssue: report.runsWithFalseIssue, upper95: report.upper95 } : null;
}

/** @param {string} path site path @returns {Promise<any>} */
async function siteJson(path) {
  return JSON.parse(await readFile(join(out, path), 'utf8'));
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-host-'));
  const store = join(tmp, 'store');
  for (const r of [...REFERENCE, ...RELEASE]) await writeRecord(store, r);
  out = join(tmp, 'site');
  await buildSite({ store, out, baselines: join(tmp, 'baselines'), configRoot: PROJECT_ROOT, now: new Date('2026-11-22T12:00:00Z') });
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('site: the host reference', () => {
  it('writes the reference series of local with the drift the host check finds, as a host change', async () => {
    const config = await loadConfig(PROJECT_ROOT);
    assert.deepEqual(config.hosts.local.reference, { product: 'mariadb', version: '10.11.18' });
    const expected = findHostDrift({ records: REFERENCE, thresholds: resolveThresholds(/** @type {any} */ (config.thresholds)) });
    const host = await siteJson(dataPaths.host('local'));
    assert.deepEqual(host.reference, { product: 'mariadb', version: '10.11.18' });
    assert.equal(host.suites.length, 1);
    const [suite] = host.suites;
    assert.deepEqual(suite.drifts, JSON.parse(JSON.stringify(expected.drifts)), 'the site shows the compare stage\'s host check, not its own');
    assert.deepEqual(suite.drifts.map((/** @type {any} */ d) => [d.test, d.runId]), [['update-index', REFERENCE[5].id]]);
    assert.deepEqual(suite.segments.map((/** @type {any} */ s) => [s.runIds.length, s.change?.label ?? null]), [[10, null], [2, CHANGE_LABEL]]);
    const runs = suite.tests.find((/** @type {any} */ t) => t.test === 'update-index').runs;
    assert.deepEqual(runs.map((/** @type {any} */ r) => r.id), REFERENCE.map((r) => r.id), 'only the reference release\'s runs, oldest first');
    for (const [i, r] of runs.entries()) {
      const values = REFERENCE[i].steps.find((s) => s.name === 'update-index')?.repeats.map((x) => x.throughput);
      assert.deepEqual(r.values, values);
    }
    const index = await siteJson(dataPaths.hosts());
    assert.deepEqual(index.hosts.find((/** @type {any} */ x) => x.host === 'local'),
      { host: 'local', reference: { product: 'mariadb', version: '10.11.18' }, runs: 12, series: 2, drifts: 1, calibration: await projectCalibration('local'), falseAlarms: null, file: dataPaths.host('local') });
    assert.equal(index.hosts.find((/** @type {any} */ x) => x.host === 'small-server').runs, 0, 'a reference with no run yet is listed, empty');
  });

  it('gives the per-test history its host series: each release in the series it entered, the reference marked as mixing both', async () => {
    const t = await siteJson(dataPaths.test({ product: 'mariadb', line: '10.11', host: 'local', suite: 'smoke', test: 'update-index' }));
    assert.deepEqual(t.hostSeries.map((/** @type {any} */ s) => s.change?.label ?? null), [null, CHANGE_LABEL]);
    assert.deepEqual(t.releases.map((/** @type {any} */ r) => [r.version, r.hostSeries, r.mixedHostSeries]), [['10.11.18', 0, [0, 1]], ['10.11.19', 1, []]]);
  });

  it('places each release in the host series of its first run (unit: releaseHostSeries)', () => {
    const early = REFERENCE.slice(0, 3);
    const late = REFERENCE.slice(10);
    const { segments, byVersion } = releaseHostSeries([
      { version: '10.11.17', records: early },
      { version: '10.11.18', records: [...late, REFERENCE[4]] }, // rerun after the change
      { version: '10.11.19', records: RELEASE },
      { version: '10.11.20', records: [] },
    ]);
    assert.deepEqual(segments.map((g) => g.change?.label ?? null), [null, CHANGE_LABEL]);
    assert.deepEqual(Object.fromEntries(byVersion), {
      '10.11.17': { series: 0, mixed: [] },
      '10.11.18': { series: 0, mixed: [0, 1] },
      '10.11.19': { series: 1, mixed: [] },
    }, 'a release with no run is in no series');
  });

  it('draws it in Chromium: the host page with the drift and the host change, the test history broken at the change', async () => {
    const server = await serveSite(out, { port: 0 });
    const browser = await launchBrowser();
    try {
      const { page, problems } = await openPage(browser.context);
      assert.equal(await gotoReady(page, `${server.url}index.html`), 'true');
      assert.match(await page.textContent('#host-drift-note') ?? '', /^The host moved: local \(reference mariadb 10\.11\.18: 1 drift\)\. .*not of a release/);
      await page.click('#host-drift-note a[data-host="local"]');
      await page.waitForSelector('body[data-ready="true"]');
      assert.match(page.url(), /host\.html\?host=local$/);
      assert.equal(await gotoReady(page, `${server.url}host.html`), 'true');
      assert.equal(await page.getAttribute('#hosts tr[data-host="local"]', 'data-drifts'), '1');
      await page.click('#hosts tr[data-host="local"] a');
      await page.waitForSelector('body[data-ready="true"]');
      assert.match(page.url(), /host\.html\?host=local$/);
      assert.equal(await page.textContent('h1'), 'Host local · reference mariadb 10.11.18');
      assert.equal(await page.getAttribute('#drift-note-smoke', 'data-drifts'), '1');
      assert.match(await page.textContent('#drift-note-smoke') ?? '', /the HOST changed, not the releases/);
      const drifts = await page.$$eval('#host-drifts tbody tr', (trs) => trs.map((tr) => ({ ...(/** @type {HTMLElement} */ (tr).dataset) })));
      assert.deepEqual(drifts.map((d) => [d.test, d.run, d.kind]), [['update-index', REFERENCE[5].id, 'step']]);
      assert.ok(Number(drifts[0].change) < -0.6, 'a drop of more than 60 %');
      assert.deepEqual(await page.$$eval('#host-series tbody tr', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.change)), ['', CHANGE_LABEL]);

      const charts = await page.evaluate(() => [...document.querySelectorAll('[data-chart]')].map((el) => {
        const option = /** @type {any} */ (window).echarts.getInstanceByDom(el).getOption();
        return {
          name: /** @type {HTMLElement} */ (el).dataset.chart ?? '', width: el.querySelector('canvas')?.width ?? 0,
          series: option.series.map((/** @type {any} */ s) => ({ name: s.name, points: s.data.length })),
          changes: option.series[0].markLine.data.map((/** @type {any} */ m) => [m.name, m.xAxis]),
          drifts: option.series[0].markPoint.data.map((/** @type {any} */ m) => [m.runId, m.value]),
        };
      }));
      assert.deepEqual(charts.map((c) => c.name), ['update-index: qps of reference mariadb 10.11.18 per run, suite smoke', 'point-query: qps of reference mariadb 10.11.18 per run, suite smoke']);
      for (const c of charts) {
        assert.ok(c.width > 100);
        assert.deepEqual(c.series, [{ name: 'host series 1', points: 10 }, { name: 'host series 2', points: 2 }, { name: 'repeats', points: 5 * 6 + 3 * 6 }],
          'one line per host series: the line breaks at the kernel change');
        assert.deepEqual(c.changes, [[CHANGE_LABEL, REFERENCE[10].startedAt]]);
      }
      assert.deepEqual(charts[0].drifts, [[REFERENCE[5].id, '▼']]);
      assert.deepEqual(charts[1].drifts, [], 'point-query did not drift');
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'host-reference.png'), fullPage: true });

      assert.equal(await gotoReady(page, `${server.url}${TEST_PAGE}`), 'true');
      assert.equal(await page.getAttribute('#host-series-note', 'data-host-series'), '2');
      assert.deepEqual(await page.$$eval('#host-series-note li', (lis) => lis.map((li) => li.textContent)), [`Host series 2: ${CHANGE_LABEL}`]);
      assert.match(await page.textContent('#test-history tr[data-version="10.11.18"] th') ?? '', /runs on host series 1 and 2: its median mixes hosts/);
      const history = await page.evaluate(() => {
        const option = /** @type {any} */ (window).echarts.getInstanceByDom(document.querySelector('[data-chart]')).getOption();
        return { series: option.series.map((/** @type {any} */ s) => ({ name: s.name, nulls: s.data.map((/** @type {any} */ v) => v === null || v === '-') })),
          marks: option.series[0].markLine.data.map((/** @type {any} */ m) => [m.name, m.xAxis]) };
      });
      assert.deepEqual(history.series.slice(0, 2), [{ name: 'median, host series 1', nulls: [false, true] }, { name: 'median, host series 2', nulls: [true, false] }]);
      assert.deepEqual(history.marks, [[CHANGE_LABEL, '10.11.19']]);
      await page.screenshot({ path: join(ARTIFACTS, 'host-test-history.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
