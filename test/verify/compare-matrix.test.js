/**
 * `tagbench compare --suite <matrix suite>`: each cell's series compared on its own, then a table
 * per cell with a row per release. Stand-in records (the generator's, written through the store
 * stage) stored under the series names `tagbench run` gives matrix-smoke's cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecord } from '../../scripts/store/index.js';
import { compareReleases } from '../../scripts/verify/compare-releases.js';
import { generateHistory } from '../support/generate-history.js';
import { matrixCells } from '../../scripts/workload/variants.js';
import { loadConfig } from '../../scripts/config/index.js';

const root = new URL('../..', import.meta.url).pathname;

test('a matrix suite compares cell by cell and ends with a table per cell, a row per release', async () => {
  const config = await loadConfig(root);
  const series = /** @type {NonNullable<ReturnType<typeof matrixCells>>} */ (matrixCells(config.suites['matrix-smoke'])).map((c) => c.suiteName);
  const store = join(await mkdtemp(join(tmpdir(), 'tagbench-compare-matrix-')), 'results');
  for (const [i, suite] of series.entries()) {
    const { records } = generateHistory({ lines: [{ product: 'mariadb', line: '10.11', versions: ['10.11.18', '10.11.19'] }], hosts: ['local'], tests: 2, repeats: 3, intervalsS: 4, changes: [], seed: 7 + i });
    for (const r of records) await writeRecord(store, { ...r, config: { ...r.config, suite } });
  }
  /** @type {string[]} */
  const printed = [];
  const code = await compareReleases({ store, hostClass: 'local', suite: 'matrix-smoke', product: 'mariadb', base: '10.11.18', storeVerdicts: false, changePoints: false, color: false, root, out: (/** @type {string} */ t) => printed.push(t) });
  assert.equal(code, 0);
  const text = printed.join('');
  assert.match(text, /== matrix cell compression-off \(series matrix-smoke--compression-off\) ==/);
  assert.match(text, /mariadb 10\.11\.19 vs 10\.11\.18 \(matrix-smoke--compression-on, local\)/, 'verdicts per cell');
  const view = text.slice(text.indexOf('matrix-smoke: a table per matrix cell'));
  for (const s of series) {
    assert.match(view, new RegExp(`\\n${s.slice('matrix-smoke--'.length)} \\(series ${s}\\)\\nrelease\\s+point-query\\.pre\\s+range-notcovered-si\\.pre\\n10\\.11\\.18 \\(base\\)\\s+\\d+\\s+\\d+\\n10\\.11\\.19\\s+\\d+ \\(\\d\\.\\d\\d\\)\\s+\\d+ \\(\\d\\.\\d\\d\\)\\n`));
  }
  await assert.rejects(compareReleases({ store, hostClass: 'local', suite: 'matrix-smoke', product: 'mariadb', json: 'x.json', root, out: () => {} }), /--markdown and --json take one series; .* --suite matrix-smoke--compression-off/);
});
