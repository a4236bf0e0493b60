// The loops sequence benchmark through `tagbench run` against two real MariaDB releases (deb
// provider, from the install cache) at toy size, then `tagbench compare` of the two: one step per
// loop with its QPS and the database size after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { validateRecord } from '../../scripts/store/index.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const LOOPS = ['read-write.range10.loop1', 'read-write.range10.loop2', 'read-write.range10.loop3'];

test('loops: a read-write request phase as 3 loop steps with per-second QPS and the database size after each', { timeout: 1_200_000 }, async () => {
  const suite = { ...loaded.suites['loops-smoke'], tables: 1, tableSize: 5000, loops: { loops: 3, loopDurationS: 3, test: 'read-write.range10' } };
  const config = { ...loaded, suites: { ...loaded.suites, [suite.name]: suite } };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-loops-'));
  const storeDir = join(base, 'results');
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: suite.name, hostClass: 'local', repeats: 2, instances: 1,
    storeDir, workDir: join(base, 'work'), cacheDir, portBase: 23800, write: () => {},
  });
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], 'schema-valid record');
    assert.deepEqual(record.steps.map((s) => s.name), ['loops.load', ...LOOPS]);
    assert.equal(record.steps[0].status, 'ok', record.steps[0].reason ?? '');
    for (const [i, name] of LOOPS.entries()) {
      const step = record.steps[i + 1];
      assert.equal(step.kind, 'loops');
      assert.equal(step.params.loop, i + 1);
      assert.equal(step.repeats.length, 2);
      for (const rep of step.repeats) {
        assert.equal(rep.status, 'ok', `${name}: ${rep.reason ?? ''}`);
        assert.ok((rep.throughput ?? 0) > 0);
        assert.ok(rep.intervals.length >= 2, `${name}: per-second QPS`);
        const d = /** @type {any} */ (rep.details).loops;
        assert.deepEqual([d.test, d.loop, d.loops], ['read-write.range10', i + 1, 3]);
        assert.ok(d.dbSize.logicalBytes > 0 && d.dbSize.onDiskBytes > d.dbSize.logicalBytes / 10, JSON.stringify(d.dbSize));
      }
    }
  }
  const out = execFileSync(process.execPath, [join(root, 'scripts/cli.js'), 'compare', '--product', 'mariadb', '--releases', '10.11.18,10.11.19', '--base', '10.11.18',
    '--suite', suite.name, '--store', storeDir, '--no-change-points', '--no-store-verdicts', '--json', join(base, 'compare.json')], { encoding: 'utf8', cwd: root });
  for (const name of LOOPS) assert.ok(out.includes(name), `compare prints a row for ${name}`);
  const json = JSON.parse(await readFile(join(base, 'compare.json'), 'utf8'));
  assert.ok(json.comparisons.flatMap((/** @type {any} */ c) => c.tests).some((/** @type {any} */ v) => v.test === LOOPS[2] && v.metric === 'throughput'), 'the 3rd loop has a verdict');
  process.stdout.write(out.split('\n').map((l) => `# ${l}`).join('\n'));
});
