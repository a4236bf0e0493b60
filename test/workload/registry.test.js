/** The benchmark plug-in registry and the sysbench plug-in's pure command building. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { getBenchmark, BENCHMARKS, BENCHMARK_NAME, DEFAULT_BENCHMARKS, registerBenchmarks } from '../../scripts/workload/registry.js';
import { planSuite } from '../../scripts/workload/suite.js';
import { sysbench } from '../../scripts/workload/sysbench/index.js';

/** @type {import('../../scripts/types.js').SuiteConfig} */
const SUITE = { name: 'unit', description: '', tables: 2, tableSize: 500, clients: 4, readDurationS: 7, writeDurationS: 9, warmupS: 3, scanWarmDurationS: 5, restS: 0 };
const TARGET = { host: '127.0.0.1', port: 23299, user: 'root', password: '', database: 'sbtest' };

test('registry: every benchmark is a plug-in of one shape, sysbench included; unknown names list the known ones', () => {
  assert.equal(getBenchmark('sysbench'), sysbench);
  assert.deepEqual(Object.keys(BENCHMARKS), ['sysbench', 'ibench', 'linkbench', 'ddl', 'reload', 'loops']);
  assert.throws(() => getBenchmark('ycsb'), /unknown benchmark 'ycsb'; known: sysbench, ibench, linkbench, ddl, reload, loops/);
  assert.throws(() => getBenchmark('toString'), /unknown benchmark 'toString'/, 'no inherited member counts as a plug-in');
  for (const [name, b] of Object.entries(BENCHMARKS)) {
    assert.equal(b.name, name);
    assert.equal(typeof b.planSteps, 'function', name);
    assert.equal(typeof b.runStep, 'function', name);
    // Direction is said once, in compare/metrics.js: no plug-in carries a metrics map.
    assert.ok(!('metrics' in b), `${name} has no metrics map`);
    assert.ok(Object.isFrozen(b), `${name} is frozen`);
  }
  assert.ok(Object.isFrozen(BENCHMARKS));
  assert.deepEqual(DEFAULT_BENCHMARKS.map(getBenchmark), [sysbench], 'a suite without benchmarks runs the sysbench suite');
  assert.ok(Object.isFrozen(DEFAULT_BENCHMARKS));
  // The plug-ins that run sysbench report its version; the others run no tool whose version is recorded.
  assert.deepEqual(Object.entries(BENCHMARKS).filter(([, b]) => b.toolVersions === sysbench.toolVersions).map(([n]) => n), ['sysbench', 'ddl', 'reload', 'loops']);
  assert.equal(BENCHMARKS.ibench.toolVersions, undefined);
  assert.equal(BENCHMARKS.linkbench.toolVersions, undefined);
});

test('registry: a plug-in of the wrong shape is refused at registration, naming its folder and the member', () => {
  const planSteps = () => [];
  assert.throws(() => registerBenchmarks(/** @type {any} */ ({ tpcc: { name: 'tpcc', planSteps } })),
    /scripts\/workload\/tpcc\/index\.js: benchmark plug-in lacks runStep/);
  assert.throws(() => registerBenchmarks(/** @type {any} */ ({ tpcc: { name: 'tpc', planSteps, runStep: planSteps } })),
    /scripts\/workload\/tpcc\/index\.js: benchmark plug-in name 'tpc' must equal its folder name/);
  assert.throws(() => registerBenchmarks(/** @type {any} */ ({ tpcc: { name: 'tpcc', planSteps, runStep: 'no' } })),
    /scripts\/workload\/tpcc\/index\.js: benchmark plug-in member runStep must be a function/);
  assert.throws(() => registerBenchmarks(/** @type {any} */ ({ TPCC: { name: 'TPCC', planSteps, runStep: planSteps } })),
    /scripts\/workload\/TPCC\/index\.js: benchmark plug-in name 'TPCC' must match/);
  assert.throws(() => registerBenchmarks(/** @type {any} */ ({ tpcc: { name: 'tpcc', planSteps, runStep: planSteps, toolVersions: { tpcc: '1' } } })),
    /scripts\/workload\/tpcc\/index\.js: benchmark plug-in member toolVersions must be a function/);
});

