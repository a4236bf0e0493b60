// test/fixtures/store/change-points-v1.json is what `tagbench compare` stored for four made-up
// releases (point-query drops 15 % at 10.11.20, update-index 20 % at 10.11.21) with the real
// apache-otava, saved once with a fixed createdAt.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { validateChangePoints, writeChangePoints, readChangePoints, buildIndex, readIndex, writeRecord, publishToBranch } from '../../scripts/store/index.js';
import { UserError } from '../../scripts/errors.js';
import { makeRecord, tempDir, cleanupTempDirs, bareRepo, git } from './store-testkit.js';

after(cleanupTempDirs);
const fixture = new URL('../fixtures/store/change-points-v1.json', import.meta.url);
/** @returns {Promise<import('../../scripts/store/index.js').ChangePoints>} */
const load = async () => JSON.parse(await readFile(fixture, 'utf8'));
const quiet = { progress: () => {} };

test('the stored change points are valid; schema and cross-field problems are named', async () => {
  const cp = await load();
  assert.deepEqual(validateChangePoints(cp), []);
  const bad = structuredClone(cp);
  bad.method.maxPValue = 0;
  /** @type {any} */ (bad.tests[0].changePoints[0]).pValue = '1e-12';
  assert.deepEqual(validateChangePoints(bad).map((p) => p.split(' ')[1]).sort(), ["'method.maxPValue'", "'tests.0.changePoints.0.pValue'"]);

  const moved = structuredClone(cp);
  moved.tests[0].changePoints[0].index = 5; // a point of 10.11.19, not the first of 10.11.20
  assert.match(validateChangePoints(moved).join('\n'), /tests\.0\.changePoints\.0' says "10\.11\.19" -> "10\.11\.20" but points 4 and 5 of the series belong to 10\.11\.19 and 10\.11\.19/);
  const stray = structuredClone(cp);
  stray.tests[1].releases[3].version = '10.11.99';
  stray.releases.push({ ...stray.releases[0] });
  const problems = validateChangePoints(stray);
  assert.ok(problems.some((p) => p.includes("'tests.1.releases.3.version' (got \"10.11.99\") is not one of 'releases'")), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("'releases.4.version' (got \"10.11.18\") repeats releases.0")), problems.join('\n'));
  assert.match(validateChangePoints({ ...cp, schemaVersion: 2 }).join(), /reads change-points files up to version 1: upgrade tagbench/);
});

test('writeChangePoints stores one file per series and replaces it; readChangePoints filters by path level', async () => {
  const store = await tempDir('cp');
  const cp = await load();
  const path = await writeChangePoints(store, cp);
  assert.equal(path, join(store, 'changepoints/local/mariadb/10.11/smoke.json'));
  const mtime = (await stat(path)).mtimeMs;
  await new Promise((r) => setTimeout(r, 20));
  await writeChangePoints(store, structuredClone(cp));
  assert.equal((await stat(path)).mtimeMs, mtime, 'identical content is not rewritten');

  // a later compare over a longer series replaces the file (derived data, unlike records)
  const later = { ...structuredClone(cp), createdAt: '2025-03-08T12:00:00.000Z' };
  later.tests[0].changePoints = [];
  await writeChangePoints(store, later);
  assert.deepEqual(await readChangePoints(store), [later]);

  const other = { ...structuredClone(cp), line: '11.8', suite: 'standard' };
  await writeChangePoints(store, other);
  assert.deepEqual((await readChangePoints(store, { line: '11.8' })).map((c) => c.suite), ['standard']);
  assert.deepEqual((await readChangePoints(store, { suite: 'smoke' })).map((c) => c.line), ['10.11']);
  assert.deepEqual(await readChangePoints(store, { hostClass: 'small-server' }), []);
  assert.deepEqual(await readChangePoints(join(store, 'missing')), [], 'a missing store is empty');

  // a bad write leaves the stored file as it was
  const before = await readFile(path, 'utf8');
  await assert.rejects(writeChangePoints(store, { ...later, releases: [] }), (err) => err instanceof UserError && /'releases'/.test(err.message));
  assert.equal(await readFile(path, 'utf8'), before);
});

