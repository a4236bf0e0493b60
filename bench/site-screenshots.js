#!/usr/bin/env node
/**
 * The README's pictures of what a reader sees: build the site from a results store of real runs
 * (the demo's: `npm run demo` leaves it in results/), open a release's page in headless Chromium
 * at 1400 and at 800 px wide, and write the first screen of each to docs/images/. Prints the
 * files written; asserts nothing (the browser tests check the pages).
 *
 * Usage: node bench/site-screenshots.js --store results --version 10.11.19
 *          [--product mariadb] [--host local] [--suite demo] [--out docs/images]
 */
import { parseArgs } from 'node:util';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSite } from '../scripts/site-build/build-site.js';
import { serveSite } from '../scripts/site-build/serve-site.js';
import { launchBrowser, openPage, gotoReady } from '../test/support/browser.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'results' },
    version: { type: 'string' },
    product: { type: 'string', default: 'mariadb' },
    host: { type: 'string', default: 'local' },
    suite: { type: 'string', default: 'demo' },
    out: { type: 'string', default: 'docs/images' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help || !args.version) {
  process.stdout.write('Usage: node bench/site-screenshots.js --store results --version 10.11.19 [--product mariadb] [--host local] [--suite demo] [--out docs/images]\n');
  process.exit(args.help ? 0 : 2);
}
const dir = await mkdtemp(join(tmpdir(), 'tagbench-screenshots-'));
const out = resolve(args.out);
await mkdir(out, { recursive: true });
const browser = await launchBrowser();
/** @type {{close: () => Promise<void>}|null} */
let server = null;
try {
  await buildSite({ store: resolve(args.store), out: join(dir, 'site'), progress: () => {} });
  server = await serveSite(join(dir, 'site'));
  const { page, problems } = await openPage(browser.context);
  const url = `${/** @type {any} */ (server).url}release.html?product=${args.product}&version=${args.version}&host=${args.host}&suite=${args.suite}`;
  for (const width of [1400, 800]) {
    await page.setViewportSize({ width, height: 1100 });
    const state = await gotoReady(page, url);
    if (state !== 'true') throw new Error(`${url} did not render: ${await page.textContent('main')}`);
    const file = join(out, `release-${width}.png`);
    await page.screenshot({ path: file, fullPage: false });
    process.stdout.write(`${file}\n`);
  }
  if (problems.length > 0) process.stderr.write(`page problems:\n${problems.join('\n')}\n`);
} finally {
  await server?.close();
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
