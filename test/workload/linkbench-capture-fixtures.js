/**
 * Re-capture the LinkBench output fixtures of test/fixtures/workload/linkbench/ from REAL runs:
 * builds (or reuses from the install cache) the pinned fork from ../shared/linkbench/ through
 * the production code path, starts a private MariaDB 10.11.18 (test helper), and runs small load
 * and request phases with the runner's own properties, in both latency formats, plus a failure
 * (nothing listening on the port). Not a test; run by hand when the fork or the runner changes:
 *   node test/workload/linkbench-capture-fixtures.js --write
 * Each case writes <case>.txt (console output) and, when the driver wrote one, <case>.csv.
 * Without --write it does nothing, so a test runner that loads every file under test/ cannot
 * overwrite the fixtures.
 */
import { writeFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { cacheDirFrom } from '../../scripts/run-options.js';
import { ensureLinkbench, createLinkbenchSchema, createLinkbenchIndex, runLinkbenchPhase } from '../../scripts/workload/linkbench/index.js';
import { findTestPrefix, startTestServer } from './helpers/test-server.js';

if (!process.argv.includes('--write')) {
  process.stderr.write('linkbench-capture-fixtures: pass --write to re-capture test/fixtures/workload/linkbench/ (overwrites them)\n');
  process.exit(0);
}
const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, 'test', 'fixtures', 'workload', 'linkbench');
const build = await ensureLinkbench({
  cacheDir: cacheDirFrom(undefined),
  source: join(root, '..', 'shared', 'linkbench', 'linkbench-9ef9cc8.tar.gz'),
});
const server = await startTestServer({ prefix: await findTestPrefix(), port: 23291 });
const schema = /** @type {const} */ ({ engine: 'innodb' });
/** @type {import('../../scripts/workload/linkbench/properties.js').LinkbenchParams} */
const params = { maxid1: 5001, loaders: 2, requesters: 2, maxtimeS: 5 };
/**
 * @param {string} name
 * @param {import('../../scripts/workload/linkbench/phases.js').PhaseResult} res
 */
async function keep(name, res) {
  await writeFile(join(outDir, `${name}.txt`), res.rawOutput);
  await rm(join(outDir, `${name}.csv`), { force: true });
  if (res.csvStatsText) await writeFile(join(outDir, `${name}.csv`), res.csvStatsText);
  process.stderr.write(`${name}: ${res.status}${res.reason ? ` (${res.reason})` : ''}, ${res.rawOutput.length} bytes\n`);
}
try {
  for (const format of /** @type {const} */ (['bucketed', 'hdr'])) {
    const p = { ...params, hdrHistogram: format === 'hdr' };
    await createLinkbenchSchema(server, schema);
    await keep(`load-${format}`, await runLinkbenchPhase('load', build, server, p, { timeoutS: 600 }));
    await createLinkbenchIndex(server, schema);
    await keep(`request-${format}`, await runLinkbenchPhase('request', build, server, p));
  }
  await keep('request-connection-refused', await runLinkbenchPhase('request', build, { ...server, port: 1 }, params, { timeoutS: 120 }));
} finally {
  await server.stop();
}
