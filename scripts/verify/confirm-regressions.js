/**
 * `tagbench confirm`: rerun only the tests that regressed in a comparison, both releases again
 * with their repeats alternating (A B A B ...), compare the rerun on its own, and keep a
 * regression only when the rerun agrees. Writes the confirmed comparison as a new file in the
 * store (the original stays as it was). Exit 2 when a confirmed issue-level regression remains.
 */
import { resolve } from 'node:path';
import { UserError, EXIT } from '../errors.js';
import { readComparisons, writeComparison } from '../store/index.js';
import { runReleases } from '../run/index.js';
import { compareRuns, confirmVerdicts, listRegressedTests, hasIssueRegression, renderComparison } from '../compare/index.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';
import { COMMIT_RE, isCommitVersion } from '../install/index.js';
import { loadVerifyContext } from './load-verify-context.js';
import { withInterrupt } from '../with-interrupt.js';

/**
 * What the rerun runs: both releases of the comparison, only its regressed tests, on its host
 * class and suite. Repeats and server instances default to the host class's (runReleases
 * decides); given, they apply to the rerun only.
 * @param {{product: string, suite: string, hostClass: string, base: {version: string}, candidate: {version: string}, ref?: import('../types.js').ComparisonRef}} original the comparison
 * @param {string[]} tests regressed tests
 * @param {{storeDir: string, workDir: string, cacheDir?: string, provider?: string, commit?: string, repeats?: number|string, instances?: number|string, portBase?: number|string}} options
 *   commit: the candidate's source build of exactly that commit
 * @returns {Parameters<typeof runReleases>[1]}
 */
export function buildRerunRequest(original, tests, options) {
  for (const name of /** @type {const} */ (['repeats', 'instances'])) {
    const value = options[name];
    if (value !== undefined && !/^[1-9]\d*$/.test(String(value).trim())) throw new UserError(`--${name} is '${value}': expected a whole number of 1 or more`);
  }
  if (original.ref) {
    if (options.commit !== undefined) throw new UserError('--commit does not go with a ref comparison: its commits are the ones the ref run built (comparison.ref)');
    return { ...buildRerunRequest({ ...original, ref: undefined }, tests, { ...options, provider: undefined }), releases: refRerunReleases(original.product, original.base.version, original.candidate.version, original.ref) };
  }
  if (options.commit !== undefined && (options.provider !== 'source' || !COMMIT_RE.test(options.commit))) {
    throw new UserError(`--commit '${options.commit}': a full commit id (40 or 64 hex digits) of the candidate's source build, with --provider source`);
  }
  return {
    // --provider: the build both releases ran from (the cache may hold several builds of a version).
    releases: [original.base.version, original.candidate.version].map((version) => ({
      product: original.product, version, ...(options.provider ? { provider: options.provider } : {}),
      ...(options.commit && version === original.candidate.version ? { commit: options.commit } : {}),
    })),
    suite: original.suite,
    hostClass: original.hostClass,
    only: tests,
    ...(options.repeats ? { repeats: Number(options.repeats) } : {}),
    ...(options.instances ? { instances: Number(options.instances) } : {}),
    storeDir: options.storeDir,
    workDir: options.workDir,
    cacheDir: resolve(cacheDirFrom(options.cacheDir)),
    ...(options.portBase ? { portBase: Number(options.portBase) } : {}),
  };
}

/**
 * The rerun of a ref comparison: the same two source builds (the install cache holds them by
 * commit; a release base is built from its tag, any other commit by itself, as run --ref built
 * them), with the ref run's metadata, so that the rerun's records go to refs/ too.
 * @param {string} product
 * @param {string} baseVersion
 * @param {string} candidateVersion
 * @param {import('../types.js').ComparisonRef} ref
 * @returns {Parameters<typeof runReleases>[1]['releases']}
 */
function refRerunReleases(product, baseVersion, candidateVersion, ref) {
  const shared = { name: ref.name, repository: ref.repository, pullRequest: ref.pullRequest, commit: ref.commit, base: { ...ref.base } };
  return /** @type {const} */ ([['base', baseVersion, ref.base.commit], ['candidate', candidateVersion, ref.commit]]).map(([role, version, commit]) => ({
    product, version, provider: 'source', commit,
    source: { gitUrl: ref.repository, ...(isCommitVersion(version) ? { ref: commit } : {}) },
    refRun: { role, ...shared },
  }));
}

