/**
 * `discover` stage: which upstream release tags have not been benchmarked yet, per host class,
 * planned as the benchmark workflow's matrix.
 */
import { UserError } from '../errors.js';
import { findProduct } from '../config/index.js';
import { fetchRemoteTags, matchTags } from './tags.js';
import { findResume } from './resume-legs.js';

/**
 * @typedef {object} MatrixEntry one job of the benchmark workflow's matrix
 * @property {string} product
 * @property {string} line
 * @property {string} version
 * @property {string} tag
 * @property {string} commit
 * @property {string} hostClass
 * @property {string} suite the host class's suite (its `scale`) unless overridden
 * @property {number} [attempt] set when earlier attempts of this leg failed: which attempt this is
 * @property {string} [resume] set when an earlier attempt published finished run records and no
 *   comparison: their run ids, comma-separated (benchmark.yml's `resume` input fetches them and
 *   runs only the releases without one)
 * @property {string} [movedFrom] set when the tag was benchmarked before at another commit (the
 *   upstream tag was moved): the commit of the latest earlier run; `commit` is where it points now
 */

/**
 * @typedef {import('./resume-legs.js').IndexRunLike & {tag?: string|null, commit?: string|null}} IndexedRun
 *   what watch reads of the results index's runs; commit: the commit the run's release was built
 *   from, null or absent where unknown (Debian packages, indexes written before commits were indexed)
 */

/**
 * @typedef {object} DeletedTag a tag the results index has runs of that upstream no longer has
 * @property {string} product
 * @property {string} tag
 * @property {string[]} versions the versions its runs hold (one, unless records disagree)
 * @property {{id: string, hostClass: string, suite: string, commit: string|null}[]} runs
 */

/**
 * @typedef {object} DiscoverResult
 * @property {{include: MatrixEntry[]}} matrix newest versions first, lines interleaved, at most `max` entries
 * @property {number} pending entries not yet benchmarked (before the `max` cut)
 * @property {{product: string, line: string, version: string, hostClass: string, reason: string, attempts?: LegAttempts}[]} skipped
 *   versions left out, with why (already benchmarked, below the floor, backing off after failed attempts)
 * @property {DeletedTag[]} deleted tags benchmarked before that upstream has deleted, by product and tag
 */

/** @typedef {import('../store/index.js').LegAttempts} LegAttempts */

/**
 * @typedef {object} BackOff how watch treats a leg whose bench job failed, timed out or was cancelled
 * @property {number} hours wait after the first failed attempt; doubled after each further one
 * @property {number} maxAttempts after this many failed attempts the leg is not proposed again
 *   (a person looks at the failures, then dispatches benchmark.yml by hand)
 */

/**
 * One cycle (watch runs every 6 hours) before the first retry, then 12 and 24 hours; stopped
 * after 3 attempts: a leg that failed three times needs a person, and retrying it forever would
 * take a runner from every newer release.
 * @type {Readonly<BackOff>}
 */
export const DEFAULT_BACK_OFF = Object.freeze({ hours: 6, maxAttempts: 3 });

/**
 * @typedef {object} DiscoverOptions
 * @property {string[]} [products] product names (default: every product with a gitUrl)
 * @property {string[]} [hostClasses] host classes (default: every host class with runner labels)
 * @property {string} [suite] suite of the runs to look for and to plan (default: each host class's `scale`)
 * @property {Record<string, string>} [remoteOverrides] product -> git URL or path used instead of its gitUrl
 * @property {{runs: IndexedRun[], comparisons?: import('./resume-legs.js').IndexComparisonLike[], attempts?: LegAttempts[]}} index
 *   what is already benchmarked, and the legs that failed (the results index; readIndex() of scripts/store/)
 * @property {string|null} [attemptRunPrefix] count only the failed attempts of workflow runs under
 *   this address (`<server>/<owner>/<repo>/actions/runs/`: this repository's, trustedAttempts);
 *   null or absent = every attempt counts (a store of one's own, outside GitHub Actions)
 * @property {BackOff} [backOff] when a leg that failed is proposed again (default DEFAULT_BACK_OFF)
 * @property {number} [now] the time to judge back-offs at, ms since the epoch (default: the clock)
 * @property {number} [max] most matrix entries (default 10)
 * @property {boolean} [retryFailed] propose again versions whose runs failed
 * @property {(line: string) => void} [progress] progress lines (default: stderr)
 */

