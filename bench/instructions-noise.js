#!/usr/bin/env node
/**
 * How noisy are counted instructions per operation, beside wall-clock throughput, for every
 * test of the smoke suite? One run through `tagbench run`'s own path (runReleases) of two
 * servers of one release side by side (A/A: the release's install and the same files again
 * under another label), with the wall and instructions meters: the timed repeats as every run
 * has them, then each test counted on one server process per server and round (valgrind's
 * callgrind; host class `counting`). Per test it reports
 *   - instructions: the spread (max/min - 1) of the query-path figure over every counted
 *     process of both servers, the paired A/B ratio per round, the same for the whole process;
 *   - throughput: the spread of the instance medians over both servers, and the A/B ratio;
 *   - the verdicts compareRuns gives A against B with the shipped thresholds (an A/A run: each
 *     decided verdict should be "unchanged");
 *   - what counting costs: seconds per counted repeat (zeroing to dump, parse included) and the
 *     counted phase's seconds per test and process.
 * The load average is sampled through the run: timed figures measured above 1.5 measure the
 * neighbours too (counts do not depend on it).
 *
 * Usage: node bench/instructions-noise.js [--suite smoke] [--version 10.11.18] [--host local]
 *          [--rounds 3] [--meters wall,instructions] [--only tests] [--out bench/instructions-noise]
 *          [--from-records <store>] [--cpu N]
 * Writes <out>.md and <out>.json; the run's store is kept under /tmp (its path is printed) so
 * `--from-records` can recompute the report.
 */
import { parseArgs } from 'node:util';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { loadConfig } from '../scripts/config/index.js';
import { runReleases } from '../scripts/run/index.js';
import { findCachedInstall } from '../scripts/install/index.js';
import { readRecords } from '../scripts/store/index.js';
import { compareRuns, resolveThresholds } from '../scripts/compare/index.js';
import { listTests } from '../scripts/compare/compare-runs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: opts } = parseArgs({
  options: {
    suite: { type: 'string', default: 'smoke' },
    version: { type: 'string', default: '10.11.18' },
    host: { type: 'string', default: 'local' },
    rounds: { type: 'string', default: '3' },
    meters: { type: 'string', default: 'wall,instructions' },
    only: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench', 'instructions-noise') },
    'from-records': { type: 'string' },
    // Pin server and client here instead of the host class's CPUs (counts do not depend on it;
    // timed figures then share that CPU with whatever else runs on it).
    cpu: { type: 'string' },
  },
});

const config = await loadConfig(ROOT);
const cacheDir = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');
/** @type {{t: string, load1: number}[]} */
const loads = [];
const sampleLoad = () => loads.push({ t: new Date().toISOString(), load1: Math.round(loadavg()[0] * 100) / 100 });

let storeDir = opts['from-records'] ? resolve(opts['from-records']) : '';
const startedAt = new Date().toISOString();
if (!storeDir) {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-instr-noise-'));
  storeDir = join(base, 'results');
  process.stderr.write(`records go to ${storeDir}\n`);
  const install = await findCachedInstall(cacheDir, 'mariadb', opts.version);
  if (!install) throw new Error(`mariadb ${opts.version} is not in the install cache ${cacheDir}: tagbench install mariadb ${opts.version} first`);
  const host = config.hosts[opts.host];
  const pinning = opts.cpu ? { pinning: { serverCpus: opts.cpu, clientCpus: opts.cpu } } : {};
  const cfg = { ...config, hosts: { ...config.hosts, [opts.host]: { ...host, ...pinning, counting: { ...(host.counting ?? {}), rounds: Number(opts.rounds) } } } };
  sampleLoad();
  const timer = setInterval(sampleLoad, 30_000);
  try {
    await runReleases(cfg, {
      releases: [
        { product: 'mariadb', version: opts.version },
        // The same files again under another label: a second, independent server of the release.
        { product: 'mariadb', version: opts.version, provider: 'path', path: install.prefix, label: 'b' },
      ],
      suite: opts.suite, hostClass: opts.host, meters: /** @type {any} */ (opts.meters.split(',')),
      ...(opts.only ? { only: opts.only.split(',') } : {}),
      storeDir, workDir: join(storeDir, '..', 'work'), cacheDir,
    });
  } finally {
    clearInterval(timer);
    sampleLoad();
  }
}

const records = await readRecords(storeDir, { status: ['ok', 'failed'] });
const a = records.find((r) => !r.id.includes('-b-') && !/-b$/.test(r.release.version));
const b = records.find((r) => r !== a);
if (!a || !b) throw new Error(`expected two records in ${storeDir}, found ${records.length}`);
const thresholds = resolveThresholds(config.thresholds);
const cmp = compareRuns({ base: { version: 'A', records: [a] }, candidate: { version: 'B', records: [b] }, thresholds, createdAt: new Date().toISOString() });

