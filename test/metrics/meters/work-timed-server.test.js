// The work counters on the timed repeats, end to end on real servers: two real MariaDB releases
// run a tiny sysbench suite through the real run stage (the made-up meters' suite: 2,000 rows,
// point-query only, 2 s repeats), each timed repeat keeps the server's status counters per op as
// its meters.work (wall's samplers' SHOW GLOBAL STATUS, the products config's names), and the
// comparison shows them beside the timed verdict as context, never as a verdict.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../scripts/config/index.js';
import { runReleases } from '../../../scripts/run/index.js';
import { readRecords, validateRecord, validateComparison } from '../../../scripts/store/index.js';
import { compareRuns, renderComparison, resolveThresholds } from '../../../scripts/compare/index.js';
import { stopAllServers } from '../../../scripts/server/index.js';

const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
after(() => stopAllServers());

test('a real timed run keeps the work counters per repeat, and the comparison prints them as context', { timeout: 600_000 }, async () => {
  const loaded = await loadConfig(root);
  const config = { ...loaded, suites: { ...loaded.suites, tiny: { ...loaded.suites.smoke, name: 'tiny', tableSize: 2000, readDurationS: 2, warmupS: 0, scanWarmDurationS: 1, restS: 0 } } };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-work-timed-'));
  const storeDir = join(base, 'results');
  const lines = /** @type {string[]} */ ([]);
  await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'tiny', hostClass: 'local', repeats: 2, instances: 1, only: ['point-query'], meters: ['wall'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  });
  const records = await readRecords(storeDir);
  assert.equal(records.length, 2, lines.join(''));
  for (const record of records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    const step = record.steps.find((s) => s.name === 'point-query');
    assert.equal(step?.status, 'ok', step?.reason ?? lines.join(''));
    assert.equal(step?.repeats.length, 2);
    for (const rep of step?.repeats ?? []) {
      const work = /** @type {import('../../../scripts/types.js').TimedWorkFigures} */ (rep.meters?.work);
      assert.ok(work, `repeat ${rep.index} keeps meters.work: ${JSON.stringify(rep.meters)}`);
      // One row by primary key per point select: with the step's warm-up (0 s) known, the rate is
      // over the tool's own seconds, so the figure is 1 up to the rounding of sysbench's window.
      assert.equal(work.workS, work.windowS, 'no warm-up: the rate is taken over the measured window');
      assert.ok(work.perOp.rowsRead !== null && Math.abs(work.perOp.rowsRead - 1) < 0.03, `rows read per op ${work.perOp.rowsRead}`);
      assert.ok(work.perOp.indexLookups !== null && Math.abs(work.perOp.indexLookups - 1) < 0.03, `index lookups per op ${work.perOp.indexLookups}`);
      assert.equal(work.perOp.tableScanRows, 0, 'the status reads\' own scans are taken off');
      assert.equal(work.perOp.logFsyncs, null, 'MariaDB lacks it: null, never 0');
      assert.match(work.missing.logFsyncs, /MariaDB reports no Innodb_os_log_fsyncs/);
      assert.ok(work.operations > 100 && work.windowS > 1 && work.sampledS >= work.windowS, JSON.stringify({ ...work, perOp: undefined }));
    }
  }
  const [b, c] = ['10.11.18', '10.11.19'].map((v) => ({ version: v, records: records.filter((r) => r.release.version === v) }));
  const comparison = compareRuns({ base: b, candidate: c, thresholds: resolveThresholds(loaded.thresholds), createdAt: new Date().toISOString() });
  assert.deepEqual(validateComparison(comparison), [], 'the comparison with its timedWork is schema-valid');
  assert.equal(comparison.tests.some((t) => /rowsRead|indexLookups/.test(t.metric)), false, 'never a verdict');
  const row = comparison.timedWork?.find((w) => w.test === 'point-query');
  assert.deepEqual(row?.repeats, { base: 2, candidate: 2 });
  const text = renderComparison(comparison, { format: 'terminal' });
  // The terminal names the test when a counter moved by 5 % or more, else counts it.
  assert.match(text, /server work per operation on the timed repeats, base → candidate .*context, not gated.*\n  (point-query: .*\/op \S+ → \S+|1 test: no counter moved by 5 % or more)/);
  const md = renderComparison(comparison, { format: 'markdown' });
  assert.match(md, /\*\*Server work on the timed repeats\*\* \(.*context, not gated.*\n\n- point-query: .*rows read\/op 1\.00 → 1\.00/);
});
