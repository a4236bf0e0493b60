#!/usr/bin/env node
/**
 * A results store of years: 10,000 run records of real size and shape on a results branch, and
 * what the service does with it: watch (reading the branch's index.json as watch.yml does),
 * publish of one more leg, a fresh clone of the branch, and the site build. Prints figures;
 * asserts nothing (speed is measured here, never in tests). See store-scale.md for a measured run.
 *
 * Records are made from the record and comparison of a real run (store-scale/template-*.json:
 * `npm run demo`, 2026-11-26, meters wall and instructions) reshaped to the small preset
 * (configs/suites/small.yml: its 41 steps, 34 reported, 30 s and 120 s tests, 3 repeats on 3
 * instances) with every measured number jittered, so compression sees real-looking data. Legs
 * rotate over three host classes and eight product lines; each leg stores the candidate, a rerun
 * of its line's base and the host class's reference release (3 records) and one comparison.
 *
 * Usage: node bench/store-scale.js [--records 10000] [--keep DIR] [--skip-site] [--measure-only]
 *   --measure-only: DIR (--keep) holds a store and results branch this script made with the same
 *   --records; measure again (watch, publish of a new leg, clone, site) without generating
 */
import { parseArgs } from 'node:util';
import { mkdtemp, rm, readFile, writeFile, mkdir, readdir, stat } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir, loadavg } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRecord, writeComparison, buildIndex } from '../scripts/store/index.js';
import { loadConfig } from '../scripts/config/index.js';
import { planSuite } from '../scripts/workload/index.js';
import { prng } from '../test/support/generate-history.js';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    keep: { type: 'string' },
    'skip-site': { type: 'boolean', default: false },
    'measure-only': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  process.stdout.write('Usage: node bench/store-scale.js [--records 10000] [--keep DIR] [--skip-site] [--measure-only]\n');
  process.exit(0);
}
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'scripts', 'cli.js');
const dir = args.keep ?? await mkdtemp(join(tmpdir(), 'tagbench-store-scale-'));
await mkdir(dir, { recursive: true });
/** @param {string} msg */
const log = (msg) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

const template = JSON.parse(await readFile(new URL('store-scale/template-record.json', import.meta.url), 'utf8'));
const templateComparison = JSON.parse(await readFile(new URL('store-scale/template-comparison.json', import.meta.url), 'utf8'));
const config = await loadConfig(ROOT);
const plan = planSuite(config.suites.small, { engine: 'innodb' });
const HOSTS = [['small-server', 'small'], ['medium-server', 'medium'], ['large-server', 'large']];
const LINES = [['mariadb', '10.5'], ['mariadb', '10.6'], ['mariadb', '10.11'], ['mariadb', '11.4'], ['mariadb', '11.8'], ['mysql', '8.0'], ['mysql', '8.4'], ['mysql', '9.7']];
const REFERENCE = ['mariadb', '10.11', '10.11.1'];
const rand = prng(20261127);

/**
 * Multiply every measured (non-integer) number by 1 ± 2 %, keeping its decimals; fractions
 * (at most 1) and integers (counts, indexes) stay as they are.
 * @param {any} value
 * @returns {any}
 */
function jitter(value) {
  if (Array.isArray(value)) return value.map(jitter);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jitter(v)]));
  if (typeof value !== 'number' || Number.isInteger(value) || value <= 1) return value;
  const decimals = Math.min(6, (String(value).split('.')[1] ?? '').length);
  const f = 10 ** decimals;
  return Math.max(Math.round(value * (1 + 0.04 * (rand() - 0.5)) * f) / f, 1 / f);
}

const byKind = new Map();
for (const step of template.steps) if (!byKind.has(step.kind) || (step.reported && step.meters)) byKind.set(step.kind, step);
const sysbenchSteps = template.steps.filter((/** @type {any} */ s) => s.kind === 'sysbench' && s.reported);

/**
 * One run record of the small preset, built from the template's steps.
 * @param {{id: string, hostClass: string, suite: string, product: string, line: string, version: string, startedAt: string}} o
 */
