import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, readdir, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRecord, writeRecord, readRecords, writeRawLog, buildIndex } from '../../scripts/store/index.js';
import { UserError } from '../../scripts/errors.js';

const fixture = new URL('../fixtures/store/run-record-v2.json', import.meta.url);
/** @returns {Promise<import('../../scripts/types.js').RunRecord>} */
const loadFixture = async () => JSON.parse(await readFile(fixture, 'utf8'));
const tempStore = () => mkdtemp(join(tmpdir(), 'tagbench-store-'));

test('the fixture record is valid; broken fields are named as dot paths', async () => {
  const record = await loadFixture();
  assert.deepEqual(validateRecord(record), []);
  const bad = structuredClone(record);
  bad.steps[1].repeats[0].throughput = -1;
  // @ts-expect-error wrong on purpose
  bad.host.cores = 'two';
  // @ts-expect-error unknown field on purpose
  bad.release.extra = 1;
  const problems = validateRecord(bad);
  assert.ok(problems.some((p) => p.includes("'steps.1.repeats.0.throughput'") && p.includes('-1')), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("'host.cores'")), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("unknown field 'extra'") && p.includes('release')), problems.join('\n'));
});

test('a partial record without finishedAt is valid', async () => {
  const record = await loadFixture();
  record.status = 'partial';
  record.finishedAt = null;
  record.reason = 'interrupted';
  assert.deepEqual(validateRecord(record), []);
});

test('a newer schemaVersion asks to upgrade tagbench', async () => {
  const record = /** @type {any} */ (await loadFixture());
  record.schemaVersion = 3;
  record.newField = true;
  const problems = validateRecord(record);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /upgrade tagbench/);
});

test('writeRecord stores at the identity path, is idempotent, refuses a different record', async () => {
  const store = await tempStore();
  const record = await loadFixture();
  const path = await writeRecord(store, record);
  assert.equal(path, join(store, 'runs/local/mariadb/10.11.18/smoke', `${record.id}.json`));
  const stored = JSON.parse(await readFile(path, 'utf8'));
  assert.equal(stored.samples.file, `${record.id}.samples.json.gz`, 'the per-second samples are in a file beside the record');
  assert.ok(stored.steps.every((/** @type {any} */ s) => s.repeats.every((/** @type {any} */ r) => !('intervals' in r))), 'the stored record holds no intervals');
  const [back] = await readRecords(store);
  const { samples, ...rest } = back;
  assert.deepEqual(rest, record, 'read back, the record is the one written, samples included');
  assert.deepEqual(samples, stored.samples);
  assert.equal(await writeRecord(store, structuredClone(record)), path);
  const changed = structuredClone(record);
  changed.steps[1].repeats[0].throughput = 14124.51;
  await assert.rejects(writeRecord(store, changed), (err) => err instanceof UserError && /append-only/.test(err.message));
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), stored, 'the stored record is untouched');
  const dirFiles = await readdir(join(store, 'runs/local/mariadb/10.11.18/smoke'));
  assert.deepEqual(dirFiles.sort(), [`${record.id}.json`, `${record.id}.samples.json.gz`], 'no temp file is left behind');
  await rm(store, { recursive: true });
});

test('writeRecord refuses an invalid record and writes nothing', async () => {
  const store = await tempStore();
  const record = /** @type {any} */ (await loadFixture());
  delete record.host.kernel;
  await assert.rejects(writeRecord(store, record), /in 'host': missing required field 'kernel'/);
  await assert.rejects(readdir(join(store, 'runs')), { code: 'ENOENT' });
  await rm(store, { recursive: true });
});

test('a path-traversing id is invalid, so nothing escapes the store', async () => {
  const record = await loadFixture();
  record.id = '../../etc/passwd';
  assert.ok(validateRecord(record).some((p) => p.includes("'id'")));
  record.id = 'ok';
  record.release.version = '../x';
  assert.ok(validateRecord(record).some((p) => p.includes("'release.version'")));
});

test('concurrent writers of the same path: one record wins, the other is refused or a no-op', async () => {
  const store = await tempStore();
  const a = await loadFixture();
  const b = structuredClone(a);
  b.host.hostname = 'other';
  const results = await Promise.allSettled([writeRecord(store, a), writeRecord(store, b), writeRecord(store, a)]);
  const stored = JSON.parse(await readFile(join(store, 'runs/local/mariadb/10.11.18/smoke', `${a.id}.json`), 'utf8'));
  assert.ok([a.host.hostname, b.host.hostname].includes(stored.host.hostname));
  const rejected = results.filter((r) => r.status === 'rejected');
  assert.ok(rejected.length >= 1 && rejected.length <= 2, 'the loser is refused');
  await rm(store, { recursive: true });
});

