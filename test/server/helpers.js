/**
 * Shared setup of the server tests: real releases from the install stage (cached in
 * $TAGBENCH_CACHE, else .tagbench/installs, so only the first run downloads), the project's
 * my.cnf templates and host classes, and short private work dirs (unix socket paths are
 * limited to 107 bytes).
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INSTALL_INDEX = join(ROOT, 'scripts', 'install', 'index.js');

/** Why the integration tests are skipped, or false when they can run. */
export const skipReason = (await access(INSTALL_INDEX).then(() => true, () => false))
  ? false
  : `the install stage (${INSTALL_INDEX}) is missing: server integration tests need it to get real releases`;

export const config = await loadConfig(ROOT);

/** The CPU a test server is pinned to: the last one, as on the `local` host class. */
export const TEST_CPU = String(Math.max(0, (await import('node:os')).cpus().length - 1));

/**
 * Install (or find in the cache) one release with the deb provider.
 * @param {string} product
 * @param {string} version
 * @returns {Promise<import('../../scripts/types.js').InstallResult>}
 */
export async function getInstall(product, version) {
  const { installRelease } = await import(INSTALL_INDEX);
  const cacheDir = resolve(process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'));
  const result = await installRelease(
    { product, version, provider: 'deb' },
    { config, cacheDir, log: (/** @type {string} */ m) => process.stderr.write(`  [install] ${m}\n`) },
  );
  if (result.status === 'failed') throw new Error(`installing ${product} ${version} failed: ${result.reason}`);
  return result;
}

/**
 * A fresh work dir under the OS temp dir; remove it with the returned function.
 * @param {string} label
 * @returns {Promise<{dir: string, remove: () => Promise<void>}>}
 */
export async function tempWorkDir(label) {
  const dir = await mkdtemp(join(tmpdir(), `tb-srv-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Quiet progress for tests; set TAGBENCH_TEST_VERBOSE=1 to see it. */
export const testLog = process.env.TAGBENCH_TEST_VERBOSE ? (/** @type {string} */ m) => process.stderr.write(`  [server] ${m}\n`) : () => {};

/**
 * Options for startServer() with the project's template for the engine and the `local`
 * host class values.
 * @param {string} workDir
 * @param {number} port
 * @param {'innodb'|'rocksdb'} engine
 * @param {Partial<import('../../scripts/server/types.js').ServerOptions>} [extra]
 * @returns {import('../../scripts/server/types.js').ServerOptions}
 */
export function serverOptions(workDir, port, engine, extra = {}) {
  return {
    workDir, port, engine,
    mycnfTemplate: config.mycnf[engine],
    mycnfName: engine,
    mycnfOverrides: { ...config.hosts.local.mycnf },
    serverCpus: TEST_CPU,
    log: testLog,
    ...extra,
  };
}

/**
 * @param {import('../../scripts/server/types.js').ServerHandle} h
 * @returns {Promise<import('../../scripts/server/types.js').ServerExit>} resolves when the process exits
 */
export function exitOf(h) {
  return new Promise((res) => h.onExit(res));
}
