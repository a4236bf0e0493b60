/**
 * The page across product lines and products, end to end: a store of three MariaDB lines and two
 * MySQL lines on two host classes (the generator's records written through the store stage; an
 * injected 20 % drop of update-nonindex in 11.8.6), the site built from it, served under a
 * sub-path and read in headless Chromium: reached from the navigation, the table's columns and
 * cells against the compare stage's cross table, the base and column selectors, and the charts
 * of each product's whole history (every line in version order) and across products.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRecord } from '../../scripts/store/index.js';
import { computeCrossTable } from '../../scripts/compare/index.js';
import { gotoReady } from '../support/browser.js';
import { generateHistory } from '../support/generate-history.js';
import { startSite } from './fixture-store.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/site/', import.meta.url));
const SPEC = {
  lines: [
    { product: 'mariadb', line: '10.5', versions: ['10.5.22', '10.5.23'] },
    { product: 'mariadb', line: '10.11', versions: ['10.11.17', '10.11.18'] },
    { product: 'mariadb', line: '11.8', versions: ['11.8.5', '11.8.6'] },
    { product: 'mysql', line: '8.4', versions: ['8.4.6'] },
    { product: 'mysql', line: '9.7', versions: ['9.7.4'] },
  ],
  hosts: ['local', 'small-server'],
  tests: 5,
  repeats: 3,
  intervalsS: 4,
  changes: [{ version: '11.8.6', test: 'update-nonindex', factor: 0.8 }],
  seed: 11,
};
const { records } = generateHistory(SPEC);
const NAMES = /** @type {Record<string, string>} */ ({ mariadb: 'MariaDB', mysql: 'Oracle MySQL' });
const FOUR = ['mariadb@10.5.23', 'mariadb@10.11.18', 'mariadb@11.8.6', 'mysql@9.7.4'];

/**
 * The compare stage's cross table of some releases on local: what `tagbench compare` prints.
 * @param {string[]} keys
 * @param {string} base
 */
function crossTable(keys, base) {
  return computeCrossTable({
    hostClass: 'local', suite: 'smoke', base,
    releases: keys.map((key) => {
      const [product, version] = key.split('@');
      const line = SPEC.lines.find((l) => l.product === product && l.versions.includes(version))?.line ?? '';
      return { product, productName: NAMES[product], line, version, records: records.filter((r) => r.host.class === 'local' && r.release.product === product && r.release.version === version) };
    }),
  });
}

/** @type {Awaited<ReturnType<typeof startSite>>} */
let site;
/** @type {string} */
let out;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;
/** @type {string} */
let root;

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  site = await startSite('tagbench-cross-site-', async (store) => {
    for (const r of records) await writeRecord(store, r);
  }, { now: new Date('2025-03-01T00:00:00Z'), siteDir: 'results-site' });
  ({ out, page, problems } = site);
  root = `${site.server.url}results-site/`;
});

after(async () => {
  await site?.close();
});

/** Cells of the cross table: their test, column key, QPS and ratio, and the marks shown. */
function tableCells() {
  return page.$$eval('#cross-table td[data-key]', (tds) => tds.map((td) => ({
    test: /** @type {HTMLElement} */ (td.closest('tr')).dataset.test ?? '', key: /** @type {HTMLElement} */ (td).dataset.key ?? '',
    qps: Number(/** @type {HTMLElement} */ (td).dataset.qps), ratio: Number(/** @type {HTMLElement} */ (td).dataset.ratio),
    ratioText: td.querySelector('.ratio')?.textContent, lo: !!td.querySelector('.ratio.lo'), hi: !!td.querySelector('.ratio.hi'),
  })));
}

/** Column headings of the cross table. */
function headings() {
  return page.$$eval('#cross-table thead th[data-key]', (ths) => ths.map((th) => ({ key: /** @type {HTMLElement} */ (th).dataset.key, text: th.textContent })));
}