function makeRecord(o) {
  let k = 0;
  const steps = plan.map((p) => {
    const from = p.reported ? sysbenchSteps[k++ % sysbenchSteps.length] : (byKind.get(p.kind) ?? template.steps.find((/** @type {any} */ s) => !s.reported));
    const repeats = from.repeats.length === 0 ? [] : [0, 1, 2].map((i) => {
      const rep = from.repeats[i % from.repeats.length];
      const iv = rep.intervals;
      const n = p.reported && iv.length > 0 ? p.durationS : iv.length;
      return jitter({ ...rep, index: i, instance: i, intervals: Array.from({ length: n }, (_, s) => ({ ...iv[s % iv.length], t: s + 1 })) });
    });
    return { ...from, name: p.name, reported: p.reported, repeats, ...(from.meters ? { meters: jitter(from.meters) } : {}) };
  });
  return {
    ...template,
    id: o.id,
    startedAt: o.startedAt,
    finishedAt: new Date(Date.parse(o.startedAt) + 3 * 3600_000).toISOString(),
    release: { ...template.release, product: o.product, line: o.line, version: o.version, tag: `${o.product}-${o.version}` },
    host: { ...template.host, class: o.hostClass },
    config: { ...template.config, suite: o.suite },
    steps,
  };
}

/**
 * The leg's comparison: the template's, renamed to the leg, its tests repeated to the preset's
 * 34 reported tests.
 */
function makeComparison(/** @type {any} */ o) {
  const names = plan.filter((p) => p.reported).map((p) => p.name);
  const perTest = templateComparison.tests.filter((/** @type {any} */ t) => t.test === templateComparison.tests[0].test);
  return {
    ...templateComparison,
    createdAt: o.createdAt, hostClass: o.hostClass, suite: o.suite, product: o.product, line: o.line,
    base: { ...templateComparison.base, version: o.base, runIds: [o.baseId] },
    candidate: { ...templateComparison.candidate, version: o.version, runIds: [o.candidateId] },
    tests: names.flatMap((name) => perTest.map((/** @type {any} */ t) => ({ ...t, test: name }))),
  };
}

/**
 * Run a command, timing it and taking its peak memory (GNU time: the largest of the process
 * and the children it waited for).
 * @param {string} what
 * @param {string[]} cmd
 * @param {{cwd?: string}} [opts]
 */
