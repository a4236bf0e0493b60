// The meter seam's proof (issue 32): a made-up TIMED meter and a made-up COUNTED meter, defined
// here only and plugged in with withMeters (the registry's map is left as it is), run through
// the real run stage (runReleases: two real MariaDB releases, real sysbench, a tiny suite),
// stored (records valid against the schema, figures in their one home), compared (compareRuns
// judges their metrics in the direction each states) and shown on the site (buildSite's output
// holds their verdicts and figures), without any other file knowing them.
//
// The same run shows wall's own context beside them: the work counters of every timed repeat
// (repeat.meters.work) and their line in the comparison.
//
// The timed one counts the server's InnoDB buffer pool page requests over a timed repeat, per
// operation; the counted one counts the same status over a counted repeat's fixed work, per
// operation (one figure on both roads, so one my.cnf change calibrates both). Both read SHOW GLOBAL STATUS through the server handle: cheap, and real figures of
// the server. The second test calibrates each through the real calibration pipeline
// (calibrateHost) with a strategy the meter brings (meter.calibration), defined here too.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../scripts/config/index.js';
import { runReleases } from '../../../scripts/run/index.js';
import { validateRecord, readRecords, writeComparison } from '../../../scripts/store/index.js';
import { compareRuns, resolveThresholds, isUndecided, renderComparison } from '../../../scripts/compare/index.js';
import { withMeters, METERS } from '../../../scripts/metrics/index.js';
import { stopAllServers } from '../../../scripts/server/index.js';
import { buildSite } from '../../../scripts/site-build/build-site.js';
import { dataPaths } from '../../../site/js/paths.js';
import { calibrateHost } from '../../../scripts/verify/calibrate/pipeline.js';

/** @typedef {import('../../../scripts/metrics/types.js').Meter} Meter */

const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
after(() => stopAllServers());

/**
 * @param {import('../../../scripts/metrics/types.js').QueryFn|undefined} query
 * @param {string} name a global status variable
 * @returns {Promise<number>}
 */
async function status(query, name) {
  if (!query) throw new Error('the meter needs the server\'s query function');
  const rows = await query(`SHOW GLOBAL STATUS LIKE '${name}'`);
  const row = rows[0];
  return Number(Array.isArray(row) ? row[1] : row.Value ?? row.value);
}

/** A timed meter: InnoDB buffer pool read requests per operation of a timed repeat. @type {Meter} */
const poolReads = {
  name: 'pool-reads',
  kind: 'timed',
  metrics: [{ name: 'poolReadsPerOp', figure: 'perOp.poolReadsPerOp', unit: 'page reads/op', higherIsBetter: false, scale: 'log', label: 'buffer pool page reads per op' }],
  needs: { tools: [], wrappedServer: false },
  async start(target) {
    const before = await status(target.query, 'Innodb_buffer_pool_read_requests');
    return {
      async stop(repeat) {
        if (repeat === null) return null;
        const delta = (await status(target.query, 'Innodb_buffer_pool_read_requests')) - before;
        const ops = repeat.ok && repeat.throughput !== null ? repeat.throughput * repeat.durationS : 0;
        return { meter: 'pool-reads', perOp: {}, repeat: {}, meters: { 'pool-reads': { perOp: { poolReadsPerOp: ops > 0 ? delta / ops : null } } } };
      },
    };
  },
};

/** A counted meter: buffer pool page requests per operation of a counted repeat's fixed work. @type {Meter} */
const pageGets = {
  name: 'page-gets',
  kind: 'counted',
  metrics: [{ name: 'pageGetsPerOp', figure: 'pageGetsPerOp', unit: 'page requests/op', higherIsBetter: false, scale: 'log', label: 'buffer pool page requests per op of the counted work' }],
  needs: { tools: [], wrappedServer: false },
  async start(target) {
    // A counting meter runs the warm-up before it starts counting (MeterTarget.beforeZero).
    await target.beforeZero?.();
    const before = await status(target.query, 'Innodb_buffer_pool_read_requests');
    return {
      async stop(repeat) {
        if (repeat === null) return null;
        const delta = (await status(target.query, 'Innodb_buffer_pool_read_requests')) - before;
        const ops = repeat.operations ?? 0;
        return { meter: 'page-gets', perOp: {}, repeat: { 'page-gets': { operations: ops, pageGetsPerOp: ops > 0 ? delta / ops : 0 } } };
      },
    };
  },
};

