#!/usr/bin/env node
/**
 * The ratio tables of bench/instructions-releases.js from the per-repeat profiles a run left in
 * its raw logs (`<store>/logs/<run id>/<test>.instructions.i<round>.r<repeat>.profile.json`), for
 * a run stopped before it wrote its records: what the rounds that finished counted, per test the
 * median query path over them, the ratio to the base, and where the instructions went for one
 * test per group. No verdicts: those need the records (and three rounds).
 *
 * Usage: node bench/instructions-releases-from-logs.js <store>/logs [--out bench/instructions-releases]
 */
import { parseArgs } from 'node:util';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median, geometricMean } from 'simple-statistics';
import { diffProfiles, renderFunctionDiff } from '../scripts/compare/index.js';
import { SUITE_ENTRIES } from '../scripts/workload/sysbench/index.js';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string', default: 'bench/instructions-releases' }, note: { type: 'string', default: '' } } });
const logs = positionals[0];
if (!logs) throw new Error('usage: node bench/instructions-releases-from-logs.js <store>/logs');
const order = ['mariadb-10.11.18', 'mariadb-10.11.19', 'mariadb-11.8.9', 'mysql-9.7.4'];
/** @type {{release: string, runId: string, profiles: Map<string, {round: number, p: any}[]>}[]} */
const sides = [];
for (const runId of (await readdir(logs)).sort()) {
  const release = order.find((r) => runId.includes(`-${r}-`)) ?? runId;
  /** @type {Map<string, {round: number, p: any}[]>} */
  const profiles = new Map();
  for (const f of await readdir(join(logs, runId))) {
    const m = /^(.+)\.instructions\.i(\d+)\.r\d+\.profile\.json$/.exec(f);
    if (!m) continue;
    const list = profiles.get(m[1]) ?? [];
    list.push({ round: Number(m[2]), p: JSON.parse(await readFile(join(logs, runId, f), 'utf8')) });
    profiles.set(m[1], list);
  }
  sides.push({ release, runId, profiles });
}
sides.sort((a, b) => order.indexOf(a.release) - order.indexOf(b.release));
const [base, ...others] = sides;
const tests = SUITE_ENTRIES.filter((e) => e.kind === 'sysbench' && e.group !== 'setup' && base.profiles.has(e.name));
/** @param {typeof sides[0]} s @param {string} t */
const perOp = (s, t) => { const v = (s.profiles.get(t) ?? []).map((x) => x.p.queryPathPerOp).filter((x) => x > 0); return v.length ? median(v) : null; };
/** @param {typeof sides[0]} s @param {string} t */
const rounds = (s, t) => (s.profiles.get(t) ?? []).length;
const mark = (/** @type {number|null} */ r) => (r === null ? '–' : r >= 1.05 || r <= 0.95 ? `**${r.toFixed(3)}**` : r.toFixed(3));
const titles = /** @type {Record<string, string>} */ ({ point: 'point queries', range: 'range queries without aggregation', 'range-agg': 'range queries with aggregation', write: 'writes' });
const md = [`# Instructions per operation across releases (smoke suite, counted)\n`, opts.note, ''];
md.push(`Ratios are release / ${base.release} of the query path (instructions inside \`dispatch_command\` per query, per row for \`scan\`; median over the rounds counted): **above 1 = more instructions for the same work** (the opposite sense of the seed posts' QPS ratios); marked ≥ 1.05 and ≤ 0.95. The number after each ratio is how many rounds of that release the figure has. Runs: ${sides.map((s) => s.runId).join(', ')}.\n`);
for (const g of ['point', 'range', 'range-agg', 'write']) {
  const rows = tests.filter((t) => t.group === g);
  if (rows.length === 0) continue;
  md.push(`## ${titles[g]}\n`, `| test | ${base.release} instr/op | ${others.map((o) => o.release).join(' | ')} |`, `| --- | ---: | ${others.map(() => '---:').join(' | ')} |`);
  /** @type {Record<string, number[]>} */
  const ratios = {};
  for (const t of rows) {
    const b = perOp(base, t.name);
    const cells = others.map((o) => {
      const c = perOp(o, t.name);
      const r = b && c ? c / b : null;
      if (r !== null) (ratios[o.release] ??= []).push(r);
      return `${mark(r)} (${rounds(o, t.name)})`;
    });
    md.push(`| ${t.name} | ${b === null ? '–' : Math.round(b).toLocaleString('en-US')} (${rounds(base, t.name)}) | ${cells.join(' | ')} |`);
  }
  md.push(`| *geometric mean* | | ${others.map((o) => (ratios[o.release]?.length ? mark(geometricMean(ratios[o.release])) : '–')).join(' | ')} |\n`);
}
md.push('## Where the instructions went\n', 'For each release against the base, one test per group: the functions that added and removed the most self instructions per operation (means over the rounds counted), from the per-function profiles of the same counted repeats. Debian binaries name only exported functions: the rest is summed as code without a name.\n');
const showcase = ['point-query', 'range-covered-si', 'read-only.range100', 'update-nonindex'];
for (const o of others) {
  md.push(`### ${o.release} vs ${base.release}\n`);
  for (const t of showcase) {
    const b = (base.profiles.get(t) ?? []).map((x) => x.p);
    const c = (o.profiles.get(t) ?? []).map((x) => x.p);
    if (!b.length || !c.length) continue;
    md.push(renderFunctionDiff(diffProfiles(b, c, { top: 5 }), { format: 'markdown', limit: 5, title: t, baseLabel: base.release, candidateLabel: o.release }).replace(/^### /, '#### '));
  }
}
await writeFile(`${opts.out}.md`, `${md.join('\n')}\n`);
process.stderr.write(`wrote ${opts.out}.md\n`);
