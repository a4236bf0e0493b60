// suiteBlock: the one check of a plug-in's suite block (ddl, reload, loops, ibench, linkbench).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../scripts/errors.js';
import { suiteBlock } from '../../scripts/workload/sequence-helpers.js';

const suite = (/** @type {Record<string, unknown>} */ extra) => /** @type {any} */ ({ name: 's', clients: 1, ...extra });

test('suiteBlock fills the defaults the block omits and keeps what it sets', () => {
  assert.deepEqual(suiteBlock(suite({ ddl: { tables: 2, tableSize: 10 } }), 'ddl', { fields: 'tables, tableSize', defaults: { database: 'tagbench_ddl' } }),
    { tables: 2, tableSize: 10, database: 'tagbench_ddl' });
  assert.deepEqual(suiteBlock(suite({ loops: { loops: 3, loopDurationS: 5, test: 'scan' } }), 'loops', { fields: 'loops, loopDurationS', defaults: { test: 'read-write.range10' } }),
    { loops: 3, loopDurationS: 5, test: 'scan' });
});

test('suiteBlock names the suite file, the plug-in and its required fields when the block is missing', () => {
  assert.throws(() => suiteBlock(suite({}), 'reload', { fields: 'tables, tableSize', defaults: {} }),
    (e) => e instanceof UserError && e.message === "configs/suites/s.yml: 'benchmarks' names reload but the suite has no 'reload' block (tables, tableSize; see scripts/config/schemas/suite.schema.json)");
});

test('suiteBlock refuses a database that is not a plain identifier, and checks none when the plug-in has no database', () => {
  assert.throws(() => suiteBlock(suite({ ddl: { tables: 1, tableSize: 1, database: 'a;b' } }), 'ddl', { fields: 'tables, tableSize', defaults: { database: 'tagbench_ddl' } }),
    (e) => e instanceof UserError && /ddl\.database = "a;b" must be a plain identifier/.test(e.message));
  assert.equal(suiteBlock(suite({ loops: { loops: 1, loopDurationS: 1, database: 'a;b' } }), 'loops', { fields: 'loops', defaults: {} }).database, 'a;b');
});
