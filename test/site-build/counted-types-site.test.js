/**
 * LinkBench per operation type on the site's test page (issue 35): compare keeps, beside a
 * counted request phase's one verdict, each operation type counted alone with its ratio
 * (scripts/compare/counted-types.js); the test page shows them in a table, each type "not judged"
 * with compare's why, and each ratio the same string the Markdown report prints.
 *
 * The store: test/fixtures/compare/linkbench-types, a real counted LinkBench run of MariaDB
 * 10.11.18 and 10.11.19 side by side on this host (2026-11-28 19:14 UTC, `run --suite
 * sequences-counted --only linkbench.request.1 --meter instructions`, 3 rounds, 200 requests of
 * each type alone after the mixed phase), written through the store and compared by compareRuns
 * as `tagbench compare` would have at 19:30.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeComparison, writeRecord } from '../../scripts/store/index.js';
import { compareRuns, renderComparison, resolveThresholds, COUNTED_TYPES_NOT_JUDGED } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { dataPaths } from '../../site/js/paths.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';
import { PROJECT_ROOT } from './fixture-store.js';

const FIXTURES = new URL('../fixtures/compare/linkbench-types/', import.meta.url);
const TEST = { host: 'local', product: 'mariadb', line: '10.11', suite: 'sequences-counted', test: 'linkbench.request.1' };

/** @type {string} */
let tmp;
/** @type {string} */
let out;
/** @type {import('../../scripts/compare/index.js').FullComparison} */
let comparison;
/** @type {{url: string, close: () => Promise<void>}} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-counted-types-'));
  const store = join(tmp, 'store');
  /** @type {import('../../scripts/types.js').RunRecord[]} */
  const records = await Promise.all((await readdir(FIXTURES)).map(async (f) => JSON.parse(await readFile(new URL(f, FIXTURES), 'utf8'))));
  for (const r of records) await writeRecord(store, r);
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  const config = await loadConfig(PROJECT_ROOT);
  comparison = /** @type {any} */ (compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds: resolveThresholds(config.thresholds), createdAt: '2026-11-28T19:30:00Z' }));
  await writeComparison(store, comparison);
  out = join(tmp, 'site');
  await buildSite({ store, out, baselines: join(tmp, 'no-baselines'), configRoot: PROJECT_ROOT, now: new Date('2026-11-28T20:00:00Z') });
  server = await serveSite(out, { port: 0 });
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test('the test page\'s data carries the comparison\'s types of the request phase, each with why it is not judged', async () => {
  const [entry] = comparison.countedTypes ?? [];
  assert.equal(entry?.test, TEST.test, 'the real run has types for its request phase');
  assert.equal(entry.types.length, 10);
  const data = JSON.parse(await readFile(join(out, dataPaths.test(TEST)), 'utf8'));
  const newest = data.releases.at(-1);
  assert.equal(newest.version, '10.11.19');
  assert.deepEqual(newest.countedTypes, [{ ...entry, notJudged: COUNTED_TYPES_NOT_JUDGED }]);
  // The base release has no comparison of its own: no types.
  assert.equal(data.releases[0].countedTypes, null);
});

test('the test page shows a row per type: base, candidate, rounds, the report\'s ratio and interval, "not judged" and why', async () => {
  assert.equal(await gotoReady(page, `${server.url}test.html?${new URLSearchParams(TEST)}`), 'true', await page.textContent('main') ?? '');
  const rows = await page.$$eval('#counted-types-instructions tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
  const [entry] = comparison.countedTypes ?? [];
  assert.deepEqual(rows.map((r) => r[0]), entry.types.map((t) => t.type), 'in the order they were counted');
  // One ratio: each type's ratio and interval are the strings the Markdown report prints. Counts
  // per operation keep the site's one decimal (the report rounds them whole).
  const md = renderComparison(comparison, { format: 'markdown' });
  const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  for (const [i, r] of rows.entries()) {
    const t = entry.types[i];
    const line = md.split('\n').find((l) => l.startsWith(`| ${r[0]} |`));
    assert.ok(line, `the report has a row for ${r[0]}`);
    const [, , , rounds, ratio, interval] = line.replace(/ \|$/, '').split(' | ');
    assert.deepEqual([r[1], r[2], r[3]], [count.format(/** @type {number} */ (t.base)), count.format(/** @type {number} */ (t.candidate)), rounds], `${r[0]}: base, candidate, rounds`);
    assert.equal(r[4], `${ratio} [${interval.split('–').join(', ')}]`, `${r[0]}: the report's ratio and interval`);
    assert.equal(r[5], `not judged: ${COUNTED_TYPES_NOT_JUDGED.replace(/^not gated: /, '')}`);
  }
  assert.deepEqual(problems, []);
});
