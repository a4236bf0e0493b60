// Baselines have one reader and writer (scripts/store/baselines.js): promotion writes a file the
// readers accept, the walker finds every baseline and nothing else, and a bad file is named.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readBaseline, readBaselines, writeBaseline, promoteBaseline, writeRecord } from '../../scripts/store/index.js';
import { UserError } from '../../scripts/errors.js';
import { loadConfig } from '../../scripts/config/index.js';
import { makeRecord, tempDir, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const ROOT = new URL('../..', import.meta.url).pathname;

/** @returns {import('../../scripts/types.js').Baseline} */
function baseline(over = {}) {
  return { schemaVersion: 1, hostClass: 'local', product: 'mariadb', line: '10.11', suite: 'smoke', version: '10.11.18', runIds: ['r1'], promotedAt: '2026-11-01T12:00:00.000Z', previous: null, ...over };
}

test('writeBaseline then readBaseline and readBaselines give back the same baseline; a README beside them is not one', async () => {
  const dir = await tempDir('tagbench-baselines-');
  await writeFile(join(dir, 'README.md'), '# baselines\n');
  const a = baseline();
  const b = baseline({ hostClass: 'small-server', suite: 'small', version: '10.11.19', runIds: ['r2', 'r3'] });
  const path = await writeBaseline(dir, a);
  assert.equal(path, join(dir, 'local', 'mariadb', '10.11', 'smoke.yml'));
  await writeBaseline(dir, b);
  assert.deepEqual(await readBaseline(dir, { hostClass: 'local', product: 'mariadb', line: '10.11', suite: 'smoke' }), a);
  assert.equal(await readBaseline(dir, { hostClass: 'local', product: 'mariadb', line: '11.8', suite: 'smoke' }), null);
  assert.deepEqual(await readBaselines(dir), [a, b]);
  assert.deepEqual(await readBaselines(join(dir, 'missing')), [], 'a missing folder holds no baselines');
});

test('readBaselines names every file that is malformed, invalid or at the wrong path', async () => {
  const dir = await tempDir('tagbench-baselines-bad-');
  await writeBaseline(dir, baseline());
  await mkdir(join(dir, 'local', 'mariadb', '11.8'), { recursive: true });
  await writeFile(join(dir, 'local', 'mariadb', '11.8', 'smoke.yml'), 'version: [unclosed\n');
  // A valid baseline of line 10.11 filed under 11.8: its path and its content disagree.
  const misplaced = (await readFile(join(dir, 'local', 'mariadb', '10.11', 'smoke.yml'), 'utf8'));
  await writeFile(join(dir, 'local', 'mariadb', '11.8', 'small.yml'), misplaced);
  await assert.rejects(readBaselines(dir), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /2 baseline file\(s\)/);
    assert.match(err.message, /11\.8\/smoke\.yml: malformed YAML/);
    assert.match(err.message, /11\.8\/small\.yml: invalid baseline: field 'line' is "10\.11" but the file's path says "11\.8"; field 'suite' is "smoke" but the file's path says "small"/);
    return true;
  });
});

test('writeBaseline refuses an invalid baseline and a path-escaping key, and writes nothing', async () => {
  const dir = await tempDir('tagbench-baselines-refuse-');
  await assert.rejects(writeBaseline(dir, baseline({ runIds: [] })), /invalid, not written: .*runIds/);
  await assert.rejects(writeBaseline(dir, baseline({ line: '../x' })), /line "\.\.\/x" is not usable in a path/);
  assert.deepEqual(await readBaselines(dir), []);
});

test('promoteBaseline names the runs that stand for the release and keeps the one it replaces', async () => {
  const store = await tempDir('tagbench-promote-store-');
  const dir = await tempDir('tagbench-promote-baselines-');
  const config = await loadConfig(ROOT);
  const product = config.products.mariadb;
  const r18 = makeRecord('20261101T100000Z-local-mariadb-10.11.18-aaaaaa', { version: '10.11.18', status: 'ok' });
  const r19 = makeRecord('20261102T100000Z-local-mariadb-10.11.19-bbbbbb', { version: '10.11.19', status: 'ok' });
  await writeRecord(store, r18);
  await writeRecord(store, r19);
  const common = { product, line: r18.release.line, hostClass: r18.host.class, suite: r18.config.suite, storeDir: store, baselinesDir: dir };
  const first = await promoteBaseline({ ...common, version: '10.11.18', promotedAt: '2026-11-03T00:00:00.000Z' });
  assert.deepEqual(first.baseline.runIds, [r18.id]);
  assert.equal(first.previous, null);
  const second = await promoteBaseline({ ...common, version: '10.11.19', promotedAt: '2026-11-04T00:00:00.000Z', note: 'security release' });
  assert.deepEqual(second.baseline.previous, { version: '10.11.18', runIds: [r18.id] });
  assert.deepEqual(await readBaselines(dir), [second.baseline]);
  await assert.rejects(promoteBaseline({ ...common, version: '10.11.19', runIds: ['nope'], promotedAt: '2026-11-05T00:00:00.000Z' }), /--runs nope: no such run record .* available: 20261102T100000Z/);
  await assert.rejects(promoteBaseline({ ...common, line: '9.9', version: '10.11.19', promotedAt: '2026-11-05T00:00:00.000Z' }), /has no line '9\.9'/);
  assert.deepEqual(await readBaselines(dir), [second.baseline], 'a refused promotion leaves the baseline as it was');
});