/**
 * List upstream tags of each product, match them to the product lines, drop versions below each
 * line's floor and those already benchmarked, and plan the workflow matrix.
 * @param {Pick<import('../types.js').Config, 'products'|'hosts'>} config loaded configuration
 * @param {DiscoverOptions} options
 * @returns {Promise<DiscoverResult>} matrix plus what was left out and why
 * @throws {UserError} on an unknown product or host class, a product without gitUrl, or an
 *   unreachable repository
 */
export async function discoverTags(config, options) {
  const progress = options.progress ?? ((/** @type {string} */ line) => process.stderr.write(`${line}\n`));
  const products = selectProducts(config, options);
  const hostClasses = selectHostClasses(config, options);
  /** @type {import('./tags.js').TagCandidate[]} */
  const candidates = [];
  /** @type {DiscoverResult['skipped']} */
  const belowFloorSkips = [];
  /** @type {DeletedTag[]} */
  const deleted = [];
  for (const product of products) {
    const url = options.remoteOverrides?.[product.name] ?? product.gitUrl;
    if (!url) throw new UserError(`configs/products/${product.name}.yml has no gitUrl: add one, or pass --remote-override ${product.name}=<url>`);
    progress(`watch: listing tags of ${product.name} (${url})`);
    const tags = await fetchRemoteTags(url);
    const { candidates: matched, belowFloor } = matchTags(product, tags);
    progress(`watch: ${product.name}: ${tags.length} tags, ${matched.length} release${matched.length === 1 ? '' : 's'} of its lines, ${belowFloor.length} below a line floor`);
    candidates.push(...matched);
    deleted.push(...findDeletedTags(product.name, tags, options.index.runs));
    for (const c of belowFloor) {
      for (const h of hostClasses) belowFloorSkips.push({ product: c.product, line: c.line, version: c.version, hostClass: h.name, reason: 'older than the line\'s floor (minVersion or baseVersion)' });
    }
  }
  const max = options.max ?? 10;
  const attempts = trustedAttempts(options.index.attempts ?? [], options.attemptRunPrefix ?? null);
  for (const i of attempts.ignored) progress(`watch: ${i.product} ${i.version} on ${i.hostClass}: ${i.ignored} of its ${i.count} failed attempts are not counted: ${i.why}`);
  const result = planMatrix({
    candidates, hostClasses, runs: options.index.runs, comparisons: options.index.comparisons ?? [], max, retryFailed: options.retryFailed,
    attempts: attempts.counted, backOff: options.backOff ?? DEFAULT_BACK_OFF, now: options.now ?? Date.now(),
  });
  for (const s of result.skipped.filter((x) => x.attempts)) progress(`watch: ${s.product} ${s.version} on ${s.hostClass}: ${s.reason}`);
  for (const e of result.matrix.include.filter((x) => x.movedFrom)) progress(`watch: ${e.product} ${e.version} on ${e.hostClass}: tag ${e.tag} moved from ${e.movedFrom} to ${e.commit}: benchmarking it again`);
  for (const d of deleted) progress(`watch: ${d.product}: tag ${d.tag} was deleted upstream; the index holds ${d.runs.length} run${d.runs.length === 1 ? '' : 's'} of it (${d.runs.map((r) => r.id).join(', ')})`);
  for (const e of result.matrix.include.filter((x) => x.resume)) progress(`watch: ${e.product} ${e.version} on ${e.hostClass}: attempt ${e.attempt}, resuming from the published runs ${e.resume}`);
  progress(`watch: ${result.pending} job${result.pending === 1 ? '' : 's'} not benchmarked yet; proposing ${result.matrix.include.length} (--max ${max})`);
  return { ...result, skipped: [...result.skipped, ...belowFloorSkips], deleted };
}