test('every planned step names its plug-in and whether it is measured; only the sysbench load loads the run\'s data', () => {
  const steps = planSuite(SUITE);
  assert.ok(steps.every((s) => s.benchmark === 'sysbench'));
  assert.deepEqual(steps.filter((s) => !s.measured).map((s) => s.name), ['load', 'postwrite.after-load', 'postwrite.after-read-write']);
  assert.deepEqual(steps.filter((s) => s.loadsData).map((s) => s.name), ['load']);
  assert.ok(steps.filter((s) => s.kind === 'sysbench').every((s) => s.measured), 'warm-ups are measured repeats too');
});

test('sysbench.buildCommand: warm-up by checkpoint, uniform ids, text protocol, step options last', () => {
  const steps = planSuite(SUITE);
  const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (steps.find((s) => s.name === 'update-one'));
  const argv = sysbench.buildCommand(step, TARGET);
  assert.equal(argv[0], 'sysbench');
  assert.equal(argv[1], 'oltp_update_non_index');
  assert.equal(argv.at(-1), 'run');
  for (const opt of ['--time=12', '--report-checkpoints=3', '--events=0', '--report-interval=1', '--percentile=95',
    '--histogram=off', '--db-ps-mode=disable', '--rand-type=uniform', '--threads=4', '--tables=2',
    '--mysql-host=127.0.0.1', '--mysql-port=23299', '--mysql-user=root', '--mysql-db=sbtest']) {
    assert.ok(argv.includes(opt), `${opt} in ${argv.join(' ')}`);
  }
  assert.ok(!argv.some((a) => a.startsWith('--mysql-password')), 'no empty password option');
  // The step's own options replace the suite's: one --table-size, the step's.
  assert.deepEqual(argv.filter((a) => a.startsWith('--table-size')), ['--table-size=1']);
  const own = sysbench.buildCommand(/** @type {any} */ (steps.find((s) => s.name === 'hot-points')), { ...TARGET, socket: '/tmp/x.sock' });
  assert.match(own[1], /scripts\/workload\/lua\/points\.lua$/);
  assert.ok(own.includes('--mysql-socket=/tmp/x.sock') && !own.some((a) => a.startsWith('--mysql-host')));
  assert.ok(own.includes('--hot-points=on'));
  const prep = sysbench.buildCommand(/** @type {any} */ (steps[0]), TARGET, { command: 'prepare' });
  assert.ok(prep.includes('--mysql-storage-engine=innodb') && !prep.some((a) => a.startsWith('--time')));
});

test('the plug-in name form is one pattern: the registry\'s, the suite schema\'s benchmarks, the record\'s Step.kind; every planned kind has it', async () => {
  const read = async (/** @type {string} */ rel) => JSON.parse(await readFile(new URL(rel, import.meta.url), 'utf8'));
  const suiteSchema = await read('../../scripts/config/schemas/suite.schema.json');
  const recordSchema = await read('../../scripts/store/schemas/run-record.schema.json');
  assert.equal(suiteSchema.properties.benchmarks.items.pattern, BENCHMARK_NAME.source);
  assert.equal(recordSchema.$defs.Step.properties.kind.pattern, BENCHMARK_NAME.source);
  for (const name of Object.keys(BENCHMARKS)) assert.match(name, BENCHMARK_NAME);
  const all = { ...SUITE, benchmarks: Object.keys(BENCHMARKS),
    ibench: { loadRows: 100, l1Rows: 50, l2Rows: 5, queryDurationS: 1 },
    linkbench: { maxid1: 100, loaders: 1, requesters: 1, maxtimeS: 1 },
    ddl: { tables: 1, tableSize: 100 }, reload: { tables: 1, tableSize: 100 }, loops: { loops: 2, loopDurationS: 1 } };
  const kinds = new Set(planSuite(/** @type {any} */ (all)).map((s) => s.kind));
  for (const kind of kinds) assert.match(kind, BENCHMARK_NAME);
  assert.ok(kinds.has('load') && kinds.has('postwrite') && kinds.has('ibench'), [...kinds].join(', '));
});
