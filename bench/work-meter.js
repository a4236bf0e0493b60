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
 * Usage: node bench/work-meter.js aa STORE [STORE...] | releases STORE [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { median } from 'simple-statistics';
import { readRecords } from '../scripts/store/index.js';
import { WORK_COUNTERS } from '../scripts/metrics/meters/work.js';

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
 * The work figures of every counted repeat: side -> test -> round -> perOp.
 * @param {RunRecord[]} records
 * @param {number} roundOffset added to the rounds (several runs' rounds kept apart)
 * @param {Map<string, Map<string, Map<number, Record<string, number|null>>>>} into
 */
function collect(records, roundOffset, into) {
  for (const r of records) {
    const side = sideOf(r);
    if (!into.has(side)) into.set(side, new Map());
    const tests = /** @type {Map<string, Map<number, Record<string, number|null>>>} */ (into.get(side));
    for (const step of r.steps) {
      const slot = step.meters?.work;
      if (!slot) continue;
      if (!tests.has(step.name)) tests.set(step.name, new Map());
      for (const rep of slot.repeats) {
        const figures = /** @type {any} */ (rep).work;
        if (rep.status === 'ok' && figures) tests.get(step.name)?.set(roundOffset + rep.instance, figures.perOp);
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
  /** @type {Map<string, Map<string, Map<number, Record<string, number|null>>>>} */
  const bySide = new Map();
  for (const [i, store] of stores.entries()) collect(await readRecords(store), 100 * i, bySide);
  const [a, b] = [...bySide.keys()].sort();
  const A = /** @type {Map<string, Map<number, Record<string, number|null>>>} */ (bySide.get(a));
  const B = /** @type {Map<string, Map<number, Record<string, number|null>>>} */ (bySide.get(b));
  /** @type {Record<string, Record<string, {rounds: number, exact: boolean, maxRelDiff: number|null, range: [number, number]|null}>>} */
  const out = {};
  const lines = [`A/A: ${a} vs ${b}, ${stores.length} run(s)\n`];
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
      out[test][key] = entry;
      if (entry.range[1] === 0) continue;
      row.push(`${key} ${entry.exact ? 'exact' : `±${(entry.maxRelDiff * 100).toFixed(1)} %`} [${fmt(entry.range[0])}–${fmt(entry.range[1])}]`);
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
  /** @type {Map<string, Map<string, Map<number, Record<string, number|null>>>>} */
  const bySide = new Map();
  collect(await readRecords(store), 0, bySide);
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

const [mode, ...rest] = process.argv.slice(2);
const jsonAt = rest.indexOf('--json');
const json = jsonAt >= 0 ? rest.splice(jsonAt, 2)[1] : null;
if (mode !== 'aa' && mode !== 'releases') {
  process.stderr.write('usage: node bench/work-meter.js aa STORE [STORE...] | releases STORE [--json FILE]\n');
  process.exit(1);
}
const result = mode === 'aa' ? await reportAa(rest) : await reportReleases(rest[0]);
if (json) await writeFile(json, `${JSON.stringify(result, null, 1)}\n`);