test('a made-up timed meter and a made-up counted meter: run, stored, compared and shown, from one object each', {
  timeout: 600_000,
}, async () => {
  await assertInstalled();
  const { config, thresholds } = await madeUpSetup();
  const base = await mkdtemp(join(tmpdir(), 'tagbench-made-up-meters-'));
  const storeDir = join(base, 'results');
  const lines = /** @type {string[]} */ ([]);
  const outcome = await withMeters({ 'pool-reads': poolReads, 'page-gets': pageGets }, () => runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'made-up', hostClass: 'local', repeats: 2, instances: 2, only: ['point-query'],
    meters: ['wall', 'pool-reads', 'page-gets'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  }));
  const log = lines.join('');
  assert.equal(Object.hasOwn(METERS, 'pool-reads'), false, 'the registry never knew them');

  // Stored: valid records, each figure in its one home, the metric facts in the record.
  const records = await readRecords(storeDir);
  assert.equal(records.length, 2, log);
  for (const record of records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', `${record.reason ?? ''}\n${log}`);
    assert.deepEqual(record.config.meters, ['wall', 'pool-reads', 'page-gets']);
    assert.deepEqual(Object.keys(record.config.meterMetrics ?? {}), ['pool-reads', 'page-gets']);
    const step = /** @type {import('../../../scripts/types.js').Step} */ (record.steps.find((s) => s.name === 'point-query'));
    assert.deepEqual(step.repeats.map((r) => r.instance), [0, 1], 'two repeats, one on each of two instances');
    for (const rep of step.repeats) {
      const figures = /** @type {any} */ (rep.meters?.['pool-reads']);
      assert.ok(figures?.perOp.poolReadsPerOp > 0.5, `page reads per op of a point-query repeat (at least the leaf): ${JSON.stringify(rep.meters)}`);
      assert.ok(rep.throughput && rep.throughput > 0, 'wall\'s figures stay the repeat\'s own');
      assert.equal(/** @type {any} */ (rep)['pool-reads'], undefined);
      // Beside it, wall's own context: the work counters per op (meters/work.js), one row by key per point select.
      const work = /** @type {import('../../../scripts/types.js').TimedWorkFigures} */ (rep.meters?.work);
      assert.ok(work, `the timed repeat keeps meters.work beside the made-up meter's: ${Object.keys(rep.meters ?? {})}`);
      assert.equal(work.workS, work.windowS, 'no warm-up in this suite: the rate is taken over the measured window');
      assert.ok(work.perOp.rowsRead !== null && Math.abs(work.perOp.rowsRead - 1) < 0.03, `rows read per op ${work.perOp.rowsRead}`);
      // Wall's own status reads are taken off; the made-up meter's SHOW STATUS LIKE in the window is not (a few rows).
      assert.ok(work.perOp.tableScanRows !== null && work.perOp.tableScanRows < 0.01, `table scan rows per op ${work.perOp.tableScanRows}`);
      assert.equal(work.perOp.logFsyncs, null, 'MariaDB lacks it: null, never 0');
      assert.match(work.missing.logFsyncs, /MariaDB reports no Innodb_os_log_fsyncs/);
    }
    const slot = step.meters?.['page-gets'];
    assert.equal(slot?.status, 'ok', slot?.reason ?? log);
    assert.deepEqual(slot?.repeats.map((r) => r.instance), [0, 1], 'one counted repeat per round');
    for (const rep of slot?.repeats ?? []) assert.ok(/** @type {any} */ (rep)['page-gets'].pageGetsPerOp > 0.5, `at least the leaf page per point query: ${JSON.stringify(rep)}`);
  }

  // Compared: verdicts of both meters' metrics, in the direction each meter states.
  const [b, c] = ['10.11.18', '10.11.19'].map((v) => ({ version: v, records: records.filter((r) => r.release.version === v) }));
  const comparison = compareRuns({ base: b, candidate: c, thresholds, createdAt: new Date().toISOString() });
  const timed = comparison.tests.find((t) => t.metric === 'poolReadsPerOp');
  const counted = comparison.tests.find((t) => t.metric === 'pageGetsPerOp');
  assert.ok(timed && counted, JSON.stringify(comparison.tests.map((t) => t.metric)));
  for (const v of [timed, counted]) {
    assert.equal(v.higherIsBetter, false);
    assert.notEqual(v.verdict, 'failed', v.reason);
    assert.ok(v.base && v.base.median > 0 && v.candidate && v.candidate.median > 0);
  }
  assert.equal(timed.unit, 'page reads/op');
  assert.equal(counted.unit, 'page requests/op');
  assert.deepEqual([timed.meter, counted.meter], ['pool-reads', 'page-gets'], 'each verdict names its meter, from the records\' facts');
  assert.equal(counted.counted, true, 'the counted meter\'s verdict says so');
  assert.equal(timed.counted, undefined);
  assert.equal(isUndecided({ ...counted, verdict: 'inconclusive', mde: 1 }), false, 'more timed instances never decide a counted verdict');
  assert.ok(comparison.tests.some((t) => t.metric === 'throughput'), 'wall is judged beside them');
  // The work counters of the timed repeats: context beside the timed verdict, never a verdict.
  assert.deepEqual(comparison.timedWork?.map((w) => [w.test, w.repeats]), [['point-query', { base: 2, candidate: 2 }]]);
  assert.equal(comparison.tests.some((t) => /^(rowsRead|indexLookups)/.test(t.metric)), false);
  assert.match(renderComparison(comparison, { format: 'markdown' }), /\*\*Server work on the timed repeats\*\* \(.*context, not gated.*\n\n- point-query: .*rows read\/op 1\.00 → 1\.00/);
  assert.match(renderComparison(comparison, { format: 'terminal' }), /server work per operation on the timed repeats, base → candidate .*context, not gated.*\n  (point-query: .*\/op \S+ → \S+|1 test: no counter moved by 5 % or more)/);

  // Shown: the site's data holds their verdicts with the figures.
  await writeComparison(storeDir, comparison);
  const out = join(base, 'site');
  await buildSite({ store: storeDir, out, baselines: join(base, 'no-baselines'), configRoot: root });
  const data = await readAll(out);
  for (const v of [timed, counted]) {
    assert.match(data, new RegExp(`"metric":"${v.metric}"`), `${v.metric} is on the site`);
    assert.ok(data.includes(String(v.candidate?.median)), `${v.metric}'s candidate median ${v.candidate?.median} is on the site`);
  }
  // The counted meter has a counted column of its own, under its own label, with its figures:
  // the release page's and the table's data (the pages draw a column per meter from these).
  const release = JSON.parse(await readFile(join(out, dataPaths.release({ host: 'local', product: 'mariadb', version: '10.11.19', suite: 'made-up' })), 'utf8'));
  const row = release.tests.find((/** @type {any} */ t) => t.name === 'point-query');
  assert.deepEqual(Object.keys(row.counted), ['page-gets'], 'the timed meter is not a counted column');
  const column = row.counted['page-gets'];
  assert.deepEqual([column.metric, column.unit, column.label, column.status], ['pageGetsPerOp', 'page requests/op', pageGets.metrics[0].label, 'ok']);
  const step = records.find((r) => r.release.version === '10.11.19')?.steps.find((s) => s.name === 'point-query');
  const own = (step?.meters?.['page-gets']?.repeats ?? []).map((r) => /** @type {any} */ (r)['page-gets'].pageGetsPerOp).sort((a, b) => a - b);
  assert.deepEqual([column.min, column.max, column.n], [own[0], own.at(-1), own.length], 'the figures of its counted repeats');
  assert.equal(row.countedVerdicts['page-gets'].verdict, counted.verdict, 'its verdict beside them');
  const table = JSON.parse(await readFile(join(out, dataPaths.table({ host: 'local', product: 'mariadb', line: '10.11', suite: 'made-up' })), 'utf8'));
  assert.equal(table.tests.find((/** @type {any} */ t) => t.name === 'point-query').counted['page-gets'].label, pageGets.metrics[0].label);
});

