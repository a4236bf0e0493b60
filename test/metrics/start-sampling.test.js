import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSampling, computeEfficiency, measureDbSize } from '../../scripts/metrics/index.js';
import { findPrefix, startMariadb, sysbench } from './mariadb.js';

const { prefix, env, why } = await findPrefix();
const skip = prefix ? false : `no MariaDB 10.11 prefix (${why}); set TAGBENCH_TEST_MARIADB_PREFIX to an extracted prefix`;

/** @type {Awaited<ReturnType<typeof startMariadb>>} */
let server;

before(async () => {
  if (!prefix) return;
  server = await startMariadb(prefix, env);
  await sysbench(server.socket, ['oltp_point_select', 'prepare']);
});
after(async () => { await server?.stop(); });

test('samplers around a real sysbench run: samples, RSS, status deltas, finite positive efficiency', { skip }, async () => {
  const sampler = await startSampling({ pid: server.pid, datadir: server.datadir, query: server.query, intervalS: 1 });
  // writes as well as reads, so the I/O columns see traffic on the datadir's device
  const out = await sysbench(server.socket, ['oltp_read_write', '--time=4', '--report-interval=0', 'run']);
  const samples = await sampler.stop();
  assert.equal(await sampler.stop(), samples, 'stop() twice returns the same result');

  const queries = Number(/queries:\s+(\d+)/.exec(out)?.[1]);
  const timeS = Number(/total time:\s+([\d.]+)s/.exec(out)?.[1]);
  assert.ok(queries > 1000, `sysbench ran ${queries} queries`);

  assert.deepEqual(samples.warnings, []);
  assert.ok(samples.durationS >= 4, `sampled ${samples.durationS} s`);
  assert.ok(samples.cpu.length >= 3, `${samples.cpu.length} vmstat samples`);
  assert.ok(samples.io.length >= 3, `${samples.io.length} iostat samples`);
  assert.ok(samples.cpu.some((c) => c.usPct + c.syPct > 0));
  assert.equal(samples.devices.basis, 'datadir', samples.devices.note);
  assert.equal(samples.devices.devices.length, 1);
  assert.ok(samples.rssKb !== null && samples.rssKb > 0, `rss ${samples.rssKb}`);
  assert.ok(samples.rss.length >= 3 && samples.rss.every((r) => r.rssKb > 0));
  assert.ok(samples.status, 'SHOW GLOBAL STATUS before and after');
  // The step's own CPU: the server's threads and sysbench (a child of this process, reaped).
  assert.ok(samples.processCpu, 'process CPU read');
  assert.ok(samples.processCpu.serverS > 0 && samples.processCpu.clientS > 0, JSON.stringify(samples.processCpu));
  assert.ok(Math.abs(samples.processCpu.wallS - samples.durationS) < 0.5, `CPU read over ${samples.processCpu.wallS} s of ${samples.durationS} s sampled`);
  assert.ok(samples.status.delta.Questions >= queries, `Questions delta ${samples.status.delta.Questions} vs ${queries}`);
  assert.ok(samples.status.delta.Handler_read_key > 0, "index lookups counted");
  assert.ok(samples.status.delta.Com_select > 0);

  const eff = computeEfficiency(samples, queries, { windowS: timeS });
  assert.ok(eff, 'efficiency computed');
  for (const [k, v] of Object.entries(eff)) assert.ok(k === 'cpuScope' ? v === 'processes' : Number.isFinite(v) && Number(v) >= 0, `${k} = ${v}`);
  assert.ok(eff.cpuUsPerOp > 0 && eff.csPerOp > 0, JSON.stringify(eff));
  assert.equal(computeEfficiency(samples, 0), null, 'ops = 0 gives null');
});

test('measureDbSize on the sysbench schema', { skip }, async () => {
  const size = await measureDbSize({ datadir: server.datadir, query: server.query, database: 'sbtest' });
  assert.ok(Number.isInteger(size.logicalBytes) && size.logicalBytes > 10000 * 100, `logical ${size.logicalBytes}`);
  assert.ok(size.onDiskBytes > size.logicalBytes, `on disk ${size.onDiskBytes} (ibdata, redo log, system tables too)`);
  const empty = await measureDbSize({ datadir: server.datadir, query: server.query, database: 'no_such_db' });
  assert.equal(empty.logicalBytes, 0);
  await assert.rejects(measureDbSize({ datadir: server.datadir, query: server.query, database: "x' OR '1" }), /plain identifier/);
});

test('sampling a pid that is gone still returns samples, with a warning', { skip }, async () => {
  const sampler = await startSampling({ pid: 2 ** 22 + 12345, datadir: server.datadir, intervalS: 1 });
  await new Promise((r) => setTimeout(r, 1300));
  const s = await sampler.stop();
  assert.equal(s.rssKb, null);
  assert.equal(s.status, null, 'no query function, no status');
  assert.ok(s.warnings.some((w) => /no VmRSS/.test(w)), s.warnings.join('; '));
  assert.ok(s.cpu.length >= 1);
});