/**
 * @param {Pick<import('../types.js').Config, 'products'>} config
 * @param {DiscoverOptions} options
 */
function selectProducts(config, options) {
  const known = Object.keys(config.products);
  // Every name given must be configured, before any tag is listed.
  for (const name of [...(options.products ?? []), ...Object.keys(options.remoteOverrides ?? {})]) findProduct(config, name);
  const names = options.products ?? known.filter((n) => config.products[n].gitUrl || options.remoteOverrides?.[n]);
  return names.map((n) => config.products[n]);
}

/**
 * @param {Pick<import('../types.js').Config, 'hosts'>} config
 * @param {DiscoverOptions} options
 * @returns {{name: string, suite: string, reference?: {product: string, version: string}}[]}
 */
function selectHostClasses(config, options) {
  const known = Object.keys(config.hosts);
  for (const name of options.hostClasses ?? []) {
    if (!config.hosts[name]) throw new UserError(`unknown host class '${name}'; known: ${known.join(', ') || '(none: add configs/hosts/<name>.yml)'}`);
  }
  const names = options.hostClasses?.length ? options.hostClasses : known.filter((n) => config.hosts[n].labels.length > 0);
  if (names.length === 0) throw new UserError(`no host class has runner labels (configs/hosts/*.yml 'labels'); pass --host-class, one of: ${known.join(', ')}`);
  return names.map((n) => {
    const ref = config.hosts[n].reference;
    return { name: n, suite: options.suite ?? config.hosts[n].scale, ...(ref ? { reference: { product: ref.product, version: ref.version } } : {}) };
  });
}

/**
 * Turn matched tags into the benchmark workflow's matrix: one entry per (version, host class)
 * not benchmarked yet, newest first, product lines interleaved so that one busy line does not
 * starve the others, cut at `max`.
 * @param {object} input
 * @param {import('./tags.js').TagCandidate[]} input.candidates every product and line, newest
 *   version first within each line (lines are taken in the order they first appear)
 * @param {{name: string, suite: string, reference?: {product: string, version: string}}[]} input.hostClasses
 *   reference: the host class's reference release (a resumed leg skips its published run too)
 * @param {IndexedRun[]} input.runs the results index's runs
 * @param {import('./resume-legs.js').IndexComparisonLike[]} [input.comparisons] the results index's
 *   comparisons: a failed leg without one is resumed from its finished run records
 * @param {number} input.max most entries to return
 * @param {boolean} [input.retryFailed] propose versions whose runs all failed again (default:
 *   a failed run counts as benchmarked; a partial, i.e. interrupted, run never does)
 * @param {LegAttempts[]} [input.attempts] legs whose bench job failed (the index's attempts)
 * @param {BackOff} [input.backOff]
 * @param {number} [input.now] ms since the epoch
 * @returns {Omit<DiscoverResult, 'deleted'>}
 */
