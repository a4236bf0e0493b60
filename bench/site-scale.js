#!/usr/bin/env node
/**
 * How the site scales with history: generate a store of 200 releases × 40 tests × 5 host
 * classes (schema-valid records through the store stage, verdicts by the compare stage's
 * compareRuns), time `buildSite`, then time the first render of the main pages in headless
 * Chromium. Prints figures; asserts nothing (speed is measured here, never in tests).
 *
 * Usage: node bench/site-scale.js [--releases 200] [--tests 40] [--hosts 5] [--seconds 20] [--keep DIR]
 *   --seconds: per-second samples per repeat (real smoke runs have a few, server runs 600+)
 */
import { parseArgs } from 'node:util';
import { mkdtemp, rm, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHistory } from '../test/support/generate-history.js';
import { spawn } from 'node:child_process';
import { serveSite } from '../scripts/site-build/serve-site.js';
import { writeRecord, writeComparison } from '../scripts/store/index.js';
import { compareRuns, resolveThresholds } from '../scripts/compare/index.js';
import { loadConfig } from '../scripts/config/index.js';
import { launchBrowser, openPage } from '../test/support/browser.js';

const { values: args } = parseArgs({
  options: {
    releases: { type: 'string', default: '200' },
    tests: { type: 'string', default: '40' },
    hosts: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '20' },
    keep: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  process.stdout.write('Usage: node bench/site-scale.js [--releases 200] [--tests 40] [--hosts 5] [--seconds 20] [--keep DIR]\n' +
    '  --seconds: per-second samples per repeat; --keep: keep the store and site in DIR\n');
  process.exit(0);
}
const releases = Number(args.releases);
const hostCount = Number(args.hosts);
const root = new URL('../', import.meta.url).pathname;
const dir = args.keep ?? await mkdtemp(join(tmpdir(), 'tagbench-site-scale-'));
/** @param {string} msg */
const log = (msg) => process.stderr.write(`${msg}\n`);

const versions = Array.from({ length: releases }, (_, i) => `10.${11 + Math.floor(i / 100)}.${i % 100}`);
const hosts = Array.from({ length: hostCount }, (_, i) => `host-${String.fromCharCode(97 + i)}`);
const thresholds = resolveThresholds(/** @type {any} */ ((await loadConfig(root)).thresholds));
const store = join(dir, 'store');

const g0 = performance.now();
let recordCount = 0;
let comparisonCount = 0;
// One host class at a time keeps memory flat: each host's records are written and dropped.
for (const [i, host] of hosts.entries()) {
  const { records, comparisons } = generateHistory({
    lines: [{ product: 'mariadb', line: '10.11', versions }],
    hosts: [host], tests: Number(args.tests), repeats: 3, intervalsS: Number(args.seconds), seed: i + 1,
    changes: [{ version: versions[Math.floor(releases / 2)], test: 'update-index', factor: 0.85 }],
  }, { compare: (input) => compareRuns({ ...input, thresholds }) });
  for (const r of records) await writeRecord(store, r);
  for (const c of comparisons) await writeComparison(store, c);
  recordCount += records.length;
  comparisonCount += comparisons.length;
  log(`generated host ${i + 1}/${hosts.length}: ${records.length} records, ${comparisons.length} comparisons (${((performance.now() - g0) / 1000).toFixed(0)} s)`);
}
const storeBytes = await du(store);

const out = join(dir, 'site');
// The build runs in a child process of its own, so its peak memory is its own (not the
// generator's).
const b0 = performance.now();
const built = await buildInChild({ store, out, baselines: join(dir, 'no-baselines'), configRoot: root });
const buildMs = performance.now() - b0;
const siteBytes = await du(out);
const rss = built.maxRssKb * 1024;

const server = await serveSite(out, { port: 0 });
const browser = await launchBrowser();
const lineQ = `product=mariadb&line=10.11&host=${hosts[0]}&suite=smoke`;
const pages = [
  ['home', 'index.html'],
  ['product line (newest 30 columns)', `line.html?${lineQ}`],
  [`product line (all ${releases} columns)`, `line.html?${lineQ}&show=all`],
  ['release', `release.html?product=mariadb&version=${versions.at(-1)}&host=${hosts[0]}&suite=smoke`],
  ['test', `test.html?${lineQ}&test=update-index`],
];
/** @type {{name: string, firstMs: number, warmMs: number, kb: number, requests: number}[]} */
const renders = [];
for (const [name, path] of pages) {
  const times = [];
  let kb = 0;
  let requests = 0;
  for (let run = 0; run < 3; run++) {
    const { page, problems } = await openPage(browser.context);
    let bytes = 0;
    let count = 0;
    page.on('response', async (res) => { count++; bytes += Number((await res.allHeaders())['content-length'] ?? 0); });
    const t0 = performance.now();
    await page.goto(server.url + path);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    times.push(performance.now() - t0);
    if (run === 0) { kb = bytes / 1024; requests = count; }
    if (problems.length) log(`${name}: ${problems.join('; ')}`);
    await page.close();
  }
  renders.push({ name, firstMs: times[0], warmMs: Math.min(...times.slice(1)), kb, requests });
}
await browser.close();
await server.close();

const mb = (/** @type {number} */ b) => (b / 2 ** 20).toFixed(1);
console.log(`# site scale: ${releases} releases x ${args.tests} tests x ${hostCount} host classes, ${args.seconds} per-second samples per repeat`);
console.log(`store: ${recordCount} run records, ${comparisonCount} comparisons, ${mb(storeBytes)} MiB (generated in ${((b0 - g0) / 1000).toFixed(0)} s)`);
console.log(`build: ${(buildMs / 1000).toFixed(1)} s (read+validate ${(built.timings.readMs / 1000).toFixed(1)} s, compute ${(built.timings.computeMs / 1000).toFixed(1)} s, write ${(built.timings.writeMs / 1000).toFixed(1)} s); ${built.files} files, ${mb(siteBytes)} MiB; builder peak RSS ${mb(rss)} MiB`);
console.log('first render in headless Chromium (navigation to rendered page incl. charts; first load, then best of 2 reloads):');
for (const r of renders) console.log(`  ${r.name.padEnd(36)} ${r.firstMs.toFixed(0).padStart(6)} ms  warm ${r.warmMs.toFixed(0).padStart(6)} ms  ${r.requests} requests, ${r.kb.toFixed(0)} KiB`);
if (!args.keep) await rm(dir, { recursive: true, force: true });

/**
 * Run buildSite in a child Node process and report its result and peak RSS.
 * @param {import('../scripts/site-build/build-site.js').BuildOptions} opts
 * @returns {Promise<import('../scripts/site-build/build-site.js').BuildResult & {maxRssKb: number}>}
 */
function buildInChild(opts) {
  const code = `import { buildSite } from ${JSON.stringify(new URL('../scripts/site-build/build-site.js', import.meta.url).href)};
const res = await buildSite({ ...${JSON.stringify(opts)}, progress: (m) => process.stderr.write(m + '\\n') });
process.stdout.write(JSON.stringify({ ...res, maxRssKb: process.resourceUsage().maxRSS }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => { text += d; });
    child.on('close', (status) => (status === 0 ? resolve(JSON.parse(text)) : reject(new Error(`build exited ${status}`))));
  });
}

/**
 * Bytes of all files under a folder.
 * @param {string} path
 * @returns {Promise<number>}
 */
async function du(path) {
  let total = 0;
  for (const e of await readdir(path, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += (await stat(join(e.parentPath ?? /** @type {any} */ (e).path, e.name))).size;
  }
  return total;
}
