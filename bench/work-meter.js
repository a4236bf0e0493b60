#!/usr/bin/env node
/**
 * The work meter's noise and its cross-release table (bench/work-meter.md), from run records
 * made by `tagbench run --meter work` (the commands are in the .md).
 *
 * - `aa <store>...`: A/A. The store holds runs of one release against itself (two servers, the
 *   second labelled): for each test and counter, the two servers' figures in each round (same
 *   events, same seed, same rows) and how far apart they are. A counter with no difference in
 *   any round is exact; the others say by how much they move.
 * - `releases <store>`: one run of several releases side by side: per test, each counter's
 *   median per op over the rounds for every release, and the ratio to the first.
 *
 * - `verdicts <store>...`: every run in the stores compared as `tagbench compare` would (shipped
 *   thresholds, paired by round): first side as base, second as candidate; the work verdicts
 *   tallied per metric (an A/A run should have no regression and no improvement).
 *
 * - `calibrate <store> <bufferPool>`: a change of known kind: MariaDB 10.11.18 counted twice,
 *   in two runs, the host class's buffer pool (512M) and then this smaller one (the same
 *   results, but pages that were hits become reads from disk); then compared (candidate = the
 *   small pool), the work verdicts sorted by their change, largest first.
 *
 * Usage: node bench/work-meter.js aa STORE [STORE...] | releases STORE | verdicts STORE... |
 *          calibrate STORE SIZE [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { median } from 'simple-statistics';
import { readRecords } from '../scripts/store/index.js';
import { WORK_COUNTERS } from '../scripts/metrics/meters/work.js';
import { loadConfig } from '../scripts/config/index.js';
import { compareRuns, resolveThresholds } from '../scripts/compare/index.js';
import { runReleases } from '../scripts/run/index.js';
import { stopAllServers } from '../scripts/server/index.js';
import { join } from 'node:path';
import { loadavg } from 'node:os';

/** @typedef {import('../scripts/types.js').RunRecord} RunRecord */

/**
 * @param {RunRecord} r
 * @returns {string} the release as the run named it: its record id without the run's time and
 *   tag (`local-mariadb-10.11.18-aa-demo`: a second server's label is in the id only)
 */
function sideOf(r) {
  return r.id.split('-').slice(1, -1).join('-');
}

/**
 * The work figures of every counted repeat: side -> test -> `<run tag>#<round>` -> perOp (the
 * two sides of one run share its tag, and a round's seed).
 * @param {RunRecord[]} records
 * @param {Map<string, Map<string, Map<string, Record<string, number|null>>>>} into
 */
function collect(records, into) {
  for (const r of records) {
    const side = sideOf(r);
    const tag = r.id.split('-').at(-1);
    if (!into.has(side)) into.set(side, new Map());
    const tests = /** @type {Map<string, Map<string, Record<string, number|null>>>} */ (into.get(side));
    for (const step of r.steps) {
      const slot = step.meters?.work;
      if (!slot) continue;
      if (!tests.has(step.name)) tests.set(step.name, new Map());
      for (const rep of slot.repeats) {
        const figures = /** @type {any} */ (rep).work;
        if (rep.status === 'ok' && figures) tests.get(step.name)?.set(`${tag}#${rep.instance}`, figures.perOp);
      }
    }
  }
}

/** @param {number|null|undefined} v */
function fmt(v) {
  if (v === null || v === undefined) return 'n/a';
  if (v === 0) return '0';
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2);
}

/**
 * A/A: per test, per counter, the relative difference of the second server from the first in
 * each round (same seed, same rows).
 * @param {string[]} stores
 */
