/**
 * The Hosts page shows how far a host class's verdicts can be trusted: its calibration figures
 * from bench/calibration-<host>.json of the project (a committed copy of this repository's own
 * report for local, as `tagbench calibrate` measured it on this VM; the live file keeps
 * changing), and the false alarms engineers found in service from a noise summary that triage's
 * own counting produced and the store's writer checked. Checked in headless Chromium against
 * the report's raw numbers; small-server has no report and must say so.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, mkdir, readFile, copyFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { writeNoiseSummary } from '../../scripts/store/index.js';
import { summarise } from '../../scripts/github/triage.js';
import { dataPaths } from '../../site/js/paths.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';
import { PROJECT_ROOT } from './fixture-store.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/site/', import.meta.url));
const CALIBRATION = new URL('../fixtures/store/calibration-local.json', import.meta.url);
const key = { product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'local', suite: 'smoke', adHoc: null };
/** Triaged issues as triageIssues returns them: two noise on local, one on small-server, one confirmed bug. */
const TRIAGED = /** @type {any[]} */ ([
  { number: 11, url: 'https://github.example/acme/bench/issues/11', state: 'closed', key, tests: ['point-query:throughput', 'update-index:throughput'], answer: 'noise', source: 'label', problem: null, action: 'acknowledged' },
  { number: 12, url: 'https://github.example/acme/bench/issues/12', state: 'closed', key: { ...key, version: '10.11.20' }, tests: ['point-query:latencyP95Ms', 'point-query:throughput'], answer: 'noise', source: 'comment', problem: null, action: 'acknowledged' },
  { number: 13, url: 'https://github.example/acme/bench/issues/13', state: 'closed', key: { ...key, hostClass: 'small-server' }, tests: ['read-only:latencyP95Ms'], answer: 'noise', source: 'label', problem: null, action: 'acknowledged' },
  { number: 14, url: 'https://github.example/acme/bench/issues/14', state: 'open', key: { ...key, version: '10.11.21' }, tests: ['update-index:throughput'], answer: 'confirmed-bug', source: 'label', problem: null, action: 'acknowledged' },
]);

/** @param {number} share @returns {string} how the page prints a share */
const pct = (share) => `${Number((share * 100).toFixed(1))} %`;

/** @type {string} */
let tmp;
/** @type {string} */
let out;
/** @type {any} */
let raw;
/** @type {{url: string, close: () => Promise<void>}} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;
/** @type {string} */
let noiseFile;

/** @param {string} path */
async function open(path) {
  const state = await gotoReady(page, `${server.url}${path}`);
  assert.equal(state, 'true', `${path} did not render: ${await page.textContent('main')}`);
}

