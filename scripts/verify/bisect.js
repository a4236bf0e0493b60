/**
 * `tagbench bisect`: given a regression between a good and a bad release, find the first bad
 * release among those in between. Each probe runs only the regressed tests, for one candidate
 * and the good release side by side with their repeats alternating (the run stage), extends the
 * undecided verdicts with adaptive repeats as `compare --adaptive` does, and judges the
 * candidate by the verdict rules that open issues (scripts/verify/bisect-search.js). The search
 * is binary, and it stops at the first probe that cannot tell, saying so with the evidence so
 * far, rather than guessing. The report is stored (bisects/ in the results store), printed, and
 * written as Markdown for the issue when asked.
 */
import { join, resolve } from 'node:path';
import { parseList } from '../command-spec.js';
import { loadConfig } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { compareVersions } from '../version-order.js';
import { runReleases as runReleasesReal } from '../run/index.js';
import { readRecords, readComparisons, writeBisectReport, replaceFileAtomic } from '../store/index.js';
import { resolveThresholds, estimateNoiseHistory, renderBisectReport } from '../compare/index.js';
import { extendUndecided, ADAPTIVE_DEFAULTS } from './adaptive-repeats.js';
import { findBisectTargets, classifyProbe, searchFirstBad, maxProbes } from './bisect-search.js';
import { cacheDirFrom, workDirFrom } from '../run-options.js';
import { installRelease as installReleaseReal } from '../install/index.js';
import { DEFAULT_MAX_COMMITS, commitCandidates, formatElapsed, listCommitsBetween, tagOf } from './bisect-commits.js';

