/**
 * The demo's path end to end, through the real CLI: `tagbench run` benchmarks MariaDB
 * 10.11.18 and 10.11.19 (two tests of the smoke suite, 2 repeats, real servers and sysbench),
 * `tagbench compare` stores the verdicts, `tagbench site` builds the site, and a new user's
 * first look at it in Chromium shows the two releases compared, with charts.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { readRecords, readComparisons } from '../../scripts/store/index.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';
import { expectedQps, PROJECT_ROOT } from './fixture-store.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/site/', import.meta.url));
const TESTS = ['point-query', 'update-index'];

/**
 * Run the CLI; resolve with its exit code, reject with its output when it is not one of `ok`.
 * @param {string[]} args
 * @param {number[]} ok
 */
function cli(args, ok = [0]) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts', 'cli.js'), ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => (ok.includes(code ?? -1) ? resolve(code) : reject(new Error(`tagbench ${args[0]} exited ${code}:\n${output.slice(-4000)}`))));
  });
}

/** @type {string} */
let tmp;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-real-'));
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('demo: run, compare, site', () => {
  it('shows the two releases compared, with charts, built from a real run', async () => {
    const store = join(tmp, 'store');
    await cli(['run', '--releases', 'mariadb@10.11.18,mariadb@10.11.19', '--suite', 'smoke', '--host-class', 'local',
      '--only', TESTS.join(','), '--repeats', '2', '--store', store, '--work-dir', join(tmp, 'work')]);
    // 2 = an issue-level regression: a possible outcome on a noisy machine, not a failure here.
    await cli(['compare', '--store', store, '--host-class', 'local', '--suite', 'smoke', '--product', 'mariadb',
      '--releases', '10.11.18,10.11.19', '--base', '10.11.18', '--baselines', join(tmp, 'baselines'), '--no-change-points'], [0, 2]);
    const out = join(tmp, 'site');
    await cli(['site', '--store', store, '--out', out]);

    const records = await readRecords(store);
    const comparisons = await readComparisons(store);
    assert.equal(records.length, 2);
    assert.equal(comparisons.length, 1);

    const server = await serveSite(out, { port: 0 });
    const browser = await launchBrowser();
    try {
      const { page, problems } = await openPage(browser.context);
      assert.equal(await gotoReady(page, `${server.url}index.html`), 'true');
      assert.equal(await page.textContent('tr[data-table="mariadb/10.11/local/smoke"] [data-latest]'), '10.11.19');
      await page.click('tr[data-table="mariadb/10.11/local/smoke"] th a');
      await page.waitForSelector('body[data-ready="true"]');
      assert.equal(await page.inputValue('#base-select'), '10.11.18');
      const cells = await page.$$eval('#line-table td[data-version]', (tds) => tds.map((td) => {
        const ds = /** @type {HTMLElement} */ (td).dataset;
        return { test: /** @type {HTMLElement} */ (td.closest('tr')).dataset.test, version: ds.version, qps: ds.qps, ratio: ds.ratio };
      }));
      assert.equal(cells.length, TESTS.length * 2);
      for (const c of cells) {
        const qps = expectedQps(records, { host: 'local', version: /** @type {string} */ (c.version), test: /** @type {string} */ (c.test) });
        const base = expectedQps(records, { host: 'local', version: '10.11.18', test: /** @type {string} */ (c.test) });
        assert.ok(Math.abs(Number(c.qps) - qps) < 1e-9, `${c.test} ${c.version}`);
        assert.ok(Math.abs(Number(c.ratio) - qps / base) < 1e-9);
      }
      const charts = await page.evaluate(() => [...document.querySelectorAll('[data-chart]')].map((el) => {
        const inst = /** @type {any} */ (window).echarts.getInstanceByDom(el);
        return { width: el.querySelector('canvas')?.width ?? 0, series: inst.getOption().series.map((/** @type {any} */ s) => s.data.length) };
      }));
      assert.equal(charts.length, 2, 'a chart per test group (point queries, writes)');
      for (const ch of charts) {
        assert.ok(ch.width > 100);
        assert.deepEqual(ch.series, [2], 'one test, two releases');
      }
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'demo-line.png'), fullPage: true });
      await page.click('#line-table th a[href*="version=10.11.19"]');
      await page.waitForSelector('body[data-ready="true"]');
      const verdicts = await page.$$eval('#release-tests [data-verdict]', (els) => els.map((e) => e.getAttribute('data-verdict')));
      const c = comparisons[0];
      assert.deepEqual(verdicts, TESTS.map((t) => c.tests.find((v) => v.test === t && v.metric === 'throughput')?.verdict));
      await page.screenshot({ path: join(ARTIFACTS, 'demo-release.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
