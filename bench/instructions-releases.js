#!/usr/bin/env node
/**
 * Instructions per operation per test across releases, as the seed posts' ratio tables: one run
 * through `tagbench run`'s own path (runReleases) of every release side by side under the
 * instructions meter only (the sysbench tests of the suite counted under callgrind, rounds
 * alternating the releases), then per reporting group a table of the base release's query-path
 * instructions per operation and each other release's ratio to it (above 1 = more instructions
 * for the same work), with the geometric mean per group; the verdicts of each release against
 * the base (compareRuns, shipped thresholds, paired by round); and for each pair, where the
 * instructions went in one test per group (the per-function profiles of the counted repeats).
 *
 * Counts do not depend on the machine's load; they depend on the CPU model and flags, glibc
 * and valgrind (recorded with the run), so the ratios hold for this host series.
 *
 * Usage: node bench/instructions-releases.js [--releases mariadb@10.11.18,mariadb@10.11.19,...]
 *          [--suite smoke] [--host local] [--out bench/instructions-releases] [--from-records <store>]
 */
import { parseArgs } from 'node:util';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, geometricMean } from 'simple-statistics';
import { loadConfig } from '../scripts/config/index.js';
import { runReleases } from '../scripts/run/index.js';
import { readRecords } from '../scripts/store/index.js';
import { compareRuns, resolveThresholds, renderFunctionDiff } from '../scripts/compare/index.js';
import { listTests } from '../scripts/compare/compare-runs.js';
import { attachFunctionMoves } from '../scripts/verify/attach-function-moves.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    releases: { type: 'string', default: 'mariadb@10.11.18,mariadb@10.11.19,mariadb@11.8.9,mysql@9.7.4' },
    suite: { type: 'string', default: 'smoke' },
    host: { type: 'string', default: 'local' },
    out: { type: 'string', default: join(ROOT, 'bench', 'instructions-releases') },
    'from-records': { type: 'string' },
    // Counts do not depend on the CPU they run on: another CPU than the host class's leaves its CPU to other counting.
    cpu: { type: 'string' },
  },
});
const config = await loadConfig(ROOT);
const cacheDir = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');
const wanted = opts.releases.split(',').map((s) => { const [product, version] = s.split('@'); return { product, version }; });
const key = (/** @type {{product: string, version: string}} */ r) => `${r.product}@${r.version}`;

let storeDir = opts['from-records'] ? resolve(opts['from-records']) : '';
const startedAt = new Date().toISOString();
const load = [loadavg()[0]];
if (!storeDir) {
  storeDir = join(await mkdtemp(join(tmpdir(), 'tagbench-instr-releases-')), 'results');
  process.stderr.write(`records go to ${storeDir}\n`);
  const host = config.hosts[opts.host];
  const cfg = opts.cpu ? { ...config, hosts: { ...config.hosts, [opts.host]: { ...host, pinning: { serverCpus: opts.cpu, clientCpus: opts.cpu } } } } : config;
  await runReleases(cfg, { releases: wanted, suite: opts.suite, hostClass: opts.host, meters: ['instructions'], storeDir, workDir: join(storeDir, '..', 'work'), cacheDir });
  load.push(loadavg()[0]);
}
const finishedAt = new Date().toISOString();
const all = await readRecords(storeDir, { status: ['ok', 'failed'] });
const sides = wanted.map((w) => ({ ...w, records: all.filter((r) => r.release.product === w.product && r.release.version === w.version) }));
for (const s of sides) if (s.records.length === 0) throw new Error(`no record of ${key(s)} in ${storeDir}`);
const [base, ...others] = sides;
// The run's own times, also when the report is rebuilt from its records later.
const allRecords = sides.flatMap((x) => x.records);
const runStartedAt = allRecords.map((r) => r.startedAt).sort()[0];
const runFinishedAt = allRecords.map((r) => r.finishedAt ?? r.startedAt).sort().at(-1);
const loadText = opts['from-records'] ? 'not known (report rebuilt from the records)' : load.map((l) => l.toFixed(2)).join(', ');
const meterMycnf = Object.entries(base.records[0].config.meterSetup?.instructions?.mycnf ?? {}).map(([k, v]) => `${k}=${v}`).join(', ');
const thresholds = resolveThresholds(config.thresholds);

