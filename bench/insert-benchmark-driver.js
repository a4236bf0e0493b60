#!/usr/bin/env node
/**
 * Is the insert benchmark's driver (scripts/workload/ibench/index.js) ever the bottleneck?
 * Measures its insert rate against the plainest possible loop of multi-row INSERTs (one mysql2
 * connection, one statement string per batch, nothing else) on the same server, same table
 * (dropped and created before every run), same rows per statement, same client count, in
 * interleaved rounds (driver first in odd rounds, plain first in even ones, so drift falls on
 * both alike), and prints the ratio driver / plain per round and its median with a 95 % t
 * interval over the rounds' log ratios. A ratio near 1 means the server, not the driver, sets
 * the pace.
 *
 * Two shapes: `l.i0` (100 rows per INSERT, load in PK order) and `l.i2` (5 rows per INSERT, each
 * followed by a DELETE of the 5 oldest rows: the statement-bound case, where per-statement
 * driver costs would show first).
 *
 * The server is MariaDB 10.11.18 from the install cache, started through scripts/server with
 * configs/mycnf/innodb.cnf and the `local` host class's overrides (as `tagbench run` does).
 *
 * Usage: node bench/insert-benchmark-driver.js [--rounds 8] [--rows 100000] [--clients 1] [--out bench/insert-benchmark-driver.md]
 *   run under `taskset -c CPU` to keep server and client on one CPU, as host class `local` does.
 */
import { parseArgs } from 'node:util';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { loadConfig } from '../scripts/config/index.js';
import { findCachedInstall } from '../scripts/install/index.js';
import { startServer, stopAllServers, findFreePort } from '../scripts/server/index.js';
import { getBenchmark } from '../scripts/workload/index.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    rows: { type: 'string', default: '100000' },
    clients: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const rowsPerClient = Number(values.rows);
const clients = Number(values.clients);
const root = new URL('..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');

const config = await loadConfig(root);
const install = await findCachedInstall(cacheDir, 'mariadb', '10.11.18');
if (!install) {
  process.stderr.write(`insert-benchmark-driver: mariadb 10.11.18 is not in the install cache ${cacheDir}; run \`tagbench install mariadb 10.11.18\` first\n`);
  process.exit(1);
}
const workDir = await mkdtemp(join(tmpdir(), 'tagbench-ibench-driver-'));
const server = await startServer(install, {
  workDir, port: await findFreePort(), engine: 'innodb', mycnfName: 'innodb', mycnfTemplate: config.mycnf.innodb,
  mycnfOverrides: config.hosts.local.mycnf ?? {}, serverCpus: null, log: () => {},
});

// Ctrl-C or a kill must not leave the server running.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => { stopAllServers().finally(() => process.exit(130)); });
}

/** @type {any} */
const suite = {
  name: 'driver-bench', description: '', tables: 1, tableSize: 100, clients, readDurationS: 1, writeDurationS: 1, warmupS: 0, scanWarmDurationS: 1, restS: 0,
  benchmarks: ['ibench'], ibench: { loadRows: rowsPerClient, l1Rows: 50, l2Rows: rowsPerClient / 10, queryDurationS: 1 },
};
const ibench = getBenchmark('ibench');
const plan = Object.fromEntries(ibench.planSteps(suite, { engine: 'innodb' }).map((s) => [s.name, s]));
const ctx = { suite, engine: /** @type {const} */ ('innodb'), pass: 0, clientCpus: null };

const CREATE = (/** @type {string} */ t) => `CREATE TABLE ${t} (transactionid BIGINT NOT NULL AUTO_INCREMENT, dateandtime DATETIME,
  cashregisterid INT NOT NULL, customerid INT NOT NULL, productid INT NOT NULL, price INT NOT NULL, data VARCHAR(4000),
  PRIMARY KEY (transactionid)) ENGINE=InnoDB`;

/** @returns {Promise<import('mysql2/promise').Connection>} */
function connect() {
  return createConnection({ socketPath: server.socket, user: server.user, password: server.password, database: server.database });
}

/** The driver's own step, as `tagbench run` calls it. @param {'l.i0'|'l.i2'} step */
async function driver(step) {
  if (step === 'l.i2') await ibench.runStep(plan['l.i0'], server, ctx); // the table l.i2 starts from
  const cpu = process.cpuUsage();
  const out = await ibench.runStep(plan[step], server, ctx);
  const used = process.cpuUsage(cpu);
  if (out.status !== 'ok' || out.throughput === null) throw new Error(`driver ${step}: ${out.reason}`);
  return { rate: out.throughput, cpuMsPer1000Rows: (used.user + used.system) / 1000 / (Number(plan[step].params.rowsPerClient) * clients / 1000) };
}

/**
 * The plainest loop: per client one connection, a fixed 15-letter data value, ids in PK order.
 * @param {'l.i0'|'l.i2'} step
 */
