/**
 * The skeleton every caching provider (deb, source, tarball) follows, so that each keeps only
 * what differs: look the key up in the install cache, prepare, build in a private work folder,
 * check and describe the result, commit it with one rename, and remove the work folder whatever
 * happens (success, a failed build, or Ctrl-C). A provider supplies its steps (ProviderSteps);
 * the order, the progress lines and the failed result are the same for all of them.
 */
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { commitPrefix, lookupInstall, makeWorkDir, prefixPathFor } from './install-cache.js';
import { failedResult } from './install-result.js';

/** @typedef {import('../types.js').InstallResult} InstallResult */

/**
 * @template P
 * @typedef {object} WorkFolder what a provider's build and failure steps get
 * @property {string} workDir private folder beside the cache (same file system), removed afterwards
 * @property {string} finalPrefix where the prefix lands (prefixPathFor of the key)
 * @property {P} prepared what the prepare step returned
 * @property {string} label `<product> <version>`, the start of every progress line
 * @property {() => number} elapsedS seconds since the install started (after the cache lookup)
 * @property {(msg: string) => void} log
 */

/**
 * @typedef {object} FailureFacts what a provider records about a build that failed
 * @property {string} summary the end of the `<label>: FAILED` progress line (`: <message>`)
 * @property {string} [reason] the result's reason; default the error's message
 * @property {string|null} [debianSuite] the result's provenance.debianSuite; default null
 * @property {Partial<import('./types.js').InstallProvenance>} [provenance] provenance fields
 *   added to the failed result (what was learned before the failure)
 */

/**
 * @template P
 * @typedef {object} ProviderSteps what one provider does differently inside installWithCache
 * @property {string} provider the provider's name (the failed result's `provider`)
 * @property {{flavor: 'mariadb'|'mysql'}} product the product being installed (its flavor goes in a failed result)
 * @property {import('./types.js').CacheKey} key from makeCacheKey
 * @property {(hit: {prefix: string, result: InstallResult}) => string} [checkCached] throws a
 *   UserError when the cached install is not the one asked for; returns what to add to the
 *   `already installed in <prefix>` line ('' for nothing)
 * @property {() => Promise<P>} prepare what must work before a work folder is made (tools on
 *   PATH, apt resolution): its errors are thrown, not recorded as a failed install
 * @property {(work: WorkFolder<P>) => Promise<{builtDir: string, result: InstallResult}>} build
 *   build, check and describe the release in the work folder: builtDir becomes finalPrefix,
 *   result has final paths and status 'installed'. A UserError is a fact about the release on
 *   this host, recorded as a failed install; any other error is a bug and is thrown
 * @property {(elapsedS: number, work: WorkFolder<P>) => string} [describeInstalled] what goes in
 *   the parentheses of the `installed in <prefix>` line; default the seconds with one decimal
 * @property {(err: UserError, work: WorkFolder<P>) => Promise<FailureFacts>} describeFailure
 */

/**
 * Install one release through the cache: reuse the cached install of the key, or prepare, build
 * in a work folder, commit with one rename and return the result. When another process commits
 * the same key first, its install is used. The work folder is removed in every case.
 * @template P
 * @param {import('./types.js').InstallSpec} spec as given to the provider
 * @param {import('./types.js').InstallContext} ctx
 * @param {ProviderSteps<P>} steps
 * @returns {Promise<InstallResult>} status 'skipped' (cached, or committed by another process
 *   first), 'installed', or 'failed' with the reason when the build threw a UserError
 * @throws {UserError} from the cache lookup, checkCached or prepare; any error that is not a
 *   UserError from build (a bug)
 */
export async function installWithCache(spec, ctx, steps) {
  const log = ctx.log ?? (() => {});
  const { key } = steps;
  const label = `${key.product} ${key.version}`;
  const hit = await lookupInstall(ctx.cacheDir, key, log);
  if (hit) {
    const note = steps.checkCached?.(hit) ?? '';
    log(`${label}: already installed in ${hit.prefix}${note}`);
    return { ...hit.result, status: 'skipped' };
  }

  const started = Date.now();
  const prepared = await steps.prepare();
  const workDir = await makeWorkDir(ctx.cacheDir, `${key.product}-${key.version}`);
  const stopWatching = removeOnInterrupt(workDir);
  /** @type {WorkFolder<P>} */
  const work = { workDir, finalPrefix: prefixPathFor(ctx.cacheDir, key), prepared, label, elapsedS: () => (Date.now() - started) / 1000, log };
  try {
    const { builtDir, result } = await steps.build(work);
    const committed = await commitPrefix(builtDir, work.finalPrefix, result, key);
    if (!committed.won) {
      log(`${label}: another process installed it first; using that one`);
      return { ...committed.result, status: 'skipped' };
    }
    const took = steps.describeInstalled?.(work.elapsedS(), work) ?? `${work.elapsedS().toFixed(1)} s`;
    log(`${label}: installed in ${work.finalPrefix} (${took})`);
    return result;
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return recordFailure(spec, steps, work, err);
  } finally {
    stopWatching();
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The failed result of a build that threw a UserError, with what the provider learned.
 * @template P
 * @param {import('./types.js').InstallSpec} spec
 * @param {ProviderSteps<P>} steps
 * @param {WorkFolder<P>} work
 * @param {UserError} err
 * @returns {Promise<InstallResult>} status 'failed'
 */
async function recordFailure(spec, steps, work, err) {
  const facts = await steps.describeFailure(err, work);
  work.log(`${work.label}: FAILED${facts.summary}`);
  const failed = failedResult({
    spec: { ...spec, provider: steps.provider },
    flavor: steps.product.flavor,
    prefix: work.finalPrefix,
    debianSuite: facts.debianSuite ?? null,
    reason: facts.reason ?? err.message,
  });
  if (facts.provenance) failed.provenance = { ...failed.provenance, ...facts.provenance };
  return failed;
}

/** Signals that end the process when nothing else listens for them (Ctrl-C, kill). */
const ENDING_SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM']);

/**
 * Remove a work folder when the process is ended by Ctrl-C or SIGTERM while it is in use: a
 * build folder holds gigabytes, and otherwise it stays until an install six hours later
 * (install-cache.js removeAbandoned). Only when this listener is the only one: a command that
 * handles the signal itself (run, bisect, calibrate turn it into an abort and go on) keeps the
 * process alive, and the install's own cleanup then removes the folder. After removing it, the
 * signal is raised again without the listener, so the process ends as it would have.
 * @param {string} dir
 * @returns {() => void} stops watching (call when the folder is removed)
 */
function removeOnInterrupt(dir) {
  /** @param {NodeJS.Signals} signal */
  const onSignal = (signal) => {
    if (process.listenerCount(signal) > 1) return;
    rmSync(dir, { recursive: true, force: true });
    stop();
    process.kill(process.pid, signal);
  };
  const stop = () => { for (const s of ENDING_SIGNALS) process.off(s, onSignal); };
  for (const s of ENDING_SIGNALS) process.on(s, onSignal);
  return stop;
}
