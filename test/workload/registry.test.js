/** The runner registry and the sysbench runner's pure command building. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRunner, RUNNERS } from '../../scripts/workload/registry.js';
import { planSuite } from '../../scripts/workload/suite.js';

/** @type {import('../../scripts/types.js').SuiteConfig} */
const SUITE = { name: 'unit', description: '', tables: 2, tableSize: 500, clients: 4, readDurationS: 7, writeDurationS: 9, warmupS: 3, scanWarmDurationS: 5, restS: 0 };
const TARGET = { host: '127.0.0.1', port: 23299, user: 'root', password: '', database: 'sbtest' };

test('registry: sysbench is known, unknown names list the known ones', () => {
  assert.equal(getRunner('sysbench').name, 'sysbench');
  assert.throws(() => getRunner('ycsb'), /unknown runner 'ycsb'; known: sysbench/);
  for (const r of Object.values(RUNNERS)) {
    for (const m of Object.values(r.metrics)) assert.equal(typeof m.higherIsBetter, 'boolean');
  }
});

test('sysbench.buildCommand: warm-up by checkpoint, uniform ids, text protocol, step options last', () => {
  const steps = planSuite(SUITE);
  const step = /** @type {import('../../scripts/workload/types.js').StepPlan} */ (steps.find((s) => s.name === 'update-one'));
  const argv = getRunner('sysbench').buildCommand(step, TARGET);
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
  const own = getRunner('sysbench').buildCommand(/** @type {any} */ (steps.find((s) => s.name === 'hot-points')), { ...TARGET, socket: '/tmp/x.sock' });
  assert.match(own[1], /scripts\/workload\/lua\/points\.lua$/);
  assert.ok(own.includes('--mysql-socket=/tmp/x.sock') && !own.some((a) => a.startsWith('--mysql-host')));
  assert.ok(own.includes('--hot-points=on'));
  const prep = getRunner('sysbench').buildCommand(/** @type {any} */ (steps[0]), TARGET, { command: 'prepare' });
  assert.ok(prep.includes('--mysql-storage-engine=innodb') && !prep.some((a) => a.startsWith('--time')));
});