test('each made-up meter is calibrated by the real pipeline with the strategy it brings: run, judged through compare, reported', {
  timeout: 600_000,
}, async () => {
  await assertInstalled();
  const { config, thresholds } = await madeUpSetup();
  const base = await mkdtemp(join(tmpdir(), 'tagbench-made-up-calibration-'));
  const strategyRan = /** @type {string[]} */ ([]);
  const meters = {
    'pool-reads': { ...poolReads, calibration: hashIndexStrategy('timed', 'poolReadsPerOp', config, thresholds, strategyRan) },
    'page-gets': { ...pageGets, calibration: hashIndexStrategy('counted', 'pageGetsPerOp', config, thresholds, strategyRan) },
  };
  for (const meter of Object.values(meters)) {
    const report = join(base, `calibration-${meter.name}.md`);
    const exit = await withMeters(meters, () => calibrateHost({
      meter: meter.name, product: 'mariadb', version: '10.11.18', hostClass: 'local', suite: 'made-up', only: 'point-query', runs: 1,
      report, store: join(base, 'store'), workDir: join(base, 'work'), cacheDir, root,
    }));
    assert.equal(exit, 0);
    assert.deepEqual(strategyRan.splice(0), [`plan ${meter.name}`, `start ${meter.name}`, `round ${meter.name}`], 'the pipeline took the meter\'s own strategy');
    // Written by the pipeline (writeReport): the strategy's report, its summary and its Markdown.
    const json = JSON.parse(await readFile(report.replace(/\.md$/, '.json'), 'utf8'));
    assert.equal(json.format, `test-calibration-${meter.name}/1`);
    assert.equal(json.runs.length, 1, 'one run, as --runs asked');
    const [run] = json.runs;
    // The adaptive hash index takes a point query straight to its leaf page: on 2,000 rows (a
    // B-tree of two levels, about 2 page requests a query) the figure falls to about half.
    assert.equal(run.verdict, 'improvement', JSON.stringify(run));
    assert.ok(run.ratio > 0.4 && run.ratio < 0.6, `S's ${run.metric} about half of A's (one page of two): ratio ${run.ratio}`);
    assert.equal(run.counted, meter.kind === 'counted', 'compare judged the counted meter on its counted repeats');
    assert.equal(json.detected, 1, 'summarize ran over the runs');
    assert.match(await readFile(report, 'utf8'), new RegExp(`^# Calibration of the ${meter.name} meter: detected in 1 of 1 runs`));
  }
});