async function reportAa(stores) {
  /** @type {Map<string, Map<string, Map<string, Record<string, number|null>>>>} */
  const bySide = new Map();
  for (const store of stores) collect(await readRecords(store), bySide);
  const [a, b] = [...bySide.keys()].sort();
  const A = /** @type {Map<string, Map<string, Record<string, number|null>>>} */ (bySide.get(a));
  const B = /** @type {Map<string, Map<string, Record<string, number|null>>>} */ (bySide.get(b));
  /** @type {Record<string, Record<string, {rounds: number, exact: boolean, maxRelDiff: number|null, range: [number, number]|null, differ?: number}>>} */
  const out = {};
  const lines = [`A/A: ${a} vs ${b}\n`];
  for (const [test, roundsA] of A) {
    const roundsB = B.get(test) ?? new Map();
    const rounds = [...roundsA.keys()].filter((k) => roundsB.has(k));
    out[test] = {};
    const row = [];
    for (const { key } of WORK_COUNTERS) {
      const pairs = rounds.map((k) => [roundsA.get(k)?.[key], roundsB.get(k)?.[key]]).filter(([x, y]) => typeof x === 'number' && typeof y === 'number');
      if (pairs.length === 0) continue;
      const values = pairs.flat().map(Number);
      const rel = pairs.map(([x, y]) => (Number(x) === Number(y) ? 0 : Math.abs(Number(y) - Number(x)) / Math.max(Math.abs(Number(x)), Math.abs(Number(y)))));
      const entry = { rounds: pairs.length, exact: rel.every((d) => d === 0), maxRelDiff: Math.max(...rel), range: /** @type {[number, number]} */ ([Math.min(...values), Math.max(...values)]) };
      out[test][key] = { ...entry, differ: rel.filter((d) => d > 0).length };
      if (entry.range[1] === 0) continue;
      const differ = rel.filter((d) => d > 0).length;
      row.push(`${key} ${entry.exact ? 'exact' : `up to ${(entry.maxRelDiff * 100).toPrecision(2)} % (${differ} of ${rel.length} rounds differ)`} [${fmt(entry.range[0])}–${fmt(entry.range[1])}]`);
    }
    lines.push(`${test} (${rounds.length} rounds): ${row.join('; ')}\n`);
  }
  process.stdout.write(lines.join(''));
  return out;
}

/**
 * Releases side by side: per test, each counter's median over the rounds for every release.
 * @param {string} store
 */
async function reportReleases(store) {
  /** @type {Map<string, Map<string, Map<string, Record<string, number|null>>>>} */
  const bySide = new Map();
  collect(await readRecords(store), bySide);
  const sides = [...bySide.keys()];
  const tests = [...new Set(sides.flatMap((s) => [...(bySide.get(s)?.keys() ?? [])]))];
  /** @type {Record<string, Record<string, Record<string, number|null>>>} */
  const out = {};
  const lines = [];
  for (const test of tests) {
    out[test] = {};
    lines.push(`\n#### ${test}\n\n| counter per op | ${sides.join(' | ')} |\n|---|${sides.map(() => '---:').join('|')}|\n`);
    for (const { key } of WORK_COUNTERS) {
      const meds = sides.map((s) => {
        const vals = [...(bySide.get(s)?.get(test)?.values() ?? [])].map((p) => p[key]).filter((v) => typeof v === 'number');
        return vals.length === 0 ? null : median(/** @type {number[]} */ (vals));
      });
      out[test][key] = Object.fromEntries(sides.map((s, i) => [s, meds[i]]));
      if (meds.every((v) => v === null || v === 0)) continue;
      const base = meds[0];
      const cells = meds.map((v, i) => (i > 0 && base && v !== null ? `${fmt(v)} (${(v / base).toFixed(2)}×)` : fmt(v)));
      lines.push(`| ${key} | ${cells.join(' | ')} |\n`);
    }
  }
  process.stdout.write(lines.join(''));
  return out;
}

/**
 * Each run of the stores compared, base = the first side (sorted), candidate = the second; the
 * work meter's verdicts tallied per metric, and every verdict other than unchanged listed.
 * @param {string[]} stores
 */
async function reportVerdicts(stores) {
  const config = await loadConfig(new URL('..', import.meta.url).pathname);
  const thresholds = resolveThresholds(config.thresholds);
  const workMetrics = new Set(WORK_COUNTERS.map((c) => c.metric));
  /** @type {Record<string, Record<string, number>>} */
  const tally = {};
  const notable = [];
  let runs = 0;
  for (const store of stores) {
    const records = await readRecords(store);
    for (const tag of new Set(records.map((r) => r.id.split('-').at(-1)))) {
      const own = records.filter((r) => r.id.endsWith(`-${tag}`));
      const sides = [...new Set(own.map(sideOf))].sort();
      if (sides.length < 2) continue;
      runs += 1;
      const [b, c] = sides.map((s) => ({ version: s, records: own.filter((r) => sideOf(r) === s) }));
      const cmp = compareRuns({ base: b, candidate: c, thresholds, createdAt: new Date().toISOString() });
      for (const t of cmp.tests.filter((v) => workMetrics.has(v.metric))) {
        tally[t.metric] ??= {};
        tally[t.metric][t.verdict] = (tally[t.metric][t.verdict] ?? 0) + 1;
        if (t.verdict !== 'unchanged') notable.push(`${tag} ${t.test} ${t.metric}: ${t.verdict} (ratio ${t.ratio?.toFixed(4)}) ${t.reason}`);
      }
    }
  }
  process.stdout.write(`${runs} comparison(s)\n${Object.entries(tally).map(([m, v]) => `${m}: ${JSON.stringify(v)}`).join('\n')}\n${notable.join('\n')}\n`);
  return { runs, tally, notable };
}

