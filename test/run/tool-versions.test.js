/** config.tools: the versions the suite's benchmark plug-ins report, then node's and tagbench's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { readToolVersions } from '../../scripts/run/tool-versions.js';
import { getBenchmark, suiteBenchmarks } from '../../scripts/workload/index.js';
import { UserError } from '../../scripts/errors.js';

const PKG = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
/** @type {import('../../scripts/types.js').SuiteConfig} */
const SUITE = { name: 'unit', description: '', tables: 1, tableSize: 100, clients: 1, readDurationS: 1, writeDurationS: 1, warmupS: 0, scanWarmDurationS: 1, restS: 0 };

/**
 * A plug-in that only reports versions, counting its calls.
 * @param {string} name
 * @param {(() => Promise<Record<string, string>>)|undefined} toolVersions
 * @returns {import('../../scripts/workload/types.js').Benchmark}
 */
const fake = (name, toolVersions) => ({ name, planSteps: () => [], runStep: async () => { throw new Error('not run'); }, ...(toolVersions ? { toolVersions } : {}) });

test('a sysbench suite records {sysbench, node, tagbench}, in that order, as before plug-ins reported them', async () => {
  const tools = await readToolVersions(suiteBenchmarks(SUITE).map(getBenchmark));
  assert.deepEqual(Object.keys(tools), ['sysbench', 'node', 'tagbench']);
  assert.match(tools.sysbench, /^\d+\.\d+\.\d+/, 'the version alone, without "sysbench "');
  assert.equal(tools.node, process.version);
  assert.equal(tools.tagbench, PKG.version);
  // ddl, reload and loops run sysbench too: the same one entry.
  const mixed = await readToolVersions(['sysbench', 'ibench', 'ddl', 'loops'].map(getBenchmark));
  assert.deepEqual(mixed, tools);
});

test('every plug-in\'s tools, a shared reporter asked once; a plug-in without toolVersions adds nothing', async () => {
  let calls = 0;
  const shared = async () => { calls++; return { sysbench: '1.0.20' }; };
  const tools = await readToolVersions([fake('a', shared), fake('b', undefined), fake('c', shared), fake('d', async () => ({ tpcc: '2.1' }))]);
  assert.deepEqual(tools, { sysbench: '1.0.20', tpcc: '2.1', node: process.version, tagbench: PKG.version });
  assert.equal(calls, 1);
  assert.deepEqual(await readToolVersions([getBenchmark('ibench')]), { node: process.version, tagbench: PKG.version },
    'the insert benchmark runs no external tool');
});

test('a missing tool\'s UserError reaches the caller unchanged', async () => {
  const missing = async () => { throw new UserError('tpcc not found on PATH'); };
  await assert.rejects(readToolVersions([fake('tpcc', missing)]), (err) => err instanceof UserError && /tpcc not found on PATH/.test(err.message));
});
