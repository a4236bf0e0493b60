/**
 * Which calibration the site cites, and where (issue 35, Build 3): the host page names,
 * per meter, the calibration a run of the host would cite and why it passes over the others; the
 * release page and home cite it in the "how sure" sentence of a comparison that matches it, and
 * only then. Built from a real store and the repository's own bench/calibrations, checked in the
 * built data and in headless Chromium.
 *
 * The store is test/fixtures/compare/time-and-work: a real `tagbench run` of MariaDB 10.11.18 and
 * 10.11.19 on this AMD EPYC host (2 cores; 2026-11-28 12:51 UTC, suite smoke, the wall and
 * instructions meters, 3 rounds paired) and the comparison compare stored at 13:02. The
 * calibration is bench/calibrations/local/wall-demo-20261128T212050Z.json: the quiet wall
 * calibration with the preload injection on the demo's design (3 rounds paired), measured on this
 * host that evening from 21:20. The other calibrations of local were measured on an Intel Xeon.
 *
 * The facts, chosen knowingly:
 * - The site is built as on the day after (2026-11-29 12:00 UTC). A run made then, on the machine
 *   of the host's newest run (AMD EPYC, 2 cores) with the design of its newest comparison (3
 *   rounds paired), cites the preload calibration for throughput and passes over the Xeon ones.
 * - The stored comparison was made at 13:02, before the calibration: its sentence must not cite
 *   it ("measured after this run"); select-calibration dates a run by its comparison.
 * - The same records compared again as `tagbench compare` would on that day (compareRuns with
 *   that createdAt): a comparison made after the calibration, carrying the host facts of its
 *   records, so its sentence cites it. The runs themselves are older than the calibration; the
 *   rule compares the comparison's date, not the runs', and this test takes that as it is.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCalibrations, readComparisons, readRecords, writeComparison } from '../../scripts/store/index.js';
import { compareRuns, describeHowSure, resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { dataPaths } from '../../site/js/paths.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';
import { PROJECT_ROOT } from './fixture-store.js';

const STORE = fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url));
const DAY_AFTER = '2026-11-29T12:00:00.000Z';
const PRELOAD = 'bench/calibration-preload-local.json';
const RELEASE = { host: 'local', product: 'mariadb', version: '10.11.19', suite: 'smoke' };

/** @type {string} */
let tmp;
/** @type {{stored: string, recompared: string}} the two sites */
const sites = { stored: '', recompared: '' };
/** @type {import('../../scripts/types.js').Calibration[]} */
let calibrations;
/** @type {import('../../scripts/compare/index.js').FullComparison} */
let recompared;
/** @type {{url: string, close: () => Promise<void>}[]} */
const servers = [];
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-citing-'));
  calibrations = await readCalibrations(join(PROJECT_ROOT, 'bench'), 'local');
  sites.stored = join(tmp, 'site-stored');
  await buildSite({ store: STORE, out: sites.stored, baselines: join(tmp, 'no-baselines'), configRoot: PROJECT_ROOT, now: new Date(DAY_AFTER) });
  const store = join(tmp, 'store');
  await cp(join(STORE, 'runs'), join(store, 'runs'), { recursive: true });
  const records = await readRecords(store, { hostClass: 'local', product: 'mariadb', suite: 'smoke' });
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  const config = await loadConfig(PROJECT_ROOT);
  recompared = /** @type {any} */ (compareRuns({ base: side('10.11.18'), candidate: side('10.11.19'), thresholds: resolveThresholds(config.thresholds), createdAt: DAY_AFTER }));
  await writeComparison(store, recompared);
  sites.recompared = join(tmp, 'site-recompared');
  await buildSite({ store, out: sites.recompared, baselines: join(tmp, 'no-baselines'), configRoot: PROJECT_ROOT, now: new Date(DAY_AFTER) });
  for (const dir of [sites.stored, sites.recompared]) servers.push(await serveSite(dir, { port: 0 }));
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context));
});