/** `VERSION`, `VERSION#LABEL`, `VERSION=PATH` or `VERSION#LABEL=PATH`. */
const RELEASE_ITEM = /^([0-9][0-9A-Za-z.+~-]*)(?:#([A-Za-z0-9][A-Za-z0-9_-]{0,31}))?(?:=(.+))?$/;

/** @typedef {import('../store/index.js').BisectReport} BisectReport */
/** @typedef {BisectReport['good']} BisectRelease */

/**
 * @typedef {object} BisectOptions
 * @property {string} product
 * @property {string} good the good release (`VERSION[#LABEL][=PATH]`)
 * @property {string} bad the bad release
 * @property {string[]|string} [candidates] releases in between, oldest first; default: the
 *   provider's known versions strictly between good and bad (deb: configs/products/<p>.yml deb,
 *   tarball: its tarball.sha256)
 * @property {string} [provider] install provider of releases without a path (default deb)
 * @property {boolean} [commits] candidates are the first-parent commits between the good and the
 *   bad release's tags, each built by the source provider (bisect-commits.js)
 * @property {string} [path] with commits: a local git mirror to read and build from instead of gitUrl
 * @property {number} [maxCommits] with commits: refuse more candidates than this (default 63: at most 6 builds)
 * @property {string[]|string} [only] tests to bisect (throughput); default: the issue-level
 *   regressions of the stored comparison of bad against good
 * @property {string} [comparison] id of that comparison (default: the newest, confirmed first)
 * @property {string} [hostClass] default local
 * @property {string} [suite] default the host class's scale
 * @property {number} [repeats] repeats per probe (default the host class's)
 * @property {number} [adaptiveBudget] seconds of adaptive repeats per probe (default the host class's)
 * @property {string[]|string} [note] what a reader must know about the releases (kept in the report)
 * @property {string} [markdown] write the report as Markdown here (for the issue comment)
 * @property {string} [store] results store (default results)
 * @property {string} [workDir]
 * @property {string} [cacheDir]
 * @property {number} [portBase]
 * @property {string} [root] project root holding configs/
 * @property {(text: string) => void} [out] stdout writer
 * @property {(text: string) => void} [write] progress writer (default stderr)
 */

/**
 * @typedef {object} BisectDeps stand-ins for tests; each defaults to the real one
 * @property {typeof runReleasesReal} [runReleases]
 * @property {typeof installReleaseReal} [installRelease] the install stage (commit builds)
 * @property {() => number} [now] ms clock
 */

/**
 * `tagbench bisect` (see the module comment).
 * @param {Record<string, any>} options see BisectOptions
 * @param {BisectDeps} [deps]
 * @returns {Promise<number>} 0 found, 3 stopped (not enough evidence), 130 interrupted
 * @throws {UserError} bad options, no comparison to take the tests from, candidates out of order
 */
export async function bisectReleases(options, deps = {}) {
  const runReleases = deps.runReleases ?? runReleasesReal;
  const installRelease = deps.installRelease ?? installReleaseReal;
  const now = deps.now ?? Date.now;
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  const out = options.out ?? ((/** @type {string} */ t) => process.stdout.write(t));
  const write = options.write ?? ((/** @type {string} */ t) => process.stderr.write(t));
  const log = (/** @type {string} */ m) => write(`bisect: ${m}\n`);
  if (!options.product || !options.good || !options.bad) throw new UserError('missing --product, --good or --bad: tagbench bisect --product mariadb --good 10.11.18 --bad 10.11.19');
  const product = config.products[options.product];
  if (!product) throw new UserError(`unknown --product '${options.product}'; known: ${Object.keys(config.products).join(', ')}`);
  const hostClass = options.hostClass ?? 'local';
  const host = config.hosts[hostClass];
  if (!host) throw new UserError(`unknown --host-class '${hostClass}'; known: ${Object.keys(config.hosts).join(', ')}`);
  const suite = options.suite ?? host.scale;
  const commitMode = Boolean(options.commits);
  if (commitMode && options.provider !== undefined && options.provider !== 'source') throw new UserError(`--commits builds each commit from source: use --provider source, not --provider ${options.provider}`);
  if (!commitMode && options.path !== undefined) throw new UserError('--path (a local git mirror) goes with --commits; an install on disk is given as VERSION#LABEL=PATH');
  if (commitMode && options.candidates !== undefined) throw new UserError('--commits takes the candidates from git (the commits between the two tags): drop --candidates');
  const provider = options.provider ?? (commitMode ? 'source' : 'deb');
  const good = parseRelease(options.good, '--good', provider);
  const bad = parseRelease(options.bad, '--bad', provider);
  if (good.name === bad.name) throw new UserError(`--good and --bad are both ${good.name}: give two different releases`);
  if (compareVersions(good.version, bad.version) > 0) throw new UserError(`--good ${good.name} is newer than --bad ${bad.name}: bisect looks for the first bad release after a good one`);
  const storeDir = resolve(options.store ?? 'results');
  const thresholds = resolveThresholds(config.thresholds);

  if (commitMode && (good.path || bad.path || good.label || bad.label)) throw new UserError('--commits: --good and --bad are released versions (their tags are read from git), not labelled installs');
  const { targets, source } = await chooseTargets(options, { storeDir, hostClass, suite, good, bad });
  const workDir = resolve(workDirFrom(options.workDir, host));
  const cacheDir = resolve(cacheDirFrom(options.cacheDir));
  const notes = typeof options.note === 'string' ? [options.note] : [...(options.note ?? [])];
  /** @type {(BisectRelease & {sha?: string})[]} */
  let candidates;
  /** @type {string|undefined} a local mirror (--path) the builds fetch from */
  const mirror = commitMode && options.path !== undefined ? resolve(options.path) : undefined;
  if (commitMode) {
    const maxCommits = options.maxCommits === undefined ? DEFAULT_MAX_COMMITS : Number(options.maxCommits);
    if (!Number.isInteger(maxCommits) || maxCommits < 1) throw new UserError(`--max-commits ${options.maxCommits}: give a whole number of at least 1`);
    const goodTag = tagOf(/** @type {any} */ (product), good.version);
    const badTag = tagOf(/** @type {any} */ (product), bad.version);
    const repo = mirror ?? /** @type {{gitUrl?: string}} */ (product).gitUrl;
    if (!repo) throw new UserError(`configs/products/${options.product}.yml has no gitUrl: give a local git mirror with --path`);
    log(`listing the first-parent commits between ${goodTag} and ${badTag} in ${repo}`);
    const commits = await listCommitsBetween({ repo, goodTag, badTag, scratchDir: join(cacheDir, '.bisect-git', `${options.product}.git`) });
    candidates = commitCandidates(commits, { version: bad.version, goodTag, badTag, maxCommits });
    notes.push(`Candidates: the ${candidates.length} first-parent commit(s) of ${repo} after ${goodTag} and before ${badTag}, oldest first, each built by the source provider (ref = the commit) and run against ${good.name} built from its tag with the same build profile.`);
  } else {
    candidates = options.candidates !== undefined
      ? checkCandidates((typeof options.candidates === 'string' ? parseList(options.candidates) : options.candidates).map((/** @type {string} */ c) => parseRelease(c, '--candidates', provider)), good, bad)
      : defaultCandidates(/** @type {any} */ (product), provider, good, bad);
  }
  const tests = [...new Set(targets.map((t) => t.test))];
  const budgetS = Number(options.adaptiveBudget ?? host.adaptive?.budgetS ?? ADAPTIVE_DEFAULTS.budgetS);
  const maxInstances = host.adaptive?.maxInstances ?? ADAPTIVE_DEFAULTS.maxInstances;
  // Noise of earlier runs on this host class and suite, as compare uses it for the detectable effect.
  const noiseHistory = estimateNoiseHistory(await readRecords(storeDir, { hostClass, suite, status: ['ok', 'failed'] }), thresholds);

  const controller = new AbortController();
  const onSignal = () => {
    if (!controller.signal.aborted) log('interrupted: stopping the servers; the report keeps the probes done so far');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const signal = controller.signal;
  const createdAt = new Date(now()).toISOString();
  /** @type {BisectReport['probes']} */
  const probes = [];
  const what = commitMode ? 'commit' : 'candidate';
  log(`${options.product} ${good.name} (good) .. ${bad.name} (bad): ${candidates.length} ${what}(s) in between, at most ${maxProbes(candidates.length)} probe(s)${commitMode ? ' (one build each)' : ''} of ${targets.map((t) => `${t.test} ${t.metric}`).join(', ')} on ${hostClass}, suite ${suite}`);
  const bisectStarted = now();
  // The search's bounds, followed here for the progress lines (how many probes are left at most).
  let knownGood = -1;
  let knownBad = candidates.length;
  /** @type {Promise<string>|null} the good release's own build, made once (commit bisects) */
  let goodBuild = null;

  /**
   * Build one ref (a commit, or the good release's tag when ref is undefined) through the
   * install stage's source provider; the install cache keys a commit by its ref.
   * @param {string|undefined} ref
   * @param {string} version
   * @returns {Promise<string>} the installed prefix
   * @throws {UserError} when the build fails (the probe is then undecided)
   */
  const build = async (ref, version) => {
    const result = await installRelease({ product: options.product, version, provider: 'source', ...(ref ? { ref } : {}), ...(mirror ? { path: mirror } : {}) }, { config, cacheDir, log: (m) => log(m) });
    if (result.status === 'failed') throw new UserError(`the build of ${ref ? `commit ${ref}` : `${options.product} ${version}`} failed: ${result.reason}`);
    return result.prefix;
  };

  /**
   * One probe: the candidate against the good release, through run and compare --adaptive.
   * @param {number} index
   * @returns {Promise<'good'|'bad'|'undecided'>}
   */
  const probe = async (index) => {
    const candidate = candidates[index];
    const started = now();
    const left = maxProbes(knownBad - knownGood - 1);
    /** @type {ReturnType<typeof specOf>[]} */
    let releases = [specOf(options.product, good), specOf(options.product, candidate)];
    log(`probe ${probes.length + 1}: ${commitMode ? `building commit ${candidate.name}` : candidate.name} against ${good.name}, ${tests.join(', ')}, alternating; candidate ${index + 1} of ${candidates.length}, at most ${left} probe(s) left with this one, ${formatElapsed((now() - bisectStarted) / 1000)} so far`);
    /** @type {BisectReport['probes'][number]} */
    let entry;
    try {
      if (commitMode) {
        goodBuild ??= build(undefined, good.version);
        const goodPrefix = await goodBuild;
        const candidatePrefix = await build(candidate.sha, candidate.version);
        log(`probe ${probes.length + 1}: commit ${candidate.label} built (${formatElapsed((now() - bisectStarted) / 1000)} so far); running it`);
        // Both sides are source builds of the same profile, run as the installs on disk they are.
        releases = [
          { product: options.product, version: good.version, provider: 'path', path: goodPrefix },
          { product: options.product, version: candidate.version, provider: 'path', path: candidatePrefix, label: /** @type {string} */ (candidate.label) },
        ];
      }
      const outcome = await runReleases(config, {
        releases, suite, hostClass, only: tests, storeDir, workDir, cacheDir, signal, write,
        ...(options.repeats ? { repeats: Number(options.repeats) } : {}),
        ...(options.portBase ? { portBase: Number(options.portBase) } : {}),
      });
      if (outcome.interrupted || outcome.records.length !== 2) {
        entry = { candidate: candidate.name, index, call: 'undecided', reason: outcome.interrupted ? 'interrupted before the probe finished' : `the run returned ${outcome.records.length} records, not 2`, seconds: (now() - started) / 1000, runIds: { good: [], candidate: [] }, adaptive: null, evidence: [] };
      } else {
        const [goodRecord, candidateRecord] = outcome.records;
        const extended = await extendUndecided({ version: good.name, records: [goodRecord] }, { version: candidate.name, records: [candidateRecord] }, new Date(now()).toISOString(), {
          config, thresholds, product: options.product, suite, hostClass, storeDir, workDir, cacheDir, noiseHistory, budgetS, maxInstances, releases, signal, write,
          ...(options.portBase ? { portBase: Number(options.portBase) } : {}),
        });
        const judged = classifyProbe(extended.comparison, targets);
        entry = {
          candidate: candidate.name, index, call: judged.call, reason: judged.reason, seconds: (now() - started) / 1000,
          runIds: { good: extended.base.records.map((r) => r.id), candidate: extended.candidate.records.map((r) => r.id) },
          adaptive: extended.comparison.adaptive ? { ...extended.comparison.adaptive } : null,
          evidence: judged.evidence,
        };
      }
    } catch (err) {
      // A probe that cannot run (an install fails, a server will not start) decides nothing: the
      // search stops there and the report says why, with the probes done so far.
      entry = { candidate: candidate.name, index, call: 'undecided', reason: `the probe could not run: ${/** @type {Error} */ (err).message}`, seconds: (now() - started) / 1000, runIds: { good: [], candidate: [] }, adaptive: null, evidence: [] };
    }
    probes.push(entry);
    if (entry.call === 'good') knownGood = index;
    if (entry.call === 'bad') knownBad = index;
    log(`probe ${probes.length}: ${candidate.name} is ${entry.call.toUpperCase()}: ${entry.reason} (${formatElapsed((now() - bisectStarted) / 1000)} so far)`);
    return entry.call;
  };

  const search = await searchFirstBad(candidates.length, probe, { shouldStop: () => signal.aborted });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  const names = [good.name, ...candidates.map((c) => c.name), bad.name];
  const lastGood = names[search.lastGood + 1];
  const firstBad = names[search.firstBad + 1];
  const suspects = search.status === 'found' ? [firstBad] : names.slice(search.lastGood + 2, search.firstBad + 2);
  const status = signal.aborted ? 'interrupted' : search.status;
  const stoppedAt = probes.at(-1);
  const unit = commitMode ? 'commit' : 'release';
  const message = status === 'found'
    ? candidates.length === 0 ? `No ${unit} lies between ${good.name} and ${bad.name}: the first bad ${unit} is ${bad.name} itself (nothing to probe).`
      : search.firstBad === candidates.length ? `Every candidate is good: the first bad ${unit} is ${bad.name} itself (last good ${lastGood}, ${probes.length} probe(s)).`
        : `${commitMode ? 'Commit ' : ''}${firstBad} is the first bad ${unit}: ${lastGood} is good and ${firstBad} is bad (${probes.length} probe(s)).`
    : status === 'interrupted' ? `Interrupted after ${probes.length} probe(s): the first bad ${unit} is one of ${suspects.join(', ')} (last good ${lastGood}, first known bad ${firstBad}).`
      : `Stopped at probe ${probes.length} (${stoppedAt?.candidate}): ${stoppedAt?.reason}. Not guessing: the first bad ${unit} is one of ${suspects.join(', ')} (last known good ${lastGood}, first known bad ${firstBad}). To go on, bisect again between ${lastGood} and ${firstBad} with more instances (--repeats, --adaptive-budget) or on a quieter host.`;

  /** @type {BisectReport} */
  const report = {
    schemaVersion: 1, createdAt, finishedAt: new Date(now()).toISOString(), hostClass, product: options.product, suite,
    good, bad, source, targets, candidates: candidates.map(({ sha: _sha, ...release }) => release), probes,
    outcome: { status, lastGood, firstBad, suspects, message },
    notes,
  };
  const { path } = await writeBisectReport(storeDir, report);
  log(`stored ${path}`);
  const markdown = renderBisectReport(report);
  out(markdown);
  if (options.markdown) await replaceFileAtomic(resolve(options.markdown), markdown);
  return status === 'found' ? EXIT.ok : status === 'interrupted' ? EXIT.interrupted : EXIT.stopped;
}

/**
 * @param {string} text `VERSION`, `VERSION#LABEL`, `VERSION=PATH` or `VERSION#LABEL=PATH`
 * @param {string} option for messages
 * @param {string} provider provider of a release without a path
 * @returns {BisectRelease}
 * @throws {UserError}
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
 * @param {string} product
 * @param {BisectRelease} r
 * @returns {{product: string, version: string, provider?: string, path?: string, label?: string}} as runReleases takes it
 */
function specOf(product, r) {
  return { product, version: r.version, ...(r.provider === 'deb' ? {} : { provider: r.provider }), ...(r.path ? { path: r.path } : {}), ...(r.label ? { label: r.label } : {}) };
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