function measure(what, cmd, opts = {}) {
  waitQuiet(what);
  const before = load();
  const t0 = performance.now();
  const res = spawnSync('/usr/bin/time', ['-f', '%M', ...cmd], { cwd: opts.cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = (performance.now() - t0) / 1000;
  if (res.status !== 0) throw new Error(`${what} failed (${res.status}): ${res.stderr.slice(-2000)}`);
  const maxRssMiB = Number(res.stderr.trim().split('\n').at(-1)) / 1024;
  const row = { what, seconds: Number(seconds.toFixed(1)), maxRssMiB: Number(maxRssMiB.toFixed(0)), loadBefore: before, loadAfter: load() };
  log(`${what}: ${row.seconds} s, peak ${row.maxRssMiB} MiB (load ${before} -> ${row.loadAfter})`);
  return { row, stdout: res.stdout, stderr: res.stderr };
}

/**
 * Wait until the 1-minute load average is at most 1.5 (the previous step's own threads, a clone's
 * or the site build's, decay out of it), so each timed step starts on a quiet machine; after
 * 5 minutes go on and say so (the load is recorded beside every figure either way).
 * @param {string} what
 */
function waitQuiet(what) {
  const until = Date.now() + 5 * 60_000;
  while (loadavg()[0] > 1.5 && Date.now() < until) spawnSync('sleep', ['5']);
  if (loadavg()[0] > 1.5) log(`${what}: the load is still ${load()} after 5 minutes; measuring anyway`);
}

/**
 * Bytes and files under a folder, its git repository left out (measured apart).
 * @param {string} path
 * @returns {Promise<{bytes: number, files: number}>}
 */
async function du(path) {
  let bytes = 0;
  let files = 0;
  for (const e of await readdir(path, { withFileTypes: true, recursive: true })) {
    const rel = relative(path, e.parentPath ?? /** @type {any} */ (e).path);
    if (!e.isFile() || rel === '.git' || rel.startsWith(`.git${sep}`)) continue;
    files++;
    bytes += (await stat(join(e.parentPath ?? /** @type {any} */ (e).path, e.name))).size;
  }
  return { bytes, files };
}
const mib = (/** @type {number} */ b) => Number((b / 2 ** 20).toFixed(1));
/** @param {string[]} a @param {string} [cwd] */
const git = (a, cwd) => {
  const r = spawnSync('git', a, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

// 1. The store: records and comparisons through the store stage, a leg at a time.
const store = join(dir, 'store');
const wanted = Number(args.records);
const legs = Math.ceil(wanted / 3);
const g0 = performance.now();
let records = 0;
let comparisons = 0;
/** @type {Map<string, number>} host/line -> next patch */
const patches = new Map();
const legOf = (/** @type {number} */ i) => {
  const [hostClass, suite] = HOSTS[i % HOSTS.length];
  const [product, line] = LINES[Math.floor(i / HOSTS.length) % LINES.length];
  const key = `${hostClass}/${line}`;
  const patch = (patches.get(key) ?? 1) + 1;
  patches.set(key, patch);
  const startedAt = new Date(Date.UTC(2023, 0, 1) + i * 4 * 3600_000).toISOString();
  return { hostClass, suite, product, line, version: `${line}.${patch}`, base: `${line}.1`, startedAt, stamp: startedAt.replace(/[-:]|\.\d+/g, '') };
};
/** @param {ReturnType<typeof legOf>} leg @param {number} i @param {string} dest */
async function writeLeg(leg, i, dest) {
  const ids = ['c', 'b', 'r'].map((x) => `${leg.stamp}-${leg.hostClass}-${leg.product}-${leg.version}-${x}${i}`);
  const made = [
    makeRecord({ ...leg, id: ids[0] }),
    makeRecord({ ...leg, id: ids[1], version: leg.base }),
    makeRecord({ ...leg, id: ids[2], product: REFERENCE[0], line: REFERENCE[1], version: REFERENCE[2] }),
  ];
  for (const r of made.slice(0, Math.min(3, wanted - records))) {
    await writeRecord(dest, /** @type {any} */ (r));
    records++;
  }
  await writeComparison(dest, /** @type {any} */ (makeComparison({ ...leg, createdAt: new Date(Date.parse(leg.startedAt) + 4 * 3600_000).toISOString(), candidateId: ids[0], baseId: ids[1] })));
  comparisons++;
}
const measureOnly = args['measure-only'];
if (measureOnly && !args.keep) throw new Error('--measure-only needs --keep DIR (the folder of an earlier run)');
for (let i = 0; i < legs; i++) {
  if (measureOnly) {
    legOf(i);
    continue;
  }
  await writeLeg(legOf(i), i, store);
  if ((i + 1) % 250 === 0 || i === legs - 1) {
    const s = (performance.now() - g0) / 1000;
    log(`generated ${records}/${wanted} records, ${comparisons} comparisons (${s.toFixed(0)} s, about ${((legs - i - 1) * s / (i + 1)).toFixed(0)} s left)`);
  }
}
const recordCount = measureOnly ? wanted : records;
if (measureOnly) comparisons = legs;
const i0 = performance.now();
if (!measureOnly) await buildIndex(store);
const indexS = (performance.now() - i0) / 1000;
const storeSize = await du(store);
log(`store: ${recordCount} records, ${comparisons} comparisons, ${storeSize.files} files, ${mib(storeSize.bytes)} MiB; index built from every file in ${indexS.toFixed(0)} s`);

// 2. The results branch in a repository that serves partial clones, as GitHub does.
const bare = join(dir, 'results.git');
let repackS = 0;
if (!measureOnly) {
const c0 = performance.now();
git(['init', '-q', '-b', 'bench-data'], store);
git(['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'add', '-A'], store);
git(['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', `${recordCount} records`], store);
git(['clone', '-q', '--bare', store, bare]);
git(['config', 'uploadpack.allowFilter', 'true'], bare);
git(['config', 'uploadpack.allowAnySHA1InWant', 'true'], bare);
log(`results branch committed in ${((performance.now() - c0) / 1000).toFixed(0)} s; packing it (deltas, as a hosted repository keeps it)`);
const p0 = performance.now();
git(['repack', '-a', '-d', '-q'], bare);
repackS = (performance.now() - p0) / 1000;
}
const packSize = await du(join(bare, 'objects'));
log(`results branch: packed ${mib(packSize.bytes)} MiB in ${repackS.toFixed(0)} s`);
const url = `file://${bare}`;

/** @type {ReturnType<typeof measure>['row'][]} */
const rows = [];
// 3. watch, as watch.yml runs it: the branch without contents, index.json alone, then watch.
const watchDir = join(dir, 'watch');
for (const d of ['watch', 'upstream', 'upstream.git', 'new-leg', 'checkout', 'site']) await rm(join(dir, d), { recursive: true, force: true });
await mkdir(watchDir);
rows.push(measure('watch.yml: clone without contents, index.json alone', ['bash', '-c', `git clone --quiet --depth 1 --single-branch --branch bench-data --filter=blob:none --no-checkout ${url} data && git -C data show HEAD:index.json > results-index.json`], { cwd: watchDir }).row);
const indexBytes = (await stat(join(watchDir, 'results-index.json'))).size;
// An upstream with every generated version tagged, and one new tag per line.
const upstream = join(dir, 'upstream.git');
git(['init', '-q', '-b', 'main', join(dir, 'upstream')]);
await writeFile(join(dir, 'upstream', 'VERSION'), 'x\n');
git(['-c', 'user.name=u', '-c', 'user.email=u@localhost', 'add', '.'], join(dir, 'upstream'));
git(['-c', 'user.name=u', '-c', 'user.email=u@localhost', 'commit', '-q', '-m', 'x'], join(dir, 'upstream'));
const maxPatch = Math.max(...patches.values()) + 1;
for (const [product, line] of LINES) for (let p = 1; p <= maxPatch; p++) git(['tag', `${product}-${line}.${p}`], join(dir, 'upstream'));
git(['clone', '-q', '--bare', join(dir, 'upstream'), upstream]);
const watch = measure('tagbench watch --index (every host class, mariadb and mysql)', ['node', CLI, 'watch', '--index', join(watchDir, 'results-index.json'), '--products', 'mariadb,mysql',
  ...HOSTS.flatMap(([h]) => ['--host-class', h]), '--remote-override', `mariadb=${upstream}`, '--remote-override', `mysql=${upstream}`, '--json', '--max', '50'], { cwd: watchDir });
rows.push(watch.row);
const proposed = JSON.parse(watch.stdout).include.length;

// 4. publish of one more leg onto the branch.
const leg = join(dir, 'new-leg');
records = 0;
// A leg the branch does not hold yet (a rerun of --measure-only publishes another one).
const newLeg = legs + Number(git(['rev-list', '--count', 'bench-data'], bare).trim());
await writeLeg(legOf(newLeg), newLeg, leg);
rows.push(measure('tagbench publish of one leg (3 records, 1 comparison)', ['node', CLI, 'publish', '--store', leg, '--repo', bare, '--branch', 'bench-data']).row);

// 5. A fresh clone of the results branch (what pages.yml's site build starts from).
rows.push(measure('fresh clone of the results branch (depth 1)', ['git', 'clone', '--quiet', '--depth', '1', '--single-branch', '--branch', 'bench-data', url, join(dir, 'checkout')]).row);
const checkout = await du(join(dir, 'checkout'));
const checkoutGit = await du(join(dir, 'checkout', '.git'));

// 6. The site, as pages.yml builds it.
let site = null;
if (!args['skip-site']) {
  rows.push(measure('tagbench site --records-url --detail-releases 30', ['node', CLI, 'site', '--store', join(dir, 'checkout'), '--out', join(dir, 'site'),
    '--records-url', 'https://github.com/example/results/blob/bench-data', '--detail-releases', '30']).row);
  site = await du(join(dir, 'site'));
}

const report = {
  records: recordCount, storeFiles: storeSize.files, storeMiB: mib(storeSize.bytes), comparisons, indexFromEveryFileS: Number(indexS.toFixed(0)),
  branchPackMiB: mib(packSize.bytes), repackS: Number(repackS.toFixed(0)), indexJsonKiB: Number((indexBytes / 1024).toFixed(0)), watchProposed: proposed,
  checkoutMiB: mib(checkout.bytes), checkoutGitMiB: mib(checkoutGit.bytes),
  siteMiB: site ? mib(site.bytes) : null, siteFiles: site?.files ?? null, rows,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
if (!args.keep) await rm(dir, { recursive: true, force: true });
