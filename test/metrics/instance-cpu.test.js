/**
 * CPU per operation of one release over three server instances (a restart on the same datadir
 * between them, as a run does) must not depend on what else the machine is doing. Real
 * MariaDB 10.11.18 and sysbench, both pinned to one CPU as on the `local` host class; during
 * instances 2 and 3 a process outside the step keeps another CPU busy, the way background
 * activity did in the demo (instance 1 read half the CPU µs/op of instances 2 and 3). With the
 * system-wide vmstat us+sy the busy CPU was counted into the step; the step's own processes'
 * CPU time (StepSamples.processCpu) leaves it out.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { startSampling, computeEfficiency } from '../../scripts/metrics/index.js';
import { skipReason, getInstall, tempWorkDir, serverOptions, TEST_CPU } from '../server/helpers.js';

const execFileP = promisify(execFile);
const hasSysbench = await execFileP('sysbench', ['--version']).then(() => true, () => false);
/** @type {(() => Promise<void>)[]} */
const cleanups = [];
after(async () => {
  await stopAllServers();
  for (const c of cleanups.reverse()) await c();
});

/**
 * @param {number} port
 * @param {string[]} args
 * @returns {Promise<string>} sysbench's stdout
 */
async function sysbench(port, args) {
  const common = [
    '--db-driver=mysql', '--mysql-host=127.0.0.1', `--mysql-port=${port}`, '--mysql-user=root', '--mysql-password=',
    '--mysql-db=sbtest', '--tables=1', '--table-size=20000', '--threads=1', '--rand-type=uniform', '--report-interval=0',
  ];
  const { stdout } = await execFileP('taskset', ['-c', TEST_CPU, 'sysbench', 'oltp_point_select', ...common, ...args], { maxBuffer: 16 << 20 });
  return stdout;
}

/** A CPU other than the step's, kept 100 % busy by a process that is not part of the step. */
function startBurner() {
  const other = [...cpus().keys()].find((c) => String(c) !== TEST_CPU);
  if (other === undefined) return async () => {};
  const child = spawn('taskset', ['-c', String(other), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' });
  const gone = new Promise((res) => child.once('exit', res));
  const stop = async () => { child.kill('SIGKILL'); await gone; };
  cleanups.push(stop);
  return stop;
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('point selects on three instances of one server: CPU µs/op agree, and a busy CPU outside the step is not counted', {
  skip: skipReason || (!hasSysbench && 'sysbench is not installed (Debian: apt-get install sysbench)'),
  timeout: 600_000,
}, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const w = await tempWorkDir('icpu');
  cleanups.push(w.remove);
  const options = serverOptions(join(w.dir, 'w'), 23140, 'innodb');
  /** @type {number[][]} per instance, CPU µs per query of each repeat */
  const perInstance = [];
  for (let instance = 0; instance < 3; instance++) {
    const server = await startServer(install, { ...options, reuseDatadir: instance > 0 });
    if (instance === 0) await sysbench(server.port, ['--mysql-storage-engine=innodb', 'prepare']);
    const stopBurner = instance > 0 ? startBurner() : async () => {};
    try {
      await sysbench(server.port, ['--time=1', 'run']); // warm the buffer pool of this instance
      /** @type {number[]} */
      const figures = [];
      for (let repeat = 0; repeat < 3; repeat++) {
        const sampler = await startSampling({ pid: server.pid, datadir: server.datadir, query: server.query, intervalS: 1 });
        const out = await sysbench(server.port, ['--time=3', 'run']);
        const samples = await sampler.stop();
        const queries = Number(/queries:\s+(\d+)/.exec(out)?.[1]);
        const timeS = Number(/total time:\s+([\d.]+)s/.exec(out)?.[1]);
        assert.ok(queries > 1000, `instance ${instance + 1}: sysbench ran ${queries} queries`);
        const eff = computeEfficiency(samples, queries, { windowS: timeS });
        assert.ok(eff && samples.processCpu, `instance ${instance + 1}: efficiency and process CPU (${samples.warnings.join('; ')})`);
        // The CPU rate the recorded figure implies. Server and client are pinned to one CPU:
        // together they cannot use more than one CPU second per second (+10 % for this
        // unpinned test process's own share and the 10 ms tick). The machine's us+sy, with
        // another CPU kept busy, is about two: counting it fails here whatever the load.
        const cpuPerS = (eff.cpuUsPerOp * queries) / timeS / 1e6;
        assert.ok(cpuPerS <= 1.1, `instance ${instance + 1} repeat ${repeat + 1}: the recorded CPU µs/op (${eff.cpuUsPerOp.toFixed(1)}) means ${cpuPerS.toFixed(2)} CPU-s/s, more than the one CPU the step runs on`);
        assert.ok(samples.processCpu.serverS > 0 && samples.processCpu.clientS > 0, JSON.stringify(samples.processCpu));
        figures.push(eff.cpuUsPerOp);
      }
      perInstance.push(figures);
    } finally {
      await stopBurner();
      await server.stop();
    }
  }
  const medians = perInstance.map(median);
  // Between instances the figure still moves with the instance and with contention on the
  // pinned CPU (other servers sharing it evict caches: real CPU per query, not a counting
  // error). Measured here with this test at load average 10-11 (other suites' servers pinned
  // to the same CPU): repeats within an instance within 5 %, instance medians 31.8-56.9 µs
  // (1.79x). 2x is the bound that noise stays under; the demo's counting error was 2-2.7x on
  // a quiet machine, and the per-repeat bound above catches that error at any load.
  const ratio = Math.max(...medians) / Math.min(...medians);
  assert.ok(ratio <= 2, `CPU µs/op medians per instance ${medians.map((m) => m.toFixed(1)).join(' / ')} differ by ${ratio.toFixed(2)}x (repeats: ${JSON.stringify(perInstance.map((f) => f.map((x) => Number(x.toFixed(1)))))})`);
});
