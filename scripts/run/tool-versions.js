/**
 * Versions of the tools that shape the numbers, recorded in every run record (`config.tools`):
 * those the suite's benchmark plug-ins report (their toolVersions member) and tagbench's own.
 */
import { readFile } from 'node:fs/promises';

/**
 * @param {import('../workload/types.js').Benchmark[]} plugins the benchmark plug-ins of the suite
 *   (a plug-in without toolVersions runs no external tool)
 * @returns {Promise<Record<string, string>>} tool -> version: the plug-ins' tools in their order
 *   (a tool two plug-ins report, e.g. sysbench, once), then `node` and `tagbench`
 * @throws {import('../errors.js').UserError} when a tool a plug-in needs is missing
 */
export async function readToolVersions(plugins) {
  /** @type {Record<string, string>} */
  const tools = {};
  // One call per function: ddl, reload and loops share sysbench's.
  for (const report of new Set(plugins.map((p) => p.toolVersions))) {
    if (report) Object.assign(tools, await report());
  }
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  return { ...tools, node: process.version, tagbench: pkg.version };
}