/** @param {typeof sides[0]} side @param {string} test @returns {number|null} median query path per op */
const perOp = (side, test) => {
  const v = side.records.flatMap((r) => r.steps.find((s) => s.name === test)?.meters?.instructions?.repeats ?? []).filter((x) => x.status === 'ok').map((x) => /** @type {number} */ (x.instructions?.queryPathPerOp));
  return v.length ? median(v) : null;
};
const tests = listTests(base.records, []);
const groups = ['point', 'range', 'range-agg', 'write'];
const titles = { point: 'point queries', range: 'range queries without aggregation', 'range-agg': 'range queries with aggregation', write: 'writes' };

// Verdicts against the base (across products the ratio is a fact of two builds, the verdict a test of it).
/** @type {{other: typeof sides[0], cmp: import("../scripts/compare/index.js").FullComparison}[]} */
const comparisons = [];
for (const o of others) {
  // compareRuns refuses records of two products (a baseline's verdicts belong to one line); the
  // statistics do not depend on the product, so here the other product's records are judged
  // under the base's product name, test by test (no family-wise control), and the report says so.
  const candidateRecords = o.product === base.product ? o.records : o.records.map((r) => ({ ...r, release: { ...r.release, product: base.product } }));
  const cmp = compareRuns({ base: { version: key(base), records: base.records }, candidate: { version: key(o), records: candidateRecords }, thresholds, createdAt: finishedAt, familyControl: o.product === base.product });
  await attachFunctionMoves(cmp, base, o, storeDir);
  comparisons.push({ other: o, cmp });
}
const verdictOf = (/** @type {string} */ k, /** @type {string} */ test) => comparisons.find((c) => key(c.other) === k)?.cmp.tests.find((t) => t.test === test && t.metric === 'instructionsPerOp');