/**
 * `tagbench confirm` (see the module comment).
 * @param {Record<string, any>} options product, version (candidate), comparison (id), hostClass,
 *   suite, store, repeats, instances, workDir, cacheDir, portBase, root, out (stdout writer), color
 * @returns {Promise<number>} 0, 2 when a confirmed issue-level regression remains, 130 when
 *   interrupted (SIGINT/SIGTERM: servers stopped, nothing confirmed)
 * @throws {UserError} no such comparison, bad --repeats or --instances, or the rerun cannot run
 */
export async function confirmRegressions(options) {
  const { config, thresholds, out, color } = await loadVerifyContext(options);
  const storeDir = resolve(options.store ?? 'results');
  if (!options.product || !options.version) throw new UserError('missing --product or --version: tagbench confirm --product P --version CANDIDATE [--comparison ID]');
  const original = await findComparison(options, storeDir);
  const full = /** @type {import('../compare/index.js').FullComparison} */ (/** @type {unknown} */ (original));
  const tests = listRegressedTests(full);
  if (tests.length === 0) {
    out(`comparison ${original.id}: no regression to confirm\n`);
    return EXIT.ok;
  }
  process.stderr.write(`confirm ${options.product} ${original.candidate.version} vs ${original.base.version}: rerunning ${tests.join(', ')}\n`);
  const workDir = resolve(workDirFrom(options.workDir, config.hosts[original.hostClass]));
  // SIGINT / SIGTERM (Ctrl-C, or a runner cancelling the step at its timeout): the rerun stops
  // its servers instead of leaving them running, and nothing is confirmed.
  const outcome = await withInterrupt(
    // runReleases removes its own folder inside workDir; workDir itself may hold other runs.
    (signal) => runReleases(config, { ...buildRerunRequest(original, tests, { ...options, storeDir, workDir }), signal }),
    (sig) => process.stderr.write(`\n${sig}: stopping the rerun's servers; nothing will be confirmed\n`),
  );
  if (outcome.interrupted) {
    process.stderr.write(`confirm: interrupted; comparison ${original.id} stays unconfirmed (the rerun's records are stored as partial)\n`);
    return EXIT.interrupted;
  }
  const [baseRec, candRec] = outcome.records;
  // The run's family-wise rule already chose these regressions; the rerun replicates them test by test.
  const rerun = compareRuns({ base: { version: original.base.version, records: [baseRec] }, candidate: { version: original.candidate.version, records: [candRec] }, thresholds, createdAt: new Date().toISOString(), familyControl: false });
  const confirmed = confirmVerdicts(full, rerun);
  const stored = { ...confirmed, createdAt: rerun.createdAt };
  delete (/** @type {any} */ (stored)).id;
  const { path } = await writeComparison(storeDir, /** @type {any} */ (stored));
  process.stderr.write(`stored ${path}\n`);
  out(renderComparison(stored, { format: 'terminal', color }));
  return hasIssueRegression(stored, { confirmedOnly: true }) ? EXIT.regression : EXIT.ok;
}

/**
 * The comparison to confirm: the one named by --comparison, else the newest unconfirmed one of
 * the candidate on the host class (and suite, when given).
 * @param {Record<string, any>} options product, version, comparison, hostClass, suite
 * @param {string} storeDir
 * @returns {Promise<Awaited<ReturnType<typeof readComparisons>>[number]>}
 * @throws {UserError} when there is no such comparison, listing those there are
 */
async function findComparison(options, storeDir) {
  const hostClass = options.hostClass ?? 'local';
  const found = await readComparisons(storeDir, { hostClass, product: options.product, version: options.version, ...(options.suite ? { suite: options.suite } : {}), ...(options.ref ? { refs: true } : {}) });
  const unconfirmed = found.filter((c) => !c.tests.some((t) => t.confirmed !== undefined));
  const original = options.comparison ? found.find((c) => c.id === options.comparison) : unconfirmed.at(-1);
  if (original) return original;
  throw new UserError(options.comparison
    ? `no comparison '${options.comparison}' of ${options.product} ${options.version} (host class '${hostClass}') in ${storeDir}; there are: ${found.map((c) => c.id).join(', ') || 'none'}`
    : `no unconfirmed comparison of ${options.product} ${options.version} (host class '${hostClass}') in ${storeDir}: run \`tagbench compare\` first`);
}