after(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** @param {string} site @param {string} path */
async function readData(site, path) {
  return JSON.parse(await readFile(join(site, path), 'utf8'));
}

/** @param {number} server index into servers @param {string} path */
async function open(server, path) {
  assert.equal(await gotoReady(page, `${servers[server].url}${path}`), 'true', `${path} did not render: ${await page.textContent('main')}`);
}

test('the repository holds the preload calibration this test is about: AMD EPYC, wall, 3 rounds paired', () => {
  const c = calibrations.find((x) => x.source === PRELOAD);
  assert.ok(c, `a stored calibration with source ${PRELOAD}`);
  assert.deepEqual([c.meter, c.metric, c.host?.cpuModel, c.host?.cores, c.design], ['wall', 'throughput', 'AMD EPYC', 2, { paired: true, instances: 3 }]);
  assert.ok(c.measuredAt > '2026-11-28T13:02:17.979Z' && c.measuredAt < DAY_AFTER, 'after the stored comparison, before the day after');
});

test('the host page\'s data: a run of local cites the preload calibration for throughput, and says why not the Xeon ones', async () => {
  const host = await readData(sites.stored, dataPaths.host('local'));
  assert.equal(host.citing.at, DAY_AFTER);
  assert.deepEqual([host.citing.run.cpuModel, host.citing.run.cores], ['AMD EPYC', 2], 'the machine of the newest run');
  const wall = host.citing.meters.find((/** @type {any} */ m) => m.metric === 'throughput');
  assert.equal(wall.meter, 'wall');
  assert.deepEqual(wall.design, { paired: true, instances: 3 }, 'the stored comparison\'s design');
  assert.equal(wall.cited?.calibration.source, PRELOAD);
  assert.equal(wall.cited.ageDays, 0);
  assert.equal(wall.cited.report, 'downloads/bench/calibration-preload-local.md');
  assert.deepEqual([...wall.passedOver].sort(), [
    '2026-11-23 (smoke): another CPU model (Intel(R) Xeon(R) Processor @ 2.50GHz, this run AMD EPYC)',
    '2026-11-23 (smoke-15s): another CPU model (Intel(R) Xeon(R) Processor @ 2.50GHz, this run AMD EPYC)',
  ].sort());
  const counted = host.citing.meters.find((/** @type {any} */ m) => m.metric === 'instructionsPerOp');
  assert.equal(counted.cited?.calibration.source, 'bench/calibration-instructions-local-epyc.json', 'the instructions calibration of this CPU');
  assert.equal(counted.passedOver.length, 2, 'the two of the Intel Xeon');
  for (const why of counted.passedOver) assert.match(why, /another CPU model \(Intel\(R\) Xeon\(R\) Processor, this run AMD EPYC\)$/);
  // The report the page links is the project's, copied whole.
  assert.equal(await readFile(join(sites.stored, wall.cited.report), 'utf8'), await readFile(join(PROJECT_ROOT, 'bench', 'calibration-preload-local.md'), 'utf8'));
});

test('the host page shows it: date, age, design, load, detection at each size, the report\'s link, and why not the others', async () => {
  await open(0, 'host.html?host=local');
  const c = /** @type {import('../../scripts/types.js').Calibration} */ (calibrations.find((x) => x.source === PRELOAD));
  const row = await page.$eval('#citing-calibrations tbody tr[data-metric="throughput"]', (tr) => ({
    cited: tr.getAttribute('data-cited'), cells: [...tr.children].map((x) => (x.textContent ?? '').trim()), href: tr.querySelector('a')?.getAttribute('href'),
  }));
  assert.equal(row.cited, PRELOAD);
  assert.equal(row.cells[0], 'wall (throughput)');
  assert.equal(row.cells[1], '3 rounds paired');
  assert.match(row.cells[2], /^2026-11-28.* \(0 days old\)$/);
  assert.equal(row.cells[3], 'mariadb 10.11.18, suite demo, 3 rounds paired');
  assert.equal(row.cells[4], String(c.load.maxOneMinute));
  const pct = (/** @type {number} */ share) => `${Number((share * 100).toFixed(1))} %`;
  assert.equal(row.cells[5], c.detection.map((d) => `${pct(d.size)}: ${d.detected} of ${d.trials} (${pct(d.detected / d.trials)})`).join('; '));
  assert.equal(row.href, 'downloads/bench/calibration-preload-local.md');
  const passed = await page.$eval('#citing-passed-over li[data-metric="instructionsPerOp"]', (li) => li.textContent ?? '');
  assert.match(passed, /^instructions \(instructionsPerOp\), not cited: .*another CPU model \(Intel\(R\) Xeon\(R\) Processor, this run AMD EPYC\)/);
  // The host class's old report (Intel, 5 unpaired instances) stays on the page, said not to be what runs cite.
  assert.match(await page.textContent('#calibration-heading') ?? '', /^The host class's calibration report$/);
  assert.match(await page.textContent('#calibration-report-not-cited') ?? '', /bench\/calibration-local\.json .*cited by a run only where it matches the run's CPU, meter and design/);
  // The link serves the report itself.
  const report = await fetch(`${servers[0].url}downloads/bench/calibration-preload-local.md`);
  assert.equal(report.status, 200);
  assert.match(await report.text(), /^# Calibration: mariadb 10\.11\.18, suite demo, host class local/);
});

test('a comparison made before the calibration does not cite it: the stored one of 13:02', async () => {
  const [stored] = await readComparisons(STORE, { hostClass: 'local', product: 'mariadb', suite: 'smoke' });
  const sentence = describeHowSure(/** @type {any} */ (stored), calibrations);
  assert.match(sentence, /^A throughput drop .*no calibration of this host class matches .*2026-11-28 \(demo\): measured after this run/);
  assert.equal((await readData(sites.stored, dataPaths.release(RELEASE))).comparison.howSure, sentence);
});

test('a comparison made after it, of a run on its CPU with its design, cites it: one sentence on the release page and home', async () => {
  assert.deepEqual(recompared.host, { cpuModel: 'AMD EPYC', cores: 2 });
  const sentence = describeHowSure(recompared, calibrations);
  assert.match(sentence, /^A throughput drop .*; the calibration of 2026-11-28 \(0 days before this run; demo, 3 rounds paired, load up to [\d.]+; bench\/calibration-preload-local\.json\) found an injected .* in \d+ of \d+ trials/);
  // The instructions meter's sentence cites the one of this CPU, not the two of the Intel Xeon.
  assert.match(sentence, /instructions per op .*the calibration of 2026-11-29 \(0 days before this run; smoke, 3 rounds paired, load up to [\d.]+; bench\/calibration-instructions-local-epyc\.json\)/);
  assert.doesNotMatch(sentence, /calibration-instructions-held/);
  const release = await readData(sites.recompared, dataPaths.release(RELEASE));
  const home = (await readData(sites.recompared, dataPaths.manifest())).tables.find((/** @type {any} */ t) => t.host === 'local' && t.suite === 'smoke');
  assert.equal(release.comparison.howSure, sentence, 'the release page');
  assert.equal(home?.latest?.comparison?.howSure, sentence, 'home');
  await open(1, `release.html?product=mariadb&version=10.11.19&host=local&suite=smoke`);
  assert.equal((await page.textContent('#how-sure'))?.startsWith(`How sure: ${sentence}`), true, 'the page prints it first, whole');
  await open(1, 'index.html');
  assert.equal((await page.textContent('#how-sure li[data-table="mariadb/10.11/local/smoke"]'))?.endsWith(`: ${sentence}`), true, 'home prints it whole');
});

test('no console errors, page errors or failed requests', () => {
  assert.deepEqual(problems, []);
});
