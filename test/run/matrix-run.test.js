// A config matrix end to end: `tagbench run` of the matrix-smoke suite (compression off and on,
// cut to a few seconds per test and to point-query) with real MariaDB 10.11.18 and 10.11.19
// servers and real sysbench: every release runs under each cell, each cell's records form their
// own series (matrix-smoke--compression-off / -on) with the cell's table options really applied
// (the load log shows what information_schema says), and the compare stage's tables of the two
// series render as a table per cell with a row per release.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { runSuite } from '../../scripts/run/index.js';
import { validateRecord, readRecords } from '../../scripts/store/index.js';
import { computeRelativeTable, renderMatrixTables } from '../../scripts/compare/index.js';
import { compareReleases } from '../../scripts/verify/compare-releases.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const config = {
  ...loaded,
  suites: { ...loaded.suites, 'matrix-smoke': { ...loaded.suites['matrix-smoke'], tableSize: 5000, readDurationS: 2, writeDurationS: 2, warmupS: 1, scanWarmDurationS: 1, restS: 0 } },
  // CPU 0: CPU 1 belongs to the timing-sensitive runs of this machine.
  hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, pinning: { serverCpus: '0', clientCpus: '0' } } },
};
const VERSIONS = ['10.11.18', '10.11.19'];
const CELLS = ['compression-off', 'compression-on'];

test('matrix-smoke: two releases under each of two cells, a series per cell, a table per cell', { timeout: 900_000 }, async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-matrix-'));
  const storeDir = join(base, 'results');
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runSuite(config, {
    releases: VERSIONS.map((version) => ({ product: 'mariadb', version })),
    suite: 'matrix-smoke', hostClass: 'local', repeats: 2, instances: 1, only: ['point-query'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  assert.deepEqual(outcome.cells, CELLS.map((c) => `matrix-smoke--${c}`));
  assert.deepEqual(outcome.records.map((r) => `${r.config.suite} ${r.release.version}`), CELLS.flatMap((c) => VERSIONS.map((v) => `matrix-smoke--${c} ${v}`)));
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', record.reason ?? '');
    const load = await readFile(join(storeDir, 'logs', record.id, 'load.txt'), 'utf8');
    if (record.config.suite.endsWith('compression-on')) assert.match(load, /^sbtest1: row_format=Compressed create_options=.*key_block_size=8/mi);
    else assert.doesNotMatch(load, /table options:/);
  }
  assert.match(lines.join(''), /matrix cell compression-on \(series matrix-smoke--compression-on\)/);

  /** @type {import('../../scripts/compare/index.js').ReleaseRecords[][]} */
  const tables = [];
  for (const cell of CELLS) {
    const records = await readRecords(storeDir, { hostClass: 'local', suite: `matrix-smoke--${cell}` });
    assert.equal(records.length, 2, `${cell}: one record per release`);
    tables.push(VERSIONS.map((version) => ({ version, records: records.filter((r) => r.release.version === version) })));
    // Each cell compares on its own, with verdicts, like any suite.
    const printed = /** @type {string[]} */ ([]);
    await compareReleases({ store: storeDir, hostClass: 'local', suite: `matrix-smoke--${cell}`, product: 'mariadb', base: '10.11.18', storeVerdicts: false, changePoints: false, color: false, root, out: (/** @type {string} */ t) => printed.push(t) });
    assert.match(printed.join(''), /^point-query\s+\d+ \[\d+–\d+\]\s+\d+ \[\d+–\d+\]\s+\d\.\d\d/m);
  }
  const text = renderMatrixTables(CELLS.map((cell, i) => ({
    cell, series: `matrix-smoke--${cell}`, table: computeRelativeTable({ product: 'mariadb', line: '10.11', base: '10.11.18', releases: tables[i] }),
  })), { format: 'terminal' });
  for (const cell of CELLS) {
    assert.match(text, new RegExp(`^${cell} \\(series matrix-smoke--${cell}\\)\\nrelease\\s+point-query\\n10\\.11\\.18 \\(base\\)\\s+\\d+\\n10\\.11\\.19\\s+\\d+ \\(\\d\\.\\d\\d\\)$`, 'm'));
  }
});
