/**
 * The release page lists context verdicts apart from the gated ones (issue 35): where a counted
 * verdict of a test decided the question its timed CPU µs per operation answers, compare keeps the
 * timed one as context, outside the family and never an issue (scripts/compare/context-verdicts.js);
 * the page listed it under "Other gated metrics" all the same. Now they have their own heading
 * that says what they are. On the real store of the demo run on this host
 * (test/fixtures/site-build/issue35-demo: 18 context verdicts, and qr500's CPU µs per op still
 * gated, its test not counted), in the built data and in headless Chromium.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readComparisons } from '../../scripts/store/index.js';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { dataPaths } from '../../site/js/paths.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';
import { PROJECT_ROOT } from './fixture-store.js';

const STORE = fileURLToPath(new URL('../fixtures/site-build/issue35-demo/', import.meta.url));
const RELEASE = { host: 'local', product: 'mariadb', version: '10.11.19', suite: 'demo' };

/** @type {string} */
let tmp;
/** @type {string} */
let out;
/** @type {{test: string, metric: string, context?: boolean}[]} */
let verdicts;
/** @type {{url: string, close: () => Promise<void>}} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-context-'));
  out = join(tmp, 'site');
  await buildSite({ store: STORE, out, baselines: join(tmp, 'no-baselines'), configRoot: PROJECT_ROOT, now: new Date('2026-11-28T21:00:00Z') });
  const [stored] = await readComparisons(STORE, { hostClass: 'local', product: 'mariadb', suite: 'demo' });
  verdicts = stored.tests;
  server = await serveSite(out, { port: 0 });
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** @param {{test: string, metric: string}} v */
const key = (v) => `${v.test}|${v.metric}`;

test('the release data marks the context verdicts, and only them', async () => {
  const release = JSON.parse(await readFile(join(out, dataPaths.release(RELEASE)), 'utf8'));
  const marked = release.tests.flatMap((/** @type {any} */ t) => t.otherVerdicts.filter((/** @type {any} */ v) => v.context).map(key));
  const context = verdicts.filter((v) => v.context).map(key);
  assert.equal(context.length, 18, 'the demo\'s comparison: every counted test\'s CPU µs per op is context');
  assert.deepEqual(marked.sort(), [...context].sort());
});

test('the page lists them under "Context: the counted verdict answers this question", none under "Other gated metrics"', async () => {
  assert.equal(await gotoReady(page, `${server.url}release.html?${new URLSearchParams(RELEASE)}`), 'true', await page.textContent('main') ?? '');
  assert.equal(await page.textContent('#context-verdicts h2'), 'Context: the counted verdict answers this question');
  const listed = await page.$$eval('#release-context-verdicts tbody tr', (trs) => trs.map((tr) => `${tr.getAttribute('data-test')}|${tr.getAttribute('data-metric')}`));
  assert.deepEqual(listed.sort(), verdicts.filter((v) => v.context).map(key).sort());
  // Each row says why it is not gated, in compare's words.
  const why = await page.$$eval('#release-context-verdicts tbody tr td:last-child', (tds) => tds.map((td) => td.textContent ?? ''));
  for (const text of why) assert.match(text, /^context: this test's CPU cost per operation is decided by its counted .*; the timed .* is shown, not gated/);
  assert.equal(await page.textContent('#other-gated h2'), 'Other gated metrics');
  const gated = await page.$$eval('#release-other-verdicts td[data-metric]', (tds) => tds.map((td) => `${td.closest('tr')?.getAttribute('data-test')}|${td.getAttribute('data-metric')}`));
  for (const v of verdicts.filter((x) => x.context)) assert.ok(!gated.includes(key(v)), `${key(v)} is not listed as gated`);
  // A timed CPU µs per op no counted verdict answered stays gated (qr500 is not counted).
  assert.ok(gated.includes('qr500|cpuUsPerOp'), 'qr500\'s CPU µs per op is still a gated verdict');
  assert.deepEqual(problems, []);
});
