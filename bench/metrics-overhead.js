#!/usr/bin/env node
/**
 * How much does sampling (vmstat + iostat children, VmRSS polling, SHOW GLOBAL STATUS before and
 * after) slow the benchmark it watches? Runs a short sysbench point-select against a real
 * MariaDB 10.11.18 with and without startSampling around it, alternating A B B A ... so drift
 * cancels, and prints the QPS of every run, the medians and the relative overhead. No assertions.
 *
 * Usage: node bench/metrics-overhead.js [--rounds 4] [--time 5] [--pin 1]
 *   --pin CPU  pin mysqld and sysbench to that CPU (as host class `local` does)
 * The server is started with the metrics test helper until the server stage's startServer lands.
 */
import { parseArgs, promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { startSampling } from '../scripts/metrics/index.js';
import { findPrefix, startMariadb, sysbench } from '../test/metrics/mariadb.js';

const run = promisify(execFile);
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '4' }, time: { type: 'string', default: '5' }, pin: { type: 'string' } } });
const rounds = Number(values.rounds);
const timeS = Number(values.time);

const { prefix, env, why } = await findPrefix();
if (!prefix) {
  process.stderr.write(`metrics-overhead: no MariaDB prefix (${why})\n`);
  process.exit(1);
}
const server = await startMariadb(prefix, env);
try {
  if (values.pin) await run('taskset', ['-a', '-p', '-c', values.pin, String(server.pid)]);
  await sysbench(server.socket, ['oltp_point_select', 'prepare']);
  const pinArgs = values.pin ? ['taskset', '-c', values.pin] : [];
  /** @param {boolean} sampled */
  const once = async (sampled) => {
    const sampler = sampled ? await startSampling({ pid: server.pid, datadir: server.datadir, query: server.query }) : null;
    const args = ['--db-driver=mysql', '--mysql-user=root', `--mysql-socket=${server.socket}`, '--mysql-db=sbtest', '--tables=1',
      '--table-size=10000', '--rand-type=uniform', '--skip-trx', `--time=${timeS}`, '--report-interval=0', 'oltp_point_select', 'run'];
    const { stdout } = pinArgs.length ? await run(pinArgs[0], [...pinArgs.slice(1), 'sysbench', ...args]) : await run('sysbench', args);
    await sampler?.stop();
    return Number(/queries:\s+\d+\s+\(([\d.]+) per sec/.exec(stdout)?.[1]);
  };
  await once(false); // warm the buffer pool
  /** @type {{plain: number[], sampled: number[]}} */
  const qps = { plain: [], sampled: [] };
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? [false, true] : [true, false];
    for (const sampled of order) {
      const q = await once(sampled);
      (sampled ? qps.sampled : qps.plain).push(q);
      process.stderr.write(`round ${i + 1}/${rounds} ${sampled ? 'sampled' : 'plain  '} ${q.toFixed(0)} qps\n`);
    }
  }
  const median = (/** @type {number[]} */ xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const mp = median(qps.plain);
  const ms = median(qps.sampled);
  console.log(`sysbench oltp_point_select, 1 client, ${timeS} s per run, ${rounds} rounds, pin ${values.pin ?? 'none'}`);
  console.log(`plain   qps: ${qps.plain.map((q) => q.toFixed(0)).join(' ')}  median ${mp.toFixed(0)}`);
  console.log(`sampled qps: ${qps.sampled.map((q) => q.toFixed(0)).join(' ')}  median ${ms.toFixed(0)}`);
  console.log(`overhead of sampling: ${((1 - ms / mp) * 100).toFixed(2)} % (median sampled / median plain = ${(ms / mp).toFixed(4)})`);
} finally {
  await server.stop();
}