/** @param {number[]} xs @returns {number|null} max/min - 1 */
const spread = (xs) => (xs.length < 2 ? null : Math.max(...xs) / Math.min(...xs) - 1);
/** @param {number|null} x */
const pct = (x, digits = 3) => (x === null || !Number.isFinite(x) ? '–' : `${(x * 100).toFixed(digits)} %`);

/** @type {any[]} */
const rows = [];
for (const { name, group } of listTests([a], [b])) {
  const steps = [a, b].map((r) => r.steps.find((s) => s.name === name));
  const counted = steps.map((s) => (s?.meters?.instructions?.repeats ?? []).filter((x) => x.status === 'ok'));
  const qp = counted.map((reps) => reps.map((x) => /** @type {number} */ (x.instructions?.queryPathPerOp)));
  const proc = counted.map((reps) => reps.map((x) => /** @type {number} */ (x.instructions?.processPerOp)));
  const byRound = (/** @type {typeof counted[0]} */ reps, /** @type {'queryPathPerOp'|'processPerOp'} */ k) => new Map(reps.map((x) => [x.instance, /** @type {number} */ (x.instructions?.[k])]));
  const pairRatios = (/** @type {'queryPathPerOp'|'processPerOp'} */ k) => {
    const ra = byRound(counted[0], k);
    const rb = byRound(counted[1], k);
    return [...ra.keys()].filter((i) => rb.has(i)).map((i) => /** @type {number} */ (rb.get(i)) / /** @type {number} */ (ra.get(i)));
  };
  const instanceMedians = steps.map((s) => {
    const by = new Map();
    for (const r of s?.repeats ?? []) if (r.status === 'ok' && r.throughput) by.set(r.instance, [...(by.get(r.instance) ?? []), r.throughput]);
    return [...by.values()].map((v) => median(v));
  });
  const tp = instanceMedians.flat();
  const seconds = counted.flat().map((x) => x.instructions?.countedS ?? 0);
  const verdicts = Object.fromEntries(cmp.tests.filter((t) => t.test === name).map((t) => [t.metric, t.verdict]));
  rows.push({
    test: name, group,
    events: counted.flat()[0]?.events ?? null,
    processes: counted.flat().length,
    queryPathPerOp: qp.flat().length ? median(qp.flat()) : null,
    queryPathSpread: spread(qp.flat()),
    queryPathAB: pairRatios('queryPathPerOp'),
    // What a paired verdict sees: B against A in the same round (same seeds, same rows).
    queryPathPairedDev: pairRatios('queryPathPerOp').length ? Math.max(...pairRatios('queryPathPerOp').map((x) => Math.abs(x - 1))) : null,
    processPairedDev: pairRatios('processPerOp').length ? Math.max(...pairRatios('processPerOp').map((x) => Math.abs(x - 1))) : null,
    processPerOp: proc.flat().length ? median(proc.flat()) : null,
    processSpread: spread(proc.flat()),
    throughput: tp.length ? median(tp) : null,
    throughputSpread: spread(tp),
    throughputAB: instanceMedians[0].length && instanceMedians[1].length ? median(instanceMedians[1]) / median(instanceMedians[0]) : null,
    countedS: seconds.length ? median(seconds) : null,
    verdicts,
  });
}

const readGroups = new Set(['point', 'range', 'range-agg']);
const reads = rows.filter((r) => readGroups.has(r.group) && r.queryPathSpread !== null);
const writes = rows.filter((r) => r.group === 'write' && r.queryPathSpread !== null);
const worst = (/** @type {typeof rows} */ rs) => (rs.length ? Math.max(...rs.map((r) => /** @type {number} */ (r.queryPathPairedDev))) : null);
const medianDev = (/** @type {typeof rows} */ rs) => (rs.length ? median(rs.map((r) => /** @type {number} */ (r.queryPathPairedDev))) : null);
const within = (/** @type {typeof rows} */ rs, /** @type {number} */ limit) => rs.filter((r) => r.queryPathPairedDev <= limit).length;
const instrVerdicts = cmp.tests.filter((t) => t.metric === 'instructionsPerOp');
const countBy = (/** @type {typeof cmp.tests} */ ts) => ts.reduce((m, t) => ({ ...m, [t.verdict]: (m[t.verdict] ?? 0) + 1 }), /** @type {Record<string, number>} */ ({}));
const maxLoad = loads.length ? Math.max(...loads.map((l) => l.load1)) : null;
const countPhase = [a, b].map((r) => r.steps.flatMap((s) => s.meters?.instructions?.repeats ?? []));
const phaseS = countPhase.flat().length ? (Date.parse(/** @type {string} */ (countPhase.flat().at(-1)?.startedAt)) - Date.parse(/** @type {string} */ (countPhase.flat()[0]?.startedAt))) / 1000 : null;