/** The my.cnf template of the injected server: the suite's (InnoDB) with the adaptive hash index on. */
const HASH_INDEX_TEMPLATE = 'innodb-adaptive-hash';

/**
 * A test-only calibration strategy (pipeline.js CalibrationStrategy), what a meter whose cost
 * needs its own injection brings as `meter.calibration`: per run, A (the release as it is) and S
 * (the same release with InnoDB's adaptive hash index on, a my.cnf change; MariaDB 10.5 and
 * later leave it off) side by side, measured by the meter alone, three instances (rounds) each,
 * the fewest a 90 % interval takes; detection is S's verdict on the meter's metric in
 * compareRuns, A as the base. The hash index moves the figure by a known amount: a point query
 * found through it requests its leaf page only, not the root above it.
 * @param {'timed'|'counted'} kind
 * @param {string} metric the meter's metric judged
 * @param {import('../../../scripts/types.js').Config} config the made-up suite's
 * @param {import('../../../scripts/compare/index.js').CompareThresholds} thresholds that judge the metric
 * @param {string[]} ran what the pipeline called, '<member> <meter>' each
 * @returns {import('../../../scripts/verify/calibrate/pipeline.js').CalibrationStrategy}
 */
function hashIndexStrategy(kind, metric, config, thresholds, ran) {
  const mycnf = { ...config.mycnf, [HASH_INDEX_TEMPLATE]: `${config.mycnf.innodb}\n[mysqld]\ninnodb_adaptive_hash_index=ON\n` };
  const local = config.hosts.local;
  const hosts = { ...config.hosts, local: { ...local, counting: { ...local.counting, rounds: 3 } } };
  return {
    kind,
    plan: (_options, common) => {
      ran.push(`plan ${common.meter.name}`);
      const settings = { product: common.product, version: common.version, meter: common.meter.name, suite: common.suite, tests: common.tests };
      return { ...common, config: { ...config, mycnf, hosts }, thresholds, settings, format: `test-calibration-${common.meter.name}/1`, olderDefaults: {} };
    },
    check: async () => {},
    newReport: (plan) => ({ format: plan.format, ...plan.settings, runs: [] }),
    start: async (plan, _report, { signal }) => {
      ran.push(`start ${plan.meter.name}`);
      return { plan, signal };
    },
    async round(report, { plan, signal }) {
      ran.push(`round ${plan.meter.name}`);
      const started = Date.now();
      // A release's own my.cnf template, as the counted strategy's performance_schema server has it.
      /** @type {import('../../../scripts/verify/calibrate/rounds.js').ServerSpec[]} */
      const servers = [{ product: plan.product, version: plan.version, label: 'A' }, { product: plan.product, version: plan.version, label: 'S', mycnf: HASH_INDEX_TEMPLATE }];
      const outcome = await runReleases(plan.config, {
        releases: servers,
        suite: plan.suite, hostClass: plan.hostClass, only: plan.tests, meters: plan.meters, repeats: 3, instances: 3,
        storeDir: plan.storeDir, workDir: plan.workBase, cacheDir: plan.cacheDir, signal,
      });
      if (outcome.interrupted) return false;
      const [a, s] = outcome.records;
      const comparison = compareRuns({ base: { version: 'A', records: [a] }, candidate: { version: 'S', records: [s] }, thresholds: plan.thresholds, createdAt: new Date().toISOString() });
      const v = comparison.tests.find((t) => t.metric === metric);
      report.runs.push({ seconds: Math.round((Date.now() - started) / 1000), runIds: [a.id, s.id], metric, verdict: v?.verdict ?? null, ratio: v?.ratio ?? null, counted: v?.counted ?? false, reason: v?.reason ?? a.reason ?? s.reason ?? null });
      return true;
    },
    summarize: (report) => ({ detected: report.runs.filter((/** @type {any} */ r) => r.verdict === 'improvement').length }),
    render: (report) => `# Calibration of the ${report.meter} meter: detected in ${report.detected} of ${report.runs.length} runs\n`,
    finish: async () => {},
    interrupted: () => {},
  };
}

