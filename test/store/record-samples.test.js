// A record's per-second samples in a compressed, column-wise file beside it
// (scripts/store/record-samples.js), on real records of real runs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, rm, readdir } from 'node:fs/promises';
import { migrateData } from '../../scripts/store/migrate-data.js';
import { RECORD_SCHEMA_VERSION } from '../../scripts/store/validate-record.js';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeRecord, readRecords, buildIndex } from '../../scripts/store/index.js';
import { splitSamples, joinSamples } from '../../scripts/store/record-samples.js';
import { recordRelPath, renderJson } from '../../scripts/store/store-paths.js';
import { tempDir, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

/** Real records of real runs: a server smoke run (sysbench), and an insert benchmark run. */
const REAL = [
  new URL('../../bench/instance-noise-records/20261123T055539Z-local-mariadb-10.11.18-instance-noise-15s-f9f6d3.json', import.meta.url),
  new URL('../fixtures/sequence/insert-smoke/20261122T233807Z-local-mariadb-10.11.19-insert-smoke-b7de56.json', import.meta.url),
];

/** @param {URL} url @returns {Promise<import('../../scripts/types.js').RunRecord>} */
async function load(url) {
  // bench/ keeps its records as the runs wrote them (some are of an older schemaVersion): upgraded as a reader does.
  return migrateData('run-record', JSON.parse(await readFile(url, 'utf8')), RECORD_SCHEMA_VERSION).data;
}

test('real records read back exactly as written, their samples from the file beside them, and the record shrinks', async () => {
  for (const url of REAL) {
    const record = await load(url);
    const store = await tempDir('store');
    const path = await writeRecord(store, record);
    const stored = JSON.parse(await readFile(path, 'utf8'));
    const samplesBytes = (await readFile(join(path, '..', stored.samples.file))).length;
    const before = renderJson(record).length;
    const after = renderJson(stored).length + samplesBytes;
    assert.ok(after < before, `${url.pathname.split('/').at(-1)}: ${before} bytes inline, ${after} as record + samples file`);
    const intervals = record.steps.reduce((n, s) => n + s.repeats.reduce((m, r) => m + r.intervals.length, 0), 0);
    assert.equal(stored.samples.intervals, intervals);
    const [back] = await readRecords(store);
    const { samples: _s, ...rest } = back;
    assert.deepEqual(rest, record);
    const [summary] = await readRecords(store, { samples: false });
    assert.ok(summary.steps.every((s) => s.repeats.every((r) => r.intervals.length === 0)), 'samples: false reads the summaries only');
    assert.deepEqual(summary.steps.map((s) => s.repeats.map((r) => r.throughput)), record.steps.map((s) => s.repeats.map((r) => r.throughput)));
  }
});

test('samples with differing fields within a repeat are kept as rows, so they still read back exactly', () => {
  const record = /** @type {any} */ ({ id: 'run-x', steps: [{ name: 'a', repeats: [{ index: 0, intervals: [{ t: 1, qps: 1, tps: 1, latencyMs: null, errors: 0 }, { t: 2, qps: 2, tps: 2, latencyMs: 1, errors: 0, inserts: 5 }] }, { index: 1, intervals: [] }] }] });
  const { record: stored, samples } = splitSamples(record);
  assert.ok(samples);
  const back = joinSamples(stored, samples, 'runs/x/run-x.json');
  assert.deepEqual(back.steps, record.steps);
  assert.deepEqual(splitSamples({ ...record, steps: [{ name: 'a', repeats: [{ index: 0, intervals: [] }] }] }).samples, null, 'no samples, no file');
});

test('a missing, replaced or damaged samples file is an error naming the files; nothing is read as empty', async () => {
  const record = await load(REAL[0]);
  const store = await tempDir('store');
  const path = await writeRecord(store, record);
  const rel = recordRelPath(record);
  const samplesPath = join(path, '..', `${record.id}.samples.json.gz`);
  const good = await readFile(samplesPath);

  // Another run's samples (a valid file, the wrong one): the digest tells.
  const other = splitSamples({ ...record, steps: record.steps.map((s) => ({ ...s, repeats: s.repeats.map((r) => ({ ...r, intervals: r.intervals.map((i) => ({ ...i, qps: i.qps + 1 })) })) })) });
  await writeFile(samplesPath, /** @type {Buffer} */ (other.samples));
  await assert.rejects(readRecords(store), (err) => err instanceof Error && err.message.includes(`${rel.replace(/\.json$/, '.samples.json.gz')}: not the samples file ${rel} names`));

  // Damaged in place (same digest impossible): refused too.
  await writeFile(samplesPath, gzipSync('not json'));
  await assert.rejects(readRecords(store), /not the samples file/);

  await rm(samplesPath);
  await assert.rejects(readRecords(store), (err) => err instanceof Error && err.message.includes(`${rel}: its per-second samples file`) && err.message.includes('is missing'));
  const index = await buildIndex(store, { write: false });
  assert.deepEqual(index.runs.map((r) => r.id), [record.id], 'the index needs no samples: a missing file does not stop it');

  await writeFile(samplesPath, good);
  assert.equal((await readRecords(store)).length, 1);
  assert.deepEqual((await readdir(join(path, '..'))).sort(), [`${record.id}.json`, `${record.id}.samples.json.gz`]);
});
