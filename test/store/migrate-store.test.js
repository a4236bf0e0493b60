// The migration mechanism, exercised with a synthetic step: no v0 format ever existed, so the
// step below is made up for the test (v0 kept the host class at the top level and had no
// dbSize). The registered list in scripts/store/migrations/ is empty while everything is v1.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { migrateData } from '../../scripts/store/migrate-data.js';
import { migrateStore } from '../../scripts/store/migrate-store.js';
import { MIGRATIONS } from '../../scripts/store/migrations/index.js';
import { readRecords, writeRecord, validateRecord } from '../../scripts/store/index.js';
import { migrateCommand } from '../../scripts/store/commands.js';
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
const synthetic = { 'run-record': [syntheticV0], comparison: [], 'change-points': [] };

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
  const { data, applied } = migrateData('run-record', old, 1, { migrations: [syntheticV0] });
  assert.deepEqual(old, frozen);
  assert.deepEqual(validateRecord(data), []);
  assert.deepEqual(applied, ['0->1: move hostClass into host.class; add dbSize']);
  assert.equal(migrateData('run-record', data, 1).data, data, 'a current file is returned as is');
});

test('migrateData refuses newer files and versions without a step', () => {
  assert.throws(() => migrateData('run-record', { schemaVersion: 3 }, 1, { file: 'x.json' }), /x\.json: schemaVersion 3 is newer.*upgrade tagbench/);
  assert.throws(() => migrateData('run-record', v0Record('r'), 1), /no migration of run-record files from schemaVersion 0 to 1 \(known steps: none\)/);
  assert.throws(() => migrateData('comparison', { schemaVersion: '1' }, 1), /'schemaVersion' is "1"; expected an integer/);
  assert.deepEqual(MIGRATIONS['run-record'], [], 'v1 is the first format: no registered step yet');
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
  assert.equal(upgraded.schemaVersion, 1);
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
  await writeFile(join(dir, 'future.json'), JSON.stringify({ ...makeRecord('future', { version: '10.11.19' }), schemaVersion: 2 }));
  await assert.rejects(migrateCommand({ store }), /future\.json: schemaVersion 2 is newer.*upgrade tagbench.*|nothing was written/s);
});