const md = [];
md.push(`# Instructions per operation beside throughput: A/A noise of every ${opts.suite} test\n`);
md.push(`Made by \`node bench/instructions-noise.js\` (${startedAt}${opts['from-records'] ? ', recomputed from its records' : ''}): one run of two servers of MariaDB ${a.release.version} side by side (A and B, the same Debian build), suite \`${opts.suite}\`, host class \`${opts.host}\`, meters ${(a.config.meters ?? ['wall']).join(' and ')}, ${a.config.meterSetup?.instructions?.counting.rounds ?? '?'} counting rounds (one server process per server and round, ${a.config.meterSetup?.instructions?.counting.repeats ?? '?'} counted repeat per process). Counts depend on ${Object.entries(a.config.meterSetup?.instructions?.dependsOn ?? {}).filter(([k]) => k !== 'cpuFlags').map(([k, v]) => `${k} ${v}`).join(', ')}.\n`);
md.push(`Load average (1 min) over the run: ${loads.length ? `${Math.min(...loads.map((l) => l.load1))}–${maxLoad}` : 'not sampled (recomputed)'}. ${maxLoad !== null && maxLoad > 1.5 ? '**The throughput columns were measured above 1.5 and also measure the neighbours**; the instruction columns do not depend on load.' : ''}\n`);
if (!(a.config.meters ?? ['wall']).includes('wall')) md.push('This run counted only (no timed repeats): the throughput columns are empty. Throughput noise between server instances on this host is in bench/instance-noise.md and bench/calibration-local.md.\n');
md.push('## Summary\n');
md.push(`- Query-path instructions per op, A/A, B against A in the same round (same seeds, same rows: what a paired verdict compares), largest |B/A − 1| over the rounds: reads median **${pct(medianDev(reads))}**, at most **${pct(worst(reads))}**, ${within(reads, 0.001)} of ${reads.length} read tests within 0.1 % (target ≤ 0.1 %); writes median **${pct(medianDev(writes))}**, at most **${pct(worst(writes))}**, ${within(writes, 0.01)} of ${writes.length} within 1 % (target ≤ 1 %).`);
md.push(`- A against B through compareRuns with the shipped thresholds: instructionsPerOp ${JSON.stringify(countBy(instrVerdicts))}; processInstructionsPerOp ${JSON.stringify(countBy(cmp.tests.filter((t) => t.metric === 'processInstructionsPerOp')))}; throughput ${JSON.stringify(countBy(cmp.tests.filter((t) => t.metric === 'throughput')))}.`);
md.push(`- Counting cost: ${pct(null)}`.replace(pct(null), `median ${median(rows.filter((r) => r.countedS !== null).map((r) => /** @type {number} */ (r.countedS))).toFixed(1)} s per counted repeat (zeroing to dump, parse included); the counted phase took ${phaseS === null ? '?' : Math.round(phaseS)} s for ${rows.length} tests × ${countPhase.flat().length / Math.max(1, rows.length)} processes (server starts, warm-up runs and the counted runs).\n`));
md.push('## Per test\n');
md.push('| test | group | events | processes | query path instr/op | across rounds | B/A per round | process instr/op | spread | throughput (op/s) | instance spread | B/A | s per counted repeat | verdicts (instr, process, throughput) |');
md.push('| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of rows) {
  md.push(`| ${r.test} | ${r.group} | ${r.events ?? '–'} | ${r.processes} | ${r.queryPathPerOp === null ? '–' : Math.round(r.queryPathPerOp).toLocaleString('en-US')} | ${pct(r.queryPathSpread)} | ${r.queryPathAB.map((/** @type {number} */ x) => x.toFixed(5)).join(', ')} | ${r.processPerOp === null ? '–' : Math.round(r.processPerOp).toLocaleString('en-US')} | ${pct(r.processSpread, 1)} | ${r.throughput === null ? '–' : Math.round(r.throughput).toLocaleString('en-US')} | ${pct(r.throughputSpread, 1)} | ${r.throughputAB === null ? '–' : r.throughputAB.toFixed(3)} | ${r.countedS === null ? '–' : r.countedS.toFixed(1)} | ${r.verdicts.instructionsPerOp ?? '–'}, ${r.verdicts.processInstructionsPerOp ?? '–'}, ${r.verdicts.throughput ?? '–'} |`);
}
md.push('\nAcross rounds: max/min − 1 over every counted process of both servers; rounds use different seeds (other rows, other writes), so this is not noise. Spread of throughput: max/min − 1 over the instance medians. B/A per round: the query-path figure of B over A\'s, round by round: what a paired verdict sees.\n');
await writeFile(`${opts.out}.md`, `${md.join('\n')}\n`);
await writeFile(`${opts.out}.json`, `${JSON.stringify({ startedAt, storeDir, loads, runIds: [a.id, b.id], rows, summary: { readsWorstSpread: worst(reads), writesWorstSpread: worst(writes) } }, null, 2)}\n`);
process.stderr.write(`wrote ${opts.out}.md and .json\n`);
