// The issue list (`tagbench issues` -> `site --issues`) and the walk of the store's layout
// (`listPartitions`) belong to the store: what one writes, the other reads back; bad entries are named.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readIssueList, writeIssueList, validateIssueRef, listPartitions, writeRecord } from '../../scripts/store/index.js';
import { makeRecord, tempDir, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

/** @type {import('../../scripts/types.js').IssueRef} */
const ISSUE = { product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'local', suite: 'smoke', number: 7, url: 'https://example.invalid/issues/7', state: 'open', title: 'Regression in mariadb 10.11.19' };

test('writeIssueList then readIssueList gives the list back; extra fields are not kept', async () => {
  const dir = await tempDir('tagbench-issues-');
  const file = join(dir, 'sub', 'issues.json');
  await writeIssueList(file, [ISSUE, /** @type {any} */ ({ ...ISSUE, number: 8, state: 'closed', extra: 'x' })]);
  assert.deepEqual(await readIssueList(file), [ISSUE, { ...ISSUE, number: 8, state: 'closed' }]);
});

test('a bad issue list is refused with the entry and field named, and is not written', async () => {
  const dir = await tempDir('tagbench-issues-bad-');
  const file = join(dir, 'issues.json');
  assert.deepEqual(validateIssueRef({ ...ISSUE, state: 'merged', number: 1.5 }), ['number must be an integer (found 1.5)', 'state must be one of open, closed (found "merged")']);
  await assert.rejects(writeIssueList(file, [ISSUE, /** @type {any} */ ({ ...ISSUE, suite: undefined })]), /\[1\]\.suite must be a string/);
  await assert.rejects(readIssueList(file), /cannot read/, 'the refused list was not written');
  await writeFile(file, '{"not": "a list"}');
  await assert.rejects(readIssueList(file), /expected a JSON array of issues/);
  await writeFile(file, '[{');
  await assert.rejects(readIssueList(file), /not valid JSON/);
});

test('listPartitions finds every (host class, product, suite) with its versions, without reading records', async () => {
  const store = await tempDir('tagbench-partitions-');
  assert.deepEqual(await listPartitions(store), [], 'an empty store has none');
  await writeRecord(store, makeRecord('20261101T100000Z-local-mariadb-10.11.18-aaaaaa', { version: '10.11.18' }));
  await writeRecord(store, makeRecord('20261102T100000Z-local-mariadb-10.11.19-bbbbbb', { version: '10.11.19' }));
  await writeRecord(store, makeRecord('20261103T100000Z-small-mariadb-10.11.19-cccccc', { version: '10.11.19', hostClass: 'small-server', suite: 'small' }));
  const r = makeRecord('x', {});
  assert.deepEqual(await listPartitions(store), [
    { hostClass: r.host.class, product: 'mariadb', suite: r.config.suite, versions: ['10.11.18', '10.11.19'] },
    { hostClass: 'small-server', product: 'mariadb', suite: 'small', versions: ['10.11.19'] },
  ]);
});
