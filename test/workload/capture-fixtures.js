/**
 * Re-capture the sysbench output fixtures of test/fixtures/workload/sysbench/ from REAL runs:
 * starts a private MariaDB (test helper), prepares a small table and runs each case with the
 * runner's own command line. Not a test; run by hand when sysbench or the runner changes:
 *   node test/workload/capture-fixtures.js --write && UPDATE_GOLDEN=1 node --test test/workload/parse-sysbench.test.js
 * Each case's output is written as 1.0.20-<case>.txt (the version sysbench reports).
 * Without --write it does nothing, so a test runner that loads every file under test/ cannot
 * overwrite the fixtures.
 */
import { writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { planSuite } from '../../scripts/workload/suite.js';
import { sysbench } from '../../scripts/workload/sysbench/index.js';
import { spawnSysbench } from '../../scripts/workload/spawn-sysbench.js';
import { findTestPrefix, startTestServer } from './helpers/test-server.js';

if (!process.argv.includes('--write')) {
  process.stderr.write('capture-fixtures: pass --write to re-capture test/fixtures/workload/sysbench/ (overwrites them)\n');
  process.exit(0);
}
const outDir = new URL('../fixtures/workload/sysbench/', import.meta.url);
const version = execFileSync('sysbench', ['--version']).toString().trim().replace(/^sysbench\s+/, '');
const prefix = await findTestPrefix();
const server = await startTestServer({ prefix, port: 23290 });
try {
  /** @type {import('../../scripts/types.js').SuiteConfig} */
  const suite = { name: 'capture', description: '', tables: 1, tableSize: 5000, clients: 1, readDurationS: 3, writeDurationS: 3, warmupS: 1, scanWarmDurationS: 2, restS: 0 };
  const plan = planSuite(suite);
  const step = (/** @type {string} */ name, /** @type {Partial<import('../../scripts/workload/types.js').StepPlan>} */ over = {}) =>
    ({ .../** @type {import('../../scripts/workload/types.js').StepPlan} */ (plan.find((s) => s.name === name)), ...over });
  const load = spawnSysbench(sysbench.buildCommand(step('point-query'), server, { command: 'prepare' }), { timeoutS: 120 });
  if ((await load).exitCode !== 0) throw new Error((await load).output);
  await server.query('ANALYZE TABLE sbtest1');

  /** @type {[string, string[], number, (() => void)?][]} case, argv, timeoutS, action while running */
  const cases = [
    ['point-query-warmup', sysbench.buildCommand(step('point-query'), server), 30],
    ['read-write-nowarmup', sysbench.buildCommand(step('read-write.range10', { warmupS: 0, durationS: 2 }), server), 30],
    ['read-only-2threads', sysbench.buildCommand(step('read-only.range100', { threads: 2, durationS: 2 }), server), 30],
    ['scan', sysbench.buildCommand(step('scan', { durationS: 2 }), server), 30],
    ['update-zipf', sysbench.buildCommand(step('update-zipf', { durationS: 2 }), server), 30],
    ['invalid-option', [...sysbench.buildCommand(step('point-query'), server).slice(0, -1), '--warmup-time=1', 'run'], 30],
    ['lua-error', sysbench.buildCommand(step('points-covered-pk', { params: { 'key-index': 'nope' } }), server), 30],
    ['fatal-connect', sysbench.buildCommand(step('point-query'), { ...server, socket: `${server.dir}/missing.sock` }), 30],
    ['truncated', sysbench.buildCommand(step('point-query', { durationS: 5 }), server), 3.5],
  ];
  for (const [name, argv, timeoutS] of cases) {
    const res = await spawnSysbench(argv, { timeoutS });
    await writeFile(new URL(`${version}-${name}.txt`, outDir), res.output);
    process.stderr.write(`${name}: exit ${res.exitCode ?? res.signal}, ${res.output.length} bytes\n`);
  }
  // Last: the server dies in the middle of a run (SIGKILL after 2.5 s of a 5 s run).
  const running = spawnSysbench(sysbench.buildCommand(step('point-query', { durationS: 5 }), server), { timeoutS: 30 });
  await new Promise((r) => setTimeout(r, 2500));
  await server.kill();
  const res = await running;
  await writeFile(new URL(`${version}-server-killed.txt`, outDir), res.output);
  process.stderr.write(`server-killed: exit ${res.exitCode ?? res.signal}, ${res.output.length} bytes\n`);
} finally {
  await server.stop();
}
