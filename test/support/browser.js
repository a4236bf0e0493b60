/**
 * Headless Chromium for the site's browser tests and bench/site-scale.js: Debian's chromium
 * (setup/site.sh) driven by playwright-core, with a fresh profile per launch and no network
 * chatter. Every page opened through openPage() records console errors and failed requests;
 * unlabelledAxes() lists the axes of a page's charts that a reader could not read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.TAGBENCH_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * @returns {Promise<{context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 */
export async function launchBrowser() {
  const profile = await mkdtemp(join(tmpdir(), 'tagbench-site-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1366, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      // Chromium may still be flushing its profile right after close: retry the removal.
      await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/**
 * A new page that collects console errors, page errors and failed requests.
 * @param {import('playwright-core').BrowserContext} context
 * @returns {Promise<{page: import('playwright-core').Page, problems: string[]}>}
 */
export async function openPage(context) {
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  return { page, problems };
}

/**
 * Go to a URL and wait until the page says it is rendered (body[data-ready]).
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @returns {Promise<string>} 'true' or 'error'
 */
export async function gotoReady(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30_000 });
  // A chart page preloads ECharts even when its view draws no chart, and can say it is ready
  // before that preload has arrived; the next goto then aborts it (net::ERR_ABORTED, seen on a
  // loaded host). Preloads delay the load event: wait for it too.
  await page.waitForLoadState('load', { timeout: 30_000 });
  return /** @type {string} */ (await page.getAttribute('body', 'data-ready'));
}

/**
 * The axes a reader cannot read, on every chart of the page that draws data points: a value axis
 * needs a name (what the numbers are) and its numbers; a category axis its labels (the
 * categories name themselves). A chart with no point (a note instead) has no axis to read.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>} `<chart>: <axis> ...`, one per unreadable axis
 */
export function unlabelledAxes(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-chart]')].flatMap((el) => {
    const option = /** @type {any} */ (window).echarts?.getInstanceByDom(el)?.getOption();
    const points = (option?.series ?? []).some((/** @type {any} */ s) => (s.data ?? []).some((/** @type {any} */ d) => d !== null && d !== undefined));
    if (!points) return [];
    const chart = /** @type {HTMLElement} */ (el).dataset.chart;
    return /** @type {const} */ (['xAxis', 'yAxis']).flatMap((dim) => (option[dim] ?? []).flatMap((/** @type {any} */ axis, /** @type {number} */ i) => {
      const what = `${chart}: ${dim}[${i}]`;
      if (axis.show === false) return [`${what} hidden`];
      if (axis.axisLabel?.show === false) return [`${what} without labels`];
      return axis.type === 'value' && !axis.name ? [`${what} without a name`] : [];
    }));
  }));
}

/**
 * Serve a built site and open a page on it in a fresh Chromium: what a site test needs before
 * its first `it`, and closes after its last.
 * @param {string} siteDir the built site
 * @returns {Promise<{url: string, page: import('playwright-core').Page, problems: string[], close: () => Promise<void>}>}
 */
export async function openSite(siteDir) {
  const { serveSite } = await import('../../scripts/site-build/serve-site.js');
  const server = await serveSite(siteDir, { port: 0 });
  const browser = await launchBrowser();
  const { page, problems } = await openPage(browser.context);
  return { url: server.url, page, problems, close: async () => { await browser.close(); await server.close(); } };
}