async function plain(step) {
  const perStatement = step === 'l.i0' ? 100 : 5;
  const rows = step === 'l.i0' ? rowsPerClient : rowsPerClient / 10;
  const conns = await Promise.all(Array.from({ length: clients }, connect));
  try {
    for (let c = 0; c < clients; c++) {
      await conns[c].query(`DROP TABLE IF EXISTS pi${c + 1}`);
      await conns[c].query(CREATE(`pi${c + 1}`));
    }
    const rand = (/** @type {number} */ n) => Math.floor(Math.random() * n);
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    /** @param {number} c @param {number} first @param {number} n */
    const insert = (c, first, n) => {
      let sql = `INSERT INTO pi${c + 1} VALUES `;
      for (let id = first; id < first + n; id++) sql += `${id === first ? '' : ','}(${id},'${now}',${rand(1000)},${rand(100000)},${rand(10000)},${rand(500)},'abcdefghijklmno')`;
      return sql;
    };
    if (step === 'l.i2') {
      // The same starting table as the driver's l.i2: rowsPerClient rows in PK order.
      await Promise.all(conns.map(async (conn, c) => { for (let id = 1; id <= rowsPerClient; id += 100) await conn.query(insert(c, id, 100)); }));
    }
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    await Promise.all(conns.map(async (conn, c) => {
      let next = step === 'l.i0' ? 1 : rowsPerClient + 1;
      let oldest = 1;
      for (let done = 0; done < rows; done += perStatement) {
        await conn.query(insert(c, next, perStatement));
        next += perStatement;
        if (step === 'l.i2') {
          await conn.query(`DELETE FROM pi${c + 1} WHERE transactionid BETWEEN ${oldest} AND ${oldest + perStatement - 1}`);
          oldest += perStatement;
        }
      }
    }));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    return { rate: (rows * clients) / seconds, cpuMsPer1000Rows: (used.user + used.system) / 1000 / (rows * clients / 1000) };
  } finally {
    await Promise.all(conns.map((c) => c.end()));
  }
}

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Geometric mean of the ratios with a 95 % t interval on their logs.
 * @param {number[]} ratios
 */
function interval(ratios) {
  const logs = ratios.map(Math.log);
  const n = logs.length;
  const mean = logs.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(logs.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(0.975, n - 1) * sd / Math.sqrt(n);
  return { geo: Math.exp(mean), lo: Math.exp(mean - half), hi: Math.exp(mean + half) };
}

/** @typedef {{driver: number[], plain: number[], ratio: number[], driverCpu: number[], plainCpu: number[]}} Series */
/** @type {Record<string, Series>} */
const results = {
  'l.i0': { driver: [], plain: [], ratio: [], driverCpu: [], plainCpu: [] },
  'l.i2': { driver: [], plain: [], ratio: [], driverCpu: [], plainCpu: [] },
};
const started = new Date();
try {
  // One untimed run of each warms the buffer pool and the JIT.
  await driver('l.i0');
  await plain('l.i0');
  for (let r = 0; r < rounds; r++) {
    for (const step of /** @type {const} */ (['l.i0', 'l.i2'])) {
      const order = r % 2 === 0 ? ['driver', 'plain'] : ['plain', 'driver'];
      /** @type {Record<string, {rate: number, cpuMsPer1000Rows: number}>} */
      const got = {};
      for (const who of order) got[who] = who === 'driver' ? await driver(step) : await plain(step);
      const r1 = results[step];
      r1.driver.push(got.driver.rate);
      r1.plain.push(got.plain.rate);
      r1.ratio.push(got.driver.rate / got.plain.rate);
      r1.driverCpu.push(got.driver.cpuMsPer1000Rows);
      r1.plainCpu.push(got.plain.cpuMsPer1000Rows);
      process.stderr.write(`round ${r + 1}/${rounds} ${step}: driver ${got.driver.rate.toFixed(0)} plain ${got.plain.rate.toFixed(0)} rows/s, ratio ${(got.driver.rate / got.plain.rate).toFixed(3)}; client CPU ${got.driver.cpuMsPer1000Rows.toFixed(1)} / ${got.plain.cpuMsPer1000Rows.toFixed(1)} ms per 1000 rows\n`);
    }
  }
} finally {
  await server.stop();
  await stopAllServers();
  await rm(workDir, { recursive: true, force: true });
}

const affinity = /Cpus_allowed_list:\s*(\S+)/.exec(await readFile('/proc/self/status', 'utf8'))?.[1] ?? 'unknown';
const lines = [
  '# Insert benchmark driver vs a plain multi-row INSERT loop',
  '',
  `Measured ${started.toISOString()} with \`node bench/insert-benchmark-driver.js --rounds ${rounds} --rows ${rowsPerClient} --clients ${clients}\``,
  `on ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} CPUs), MariaDB 10.11.18 (configs/mycnf/innodb.cnf + host class local),`,
  `CPUs this process and the server it started may use: ${affinity}. Rows inserted per second, all clients;`,
  'rounds interleaved (driver first in odd rounds); ratio = driver / plain per round; interval = 95 % t interval of the',
  'rounds\' log ratios (geometric mean).',
  '',
  'Client CPU = user + system time of this Node process during the timed part (the client shares the CPU with the',
  'server, so every client millisecond is one the server does not get).',
  '',
  '| step | rows per INSERT | driver rows/s (median) | plain rows/s (median) | ratio per round | ratio (geo. mean) | 95 % interval | client CPU ms per 1000 rows, driver / plain (medians) |',
  '|---|---|---|---|---|---|---|---|',
];
for (const [step, r] of Object.entries(results)) {
  const ci = interval(r.ratio);
  lines.push(`| ${step} | ${step === 'l.i0' ? '100' : '5 (+ DELETE of 5)'} | ${median(r.driver).toFixed(0)} | ${median(r.plain).toFixed(0)} | ${r.ratio.map((x) => x.toFixed(3)).join(' ')} | ${ci.geo.toFixed(3)} | ${ci.lo.toFixed(3)} – ${ci.hi.toFixed(3)} | ${median(r.driverCpu).toFixed(1)} / ${median(r.plainCpu).toFixed(1)} |`);
}
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
if (values.out) await writeFile(values.out, text);
