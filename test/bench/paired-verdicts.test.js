/**
 * The pure parts of bench/paired-verdicts.js: telling A, B and S apart by label, reducing a
 * calibration's main runs to an extract that judges like the stored records, both designs'
 * counts, and that the committed extracts give the committed report. The figures in
 * bench/paired-verdicts.md come from real calibration records (the committed extracts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  serverOf, extractRuns, buildExtract, judgeRun, summarize, realisedSlowdown, renderReport, parseOptions, smallestRankSumP,
} from '../../bench/paired-verdicts.js';
import { loadConfig } from '../../scripts/config/index.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { readRecords, writeRecord } from '../../scripts/store/index.js';
import { UserError } from '../../scripts/errors.js';
import { makeRecord } from '../compare/make-record.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const thresholds = resolveThresholds((await loadConfig(ROOT)).thresholds);

const RUN = { stamp: '20261123T061844Z', tag: 'ae3881' };
/** @param {string} stamp @param {string} label @param {string} tag */
const idOf = (stamp, label, tag) => `${stamp}-local-mariadb-10.11.18-${label ? `${label}-` : ''}smoke-${tag}`;
// Four rounds; the host's speed drifts from round to round and every server of a round shares it.
const DRIFT = [1000, 1500, 800, 1200];

/**
 * A record of one server of a run, in the id form calibrate writes, with 12 per-second rates a
 * repeat (so the QoS metrics are gated too) and CPU per operation.
 * @param {string} id
 * @param {(round: number) => number} factor the server's throughput over the round's drift
 * @param {number} [instances] rounds
 */
function server(id, factor, instances = DRIFT.length) {
  const tp = DRIFT.slice(0, instances).map((d, i) => Math.round(d * factor(i) * 100) / 100);
  const record = makeRecord({
    id,
    version: '10.11.18',
    steps: [{
      name: 'point-query',
      throughput: tp,
      instances: tp.map((_, i) => i),
      cpuUsPerOp: tp.map((v) => 1e5 / v),
      intervals: tp.map((v) => Array.from({ length: 12 }, (_, t) => v * (1 + 0.01 * ((t % 3) - 1)))),
    }],
  });
  record.config.instances = instances;
  return record;
}

const records = () => [
  server(idOf('20261123T061745Z', 'ref2809', '8a0690'), () => 1, 1),
  server(idOf(RUN.stamp, '', RUN.tag), () => 1),
  server(idOf(RUN.stamp, 'B', RUN.tag), (i) => (i % 2 ? 1.004 : 0.996)),
  server(idOf(RUN.stamp, 'S2809', RUN.tag), (i) => 0.8 * (i % 2 ? 1.003 : 0.997)),
  // an adaptive round of A against B only: not a main run
  server(idOf('20261123T063638Z', '', 'eed0e3'), () => 1, 2),
  server(idOf('20261123T063638Z', 'B', 'eed0e3'), () => 1, 2),
];
// the report lists the run's ids in another order than A, B, S: the labels decide, not the order
const report = { suite: 'smoke', runs: [{ index: 1, slowdown: 0.15, runIds: [idOf(RUN.stamp, 'S2809', RUN.tag), idOf(RUN.stamp, '', RUN.tag), idOf(RUN.stamp, 'B', RUN.tag)] }] };

test('serverOf tells A, B and S apart by the label in the id, and the reference run from all three', () => {
  const [ref, a, b, s] = records();
  assert.deepEqual([ref, a, b, s].map(serverOf), [null, 'A', 'B', 'S']);
  assert.equal(serverOf(server(idOf(RUN.stamp, 'Sx', RUN.tag), () => 1)), null);
});

