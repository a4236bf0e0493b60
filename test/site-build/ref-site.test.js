/**
 * Changes under review on the site, in headless Chromium: a store holding the release series
 * (the captured real runs of 10.11.18 and 10.11.19 with their comparisons) and a ref run made of
 * the same real records relabelled as a pull request's commit and its base
 * (test/support/ref-store.js), compared by `tagbench compare --ref`. The ref run has its page at
 * the address refRunPagePath gives (what a check run links to), linked from the "Under review"
 * list in the navigation; the line page, its table and the home page show releases only.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { compareReleases } from '../../scripts/verify/compare-releases.js';
import { readComparisons, refRunPagePath } from '../../scripts/store/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { openSite, gotoReady } from '../support/browser.js';
import { storeLinker } from '../../scripts/site-build/store-links.js';
import { writeRefRunStore } from '../support/ref-store.js';
import { PROJECT_ROOT } from './fixture-store.js';

const CANDIDATE = '6e85dc9c3fef'.padEnd(40, 'a');
const BASE = '0b1c2d3e4f50'.padEnd(40, 'b');
/** @type {string} */
let tmp;
/** @type {string} */
let out;
/** @type {Awaited<ReturnType<typeof openSite>>} */
let site;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;
/** @type {import('../../scripts/types.js').Comparison & {id: string}} */
let comparison;
/** @type {Awaited<ReturnType<typeof writeRefRunStore>>} */
let written;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-refs-'));
  const store = join(tmp, 'store');
  written = await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE, baseRef: 'main', withReleases: true });
  await compareReleases({ store, hostClass: 'local', suite: 'smoke', product: 'mariadb', ref: 'pull/7/head', commit: CANDIDATE, color: false, root: PROJECT_ROOT, out: () => {} });
  [comparison] = await readComparisons(store, { refs: true });
  out = join(tmp, 'site');
  await buildSite({ store, out, baselines: join(tmp, 'baselines'), configRoot: PROJECT_ROOT, now: new Date('2026-11-28T12:00:00Z') });
  site = await openSite(out);
  ({ page, problems } = site);
});
after(async () => {
  await site?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** @param {string} path */
async function open(path) {
  const state = await gotoReady(page, site.url + path);
  assert.equal(state, 'true', `${path} did not render: ${await page.textContent('main')}`);
}

describe('site: changes under review', () => {
  it('lists the ref run under "Under review", linked to its own page', async () => {
    await open('index.html');
    await page.click('nav a[data-nav="refs"]');
    await page.waitForSelector('body[data-ready="true"]');
    const rows = await page.$$eval('#refs-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
    assert.deepEqual(rows, [[
      '#7 (pull/7/head)', CANDIDATE.slice(0, 12), 'https://github.com/acme/server.git', '#7', `${written.baseVersion} (merge base with main, ${BASE.slice(0, 12)})`,
      'local', 'smoke', rows[0][7], `${comparison.summary.regression} regression${comparison.summary.regression === 1 ? '' : 's'}${rows[0][8]?.replace(/^\d+ regressions?/, '')}`,
    ]]);
    assert.ok(comparison.summary.regression > 0, 'the candidate (10.11.19\'s throttled server) regressed');
    assert.equal(await page.getAttribute('#refs-table tbody th a', 'href'), refRunPagePath(comparison));
    assert.equal(await page.getAttribute('nav a[data-nav="refs"]', 'aria-current'), 'page');
  });

  it('the ref run\'s page, at the address a check run links to, says what was compared and every verdict', async () => {
    await open(refRunPagePath(comparison));
    assert.match(await page.textContent('h1') ?? '', new RegExp(`^MariaDB #7 \\(pull/7/head\\) at ${CANDIDATE.slice(0, 12)}$`));
    const facts = await page.$$eval('#ref-facts dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
    assert.equal(facts.Commit, CANDIDATE);
    assert.equal(facts['Pull request'], '#7');
    assert.equal(facts.Version, written.candidateVersion);
    assert.equal(facts.Base, `${written.baseVersion} (merge base with main, ${BASE.slice(0, 12)})`);
    const verdicts = await page.$$eval('#ref-tests tbody tr', (trs) => trs.map((tr) => ({ test: /** @type {HTMLElement} */ (tr).dataset.test, metric: /** @type {HTMLElement} */ (tr).dataset.metric, verdict: tr.querySelector('[data-verdict]')?.getAttribute('data-verdict') })));
    assert.equal(verdicts.length, comparison.tests.length);
    for (const t of comparison.tests) assert.ok(verdicts.some((v) => v.test === t.test && v.metric === t.metric && v.verdict === t.verdict), `${t.test} ${t.metric} ${t.verdict}`);
    assert.equal(verdicts[0].verdict, 'regression', 'worst first');
    const records = await page.$$eval('#ref-records tbody tr', (trs) => trs.map((tr) => tr.children[1].textContent));
    assert.deepEqual(records.sort(), ['base', 'base', 'candidate', 'candidate']);
    // The downloads are the store's files.
    const href = /** @type {string} */ (await page.getAttribute('#ref-summary a', 'href'));
    const res = await page.request.get(site.url + href);
    assert.equal(res.status(), 200);
    assert.deepEqual((await res.json()).ref, comparison.ref);
    assert.deepEqual(problems, [], 'no console error');
  });

  it('with --records-url the ref runs\' downloads are the results branch\'s refs/ files', () => {
    const link = /** @type {(t: string) => string} */ (storeLinker('https://github.com/acme/results/blob/bench-data'));
    const path = dataPaths.refComparison({ host: 'local', product: 'mariadb', version: written.candidateVersion, suite: 'smoke', id: comparison.id });
    assert.equal(link(JSON.stringify({ download: path })), JSON.stringify({ download: `https://github.com/acme/results/blob/bench-data/refs/verdicts/local/mariadb/${written.candidateVersion}/smoke/${comparison.id}.json` }));
  });

  it('the line\'s pages and tables hold the releases alone', async () => {
    const table = JSON.parse(await readFile(join(out, dataPaths.table({ product: 'mariadb', line: '10.11', host: 'local', suite: 'smoke' })), 'utf8'));
    assert.deepEqual(table.releases.map((/** @type {any} */ r) => r.version), ['10.11.18', '10.11.19']);
    const manifest = await readFile(join(out, dataPaths.manifest()), 'utf8');
    assert.ok(!manifest.includes(written.candidateVersion) && !manifest.includes(CANDIDATE), 'the home page\'s data knows no ref run');
    await open('line.html?product=mariadb&line=10.11&host=local&suite=smoke');
    assert.deepEqual([...new Set(await page.$$eval('#line-table td[data-version]', (tds) => tds.map((td) => /** @type {HTMLElement} */ (td).dataset.version)))], ['10.11.18', '10.11.19']);
  });
});