/** The demo's sysbench tests: what the counted phase counts in `npm run demo`. */
const DEMO_TESTS = ['point-query', 'points-covered-si', 'range-covered-si', 'scan', 'read-only.range100', 'read-only.range10000', 'update-nonindex', 'insert'];

/**
 * Two runs of one release under the work meter, the second with a smaller buffer pool, compared.
 * @param {string} store
 * @param {string} pool the second run's innodb_buffer_pool_size
 */
async function calibrate(store, pool) {
  const root = new URL('..', import.meta.url).pathname;
  const loaded = await loadConfig(root);
  const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
  /** @type {Record<string, import('../scripts/types.js').RunRecord[]>} */
  const sides = {};
  for (const size of [String(loaded.hosts.local.mycnf?.innodb_buffer_pool_size ?? '512M'), pool]) {
    const config = { ...loaded, hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, mycnf: { ...loaded.hosts.local.mycnf, innodb_buffer_pool_size: size } } } };
    process.stdout.write(`buffer pool ${size}: load ${loadavg()[0].toFixed(2)} at the start\n`);
    const dir = join(store, size);
    try {
      await runReleases(config, {
        releases: [{ product: 'mariadb', version: '10.11.18', provider: 'deb' }], suite: 'demo', hostClass: 'local', only: DEMO_TESTS,
        meters: ['work'], storeDir: dir, workDir: join(store, 'work'), cacheDir, write: () => {},
      });
    } finally {
      await stopAllServers();
    }
    sides[size] = await readRecords(dir);
  }
  const [base, candidate] = Object.entries(sides).map(([size, records]) => ({ version: size, records }));
  const cmp = compareRuns({ base, candidate, thresholds: resolveThresholds(loaded.thresholds), createdAt: new Date().toISOString() });
  const workMetrics = new Set(WORK_COUNTERS.map((c) => c.metric));
  const moved = cmp.tests.filter((t) => workMetrics.has(t.metric) && t.verdict !== 'unchanged')
    .sort((x, y) => Math.abs(Math.log(y.ratio ?? 1)) - Math.abs(Math.log(x.ratio ?? 1)));
  const lines = moved.map((t) => `${t.test} ${t.metric}: ${t.verdict}, ${t.base?.median} -> ${t.candidate?.median} (ratio ${t.ratio?.toFixed(3)})`);
  const notJudged = (cmp.notJudged ?? []).filter((n) => workMetrics.has(n.metric)).map((n) => `not judged: ${n.test} ${n.metric}: ${n.reason}`);
  process.stdout.write(`${[...lines, ...notJudged].join('\n')}\nload ${loadavg()[0].toFixed(2)} at the end\n`);
  return { moved: moved.map((t) => ({ test: t.test, metric: t.metric, verdict: t.verdict, base: t.base?.median, candidate: t.candidate?.median, ratio: t.ratio })), notJudged };
}

const [mode, ...rest] = process.argv.slice(2);
const jsonAt = rest.indexOf('--json');
const json = jsonAt >= 0 ? rest.splice(jsonAt, 2)[1] : null;
const MODES = { aa: () => reportAa(rest), releases: () => reportReleases(rest[0]), verdicts: () => reportVerdicts(rest), calibrate: () => calibrate(rest[0], rest[1]) };
if (!Object.hasOwn(MODES, mode ?? '')) {
  process.stderr.write(`usage: node bench/work-meter.js ${Object.keys(MODES).join('|')} ... (see the file's head)\n`);
  process.exit(1);
}
const result = await MODES[/** @type {keyof typeof MODES} */ (mode)]();
if (json) await writeFile(json, `${JSON.stringify(result, null, 1)}\n`);
