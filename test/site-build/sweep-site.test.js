/**
 * The chart of throughput by clients, end to end: a store with a concurrency sweep (the
 * generator's records of two MariaDB 10.11 releases, their three tests renamed to the counts of
 * a sweep, point-query.c1/.c2/.c4, as `tagbench run` names them), the site built from it, served
 * and read in headless Chromium: the line page draws one chart per swept test, clients on the
 * x axis and a line per release whose points are the medians recomputed here from the records.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeRecord } from '../../scripts/store/index.js';
import { gotoReady } from '../support/browser.js';
import { startSite } from './fixture-store.js';
import { generateHistory } from '../support/generate-history.js';

const COUNTS = [1, 2, 4];
const { records } = generateHistory({
  lines: [{ product: 'mariadb', line: '10.11', versions: ['10.11.18', '10.11.19'] }],
  hosts: ['local'], tests: 3, repeats: 3, intervalsS: 4, changes: [], seed: 5,
});
// The generator's first three tests become the three counts of one sweep.
for (const r of records) {
  r.config.suite = 'sweep-smoke';
  r.steps.forEach((s, i) => { s.name = `point-query.c${COUNTS[i]}`; s.group = 'point'; });
}

/** Median of an odd count, computed here apart from the site build. */
function median(/** @type {number[]} */ xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) / 2];
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

before(async () => {
  site = await startSite('tagbench-sweep-site-', async (store) => {
    for (const r of records) await writeRecord(store, r);
  }, { now: new Date('2025-03-01T00:00:00Z') });
  ({ out, server, page, problems } = site);
});

after(async () => {
  await site?.close();
});

describe('concurrency sweep on the site', () => {
  it('the table data lists the sweep with its counts in order', async () => {
    const data = JSON.parse(await readFile(join(out, 'data', 'tables', 'local', 'mariadb', '10.11', 'sweep-smoke.json'), 'utf8'));
    assert.deepEqual(data.sweeps, [{ test: 'point-query', metric: 'qps', clients: [1, 2, 4], tests: ['point-query.c1', 'point-query.c2', 'point-query.c4'] }]);
  });

  it('the line page charts throughput by clients, a line per release, the medians of the records', async () => {
    assert.equal(await gotoReady(page, `${server.url}site/line.html?product=mariadb&line=10.11&host=local&suite=sweep-smoke`), 'true');
    const chart = await page.evaluate(() => {
      const el = /** @type {HTMLElement} */ (document.querySelector('[data-sweep="point-query"]'));
      const option = /** @type {any} */ (window).echarts.getInstanceByDom(el).getOption();
      return {
        name: el.dataset.chart, width: el.querySelector('canvas')?.width ?? 0,
        categories: option.xAxis[0].data, axis: option.xAxis[0].name,
        series: option.series.map((/** @type {any} */ s) => ({ name: s.name, data: s.data })),
      };
    });
    assert.equal(chart.name, 'point-query: QPS by clients');
    assert.ok(chart.width > 100, 'the chart is drawn');
    assert.deepEqual(chart.categories, ['1', '2', '4']);
    assert.equal(chart.axis, 'clients');
    const want = ['10.11.18', '10.11.19'].map((version) => ({
      name: version,
      data: COUNTS.map((c) => median(records.filter((r) => r.release.version === version)
        .flatMap((r) => r.steps.filter((s) => s.name === `point-query.c${c}`).flatMap((s) => s.repeats.map((rep) => /** @type {number} */ (rep.throughput)))))),
    }));
    assert.deepEqual(chart.series, want);
    assert.deepEqual(problems, [], 'no console error');
  });
});