export function planMatrix({ candidates, hostClasses, runs, comparisons = [], max, retryFailed = false, attempts = [], backOff = DEFAULT_BACK_OFF, now = Date.now() }) {
  /** @type {Map<string, LegAttempts>} */
  const failedLegs = new Map(attempts.map((a) => [[a.hostClass, a.product, a.version, a.suite].join('\0'), a]));
  /** @type {Map<string, IndexedRun[]>} leg -> its runs that count as benchmarked */
  const done = new Map();
  for (const r of runs) {
    if (r.status === 'partial' || (retryFailed && r.status === 'failed')) continue;
    const key = [r.hostClass, r.product, r.version, r.suite].join('\0');
    done.set(key, [...(done.get(key) ?? []), r]);
  }
  /** @type {DiscoverResult['skipped']} */
  const skipped = [];
  /** @type {Map<string, MatrixEntry[][]>} product+line -> per version, its entries */
  const byLine = new Map();
  for (const c of candidates) {
    /** @type {MatrixEntry[]} */
    const entries = [];
    for (const h of hostClasses) {
      const legKey = [h.name, c.product, c.version, h.suite].join('\0');
      // A run that names another tag than upstream's for this version is not this release's run
      // (a record the release service did not write for it): it never makes the leg benchmarked.
      const judged = judgeLeg((done.get(legKey) ?? []).filter((r) => !r.tag || r.tag === c.tag), c.commit);
      const { movedFrom } = judged;
      const allFailed = failedLegs.get(legKey);
      // A moved tag's leg backs off only from failures after its last run (those of the new commit).
      const failed = movedFrom && allFailed && allFailed.lastAt <= movedFrom.startedAt ? undefined : allFailed;
      const resume = findResume({ hostClass: h.name, product: c.product, version: c.version, suite: h.suite }, { runs, comparisons }, failed, h.reference);
      // A resumable leg's finished records are not "benchmarked": its comparison is missing.
      const run = resume ? null : judged.run;
      const wait = run || !failed ? null : backOffReason(failed, backOff, now);
      if (run) skipped.push({ product: c.product, line: c.line, version: c.version, hostClass: h.name, reason: `already benchmarked: run ${run.id} (${run.status}), suite ${h.suite}` });
      else if (wait) skipped.push({ product: c.product, line: c.line, version: c.version, hostClass: h.name, reason: wait, attempts: /** @type {LegAttempts} */ (failed) });
      else {
        entries.push({
          product: c.product, line: c.line, version: c.version, tag: c.tag, commit: c.commit, hostClass: h.name, suite: h.suite,
          ...(failed ? { attempt: failed.count + 1 } : {}), ...(resume ? { resume: resume.join(',') } : {}),
          ...(movedFrom ? { movedFrom: /** @type {string} */ (movedFrom.commit) } : {}),
        });
      }
    }
    if (entries.length === 0) continue;
    const key = `${c.product}\0${c.line}`;
    if (!byLine.has(key)) byLine.set(key, []);
    byLine.get(key)?.push(entries);
  }
  /** @type {MatrixEntry[]} */
  const include = [];
  let pending = 0;
  for (const versions of byLine.values()) for (const v of versions) pending += v.length;
  // Round-robin over lines (in the order given: products, then config line order): the
  // newest version of every line before the second of any.
  const queues = [...byLine.values()];
  for (let round = 0; include.length < max && queues.some((q) => q.length > round); round++) {
    for (const q of queues) {
      const entries = q[round];
      if (!entries) continue;
      for (const e of entries) if (include.length < max) include.push(e);
    }
  }
  return { matrix: { include }, pending, skipped };
}

/**
 * Whether a leg is benchmarked at the commit its tag points at now. A run at that commit, or
 * runs that know no commit (Debian packages, older indexes: a move cannot be told), make it
 * benchmarked; runs only at other commits mean the tag was moved since. Pure.
 * @param {IndexedRun[]} runs the leg's runs that count as benchmarked
 * @param {string} commit where the upstream tag points now
 * @returns {{run: IndexedRun|null, movedFrom: IndexedRun|null}} run: the one that makes it
 *   benchmarked (an ok one first); movedFrom: the latest run at another commit when none does
 */
export function judgeLeg(runs, commit) {
  const okFirst = (/** @type {IndexedRun[]} */ list) => list.find((r) => r.status === 'ok') ?? list[0] ?? null;
  const atCommit = runs.filter((r) => r.commit === commit);
  if (atCommit.length > 0) return { run: okFirst(atCommit), movedFrom: null };
  const withCommit = runs.filter((r) => r.commit);
  if (withCommit.length === 0 || withCommit.length < runs.length) return { run: okFirst(runs), movedFrom: null };
  const latest = withCommit.reduce((a, b) => (b.startedAt > a.startedAt ? b : a));
  return { run: null, movedFrom: latest };
}