test('a change-point file that does not parse, or sits at another series\' path, is an error naming it', async () => {
  const store = await tempDir('cp-bad');
  const cp = await load();
  const dir = join(store, 'changepoints/local/mariadb/10.11');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'standard.json'), JSON.stringify(cp));
  await assert.rejects(readChangePoints(store), /changepoints\/local\/mariadb\/10\.11\/standard\.json: its content belongs at changepoints\/local\/mariadb\/10\.11\/smoke\.json/);
  await writeFile(join(dir, 'standard.json'), '{"schemaVersion": 1,');
  await assert.rejects(readChangePoints(store), /standard\.json: not valid JSON .*remove it and run `tagbench compare`/);
});

test('the index lists change-point files and readIndex sees a replaced one', async () => {
  const store = await tempDir('cp-index');
  const cp = await load();
  await writeRecord(store, makeRecord('run-1'));
  await writeChangePoints(store, cp);
  const index = await buildIndex(store);
  assert.deepEqual(index.changePoints, [{
    hostClass: 'local', product: 'mariadb', line: '10.11', suite: 'smoke', createdAt: cp.createdAt,
    releases: ['10.11.18', '10.11.19', '10.11.20', '10.11.21'], changePoints: 2, path: 'changepoints/local/mariadb/10.11/smoke.json',
  }]);
  await writeChangePoints(store, { ...cp, createdAt: '2025-04-01T00:00:00.000Z', tests: cp.tests.slice(1) });
  const fresh = await readIndex(store);
  assert.deepEqual(fresh.changePoints?.map((c) => [c.createdAt, c.changePoints]), [['2025-04-01T00:00:00.000Z', 1]]);
  assert.deepEqual(fresh.runs, index.runs);
});

test('publish carries change points to the branch: a newer file replaces the branch\'s, an older one does not', async () => {
  const bare = await bareRepo();
  const cp = await load();
  const a = await tempDir('store-a');
  await writeRecord(a, makeRecord('run-1'));
  await writeChangePoints(a, cp);
  const first = await publishToBranch(a, { repo: bare, ...quiet });
  assert.deepEqual(first.added.sort(), ['changepoints/local/mariadb/10.11/smoke.json', 'runs/local/mariadb/10.11.18/smoke/run-1.json', 'runs/local/mariadb/10.11.18/smoke/run-1.samples.json.gz']);

  const b = await tempDir('store-b');
  const newer = { ...structuredClone(cp), createdAt: '2025-03-02T00:00:00.000Z', tests: cp.tests.slice(0, 1) };
  await writeChangePoints(b, newer);
  const second = await publishToBranch(b, { repo: bare, ...quiet });
  assert.equal(second.status, 'published');
  assert.deepEqual(second.replaced, ['changepoints/local/mariadb/10.11/smoke.json']);
  assert.match(git(['log', '-1', '--format=%s', 'bench-data'], bare), /1 change-point file/);
  assert.deepEqual(JSON.parse(git(['show', 'bench-data:changepoints/local/mariadb/10.11/smoke.json'], bare)), newer);
  assert.equal(JSON.parse(git(['show', 'bench-data:index.json'], bare)).changePoints[0].changePoints, 1);

  // store a still holds the older computation: publishing it again keeps the branch's
  const third = await publishToBranch(a, { repo: bare, ...quiet });
  assert.equal(third.status, 'unchanged');
  assert.deepEqual(third.keptNewer, ['changepoints/local/mariadb/10.11/smoke.json']);
  assert.deepEqual(JSON.parse(git(['show', 'bench-data:changepoints/local/mariadb/10.11/smoke.json'], bare)), newer);
});