/** @param {string} selector rows of a table @returns {Promise<string[][]>} cell texts */
function rows(selector) {
  return page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-calibration-'));
  raw = JSON.parse(await readFile(CALIBRATION, 'utf8'));
  // A project folder: the real configs/, and bench/ holding only local's calibration report.
  const project = join(tmp, 'project');
  await mkdir(join(project, 'bench'), { recursive: true });
  await symlink(join(PROJECT_ROOT, 'configs'), join(project, 'configs'));
  await copyFile(CALIBRATION, join(project, 'bench', 'calibration-local.json'));
  noiseFile = join(tmp, 'noise-summary.json');
  await writeNoiseSummary(noiseFile, summarise(TRIAGED, 'acme/bench', new Date('2026-11-22T10:00:00Z')));
  out = join(tmp, 'site');
  await buildSite({ store: join(tmp, 'store'), out, baselines: join(tmp, 'baselines'), configRoot: project, noiseSummary: noiseFile, now: new Date('2026-11-22T12:00:00Z') });
  server = await serveSite(out, { port: 0 });
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser.context));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('site: calibration and false alarms on the Hosts page', () => {
  it('writes the calibration figures of the report and the host class\'s false alarms into its data', async () => {
    const local = JSON.parse(await readFile(join(out, dataPaths.host('local')), 'utf8'));
    assert.deepEqual(local.calibration.falseIssues, { runs: raw.falseIssues.runs, withIssue: raw.falseIssues.runsWithFalseIssue, upper95: raw.falseIssues.upper95 });
    assert.deepEqual(local.calibration.detection.map((/** @type {any} */ d) => [d.slowdown, d.trials, d.detected, d.interval]),
      raw.slowdowns.map((/** @type {number} */ s) => [s, raw.detection[String(s)].trials, raw.detection[String(s)].detected, raw.detection[String(s)].interval]));
    assert.deepEqual(local.falseAlarms.metrics, [{ metric: 'latencyP95Ms', noise: 1 }, { metric: 'throughput', noise: 2 }]);
    assert.deepEqual(local.falseAlarms.list.map((/** @type {any} */ n) => n.number), [11, 12], 'the confirmed bug and small-server\'s issue are not local\'s false alarms');
    const small = JSON.parse(await readFile(join(out, dataPaths.host('small-server')), 'utf8'));
    assert.equal(small.calibration, null);
    assert.equal(small.falseAlarms.issues, 1);
  });

  it('shows local\'s false issues per run with the bound, detection per slowdown with its interval, and the MDE per test', async () => {
    await open('host.html?host=local');
    assert.deepEqual(await rows('#calibration-false-issues'),
      [[String(raw.falseIssues.runs), String(raw.falseIssues.runsWithFalseIssue), pct(raw.falseIssues.upper95)]]);
    assert.deepEqual(await rows('#calibration-detection'), raw.slowdowns.map((/** @type {number} */ s) => {
      const d = raw.detection[String(s)];
      return [pct(s), String(d.trials), String(d.detected), String(d.flagged), pct(d.detected / d.trials), `${pct(d.interval[0])} – ${pct(d.interval[1])}`];
    }));
    assert.deepEqual(await rows('#calibration-mde'),
      Object.keys(raw.mdeByTest).sort().map((t) => [t, pct(raw.mdeByTest[t].drop), pct(raw.mdeByTest[t].rise)]));
    assert.deepEqual(await rows('#false-alarm-metrics'), [['latencyP95Ms', '1'], ['throughput', '2']]);
    assert.deepEqual(await page.$$eval('#false-alarm-issues a', (as) => as.map((a) => a.getAttribute('href'))),
      ['https://github.example/acme/bench/issues/11', 'https://github.example/acme/bench/issues/12']);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'host-calibration.png'), fullPage: true });
  });

  it('says so for a host class without a calibration report', async () => {
    await open('host.html?host=small-server');
    assert.match(await page.textContent('#calibration-none') ?? '', /No calibration report for small-server: tagbench calibrate --host-class small-server/);
    assert.equal(await page.$('#calibration-false-issues'), null);
    assert.deepEqual(await rows('#false-alarm-metrics'), [['latencyP95Ms', '1']]);
  });

  it('lists each host class\'s calibration and false alarms, and the noise summary per metric', async () => {
    await open('host.html');
    const hosts = Object.fromEntries((await rows('#hosts')).map((r) => [r[0], r.slice(5)]));
    assert.deepEqual(hosts.local, [String(raw.falseIssues.runs), `${raw.falseIssues.runsWithFalseIssue} of ${raw.falseIssues.runs} (≤ ${pct(raw.falseIssues.upper95)})`, '2']);
    assert.deepEqual(hosts['small-server'], ['—', '—', '1']);
    // issues 11, 12, 14 list throughput (11, 12 noise, 14 a bug); 12 and 13 list latencyP95Ms, both noise.
    assert.deepEqual(await rows('#noise-metrics'), [['latencyP95Ms', '2', '2', '0', '0', '0'], ['throughput', '3', '2', '1', '0', '0']]);
    await page.screenshot({ path: join(ARTIFACTS, 'hosts-calibration.png'), fullPage: true });
  });

  it('no console errors, page errors or failed requests', () => {
    assert.deepEqual(problems, []);
  });
});

describe('tagbench site --noise-summary', () => {
  it('refuses a noise summary it cannot read, naming the file', async () => {
    const cli = new URL('../../scripts/cli.js', import.meta.url).pathname;
    const missing = join(tmp, 'no-such-summary.json');
    const run = promisify(execFile)(process.execPath, [cli, 'site', '--store', join(tmp, 'store'), '--out', join(tmp, 'cli-site'), '--noise-summary', missing]);
    await assert.rejects(run, (/** @type {any} */ err) => err.code === 1 && err.stderr.includes(`noise summary ${missing}: cannot read`));
  });
});
