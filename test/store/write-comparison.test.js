// test/fixtures/store/comparison-v1.json is the output of scripts/compare/ compareRuns() for a
// made-up pair of releases (saved once): the real shape, including the evidence fields the
// compare stage adds to each TestVerdict.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateComparison, writeComparison, readComparisons, buildIndex, writeRecord } from '../../scripts/store/index.js';
import { makeRecord, tempDir, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);
const fixture = new URL('../fixtures/store/comparison-v1.json', import.meta.url);
/** @returns {Promise<import('../../scripts/types.js').Comparison>} */
const load = async () => JSON.parse(await readFile(fixture, 'utf8'));

test('the captured comparison is valid; broken declared fields are named', async () => {
  const cmp = await load();
  assert.deepEqual(validateComparison(cmp), []);
  const bad = structuredClone(cmp);
  // @ts-expect-error wrong on purpose
  bad.tests[0].verdict = 'worse';
  bad.tests[1].ci = /** @type {any} */ ([1]);
  // @ts-expect-error wrong on purpose
  bad.summary.regression = '1';
  const problems = validateComparison(bad);
  assert.ok(problems.some((p) => p.includes("'tests.0.verdict'") && p.includes('"regression"')), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("'tests.1.ci'")), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes("'summary.regression'")), problems.join('\n'));
});

test('writeComparison stores under the candidate version with a stable id; readComparisons and the index list it', async () => {
  const store = await tempDir('cmp');
  const cmp = await load();
  const first = await writeComparison(store, cmp);
  assert.match(first.id, /^vs-10\.11\.18-20250301T120000Z-[0-9a-f]{8}$/);
  assert.equal(first.path, join(store, 'verdicts/local/mariadb/10.11.19/smoke', `${first.id}.json`));
  assert.deepEqual(await writeComparison(store, structuredClone(cmp)), first, 'same comparison, same file: a no-op');
  const recomputed = { ...structuredClone(cmp), createdAt: '2025-03-02T08:00:00.000Z' };
  const second = await writeComparison(store, recomputed);
  assert.notEqual(second.id, first.id, 'a recomputed comparison is a new file, the old one stays');
  await assert.rejects(writeComparison(store, { ...cmp, createdAt: 'yesterday' }), /'createdAt'/);
  await assert.rejects(writeComparison(store, cmp, { id: '../x' }), /not usable as a file name/);

  const all = await readComparisons(store);
  assert.deepEqual(all.map((c) => c.id), [first.id, second.id]);
  assert.deepEqual(await readComparisons(store, { version: '10.11.18' }), []);
  await writeRecord(store, makeRecord('run-x'));
  const index = await buildIndex(store);
  assert.deepEqual(index.comparisons.map((c) => [c.candidateVersion, c.baseVersion, c.summary.regression]), [['10.11.19', '10.11.18', cmp.summary.regression], ['10.11.19', '10.11.18', cmp.summary.regression]]);
  assert.equal(index.runs.length, 1);
});
