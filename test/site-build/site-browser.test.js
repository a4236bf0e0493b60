/**
 * End-to-end: build the site from a store the test produces (records through the store stage,
 * verdicts from the compare stage), serve it under a sub-path, and check every page in headless
 * Chromium: numbers against an independent computation from the records, charts drawn with
 * their series and readable axes (every page it opens), the line page's intervals, the base
 * selector, keyboard use, navigation, and no console error. Screenshots
 * (light, dark, phone) go to test-artifacts/site/ for CI to keep.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { launchBrowser, openPage, gotoReady, unlabelledAxes } from '../support/browser.js';
import { makeFixtureStore, expectedQps, PROJECT_ROOT } from './fixture-store.js';
import { computeRelativeTable, findSuspects } from '../../scripts/compare/index.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/site/', import.meta.url));
const LINE = 'product=mariadb&line=10.11&host=local&suite=smoke';

/** @type {Awaited<ReturnType<typeof makeFixtureStore>>} */
let fx;
/** @type {string} */
let tmp;
/** @type {{url: string, close: () => Promise<void>}} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;
/** @type {string} */
let root;

/** @param {string} path page path relative to the site root */
async function open(path) {
  const state = await gotoReady(page, root + path);
  assert.equal(state, 'true', `${path} did not render: ${await page.textContent('main')}`);
  assert.deepEqual(await unlabelledAxes(page), [], `${path}: every chart with data says what its axes are`);
}

