/** `tagbench store migrate`: upgrade a results store's files to the newest schemaVersion. */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { EXIT, UserError } from '../errors.js';
import { migrateStore } from './migrate-store.js';

/**
 * @param {Record<string, any>} options commander options: {store: string, dryRun?: boolean}
 * @returns {Promise<number>} exit code
 * @throws {UserError} see migrateStore
 */
export async function run(options) {
  const dir = resolve(options.store);
  if (!existsSync(dir)) throw new UserError(`results store ${dir} does not exist; pass --store <dir>`);
  const result = await migrateStore(dir, { dryRun: options.dryRun });
  for (const m of result.migrated) process.stdout.write(`${options.dryRun ? 'would migrate' : 'migrated'} ${m.path} (${m.steps.join(', ')})\n`);
  process.stdout.write(`${dir}: ${result.migrated.length} file(s) ${options.dryRun ? 'to migrate' : 'migrated'}, ${result.current} already current\n`);
  return EXIT.ok;
}