const limits = /** @type {{warn: number, issue: number}} */ (config.thresholds.metrics?.instructionsPerOp ?? { warn: NaN, issue: NaN });
const pct = (/** @type {number} */ x) => `${Number((x * 100).toFixed(3))} %`;
const md = [];
const dep = base.records[0].config.meterSetup?.instructions?.dependsOn ?? {};
md.push(`# Instructions per operation across releases (${opts.suite} suite, counted)\n`);
md.push(`Made by \`node bench/instructions-releases.js\`: one run of ${sides.map(key).join(', ')} side by side under the instructions meter (every sysbench test of \`${opts.suite}\` counted under valgrind's callgrind: ${base.records[0].config.meterSetup?.instructions?.counting.rounds ?? '?'} rounds, one server process per release and round, alternating), ${runStartedAt} – ${runFinishedAt}, host class \`${opts.host}\` (${dep.cpuModel ?? '?'}; ${dep.glibc ?? '?'}; ${dep.valgrind ?? '?'}). Load average at start and end: ${loadText} (counts do not depend on it). Server options the meter added: ${meterMycnf || 'none'}. Records: ${sides.flatMap((s) => s.records.map((r) => r.id)).join(', ')}.\n`);
md.push(`The figure is the query path: instructions inside \`dispatch_command\` per query (per row for \`scan\`), the median over the rounds. Ratios are release / ${key(base)}: **above 1 = more instructions for the same work** (the opposite sense of the seed posts' QPS ratios); marked ≥ 1.05 and ≤ 0.95. Verdict per cell (paired by round, shipped thresholds: warn ${pct(limits.warn)}, issue ${pct(limits.issue)}): \`=\` unchanged, \`▲\` regression, \`▼\` improvement, \`?\` inconclusive.\n`);
const mark = (/** @type {number|null} */ r) => (r === null ? '–' : r >= 1.05 || r <= 0.95 ? `**${r.toFixed(3)}**` : r.toFixed(3));
const sym = (/** @type {string|undefined} */ v) => ({ unchanged: '=', regression: '▲', improvement: '▼', inconclusive: '?', failed: '✗' })[v ?? ''] ?? '';
for (const g of groups) {
  const rows = tests.filter((t) => t.group === g);
  if (rows.length === 0) continue;
  md.push(`## ${titles[/** @type {keyof typeof titles} */ (g)]}\n`);
  md.push(`| test | ${key(base)} instr/op | ${others.map((o) => `${key(o)}`).join(' | ')} |`);
  md.push(`| --- | ---: | ${others.map(() => '---:').join(' | ')} |`);
  /** @type {Record<string, number[]>} */
  const ratios = {};
  for (const t of rows) {
    const b = perOp(base, t.name);
    const cells = others.map((o) => {
      const c = perOp(o, t.name);
      const r = b && c ? c / b : null;
      if (r !== null) (ratios[key(o)] ??= []).push(r);
      return `${mark(r)} ${sym(verdictOf(key(o), t.name)?.verdict)}`;
    });
    md.push(`| ${t.name} | ${b === null ? '–' : Math.round(b).toLocaleString('en-US')} | ${cells.join(' | ')} |`);
  }
  md.push(`| *geometric mean* | | ${others.map((o) => (ratios[key(o)]?.length ? mark(geometricMean(ratios[key(o)])) : '–')).join(' | ')} |\n`);
}
md.push('## Verdicts\n');
for (const { other, cmp } of comparisons) {
  const v = cmp.tests.filter((t) => t.metric === 'instructionsPerOp');
  const counts = v.reduce((m, t) => ({ ...m, [t.verdict]: (m[t.verdict] ?? 0) + 1 }), /** @type {Record<string, number>} */ ({}));
  md.push(`- ${key(other)} vs ${key(base)}: ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')} (of ${v.length} query-path verdicts)${other.product === base.product ? '' : '; another product: judged test by test, no family-wise control'}`);
}
md.push('\n## Where the instructions went\n');
md.push('One test per group for each pair: the functions that added and removed the most self instructions per operation (means over the rounds), from the per-function profiles of the same counted repeats. Debian\'s binaries name only their exported functions: the rest is summed as code without a name.\n');
const showcase = groups.map((g) => tests.find((t) => t.group === g)?.name).filter(Boolean);
for (const { other, cmp } of comparisons) {
  md.push(`### ${key(other)} vs ${key(base)}\n`);
  for (const name of showcase) {
    const v = cmp.tests.find((t) => t.test === name && t.metric === 'instructionsPerOp');
    if (!v?.functions) continue;
    md.push(renderFunctionDiff({ ...v.functions, functions: [] }, { format: 'markdown', limit: 5, title: `${name} (${v.verdict}, ratio ${v.ratio?.toFixed(4)})`, baseLabel: key(base), candidateLabel: key(other) }).replace(/^### /, '#### '));
  }
}
await writeFile(`${opts.out}.md`, `${md.join('\n')}\n`);
await writeFile(`${opts.out}.json`, `${JSON.stringify({ startedAt: runStartedAt, finishedAt: runFinishedAt, storeDir, load: opts["from-records"] ? null : load, releases: sides.map(key), runIds: sides.flatMap((s) => s.records.map((r) => r.id)), perTest: tests.map((t) => ({ test: t.name, group: t.group, perOp: Object.fromEntries(sides.map((s) => [key(s), perOp(s, t.name)])) })), verdicts: comparisons.map(({ other, cmp }) => ({ candidate: key(other), tests: cmp.tests.filter((t) => t.metric === 'instructionsPerOp').map((t) => ({ test: t.test, ratio: t.ratio, ci: t.ci, verdict: t.verdict, top: t.functions?.added[0]?.name ?? null })) })) }, null, 2)}\n`);
process.stderr.write(`wrote ${opts.out}.md and .json\n`);