/** @param {string} name */
async function shoot(name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * The line page's interval bars as drawn: per test series, each vertical segment of its
 * markLine (the verdict's interval) with the tick of its markPoint (the verdict's ratio), and the
 * chart's y range.
 * @returns {Promise<{test: string, axis: [number, number], bars: {version: string, lo: number, hi: number, ratio: number}[]}[]>}
 */
function intervalBars() {
  return page.evaluate(() => [...document.querySelectorAll('[data-chart][data-group]')].flatMap((el) => {
    const option = /** @type {any} */ (window).echarts.getInstanceByDom(el).getOption();
    return option.series.map((/** @type {any} */ s) => {
      const segments = (s.markLine?.data ?? []).filter((/** @type {any} */ d) => Array.isArray(d));
      const ticks = s.markPoint?.data ?? [];
      return {
        test: s.name, axis: [option.yAxis[0].min, option.yAxis[0].max],
        bars: segments.map((/** @type {any} */ [from, to], /** @type {number} */ i) => ({ version: from.coord[0], lo: from.coord[1], hi: to.coord[1], ratio: ticks[i].coord[1] })),
      };
    });
  }));
}

/** Charts on the page: canvas size and the series ECharts reports. */
function chartsOnPage() {
  return page.evaluate(() => [...document.querySelectorAll('[data-chart]')].map((el) => {
    const inst = /** @type {any} */ (window).echarts.getInstanceByDom(el);
    const canvas = el.querySelector('canvas');
    return {
      name: /** @type {HTMLElement} */ (el).dataset.chart ?? '',
      width: canvas?.width ?? 0, height: canvas?.height ?? 0,
      /** @type {{name: string, data: any[]}[]} */
      series: inst ? inst.getOption().series.map((/** @type {any} */ s) => ({ name: s.name, data: s.data })) : [],
    };
  }));
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-e2e-'));
  fx = await makeFixtureStore(tmp);
  // Serve a parent folder with the site at a sub-path, as GitHub Pages does for project sites.
  const out = join(tmp, 'www', 'tagbench-results');
  await buildSite({ store: fx.store, out, baselines: fx.baselines, issues: fx.issuesFile, configRoot: PROJECT_ROOT, now: new Date('2025-03-01T00:00:00Z') });
  server = await serveSite(join(tmp, 'www'), { port: 0 });
  root = `${server.url}tagbench-results/`;
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the published site in Chromium', () => {
  it('home lists the newest release of each product line and host class with its verdicts and open issues', async () => {
    await open('index.html');
    const rows = await page.$$eval('tr[data-table]', (trs) => trs.map((tr) => ({
      table: /** @type {HTMLElement} */ (tr).dataset.table,
      latest: tr.querySelector('[data-latest]')?.textContent,
      regressions: tr.querySelector('[data-scope="throughput"] [data-summary="regression"]')?.textContent,
      all: tr.querySelector('[data-scope="all"]')?.textContent,
      issues: [...tr.querySelectorAll('a[href*="example.invalid"]')].map((a) => a.textContent),
    })));
    assert.equal(rows.length, 4);
    const local = rows.find((r) => r.table === 'mariadb/10.11/local/smoke');
    assert.equal(local?.latest, '10.11.19');
    const c = fx.comparisons.filter((x) => x.hostClass === 'local' && x.product === 'mariadb' && x.candidate.version === '10.11.19').at(-1);
    assert.ok(c);
    const throughputRegressions = c.tests.filter((/** @type {any} */ t) => t.metric === 'throughput' && t.verdict === 'regression').length;
    assert.match(local?.regressions ?? '', new RegExp(`^${throughputRegressions} regression`));
    assert.ok(throughputRegressions >= 1, 'the injected update-index drop is a regression');
    assert.match(local?.all ?? '', new RegExp(`\\b${c.summary.regression} regressions?\\b`));
    assert.deepEqual(local?.issues, ['#42 ']);
    assert.deepEqual(rows.find((r) => r.table === 'mariadb/10.11/small-server/smoke')?.issues, [], 'closed issues are not "open"');
  });

  it('product line: every cell holds the median of the repeats and the one ratio to the baseline release', async () => {
    await open(`line.html?${LINE}`);
    assert.equal(await page.inputValue('#base-select'), '10.11.17', 'the accepted baseline is the default base');
    const cells = await page.$$eval('#line-table td[data-version]', (tds) => tds.map((td) => ({
      test: /** @type {HTMLElement} */ (td.closest('tr')).dataset.test, version: /** @type {HTMLElement} */ (td).dataset.version,
      qps: Number(/** @type {HTMLElement} */ (td).dataset.qps), ratio: Number(/** @type {HTMLElement} */ (td).dataset.ratio),
      judged: /** @type {HTMLElement} */ (td).dataset.judged,
      qpsText: td.querySelector('.qps')?.textContent, ratioText: td.querySelector('.ratio')?.textContent, lo: !!td.querySelector('.ratio.lo'),
    })));
    assert.equal(cells.length, 34 * 4);
    /**
     * What a cell must show (issue 35): the verdict's estimate where the release was compared
     * with 10.11.17; otherwise median ÷ median, grey, marked * as not judged.
     * @param {string} test @param {string} version
     */
    const expected = (test, version) => {
      const want = expectedQps(fx.records, { host: 'local', version, test });
      const base = expectedQps(fx.records, { host: 'local', version: '10.11.17', test });
      const cmp = fx.comparisons.find((c) => c.hostClass === 'local' && c.product === 'mariadb' && c.candidate.version === version && c.base.version === '10.11.17');
      const v = cmp?.tests.find((t) => t.test === test && t.metric === 'throughput');
      return { want, ratio: v && v.verdict !== 'failed' && v.ratio !== null ? v.ratio : version === '10.11.17' ? 1 : want / base, judged: Boolean(v && v.ratio !== null && v.verdict !== 'failed') };
    };
    let judgedCells = 0;
    for (const cell of cells) {
      const { want, ratio, judged } = expected(/** @type {string} */ (cell.test), /** @type {string} */ (cell.version));
      assert.ok(Math.abs(cell.qps - want) < 1e-9, `${cell.test} ${cell.version}: ${cell.qps} != ${want}`);
      assert.equal(cell.qpsText, Math.round(want).toLocaleString('en-US'));
      assert.ok(Math.abs(cell.ratio - ratio) < 1e-9, `${cell.test} ${cell.version}: ratio ${cell.ratio} != ${ratio}`);
      assert.equal(cell.judged, String(judged), `${cell.test} ${cell.version}`);
      assert.equal(cell.ratioText, `${ratio.toFixed(3)}${judged ? '' : '*'}`);
      assert.equal(cell.lo, judged && Number(ratio.toFixed(2)) < 0.95, `${cell.test} ${cell.version} colour mark`);
      if (judged) judgedCells++;
    }
    // Every release was compared with 10.11.16: against 10.11.17 no cell is a verdict (the next test picks 10.11.16).
    assert.equal(judgedCells, 0);
    assert.ok(cells.find((c) => c.test === 'update-index' && c.version === '10.11.19')?.ratioText, 'the injected 20 % drop is shown');
    // group summaries: the geometric mean of the same shown ratios (none refused here), to the digit
    const versions = ['10.11.16', '10.11.17', '10.11.18', '10.11.19'];
    const table = fx.records.filter((r) => r.host.class === 'local' && r.release.product === 'mariadb');
    const rel = computeRelativeTable({ product: 'mariadb', line: '10.11', base: '10.11.17', releases: versions.map((version) => ({ version, records: table.filter((r) => r.release.version === version) })) });
    const summary = await page.$$eval('#group-summary td[data-version]', (tds) => tds.map((td) => ({
      group: /** @type {HTMLElement} */ (td.closest('tr')).dataset.group, version: /** @type {HTMLElement} */ (td).dataset.version,
      geomean: Number(/** @type {HTMLElement} */ (td).dataset.geomean), text: td.firstChild?.textContent,
    })));
    assert.equal(summary.length, rel.groups.length * versions.length);
    for (const cell of summary) {
      const tests = rel.groups.find((g) => g.group === cell.group)?.rows.map((r) => r.test) ?? [];
      const ratios = tests.map((t) => expected(t, /** @type {string} */ (cell.version)).ratio);
      const want = Math.pow(ratios.reduce((a, b) => a * b, 1), 1 / ratios.length);
      assert.ok(Math.abs(cell.geomean - want) < 1e-12, `${cell.group} ${cell.version}: ${cell.geomean} != ${want}`);
      assert.equal(cell.text, want.toFixed(2));
    }
    assert.match(await page.textContent('#group-summary caption') ?? '', /^Geometric mean of the ratios to 10\.11\.17/);
    const charts = await chartsOnPage();
    assert.deepEqual(charts.map((c) => c.name.split(':')[0]), ['Point queries', 'Range queries without aggregation', 'Range queries with aggregation', 'Writes']);
    for (const chart of charts) {
      assert.ok(chart.width > 100 && chart.height > 100, `${chart.name} canvas has a size`);
      assert.ok(chart.series.length > 0 && chart.series.every((s) => s.data.length === 4), `${chart.name} has a series per test over 4 releases`);
    }
    await shoot('line-light');
  });

  it('the base selector, used from the keyboard, recomputes ratios, charts and the URL', async () => {
    await open(`line.html?${LINE}`);
    // Reach the selector with Tab only, as a keyboard user would.
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.id === 'base-select');
    }
    assert.ok(reached, 'the base selector is reachable with Tab');
    const outline = await page.evaluate(() => getComputedStyle(/** @type {Element} */ (document.activeElement)).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    // Every release was compared with 10.11.16: against the default base no interval is drawn, and the note says where they are.
    assert.equal(await page.textContent('#interval-note'), 'No release was compared with 10.11.17, so no interval is drawn. Intervals exist only against the compared base: 10.11.17 against 10.11.16, 10.11.18 against 10.11.16, 10.11.19 against 10.11.16; pick that base to see them.');
    assert.deepEqual((await intervalBars()).filter((b) => b.bars.length > 0), []);
    await page.selectOption('#base-select', '10.11.16');
    assert.match(await page.textContent('#interval-note') ?? '', /^Bars: the verdict's interval of each test of 10\.11\.17, 10\.11\.18, 10\.11\.19 \(compared with 10\.11\.16\)/);
    const bars = await intervalBars();
    assert.equal(bars.length, 34, 'a series per test');
    for (const { test, bars: drawn, axis } of bars) {
      const want = ['10.11.17', '10.11.18', '10.11.19'].flatMap((version) => {
        const c = fx.comparisons.filter((x) => x.hostClass === 'local' && x.product === 'mariadb' && x.candidate.version === version).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
        const v = c?.tests.find((x) => x.test === test && x.metric === 'throughput');
        const clamp = (/** @type {number} */ y) => Math.min(axis[1], Math.max(axis[0], Number(y.toFixed(4))));
        return v?.ci && typeof v.ratio === 'number' ? [{ version, lo: clamp(v.ci[0]), hi: clamp(v.ci[1]), ratio: clamp(v.ratio) }] : [];
      });
      assert.deepEqual(drawn, want, `${test}: the verdicts' intervals and ratios against 10.11.16`);
    }
    const cell = await page.$eval('#line-table tr[data-test="update-index"] td[data-version="10.11.19"]', (td) => ({
      ratio: Number(/** @type {HTMLElement} */ (td).dataset.ratio), judged: /** @type {HTMLElement} */ (td).dataset.judged, text: td.querySelector('.ratio')?.textContent,
    }));
    // Compared with this base: the cell is the verdict's own estimate (issue 35), as the release page and the CSV print it.
    const newest = fx.comparisons.filter((x) => x.hostClass === 'local' && x.product === 'mariadb' && x.candidate.version === '10.11.19').sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
    const want = /** @type {number} */ (newest?.tests.find((x) => x.test === 'update-index' && x.metric === 'throughput')?.ratio);
    assert.ok(Math.abs(cell.ratio - want) < 1e-9, `${cell.ratio} vs the verdict's ${want}`);
    assert.deepEqual([cell.judged, cell.text], ['true', want.toFixed(3)]);
    assert.match(page.url(), /[?&]base=10\.11\.16/);
    const writes = (await chartsOnPage()).find((c) => c.name.startsWith('Writes'));
    const series = writes?.series.find((s) => s.name === 'update-index');
    assert.ok(series && Math.abs(series.data[3] - want) < 1e-9, 'the chart follows the new base');
    assert.ok(Math.abs(series.data[0] - 1) < 1e-12, 'the base release is 1.0 in the chart');
  });

  it('release: verdicts from the comparison, efficiency, provenance and the my.cnf diff', async () => {
    await open('release.html?product=mariadb&version=10.11.19&host=local&suite=smoke');
    const c = fx.comparisons.filter((x) => x.hostClass === 'local' && x.product === 'mariadb' && x.candidate.version === '10.11.19').at(-1);
    assert.ok(c);
    const rows = await page.$$eval('#release-tests tr[data-test]', (trs) => trs.map((tr) => ({
      test: /** @type {HTMLElement} */ (tr).dataset.test, verdict: tr.querySelector('[data-verdict]')?.getAttribute('data-verdict'),
      ratio: Number(/** @type {HTMLElement} */ (tr.querySelector('[data-ratio]'))?.dataset.ratio), median: Number(/** @type {HTMLElement} */ (tr.querySelector('[data-median]'))?.dataset.median),
    })));
    assert.equal(rows.length, 34);
    for (const row of rows) {
      const v = /** @type {import('../../scripts/types.js').TestVerdict} */ (c.tests.find((/** @type {any} */ t) => t.test === row.test && t.metric === 'throughput'));
      assert.equal(row.verdict, v?.verdict, `${row.test} verdict`);
      assert.ok(Math.abs(row.ratio - /** @type {number} */ (v?.ratio)) < 1e-9);
      assert.ok(Math.abs(row.median - expectedQps(fx.records, { host: 'local', version: '10.11.19', test: /** @type {string} */ (row.test) })) < 1e-9);
    }
    assert.equal(rows.find((r) => r.test === 'update-index')?.verdict, 'regression');
    // Each step's measured length beside its repeats: the median over the release's ok repeats.
    const lengths = fx.records.filter((r) => r.host.class === 'local' && r.release.version === '10.11.19')
      .flatMap((r) => r.steps.filter((st) => st.name === 'update-index').flatMap((st) => st.repeats.filter((rep) => rep.status === 'ok').map((rep) => rep.durationS))).sort((a, b) => a - b);
    const shown = Number(await page.getAttribute('#release-tests tr[data-test="update-index"] td[data-duration-s]', 'data-duration-s'));
    const mid = lengths.length % 2 ? lengths[(lengths.length - 1) / 2] : (lengths[lengths.length / 2 - 1] + lengths[lengths.length / 2]) / 2;
    assert.ok(lengths.length > 0 && Math.abs(shown - mid) < 1e-9, `length ${shown} s, repeats ${lengths.join(', ')}`);
    const diff = await page.innerText('#mycnf-diff');
    assert.match(diff ?? '', /^\+innodb_adaptive_hash_index=OFF$/m);
    const record = fx.records.find((r) => r.host.class === 'local' && r.release.version === '10.11.19');
    assert.ok((await page.textContent('main'))?.includes(/** @type {any} */ (record).release.binarySha256), 'provenance shows the binary checksum');
    assert.ok(await page.$('#release-efficiency'));
    // How sure, first in the verdict summary: compare's sentence (compare/how-sure.js) from the
    // project's stored calibrations, the same string as the reports', not a copy of it.
    const sure = await page.textContent('#how-sure') ?? '';
    const { describeHowSure } = await import('../../scripts/compare/how-sure.js');
    const { readCalibrations } = await import('../../scripts/store/index.js');
    const shared = describeHowSure(c, await readCalibrations(join(PROJECT_ROOT, 'bench'), 'local'));
    assert.ok(shared.length > 0 && sure.startsWith(`How sure: ${shared}`), `the page's sentence is compare's:\n${sure}\n${shared}`);
    assert.equal(await page.$eval('#verdict-summary', (el) => el.firstElementChild?.id), 'how-sure', 'first in the verdict summary');
    // The overview chart: every throughput verdict once, worst ratio first, its interval drawn.
    const overview = (await chartsOnPage()).find((ch) => ch.name.startsWith(`Throughput ratio to ${c.base.version} with its interval`));
    assert.ok(overview && overview.width > 0 && overview.height > 0, 'the overview chart is drawn');
    const verdicts = c.tests.filter((/** @type {any} */ t) => t.metric === 'throughput' && typeof t.ratio === 'number');
    const points = overview.series.filter((s) => !['below interval', 'interval'].includes(s.name)).flatMap((s) => s.data.map((/** @type {any} */ p) => p.value));
    assert.equal(points.length, verdicts.length, 'one point per throughput verdict');
    const ordered = /** @type {any[]} */ ([...verdicts]).sort((/** @type {any} */ a, /** @type {any} */ b) => a.ratio - b.ratio);
    for (const [ratio, i] of points) assert.ok(Math.abs(ratio - ordered[i].ratio) < 1e-12, `row ${i}: ${ratio} vs ${ordered[i].test} ${ordered[i].ratio}`);
    const spans = /** @type {any[]} */ (overview.series.find((s) => s.name === 'interval')?.data);
    assert.ok(spans.every((/** @type {any} */ w, /** @type {number} */ i) => w === null || Math.abs(w - (ordered[i].ci[1] - ordered[i].ci[0])) < 1e-12), 'the interval bars span each verdict\'s interval');
    // Suspects: compare's findSuspects on the stored comparison, the same tests on the page.
    const suspects = await page.$$eval('#suspects-table tbody tr', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.suspect));
    assert.deepEqual(suspects, findSuspects(/** @type {any} */ (c)).map((x) => x.test));
    // Named above everything (issue 35 item 4): every regression, then every suspect, each linked.
    const named = await page.$$eval('#findings li', (lis) => lis.map((li) => `${/** @type {HTMLElement} */ (li).dataset.finding} ${li.querySelector('a')?.textContent} ${/** @type {HTMLElement} */ (li).dataset.metric}`));
    const regressed = c.tests.filter((/** @type {any} */ t) => t.verdict === 'regression');
    assert.equal(named.filter((n) => n.startsWith('regression ')).length, regressed.length, 'every regression, every metric');
    for (const t of regressed) assert.ok(named.includes(`regression ${t.test} ${t.metric}`), `${t.test} ${t.metric} named`);
    assert.deepEqual(named.filter((n) => n.startsWith('suspect ')), findSuspects(/** @type {any} */ (c)).map((x) => `suspect ${x.test} ${x.metric}`), 'then the suspects, in compare\'s order');
    await shoot('release-light');
    // At 800 px the verdict stays in view: frozen at the right edge of the scrolled table.
    const wide = page.viewportSize();
    await page.setViewportSize({ width: 800, height: 900 });
    try {
      const box = await page.$eval('#release-tests tr[data-test] td.sticky-verdict', (td) => {
        const r = td.getBoundingClientRect();
        return { left: r.left, right: r.right, text: td.textContent };
      });
      assert.ok(box.left >= 0 && box.right <= 800, `the verdict cell spans ${box.left}-${box.right} px at 800 px`);
      // A verdict word, or for an unchanged verdict whose interval excludes no change its change
      // (compare's describeVerdict: "+0.41 % [0.03, 1.10], under the warn threshold").
      assert.match(box.text ?? '', /regression|improvement|unchanged|inconclusive|failed|[+-]\d+\.\d+ % \[-?\d+\.\d+, -?\d+\.\d+\], under the warn threshold/);
      await page.screenshot({ path: join(ARTIFACTS, 'release-800.png'), fullPage: false });
    } finally {
      if (wide) await page.setViewportSize(wide);
    }

    // The oldest release has no comparison: ratios to the default base, no verdicts.
    await open('release.html?product=mariadb&version=10.11.16&host=local&suite=smoke');
    assert.match(await page.textContent('#verdict-summary') ?? '', /No comparison is stored for this release/);
    const ratio = await page.$eval('#release-tests tr[data-test="update-index"] [data-ratio]', (td) => Number(/** @type {HTMLElement} */ (td).dataset.ratio));
    const want = expectedQps(fx.records, { host: 'local', version: '10.11.16', test: 'update-index' }) / expectedQps(fx.records, { host: 'local', version: '10.11.17', test: 'update-index' });
    assert.ok(Math.abs(ratio - want) < 1e-9);
    assert.equal(await page.$('#release-tests [data-verdict]'), null);
  });

  it('test: history with the stored change points marked, per-second runs overlaid', async () => {
    // small-server: `tagbench compare` stored the series' change points (real apache-otava)
    await open(`test.html?${LINE.replace('local', 'small-server')}&test=update-index`);
    const series = /** @type {import('../../scripts/store/index.js').ChangePointSeries} */ (fx.changePoints.tests.find((t) => t.test === 'update-index'));
    const hist = await page.$$eval('#test-history tr[data-version]', (trs) => trs.map((tr) => ({
      version: /** @type {HTMLElement} */ (tr).dataset.version, median: Number(/** @type {HTMLElement} */ (tr).dataset.median), change: tr.classList.contains('change-point'),
      pct: /** @type {HTMLElement} */ (tr.querySelector('[data-change-point]')).dataset.changePoint,
    })));
    assert.deepEqual(hist.map((r) => r.version), ['10.11.19', '10.11.18', '10.11.17', '10.11.16']);
    for (const r of hist) {
      assert.ok(Math.abs(r.median - expectedQps(fx.records, { host: 'small-server', version: /** @type {string} */ (r.version), test: 'update-index' })) < 1e-9);
      const here = series.changePoints.filter((c) => c.version === r.version);
      assert.equal(r.pct, here.map((c) => String(c.forwardChangePct)).join(' '), `${r.version}: the table lists the file's change points`);
      assert.equal(r.change, here.some((c) => c.atReleaseBoundary));
    }
    assert.deepEqual(hist.filter((r) => r.change).map((r) => r.version), ['10.11.19'], 'the injected drop');
    const listed = await page.$$eval('#change-points tbody tr', (trs) => trs.map((tr) => ({
      version: /** @type {HTMLElement} */ (tr).dataset.version, change: Number(/** @type {HTMLElement} */ (tr).dataset.change), pValue: Number(/** @type {HTMLElement} */ (tr).dataset.pValue),
    })));
    assert.deepEqual(listed, series.changePoints.map((c) => ({ version: c.version, change: c.forwardChangePct, pValue: c.pValue })));
    /** @returns {Promise<{coord: any[], value: string, changePct: number}[]>} */
    const marks = () => page.evaluate(() => /** @type {any} */ (window).echarts.getInstanceByDom(document.querySelector('[data-chart]')).getOption().series[0].markPoint.data);
    assert.deepEqual((await marks()).map((m) => [m.coord[0], m.changePct, m.value]),
      series.changePoints.map((c) => [c.version, c.forwardChangePct, c.atReleaseBoundary ? (c.forwardChangePct < 0 ? '▼' : '▲') : '◆']), 'chart markers come from the change-point file');
    // 4 releases: the release-series rule, not otava (docs/method.md)
    assert.equal(fx.changePoints.method.tool, 'release-series');
    assert.match(await page.textContent('#change-point-note') ?? '', new RegExp(`release-series rule ${fx.changePoints.method.version.replace(/\./g, '\\.')} \\(one value per release.*never inside a release\\) .*: ${series.changePoints.length} found`));
    assert.match(await page.textContent('#change-points tbody tr td:last-child') ?? '', /(dip|step|drift).*, (worse|better)/);
    const cpHref = await page.getAttribute('#change-point-note a[download]', 'href');
    assert.deepEqual(await page.evaluate(async (href) => (await fetch(/** @type {string} */ (href))).json(), cpHref), fx.changePoints);

    let charts = await chartsOnPage();
    const perSecond = charts.find((ch) => ch.name.includes('per-second') && !ch.name.includes('latency'));
    assert.equal(perSecond?.series.length, 2, 'newest and base release overlaid by default');
    assert.equal(perSecond?.series[0].data.length, 12, 'one point per second');
    await page.locator('fieldset.run-picker input[type=checkbox]:not(:checked)').first().check();
    await page.waitForFunction(() => /** @type {any} */ (window).echarts.getInstanceByDom(document.querySelectorAll('[data-chart]')[1]).getOption().series.length === 3);
    charts = await chartsOnPage();
    assert.equal(charts[2].series.length, 3, 'the latency chart follows the picker');
    assert.match(page.url(), /[?&]runs=/);
    await shoot('test-light');

    // local: no change-point file, so nothing is marked, though a verdict found the regression
    await open(`test.html?${LINE}&test=update-index`);
    assert.equal(await page.getAttribute('#change-point-note', 'data-change-points'), 'none');
    assert.equal((await page.$$('#test-history tr.change-point')).length, 0);
    assert.equal(await page.$('#change-points'), null);
    assert.deepEqual(await marks(), []);
    assert.equal(await page.getAttribute('#test-history tr[data-version="10.11.19"] [data-verdict]', 'data-verdict'), 'regression');
  });

  it('regressions: every regression verdict with its issue; downloads: CSV, feed and records', async () => {
    await open('regressions.html');
    const latest = new Map();
    for (const c of fx.comparisons) latest.set(`${c.hostClass}/${c.product}/${c.candidate.version}`, c);
    const want = [...latest.values()].reduce((n, c) => n + c.tests.filter((/** @type {any} */ t) => t.verdict === 'regression').length, 0);
    const rows = await page.$$eval('#regressions-table tr[data-state]', (trs) => trs.map((tr) => {
      const ds = /** @type {HTMLElement} */ (tr).dataset;
      return { test: ds.test, version: ds.version, state: ds.state, issue: tr.querySelector('a')?.textContent };
    }));
    assert.equal(rows.length, want);
    const open42 = rows.find((r) => r.test === 'update-index' && r.version === '10.11.19' && r.state === 'open');
    assert.equal(open42?.issue, '#42');
    await page.selectOption('#state-select', 'closed');
    assert.ok((await page.$$('#regressions-table tr[data-state]')).length > 0);
    assert.equal((await page.$$('#regressions-table tr[data-state="open"]')).length, 0);
    await shoot('regressions-light');
    // Suspects: compare's own findSuspects over the newest comparisons, the same rows on the page.
    const wantSuspects = [...latest.values()].flatMap((c) => findSuspects(c).map((x) => `${c.candidate.version} ${x.test} ${x.metric}`)).sort();
    const suspectRows = await page.$$eval('#suspects-table tbody tr', (trs) => trs.map((tr) => `${tr.querySelector('td a')?.textContent} ${/** @type {HTMLElement} */ (tr).dataset.suspect} ${/** @type {HTMLElement} */ (tr).dataset.metric}`));
    assert.deepEqual(suspectRows.sort(), wantSuspects);
    if (wantSuspects.length === 0) assert.match(await page.textContent('#suspects') ?? '', /No suspects/);
    else assert.match(await page.textContent('#suspects') ?? '', /lean the bad way/);

    await open('downloads.html');
    assert.deepEqual(await page.$$eval('#downloads-table tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[2].textContent)),
      ['none stored', 'JSON', 'none stored', 'none stored'], 'the change-point file of the one series that has one');
    const csvHref = await page.getAttribute('a[download][href$=".csv"]', 'href');
    const csv = await page.evaluate(async (href) => (await fetch(/** @type {string} */ (href))).text(), csvHref);
    const [header, ...lines] = csv.trim().split('\r\n');
    assert.equal(header.split(',')[0], 'test');
    assert.equal(lines.length, 34);
    const feed = await page.evaluate(async () => (await fetch('feed.atom')).text());
    assert.equal((feed.match(/<entry>/g) ?? []).length, fx.comparisons.length);
    await page.locator('details summary').first().click();
    const recordHref = await page.locator('details a[href$=".json"]').first().getAttribute('href');
    const record = await page.evaluate(async (href) => (await fetch(/** @type {string} */ (href))).json(), recordHref);
    assert.ok(fx.records.some((r) => r.id === record.id && r.release.binarySha256 === record.release.binarySha256));
    await shoot('downloads-light');
  });

  it('navigation works with relative links under a sub-path', async () => {
    await open('index.html');
    await page.click('tr[data-table="mariadb/10.11/local/smoke"] th a');
    await page.waitForSelector('body[data-ready="true"]');
    assert.match(page.url(), /\/tagbench-results\/line\.html\?/);
    await page.click('#line-table tr[data-test="point-query"] th a');
    await page.waitForSelector('body[data-ready="true"]');
    assert.match(page.url(), /\/tagbench-results\/test\.html\?.*test=point-query/);
    await page.click('nav[aria-label="Breadcrumb"] a[href="index.html"]');
    await page.waitForSelector('body[data-ready="true"]');
    assert.match(page.url(), /\/tagbench-results\/index\.html$/);
    await page.click('a[data-nav="regressions"]');
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.getAttribute('a[data-nav="regressions"]', 'aria-current'), 'page');
  });

  it('reads in dark mode and on a phone; screenshots of the main pages', async () => {
    const pages = { home: 'index.html', line: `line.html?${LINE}`, release: 'release.html?product=mariadb&version=10.11.19&host=local&suite=smoke', test: `test.html?${LINE}&test=update-index` };
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [name, path] of Object.entries(pages)) {
      await open(path);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, 'rgb(13, 17, 23)', 'dark background');
      await shoot(`${name}-dark`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of Object.entries(pages)) {
      await open(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name}: no sideways scrolling of the page on a phone (tables scroll inside their box)`);
      await shoot(`${name}-phone`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await open('index.html');
    await shoot('home-light');
  });

  it('no console errors, page errors or failed requests on any page', () => {
    assert.deepEqual(problems, []);
  });
});