/**
 * Never skipped: npm test (setup/test.sh) installs both releases first; a missing one is a
 * broken setup, and skipping would hide the seam's only end-to-end proof.
 * @returns {Promise<void>}
 */
async function assertInstalled() {
  const installed = await readdir(cacheDir).catch(() => /** @type {string[]} */ ([]));
  for (const release of ['mariadb-10.11.18@deb', 'mariadb-10.11.19@deb']) {
    assert.ok(installed.includes(release), `${release} is not in the install cache ${cacheDir} (TAGBENCH_CACHE): run npm test, which installs it, or tagbench install ${release.replace('-', ' ').replace('@deb', ' --provider deb')}`);
  }
}

/**
 * The project's config with a tiny suite of its own (2,000 rows, 2 s per test) and two counting
 * rounds, and thresholds that judge the made-up meters' metrics.
 * @returns {Promise<{config: import('../../../scripts/types.js').Config, thresholds: import('../../../scripts/compare/index.js').CompareThresholds}>}
 */
async function madeUpSetup() {
  const loaded = await loadConfig(root);
  const config = {
    ...loaded,
    hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, counting: { rounds: 2, repeats: 1, warmupShare: 0.3 } } },
    suites: { ...loaded.suites, 'made-up': { ...loaded.suites.smoke, name: 'made-up', tableSize: 2000, readDurationS: 2, warmupS: 0, scanWarmDurationS: 1, restS: 0 } },
  };
  const thresholds = resolveThresholds(/** @type {any} */ ({
    ...loaded.thresholds,
    metrics: { ...(loaded.thresholds.metrics ?? {}), poolReadsPerOp: { warn: 0.05, issue: 0.1 }, pageGetsPerOp: { warn: 0.05, issue: 0.1 } },
  }));
  return { config, thresholds };
}

/**
 * Every JSON file the site build wrote, concatenated.
 * @param {string} dir
 * @returns {Promise<string>}
 */
async function readAll(dir) {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.json'));
  return (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
}
