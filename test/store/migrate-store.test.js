// The migration mechanism, exercised with a synthetic step: no v0 format ever existed, so the
// step below is made up for the test (v0 kept the host class at the top level and had no
// dbSize), chained before the registered steps; and the registered run-record step 1 -> 2 (the
// meters' figures in one home) on records with counters and instructions figures.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, readFile, cp } from 'node:fs/promises';
import { join } from 'node:path';
import { migrateData } from '../../scripts/store/migrate-data.js';
import { migrateStore } from '../../scripts/store/migrate-store.js';
import { MIGRATIONS } from '../../scripts/store/migrations/index.js';
import { readRecords, writeRecord, validateRecord } from '../../scripts/store/index.js';
import { migrateCommand } from '../../scripts/store/commands.js';
import { RECORD_SCHEMA_VERSION } from '../../scripts/store/validate-record.js';
import { RECORD_SCHEMA_VERSION as WRITTEN_VERSION } from '../../scripts/run/record-builder.js';
import { makeRecord, tempDir, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

/** @type {import('../../scripts/store/migrations/index.js').Migration} */
const syntheticV0 = {
  from: 0,
  to: 1,
  summary: 'move hostClass into host.class; add dbSize',
  up: (d) => {
    const { hostClass, ...rest } = d;
    return { ...rest, schemaVersion: 1, host: { ...d.host, class: hostClass }, dbSize: { afterLoad: null, atEnd: null } };
  },
};
const synthetic = { 'run-record': [syntheticV0, ...MIGRATIONS['run-record']], comparison: [], 'change-points': [] };

/** A v0 record as the synthetic old format had it. @param {string} id */
function v0Record(id) {
  const r = /** @type {any} */ (makeRecord(id));
  const { class: hostClass, ...host } = r.host;
  delete r.dbSize;
  return { ...r, schemaVersion: 0, hostClass, host };
}

test('migrateData applies numbered steps up to the newest version and never edits its input', () => {
  const old = v0Record('r0');
  const frozen = structuredClone(old);
  const { data, applied } = migrateData('run-record', old, 2, { migrations: synthetic['run-record'] });
  assert.deepEqual(old, frozen);
  assert.deepEqual(validateRecord(data), []);
  assert.deepEqual(applied, ['0->1: move hostClass into host.class; add dbSize', `1->2: ${MIGRATIONS['run-record'][0].summary}`]);
  assert.equal(migrateData('run-record', data, 2).data, data, 'a current file is returned as is');
});

test('migrateData refuses newer files and versions without a step', () => {
  assert.throws(() => migrateData('run-record', { schemaVersion: 3 }, 1, { file: 'x.json' }), /x\.json: schemaVersion 3 is newer.*upgrade tagbench/);
  assert.throws(() => migrateData('run-record', v0Record('r'), 2), /no migration of run-record files from schemaVersion 0 to 1 \(known steps: 1->2\)/);
  assert.throws(() => migrateData('comparison', { schemaVersion: '1' }, 1), /'schemaVersion' is "1"; expected an integer/);
  assert.deepEqual(MIGRATIONS['run-record'].map((m) => [m.from, m.to]), [[1, 2]]);
  assert.equal(WRITTEN_VERSION, RECORD_SCHEMA_VERSION, 'the run stage writes the newest format the store reads');
});

test('migrateStore upgrades old files in place (dry run writes nothing) and readers accept the result', async () => {
  const store = await tempDir('migrate');
  await writeRecord(store, makeRecord('current'));
  const dir = join(store, 'runs/local/mariadb/10.11.18/smoke');
  await mkdir(dir, { recursive: true });
  const oldPath = join(dir, 'old.json');
  const oldText = JSON.stringify(v0Record('old'));
  await writeFile(oldPath, oldText);

  await assert.rejects(readRecords(store), /old\.json: no migration of run-record files from schemaVersion 0/);
  const dry = await migrateStore(store, { dryRun: true, migrations: synthetic });
  assert.deepEqual(dry.migrated.map((m) => m.path), ['runs/local/mariadb/10.11.18/smoke/old.json']);
  assert.equal(dry.current, 1);
  assert.equal(await readFile(oldPath, 'utf8'), oldText, 'dry run leaves the file');

  await migrateStore(store, { migrations: synthetic });
  const upgraded = JSON.parse(await readFile(oldPath, 'utf8'));
  assert.equal(upgraded.schemaVersion, 2);
  assert.equal(upgraded.host.class, 'local');
  assert.deepEqual((await readRecords(store)).map((r) => r.id).sort(), ['current', 'old']);
  const again = await migrateStore(store, { migrations: synthetic });
  assert.deepEqual(again.migrated, []);
});

test('`tagbench store migrate` on a current store changes nothing; a newer file stops it', async () => {
  const store = await tempDir('migrate-cmd');
  await writeRecord(store, makeRecord('a'));
  assert.equal(await migrateCommand({ store }), 0);
  const dir = join(store, 'runs/local/mariadb/10.11.19/smoke');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'future.json'), JSON.stringify({ ...makeRecord('future', { version: '10.11.19' }), schemaVersion: 3 }));
  await assert.rejects(migrateCommand({ store }), /future\.json: schemaVersion 3 is newer.*upgrade tagbench.*|nothing was written/s);
});

test('run records 1 -> 2: counters figures move to repeat.meters.counters, the record gets its meters\' metrics, nothing else changes', async () => {
  const store = await tempDir('migrate-meters');
  await cp(new URL('../fixtures/store/meters', import.meta.url), store, { recursive: true });
  const path = join(store, 'runs/local/mariadb/10.11.18/smoke/run-20250301T100000Z-10.11.18.json');
  const before = JSON.parse(await readFile(path, 'utf8'));
  const { migrated } = await migrateStore(store);
  assert.equal(migrated.length, 2);
  const after = JSON.parse(await readFile(path, 'utf8'));
  assert.deepEqual(validateRecord(after), []);
  assert.equal(after.schemaVersion, 2);
  assert.deepEqual(Object.keys(after.config.meterMetrics), ['counters', 'instructions']);
  assert.equal(after.config.meterMetrics.counters.find((/** @type {any} */ m) => m.name === 'ipc').higherIsBetter, true);
  const step = before.steps.findIndex((/** @type {any} */ s) => s.repeats.some((/** @type {any} */ r) => r.counters));
  assert.ok(step >= 0, 'the fixture has counters figures');
  before.steps[step].repeats.forEach((/** @type {any} */ rep, /** @type {number} */ i) => {
    const moved = after.steps[step].repeats[i];
    assert.equal(moved.counters, undefined);
    assert.deepEqual(moved.meters.counters, rep.counters);
  });
  assert.deepEqual(after.steps[step].meters, before.steps[step].meters, 'counted figures stay where they were');
  // Undo the two moves: the rest of the record is what it was.
  const back = structuredClone(after);
  back.schemaVersion = 1;
  delete back.config.meterMetrics;
  for (const s of back.steps) for (const r of s.repeats) if (r.meters) { r.counters = r.meters.counters; delete r.meters; }
  assert.deepEqual(back, before);
  assert.deepEqual((await migrateStore(store)).migrated, [], 'a second migrate has nothing to do');
});
