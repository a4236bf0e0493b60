/**
 * What `tagbench bisect` searches, decided before any server starts: the good and the bad
 * release, the tests to follow (named, or the regressions of the stored comparison of bad
 * against good), and the candidates in between (named, the provider's known versions, or the
 * commits between the two tags). Every option is checked here, so a mistake is reported at once
 * rather than after hours of probes.
 */
import { join, resolve } from 'node:path';
import { parseList } from '../command-spec.js';
import { findHostClass, findProduct } from '../config/index.js';
import { UserError } from '../errors.js';
import { compareVersions } from '../version-order.js';
import { readComparisons } from '../store/index.js';
import { findBisectTargets } from './bisect-search.js';
import { DEFAULT_MAX_COMMITS, commitCandidates, listCommitsBetween, tagOf } from './bisect-commits.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';

/** `VERSION`, `VERSION#LABEL`, `VERSION=PATH` or `VERSION#LABEL=PATH`. */
const RELEASE_ITEM = /^([0-9][0-9A-Za-z.+~-]*)(?:#([A-Za-z0-9][A-Za-z0-9_-]{0,31}))?(?:=(.+))?$/;

/** @typedef {import('../store/index.js').BisectReport} BisectReport */
/** @typedef {BisectReport['good']} BisectRelease */

/**
 * @typedef {object} BisectPlan
 * @property {string} product product id
 * @property {import('../types.js').ProductConfig} productConfig
 * @property {string} hostClass
 * @property {import('../types.js').HostClass} host
 * @property {string} suite
 * @property {boolean} commitMode the candidates are commits, each built from source
 * @property {BisectRelease} good
 * @property {BisectRelease} bad
 * @property {string} storeDir
 * @property {string} workDir
 * @property {string} cacheDir
 * @property {string|undefined} mirror a local git mirror (--path) the commit builds fetch from
 * @property {BisectReport['targets']} targets
 * @property {BisectReport['source']} source where the targets came from
 * @property {(BisectRelease & {sha?: string})[]} candidates oldest first
 * @property {string[]} notes what a reader must know (--note, and how commit candidates were chosen)
 */

/**
 * Check the options of a bisect and decide what it searches.
 * @param {Record<string, any>} options see BisectOptions in bisect.js
 * @param {Readonly<import('../types.js').Config>} config
 * @param {(message: string) => void} log progress
 * @returns {Promise<BisectPlan>}
 * @throws {UserError} a missing or contradictory option, an unknown product or host class, no
 *   comparison to take the tests from, candidates out of order, too many commits
 */
export async function planBisect(options, config, log) {
  const plan = checkBisectOptions(options, config);
  const storeDir = resolve(options.store ?? 'results');
  const { targets, source } = await chooseTargets(options, { storeDir, hostClass: plan.hostClass, suite: plan.suite, good: plan.good, bad: plan.bad });
  const where = {
    storeDir,
    workDir: resolve(workDirFrom(options.workDir, plan.host)),
    cacheDir: resolve(cacheDirFrom(options.cacheDir)),
    mirror: plan.commitMode && options.path !== undefined ? resolve(options.path) : undefined,
  };
  const notes = typeof options.note === 'string' ? [options.note] : [...(options.note ?? [])];
  if (plan.commitMode) {
    const { candidates, note } = await listCommitCandidates(options, { ...plan, ...where }, log);
    return { ...plan, ...where, targets, source, candidates, notes: [...notes, note] };
  }
  const candidates = options.candidates !== undefined
    ? checkCandidates((typeof options.candidates === 'string' ? parseList(options.candidates) : options.candidates).map((/** @type {string} */ c) => parseRelease(c, '--candidates', plan.provider)), plan.good, plan.bad)
    : defaultCandidates(/** @type {any} */ (plan.productConfig), plan.provider, plan.good, plan.bad);
  return { ...plan, ...where, targets, source, candidates, notes };
}

/**
 * The options that need no store: product, host class, suite, the mode and the two releases.
 * @param {Record<string, any>} options
 * @param {Readonly<import('../types.js').Config>} config
 * @returns {Pick<BisectPlan, 'product'|'productConfig'|'hostClass'|'host'|'suite'|'commitMode'|'good'|'bad'> & {provider: string}}
 * @throws {UserError} naming the option and what to give instead
 */
function checkBisectOptions(options, config) {
  if (!options.product || !options.good || !options.bad) throw new UserError('missing --product, --good or --bad: tagbench bisect --product mariadb --good 10.11.18 --bad 10.11.19');
  const productConfig = findProduct(config, options.product, '--product');
  const hostClass = options.hostClass ?? 'local';
  const host = findHostClass(config, hostClass, '--host-class');
  const commitMode = Boolean(options.commits);
  if (commitMode && options.provider !== undefined && options.provider !== 'source') throw new UserError(`--commits builds each commit from source: use --provider source, not --provider ${options.provider}`);
  if (!commitMode && options.path !== undefined) throw new UserError('--path (a local git mirror) goes with --commits; an install on disk is given as VERSION#LABEL=PATH');
  if (commitMode && options.candidates !== undefined) throw new UserError('--commits takes the candidates from git (the commits between the two tags): drop --candidates');
  const provider = options.provider ?? (commitMode ? 'source' : 'deb');
  const good = parseRelease(options.good, '--good', provider);
  const bad = parseRelease(options.bad, '--bad', provider);
  if (good.name === bad.name) throw new UserError(`--good and --bad are both ${good.name}: give two different releases`);
  if (compareVersions(good.version, bad.version) > 0) throw new UserError(`--good ${good.name} is newer than --bad ${bad.name}: bisect looks for the first bad release after a good one`);
  if (commitMode && (good.path || bad.path || good.label || bad.label)) throw new UserError('--commits: --good and --bad are released versions (their tags are read from git), not labelled installs');
  return { product: options.product, productConfig, hostClass, host, suite: options.suite ?? host.scale, commitMode, provider, good, bad };
}

/**
 * The first-parent commits between the good and the bad release's tags, as candidates.
 * @param {Record<string, any>} options maxCommits
 * @param {Pick<BisectPlan, 'product'|'productConfig'|'good'|'bad'|'cacheDir'|'mirror'>} plan
 * @param {(message: string) => void} log
 * @returns {Promise<{candidates: BisectPlan['candidates'], note: string}>} note: how they were
 *   chosen, for the report
 * @throws {UserError} a bad --max-commits, no repository, a missing tag, too many commits
 */
async function listCommitCandidates(options, { product, productConfig, good, bad, cacheDir, mirror }, log) {
  const maxCommits = options.maxCommits === undefined ? DEFAULT_MAX_COMMITS : Number(options.maxCommits);
  if (!Number.isInteger(maxCommits) || maxCommits < 1) throw new UserError(`--max-commits ${options.maxCommits}: give a whole number of at least 1`);
  const goodTag = tagOf(/** @type {any} */ (productConfig), good.version);
  const badTag = tagOf(/** @type {any} */ (productConfig), bad.version);
  const repo = mirror ?? /** @type {{gitUrl?: string}} */ (productConfig).gitUrl;
  if (!repo) throw new UserError(`configs/products/${product}.yml has no gitUrl: give a local git mirror with --path`);
  log(`listing the first-parent commits between ${goodTag} and ${badTag} in ${repo}`);
  const commits = await listCommitsBetween({ repo, goodTag, badTag, scratchDir: join(cacheDir, '.bisect-git', `${product}.git`) });
  const candidates = commitCandidates(commits, { version: bad.version, goodTag, badTag, maxCommits });
  return {
    candidates,
    note: `Candidates: the ${candidates.length} first-parent commit(s) of ${repo} after ${goodTag} and before ${badTag}, oldest first, each built by the source provider (ref = the commit) and run against ${good.name} built from its tag with the same build profile.`,
  };
}

/**
 * A release as --good, --bad and --candidates name it.
 * @param {string} text `VERSION`, `VERSION#LABEL`, `VERSION=PATH` or `VERSION#LABEL=PATH`
 * @param {string} option for messages
 * @param {string} provider provider of a release without a path
 * @returns {BisectRelease} named `VERSION` or `VERSION#LABEL`; a release with a path is run by
 *   the path provider from that installed prefix
 * @throws {UserError} a text of none of the four forms
 */
export function parseRelease(text, option, provider) {
  const m = RELEASE_ITEM.exec(String(text).trim());
  if (!m) throw new UserError(`${option}: bad release '${text}': expected VERSION, VERSION#LABEL or VERSION#LABEL=PATH (an installed prefix), e.g. 10.11.19 or 10.11.18#c1=/opt/build-c1`);
  const [, version, label, path] = m;
  return {
    name: label ? `${version}#${label}` : version,
    version,
    provider: path ? 'path' : provider,
    ...(label ? { label } : {}),
    ...(path ? { path: resolve(path) } : {}),
  };
}

/**
 * The provider's known versions strictly between good and bad, oldest first.
 * @param {{name: string, deb?: Record<string, unknown>, tarball?: {sha256?: Record<string, string>}}} product
 * @param {string} provider
 * @param {BisectRelease} good
 * @param {BisectRelease} bad
 * @returns {BisectRelease[]}
 * @throws {UserError} for a provider without a version list
 */
export function defaultCandidates(product, provider, good, bad) {
  const known = provider === 'deb' ? Object.keys(product.deb ?? {})
    : provider === 'tarball' ? Object.keys(product.tarball?.sha256 ?? {})
      : null;
  if (!known) {
    throw new UserError(`--provider ${provider} has no list of versions to take candidates from: give tagged versions with --candidates (oldest first; with the source provider each is built from its tag), or bisect the commits between the two tags with --commits (as --candidates, commits between two tags are not supported yet)`);
  }
  return known
    .filter((v) => compareVersions(good.version, v) < 0 && compareVersions(v, bad.version) < 0)
    .sort(compareVersions)
    .map((version) => ({ name: version, version, provider }));
}

/**
 * Candidates named by the user must be distinct, lie between good and bad, and come oldest
 * first (labelled installs of one version keep the order given).
 * @param {BisectRelease[]} candidates
 * @param {BisectRelease} good
 * @param {BisectRelease} bad
 * @returns {BisectRelease[]}
 * @throws {UserError} naming the candidate that breaks a rule
 */
export function checkCandidates(candidates, good, bad) {
  const seen = new Set([good.name, bad.name]);
  candidates.forEach((c, i) => {
    if (seen.has(c.name)) throw new UserError(`--candidates: ${c.name} is listed twice (or is the good or the bad release); each candidate once`);
    seen.add(c.name);
    if (compareVersions(c.version, good.version) < 0 || compareVersions(c.version, bad.version) > 0) {
      throw new UserError(`--candidates: ${c.name} is not between the good release ${good.name} and the bad release ${bad.name}`);
    }
    const previous = candidates[i - 1];
    if (previous && compareVersions(previous.version, c.version) > 0) {
      throw new UserError(`--candidates: ${c.name} comes after ${previous.name} but is older; list the candidates oldest first`);
    }
  });
  return candidates;
}

/**
 * The tests to bisect: named with --only (their throughput), else the issue-level regressions
 * of the stored comparison of the bad release against the good one.
 * @param {Record<string, any>} options
 * @param {{storeDir: string, hostClass: string, suite: string, good: BisectRelease, bad: BisectRelease}} ctx
 * @returns {Promise<{targets: BisectReport['targets'], source: BisectReport['source']}>}
 * @throws {UserError} when there is no such comparison, or it holds no issue-level regression
 */
async function chooseTargets(options, ctx) {
  if (options.only !== undefined) {
    const only = typeof options.only === 'string' ? parseList(options.only) : options.only;
    if (only.length === 0) throw new UserError('--only: no test named');
    return { targets: only.map((/** @type {string} */ test) => ({ test, metric: 'throughput' })), source: { comparisonId: null, testsFrom: 'option' } };
  }
  if (ctx.good.label || ctx.bad.label) throw new UserError(`a labelled release (${[ctx.good, ctx.bad].filter((r) => r.label).map((r) => r.name).join(', ')}) has no stored comparison: name the tests with --only`);
  const found = (await readComparisons(ctx.storeDir, { hostClass: ctx.hostClass, product: options.product, version: ctx.bad.version, suite: ctx.suite }))
    .filter((c) => c.base.version === ctx.good.version && c.candidate.version === ctx.bad.version);
  const chosen = options.comparison
    ? found.find((c) => c.id === options.comparison)
    : found.filter((c) => c.tests.some((t) => t.confirmed !== undefined)).at(-1) ?? found.at(-1);
  if (!chosen) {
    throw new UserError(options.comparison
      ? `no comparison '${options.comparison}' of ${options.product} ${ctx.bad.version} against ${ctx.good.version} (host class '${ctx.hostClass}', suite '${ctx.suite}') in ${ctx.storeDir}; there are: ${found.map((c) => c.id).join(', ') || 'none'}`
      : `no stored comparison of ${options.product} ${ctx.bad.version} against ${ctx.good.version} (host class '${ctx.hostClass}', suite '${ctx.suite}') in ${ctx.storeDir}: run \`tagbench compare --base ${ctx.good.version}\` (and \`tagbench confirm\`) first, or name the tests with --only`);
  }
  const targets = findBisectTargets(/** @type {any} */ (chosen));
  if (targets.length === 0) throw new UserError(`comparison ${chosen.id} of ${ctx.bad.version} against ${ctx.good.version} has no ${chosen.tests.some((t) => t.confirmed !== undefined) ? 'confirmed ' : ''}regression at the issue level: nothing to bisect`);
  return { targets, source: { comparisonId: chosen.id, testsFrom: 'comparison' } };
}
