/** `tagbench store index`: regenerate index.json of a local results store. */
import { resolve, join } from 'node:path';
import { existsSync } from 'node:fs';
import { EXIT, UserError } from '../errors.js';
import { buildIndex } from './build-index.js';

/**
 * @param {Record<string, any>} options commander options: {store: string}
 * @returns {Promise<number>} exit code
 * @throws {UserError} when a file of the store is unreadable
 */
export async function run(options) {
  const dir = resolve(options.store);
  if (!existsSync(dir)) throw new UserError(`results store ${dir} does not exist; pass --store <dir>`);
  const index = await buildIndex(dir);
  process.stdout.write(`${join(dir, 'index.json')}: ${index.runs.length} run(s), ${index.comparisons.length} comparison(s)\n`);
  return EXIT.ok;
}
