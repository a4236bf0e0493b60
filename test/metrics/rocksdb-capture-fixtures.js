/**
 * Re-capture the MyRocks fixtures of test/fixtures/metrics/rocksdb/ from a REAL server: MariaDB
 * 10.11.18 from the deb provider, started by the server stage with the project's rocksdb.cnf,
 * sysbench tables loaded by the workload stage, then a write step. Not a test; run by hand when
 * the template, the release or the parsers' inputs change:
 *   nice -n 19 taskset -c 0 node test/metrics/rocksdb-capture-fixtures.js --write [--version=10.11.18]
 * (any MariaDB version the deb provider has: configs/products/mariadb.yml).
 * Written per moment (after-load, after-write, after-flush, after-postwrite):
 *   <version>-<moment>.engine-status.json  the rows of SHOW ENGINE ROCKSDB STATUS, as mysql2 gives them
 *   <version>-<moment>.global-status.json  SHOW GLOBAL STATUS LIKE 'rocksdb%' as name -> value
 *   <version>-<moment>.sst-props.json      the rows of information_schema.ROCKSDB_SST_PROPS
 * plus <version>-server.json: the server's version, supported compressions and the cf options
 * it runs with. Without --write it does nothing, so a test runner that loads every file under
 * test/ cannot overwrite the fixtures.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { planSuite, prepareTables, runStepRepeat, runPostwrite } from '../../scripts/workload/index.js';
import { config, getInstall, serverOptions, tempWorkDir } from '../server/helpers.js';

if (!process.argv.includes('--write')) {
  process.stderr.write('rocksdb-capture-fixtures: pass --write to re-capture test/fixtures/metrics/rocksdb/ (overwrites them)\n');
  process.exit(0);
}
const outDir = new URL('../fixtures/metrics/rocksdb/', import.meta.url).pathname;
await mkdir(outDir, { recursive: true });
const VERSION = process.argv.find((a) => a.startsWith('--version='))?.slice('--version='.length) ?? '10.11.18';
const install = await getInstall('mariadb', VERSION);
const work = await tempWorkDir('rocks-capture');
// CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
const server = await startServer(install, serverOptions(work.dir, 23295, 'rocksdb', { serverCpus: '0', log: (m) => process.stderr.write(`  ${m}\n`) }));
/** @param {string} name @param {unknown} value */
const save = (name, value) => writeFile(join(outDir, `${VERSION}-${name}`), `${JSON.stringify(value, null, 2)}\n`);
/** @param {string} moment */
async function capture(moment) {
  const rows = await server.query('SHOW ENGINE ROCKSDB STATUS');
  await save(`${moment}.engine-status.json`, rows.map((/** @type {any} */ r) => ({ Type: r.Type, Name: r.Name, Status: r.Status })));
  const status = await server.query("SHOW GLOBAL STATUS LIKE 'rocksdb%'");
  await save(`${moment}.global-status.json`, Object.fromEntries(status.map((/** @type {any} */ r) => [r.Variable_name, r.Value])));
  const sst = await server.query('SELECT * FROM information_schema.ROCKSDB_SST_PROPS');
  await save(`${moment}.sst-props.json`, sst);
  process.stderr.write(`${moment}: ${rows.length} engine status rows, ${status.length} status variables, ${sst.length} SST files\n`);
}
try {
  const vars = await server.query("SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version', 'rocksdb_supported_compression_types', 'rocksdb_default_cf_options', 'rocksdb_block_cache_size', 'rocksdb_max_background_jobs')");
  await save('server.json', Object.fromEntries(vars.map((/** @type {any} */ r) => [r.Variable_name, r.Value])));
  /** @type {import('../../scripts/types.js').SuiteConfig} */
  const suite = { ...config.suites.smoke, name: 'capture', tables: 2, tableSize: 50000, writeDurationS: 10, warmupS: 0 };
  const load = await prepareTables(suite, server, { engine: 'rocksdb', clientCpus: '0', onProgress: () => {} });
  if (load.status !== 'ok') throw new Error(`load failed: ${load.reason}`);
  await capture('after-load');
  const step = planSuite({ ...suite, only: ['update-index'] }, { engine: 'rocksdb' }).find((s) => s.name === 'update-index');
  if (!step || step.kind !== 'sysbench') throw new Error('no update-index step in the plan');
  const rep = await runStepRepeat(/** @type {any} */ (step), server, { clientCpus: '0', onProgress: () => {} });
  if (rep.status !== 'ok') throw new Error(`update-index failed: ${/** @type {any} */ (rep).reason ?? rep.status}`);
  await capture('after-write');
  // A plain memtable flush first: its L0 file shows the template's own compression, while the
  // postwrite's L0 compaction (CompactFiles) writes with that call's defaults.
  await server.query('SET GLOBAL rocksdb_force_flush_memtable_now = 1');
  await capture('after-flush');
  const pw = await runPostwrite(server.query, 'rocksdb', suite, { onProgress: () => {} });
  if (pw.status !== 'ok') throw new Error(`postwrite failed: ${pw.reason}`);
  await capture('after-postwrite');
} finally {
  await server.stop();
  await stopAllServers();
  await work.remove();
}
