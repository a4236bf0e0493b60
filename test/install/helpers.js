/**
 * Shared setup of the install tests: the project's config and the install cache, reused
 * between runs through $TAGBENCH_CACHE so CI downloads each release once.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** @returns {string} absolute cache folder: $TAGBENCH_CACHE, else .tagbench/installs */
export function testCacheDir() {
  return resolve(process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'));
}

/** @returns {Promise<import('../../scripts/install/types.js').InstallContext>} */
export async function testContext() {
  return { config: await loadConfig(ROOT), cacheDir: testCacheDir(), log: (m) => process.stderr.write(`  [install] ${m}\n`) };
}