/** Charts on the page with their axis and series, as ECharts holds them. */
function charts() {
  return page.evaluate(() => [...document.querySelectorAll('[data-chart]')].map((el) => {
    const option = /** @type {any} */ (window).echarts.getInstanceByDom(el).getOption();
    return {
      name: /** @type {HTMLElement} */ (el).dataset.chart ?? '', width: el.querySelector('canvas')?.width ?? 0,
      categories: /** @type {string[]} */ (option.xAxis[0].data),
      series: /** @type {{name: string, data: (number|null)[]}[]} */ (option.series.map((/** @type {any} */ s) => ({ name: s.name, data: s.data }))),
    };
  }));
}

describe('across lines and products', () => {
  it('writes one data file per host class and suite with every release of every product, in version order', async () => {
    const index = JSON.parse(await readFile(join(out, 'data', 'cross', 'index.json'), 'utf8'));
    assert.deepEqual(index.tables.map((/** @type {any} */ t) => [t.host, t.suite, t.releaseCount, t.lineCount, t.products]),
      [['local', 'smoke', 8, 5, ['MariaDB', 'Oracle MySQL']], ['small-server', 'smoke', 8, 5, ['MariaDB', 'Oracle MySQL']]]);
    const data = JSON.parse(await readFile(join(out, 'data', 'cross', 'local', 'smoke.json'), 'utf8'));
    assert.deepEqual(data.releases.map((/** @type {any} */ r) => r.key),
      ['mariadb@10.5.22', 'mariadb@10.5.23', 'mariadb@10.11.17', 'mariadb@10.11.18', 'mariadb@11.8.5', 'mariadb@11.8.6', 'mysql@8.4.6', 'mysql@9.7.4']);
    assert.deepEqual(data.defaultColumns, ['mariadb@10.5.23', 'mariadb@10.11.18', 'mariadb@11.8.6', 'mysql@8.4.6', 'mysql@9.7.4'], 'the newest release of every line');
  });

  it('the navigation leads to the table of the newest release of every line, ratios to the first', async () => {
    assert.equal(await gotoReady(page, `${root}index.html`), 'true');
    await page.click('nav[aria-label="Site"] a[data-nav="cross"]');
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.getAttribute('a[data-nav="cross"]', 'aria-current'), 'page');
    assert.deepEqual((await headings()).map((h) => h.text),
      ['MariaDB 10.5.23 (base)', 'MariaDB 10.11.18', 'MariaDB 11.8.6', 'Oracle MySQL 8.4.6', 'Oracle MySQL 9.7.4']);
    assert.equal(await page.inputValue('#base-select'), 'mariadb@10.5.23');
  });

  it('shows the table of three lines of MariaDB and MySQL 9.7.4: the compare stage\'s medians, ratios and marks', async () => {
    assert.equal(await gotoReady(page, `${root}cross.html?host=local&suite=smoke&releases=${FOUR.join(',')}&base=mariadb@10.5.23`), 'true');
    assert.deepEqual((await headings()).map((h) => h.key), FOUR);
    const want = crossTable(FOUR, 'mariadb@10.5.23');
    const rows = want.groups.flatMap((g) => g.rows);
    const cells = await tableCells();
    assert.equal(cells.length, rows.length * FOUR.length);
    for (const cell of cells) {
      const c = rows.find((r) => r.test === cell.test)?.cells[cell.key];
      assert.ok(c?.stats && c.ratio !== null, `${cell.test} ${cell.key} is in the compare stage's table`);
      assert.equal(cell.qps, c.stats.median);
      assert.ok(Math.abs(cell.ratio - c.ratio) < 1e-12, `${cell.test} ${cell.key}`);
      assert.equal(cell.ratioText, c.ratio.toFixed(2));
      assert.equal(cell.lo, Number(c.ratio.toFixed(2)) < 0.95);
      assert.equal(cell.hi, Number(c.ratio.toFixed(2)) > 1.05);
    }
    assert.ok(cells.find((c) => c.test === 'update-nonindex' && c.key === 'mariadb@11.8.6')?.lo, 'the injected drop is marked');
    const geomeans = await page.$$eval('#cross-summary td[data-key]', (tds) => tds.map((td) => ({
      group: /** @type {HTMLElement} */ (td.closest('tr')).dataset.group ?? '', key: /** @type {HTMLElement} */ (td).dataset.key ?? '', value: Number(/** @type {HTMLElement} */ (td).dataset.geomean),
    })));
    assert.equal(geomeans.length, want.groups.length * FOUR.length);
    for (const g of geomeans) assert.ok(Math.abs(g.value - /** @type {number} */ (want.groups.find((x) => x.group === g.group)?.geomean[g.key])) < 1e-12, `${g.group} ${g.key}`);
    await page.screenshot({ path: join(ARTIFACTS, 'cross-light.png'), fullPage: true });
  });

  it('charts the ratio by release over each product\'s whole history (a series per line) and across products', async () => {
    await page.selectOption('#test-select', 'update-nonindex');
    const all = await charts();
    assert.deepEqual(all.map((c) => c.name), ['MariaDB: ratio to the base by release, every line', 'Oracle MySQL: ratio to the base by release, every line', 'Across products: ratio to the base by release']);
    for (const c of all) assert.ok(c.width > 100, `${c.name} is drawn`);
    const [mariadb, mysql, across] = all;
    assert.deepEqual(mariadb.categories, ['10.5.22', '10.5.23', '10.11.17', '10.11.18', '11.8.5', '11.8.6']);
    assert.deepEqual(mariadb.series.map((s) => s.name), ['MariaDB 10.5', 'MariaDB 10.11', 'MariaDB 11.8']);
    assert.deepEqual(mysql.categories, ['8.4.6', '9.7.4']);
    assert.deepEqual(across.series.map((s) => s.name), ['MariaDB', 'Oracle MySQL']);
    assert.equal(across.categories.length, 8);
    const want = crossTable(['mariadb@10.5.23', 'mariadb@11.8.5', 'mariadb@11.8.6', 'mysql@9.7.4'], 'mariadb@10.5.23');
    const row = want.groups.flatMap((g) => g.rows).find((r) => r.test === 'update-nonindex');
    const line118 = mariadb.series[2].data;
    assert.deepEqual(line118.slice(0, 4), [null, null, null, null], 'the 11.8 series holds only 11.8 releases');
    assert.ok(Math.abs(/** @type {number} */ (line118[5]) - /** @type {number} */ (row?.cells['mariadb@11.8.6'].ratio)) < 1e-12);
    assert.ok(Math.abs(/** @type {number} */ (mariadb.series[0].data[1]) - 1) < 1e-12, 'the base is 1');
    assert.ok(Math.abs(/** @type {number} */ (across.series[1].data[7]) - /** @type {number} */ (row?.cells['mysql@9.7.4'].ratio)) < 1e-12);
    assert.match(page.url(), /[?&]test=update-nonindex/);
  });

  it('picking another base or other columns recomputes the table, the charts and the URL', async () => {
    await page.selectOption('#base-select', 'mysql@9.7.4');
    const want = crossTable(FOUR, 'mysql@9.7.4');
    const cell = (await tableCells()).find((c) => c.test === 'update-nonindex' && c.key === 'mariadb@11.8.6');
    const ratio = want.groups.flatMap((g) => g.rows).find((r) => r.test === 'update-nonindex')?.cells['mariadb@11.8.6'].ratio;
    assert.ok(cell && ratio && Math.abs(cell.ratio - ratio) < 1e-12);
    assert.match(page.url(), /[?&]base=mysql%409\.7\.4/);
    const across = (await charts()).at(-1);
    assert.ok(Math.abs(/** @type {number} */ (across?.series[1].data[7]) - 1) < 1e-12, 'the charts follow the base');
    await page.selectOption('#release-select', ['mariadb@10.5.22', 'mysql@8.4.6']);
    assert.deepEqual((await headings()).map((h) => h.key), ['mariadb@10.5.22', 'mysql@8.4.6']);
    assert.equal(await page.inputValue('#base-select'), 'mariadb@10.5.22', 'a base no longer shown gives way to the first column');
    assert.match(page.url(), /[?&]releases=mariadb%4010\.5\.22%2Cmysql%408\.4\.6/);
    assert.deepEqual(problems, []);
  });
});