test('readRecords: missing store is empty; filters; an unparseable file is an error naming it', async () => {
  const store = await tempStore();
  assert.deepEqual(await readRecords(join(store, 'nothing-here')), []);
  const a = await loadFixture();
  const b = structuredClone(a);
  b.id = 'run-b';
  b.release.version = '10.11.19';
  b.startedAt = '2025-03-02T00:00:00Z';
  b.status = 'ok';
  b.steps = b.steps.filter((st) => st.status !== 'failed');
  delete b.reason;
  await writeRecord(store, a);
  await writeRecord(store, b);
  assert.deepEqual((await readRecords(store)).map((r) => r.id), [a.id, 'run-b']);
  assert.deepEqual((await readRecords(store, { version: '10.11.19' })).map((r) => r.id), ['run-b']);
  assert.deepEqual((await readRecords(store, { status: ['failed'] })).map((r) => r.id), [a.id]);
  assert.deepEqual(await readRecords(store, { hostClass: 'small-server' }), []);
  const broken = join(store, 'runs/local/mariadb/10.11.19/smoke/broken.json');
  await writeFile(broken, '{"schemaVersion": 1, "id": ');
  await assert.rejects(readRecords(store), (err) => err instanceof UserError && err.message.includes('runs/local/mariadb/10.11.19/smoke/broken.json') && /not valid JSON/.test(err.message));
  assert.equal(await readFile(broken, 'utf8'), '{"schemaVersion": 1, "id": ', 'the bad file is left as it was');
  await rm(store, { recursive: true });
});

test('readRecords: a newer record says upgrade tagbench; a misplaced record is named', async () => {
  const store = await tempStore();
  const record = /** @type {any} */ (await loadFixture());
  const dir = join(store, 'runs/local/mariadb/10.11.18/smoke');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${record.id}.json`), JSON.stringify({ ...record, schemaVersion: 7 }));
  await assert.rejects(readRecords(store), /schemaVersion 7 is newer.*upgrade tagbench/);
  await rm(store, { recursive: true });
  const store2 = await tempStore();
  const wrong = join(store2, 'runs/local/mariadb/10.11.99/smoke');
  await mkdir(wrong, { recursive: true });
  await writeFile(join(wrong, `${record.id}.json`), JSON.stringify(record));
  await assert.rejects(readRecords(store2), /belongs at runs\/local\/mariadb\/10\.11\.18\/smoke/);
  await rm(store2, { recursive: true });
});

test('writeRawLog stores logs per run and refuses names with directories', async () => {
  const store = await tempStore();
  const path = await writeRawLog(store, 'run-1', 'point-query.pre.r0.txt', 'SQL statistics:\n');
  assert.equal(await readFile(path, 'utf8'), 'SQL statistics:\n');
  assert.equal(path, join(store, 'logs/run-1/point-query.pre.r0.txt'));
  await assert.rejects(writeRawLog(store, 'run-1', '../escape.txt', 'x'), /not usable as a file name/);
  await assert.rejects(writeRawLog(store, 'run-1', 'point-query.pre.r0.txt', 'other'), /append-only/);
  await rm(store, { recursive: true });
});

test('buildIndex lists every record, is byte-stable, and rejects duplicate run ids', async () => {
  const store = await tempStore();
  const a = await loadFixture();
  await writeRecord(store, a);
  const index = await buildIndex(store);
  assert.deepEqual(index.runs.map((r) => [r.id, r.version, r.status, r.path]), [[a.id, '10.11.18', 'failed', `runs/local/mariadb/10.11.18/smoke/${a.id}.json`]]);
  const text = await readFile(join(store, 'index.json'), 'utf8');
  await buildIndex(store);
  assert.equal(await readFile(join(store, 'index.json'), 'utf8'), text);
  const dup = structuredClone(a);
  dup.release.version = '10.11.19';
  await writeRecord(store, dup);
  await assert.rejects(buildIndex(store), /run id '.*' is used by two records/);
  await rm(store, { recursive: true });
});

test('a failed repeat carries no throughput: null, never 0', async () => {
  const record = await loadFixture();
  const failed = record.steps[2].repeats[0];
  assert.equal(failed.status, 'failed');
  assert.equal(failed.throughput, null);
  failed.throughput = 0;
  assert.ok(validateRecord(record).some((p) => p.includes("'steps.2.repeats.0.throughput'")), 'a failure recorded as 0 is refused');
});

test('rules across fields: unique step names and repeat indexes, no "ok" record with a failed step', async () => {
  const record = await loadFixture();
  record.steps[2].name = record.steps[1].name;
  record.steps[1].repeats[1].index = 0;
  record.status = 'ok';
  delete record.reason;
  const problems = validateRecord(record);
  assert.ok(problems.some((p) => p.includes("'steps.2.name'") && p.includes('unique')), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("'steps.1.repeats.1.index'")), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("'status' is \"ok\"") && p.includes('steps.2')), problems.join('\n'));
});