/**
 * Tags the index has runs of that upstream no longer has (deleted, or renamed). Pure.
 * @param {string} product
 * @param {import('./tags.js').RemoteTag[]} tags upstream's tags now
 * @param {IndexedRun[]} runs the results index's runs
 * @returns {DeletedTag[]} sorted by tag
 */
export function findDeletedTags(product, tags, runs) {
  const upstream = new Set(tags.map((t) => t.name));
  /** @type {Map<string, DeletedTag>} */
  const byTag = new Map();
  for (const r of runs) {
    if (r.product !== product || !r.tag || upstream.has(r.tag)) continue;
    const entry = byTag.get(r.tag) ?? { product, tag: r.tag, versions: [], runs: [] };
    if (!entry.versions.includes(r.version)) entry.versions.push(r.version);
    entry.runs.push({ id: r.id, hostClass: r.hostClass, suite: r.suite, commit: r.commit ?? null });
    byTag.set(r.tag, entry);
  }
  return [...byTag.values()].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

/**
 * Why a leg that failed is not proposed now, or null when its back-off is over. Pure.
 * @param {LegAttempts} failed
 * @param {BackOff} backOff
 * @param {number} now ms since the epoch
 * @returns {string|null}
 */
export function backOffReason(failed, backOff, now) {
  const last = `last: ${failed.lastOutcome} at ${failed.lastAt}: ${failed.lastReason}${failed.lastRunUrl ? ` (${failed.lastRunUrl})` : ''}`;
  if (failed.count >= backOff.maxAttempts) {
    return `stopped after ${failed.count} failed attempt${failed.count > 1 ? 's' : ''} (at most ${backOff.maxAttempts}); ${last}. Dispatch benchmark.yml by hand once it is fixed`;
  }
  const until = Date.parse(failed.lastAt) + backOff.hours * 3600_000 * 2 ** (failed.count - 1);
  if (now >= until) return null;
  return `backing off after ${failed.count} failed attempt${failed.count > 1 ? 's' : ''}: not before ${new Date(until).toISOString()}; ${last}`;
}

/**
 * The failed attempts watch believes: a leg's attempts count once per workflow run of this
 * repository (the remember-failure job of benchmark.yml writes one attempt per run, naming it).
 * Attempts that name no run, another repository's run, or a run already counted are not
 * counted: three planted attempts must not stop a release for good, and the run URL is the one
 * field of an attempt that ties it to the service. Indexes written before attempts listed their
 * runs (no runUrls) are taken as they are. Pure.
 * @param {LegAttempts[]} attempts the index's attempts
 * @param {string|null} prefix `<server>/<owner>/<repo>/actions/runs/`; null = count every attempt
 * @returns {{counted: LegAttempts[], ignored: (LegAttempts & {ignored: number, why: string})[]}}
 *   counted: with count = the runs that count (legs with none left out)
 */
export function trustedAttempts(attempts, prefix) {
  if (!prefix) return { counted: attempts, ignored: [] };
  /** @type {LegAttempts[]} */
  const counted = [];
  /** @type {(LegAttempts & {ignored: number, why: string})[]} */
  const ignored = [];
  for (const a of attempts) {
    if (!a.runUrls) { counted.push(a); continue; }
    const runs = new Set(a.runUrls.map((u) => (u.startsWith(prefix) ? /^(\d+)(\/attempts\/\d+)?\/?$/.exec(u.slice(prefix.length))?.[1] : undefined)).filter(Boolean));
    if (runs.size < a.count) ignored.push({ ...a, ignored: a.count - runs.size, why: `only ${runs.size} distinct workflow run${runs.size === 1 ? '' : 's'} of ${prefix}` });
    if (runs.size > 0) counted.push({ ...a, count: runs.size });
  }
  return { counted, ignored };
}
