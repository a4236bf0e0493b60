/**
 * `tagbench run`: thin wrapper around runReleases. Ctrl-C / SIGTERM abort the run cleanly:
 * servers stop, records so far are stored as `partial`, exit code 130.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { runReleases } from './run-releases.js';
import { parseReleaseList } from './resolve-run.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';

/**
 * @param {Record<string, any>} options commander options
 * @returns {Promise<number>} exit code: 0 all ok, 1 some step failed, 130 interrupted
 */
export async function run(options) {
  const root = resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  if (!options.releases) throw new UserError('missing --releases: give product@version[,product@version...], e.g. mariadb@10.11.18,mariadb@10.11.19');
  const host = config.hosts[options.hostClass];
  const releases = parseReleaseList(options.releases).map((r) => ({ ...r, ...(options.provider ? { provider: options.provider } : {}), ...(options.path ? { path: options.path } : {}) }));
  const controller = new AbortController();
  const onSignal = (/** @type {NodeJS.Signals} */ sig) => {
    if (controller.signal.aborted) return;
    process.stderr.write(`\n${sig}: stopping servers and storing the records so far as partial...\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const workDir = resolve(workDirFrom(options.workDir, host));
  try {
    const outcome = await runReleases(config, {
      releases,
      suite: options.suite ?? host?.scale ?? 'smoke',
      hostClass: options.hostClass,
      engine: options.engine,
      mycnf: options.mycnf,
      repeats: options.repeats,
      only: options.only,
      storeDir: resolve(options.store),
      workDir,
      cacheDir: resolve(cacheDirFrom(options.cacheDir)),
      portBase: options.portBase,
      signal: controller.signal,
      keepWork: Boolean(options.keepWork),
    });
    if (options.json) process.stdout.write(`${JSON.stringify({ records: outcome.paths }, null, 2)}\n`);
    if (outcome.interrupted) return EXIT.interrupted;
    return outcome.records.every((r) => r.status === 'ok') ? EXIT.ok : EXIT.userError;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