test('an extract from a hand-made store judges like the stored records, in both designs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'paired-verdicts-'));
  try {
    for (const r of records()) await writeRecord(join(dir, 'store'), r);
    await writeFile(join(dir, 'report.json'), JSON.stringify(report));
    const extract = JSON.parse(JSON.stringify(await buildExtract(join(dir, 'store'), join(dir, 'report.json'), undefined, thresholds)));
    assert.equal(extract.runs.length, 1);
    const [run] = extract.runs;
    assert.deepEqual([run.A.id, run.B.id, run.S.id], [idOf(RUN.stamp, '', RUN.tag), idOf(RUN.stamp, 'B', RUN.tag), idOf(RUN.stamp, 'S2809', RUN.tag)]);
    assert.equal(extract.leftOut, '1 × A+B with 2 instances per side (adaptive round), 1 × reference run');
    // reduced: no raw figures, per-second rates as [t, qps]
    const rep = run.A.steps[0].repeats[0];
    assert.equal('tps' in rep || 'startedAt' in rep || 'mysqldRssKb' in rep, false);
    assert.deepEqual(rep.intervals[0], [1, 990]);

    const stored = await readRecords(join(dir, 'store'), {});
    const byLabel = (/** @type {string} */ label) => /** @type {import('../../scripts/types.js').RunRecord} */ (stored.find((r) => r.id === idOf(RUN.stamp, label, RUN.tag)));
    const fields = (/** @type {import('../../scripts/compare/index.js').FullComparison} */ c) => c.tests.map((v) => ({ test: v.test, metric: v.metric, verdict: v.verdict, level: v.level, ratio: v.ratio, pWorse: v.pWorse, pAdjusted: v.pAdjusted, pairedRounds: v.pairedRounds }));
    for (const t of [thresholds, { ...thresholds, pairedMinRounds: 0 }]) {
      const judged = judgeRun(run, t);
      const direct = (/** @type {string} */ label) => compareRuns({ base: { version: 'A', records: [byLabel('')] }, candidate: { version: label, records: [byLabel(label)] }, thresholds: t, createdAt: '2026-01-01T00:00:00Z' });
      assert.deepEqual(fields(judged.aa), fields(direct('B')));
      assert.deepEqual(fields(judged.as), fields(direct('S2809')));
      // the per-second rates made it: the QoS metrics are judged from the extract too
      assert.ok(judged.as.tests.some((v) => v.metric === 'qpsP50'), 'QoS verdicts from the extract\'s intervals');
      assert.equal(judged.as.tests.every((v) => (t.pairedMinRounds === 0 ? v.pairedRounds === undefined : v.pairedRounds === 4)), true);
    }
    await assert.rejects(buildExtract(join(dir, 'store'), join(dir, 'report.json'), 'smoke-15s', thresholds), /--suite smoke-15s, but .* calibrated suite smoke/);
    await writeFile(join(dir, 'report.json'), JSON.stringify({ ...report, runs: [{ ...report.runs[0], runIds: [...report.runs[0].runIds, idOf(RUN.stamp, 'C', RUN.tag)] }] }));
    await assert.rejects(buildExtract(join(dir, 'store'), join(dir, 'report.json'), undefined, thresholds), (err) => err instanceof UserError && /is not in the store/.test(err.message));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('extractRuns refuses a run whose records are not A, B and S', () => {
  const [ref, a, b] = records();
  const bad = { suite: 'smoke', runs: [{ index: 1, slowdown: 0.05, runIds: [a.id, b.id] }] };
  assert.throws(() => extractRuns([ref, a, b], bad), /lack S/);
  assert.throws(() => extractRuns([ref, a, b], { ...bad, runs: [{ ...bad.runs[0], runIds: [a.id, b.id, ref.id] }] }), /not one of A, B/);
});

test('summarize: a drop under a shared drift is an issue paired and not independent; A/A stays quiet', () => {
  const [, a, b, s] = records();
  const extract = /** @type {any} */ ({ suite: 'smoke', runs: extractRuns([a, b, s], report).runs });
  const { designs, realised } = summarize(extract, thresholds);
  const [paired, independent] = designs;
  assert.deepEqual([paired.design, independent.design], ['paired', 'independent']);
  assert.deepEqual(paired.as.map((r) => [r.slowdown, r.trials, r.issue, r.paired]), [[0.15, 1, 1, 1]]);
  // 4 vs 4 instances: the exact test's smallest p, 1/70, is above Holm's first step
  assert.deepEqual(independent.as.map((r) => [r.trials, r.issue, r.paired]), [[1, 0, 0]]);
  assert.ok(smallestRankSumP(4, 4) > thresholds.familyAlpha / independent.familySizes[0]);
  assert.ok(paired.as[0].pWorse[0] < 1e-4 && independent.as[0].pWorse[0] > 0.01);
  assert.equal(paired.aa.withIssue + independent.aa.withIssue, 0);
  assert.equal(paired.aa.paired, paired.aa.verdicts);
  assert.equal(independent.aa.paired, 0);
  assert.ok(Math.abs(realised[0].values[0] - 0.2) < 0.005, `realised ${realised[0].values[0]}`);
  assert.deepEqual(Object.keys(realisedSlowdown(extract.runs[0])), ['point-query']);
});

test('smallestRankSumP is 1 / C(m + n, m)', () => {
  assert.equal(smallestRankSumP(3, 3), 1 / 20);
  assert.ok(Math.abs(smallestRankSumP(5, 5) - 1 / 252) < 1e-15);
  assert.ok(Math.abs(smallestRankSumP(2, 5) - 1 / 21) < 1e-15);
});

test('the committed extracts reproduce the committed report (everything below its header)', async () => {
  const extracts = await Promise.all(['smoke', 'smoke-15s'].map(async (suite) => JSON.parse(await readFile(join(ROOT, 'bench', `paired-verdicts-${suite}.json`), 'utf8'))));
  const committed = await readFile(join(ROOT, 'bench', 'paired-verdicts.md'), 'utf8');
  const command = 'node bench/paired-verdicts.js --extract bench/paired-verdicts-smoke.json --extract bench/paired-verdicts-smoke-15s.json';
  assert.ok(committed.includes(`\`${command}\``), 'the header names the command that wrote it');
  const body = (/** @type {string} */ text) => text.slice(text.indexOf('\n## '));
  const rendered = renderReport(extracts, thresholds, { command, date: '2000-01-01' });
  const rows = (/** @type {string} */ text) => text.split('\n').filter((l) => l.startsWith('| '));
  assert.ok(rows(committed).length >= 20, 'the committed report has its tables');
  assert.deepEqual(rows(rendered), rows(committed));
  assert.equal(body(rendered), body(committed));
});

test('parseOptions wants a store with its report, or an extract', () => {
  assert.throws(() => parseOptions([]), (err) => err instanceof UserError && /--store DIR --report FILE/.test(err.message));
  assert.throws(() => parseOptions(['--store', '/x']), /--store needs --report/);
  assert.throws(() => parseOptions(['--report', 'r.json']), /--report needs --store/);
  assert.deepEqual(parseOptions(['--extract', 'a.json', '--extract', 'b.json']).extracts, ['a.json', 'b.json']);
  assert.equal(parseOptions(['--extract', 'a.json']).out, 'bench/paired-verdicts.md');
});
