/**
 * The generated `index.json` of a results store: one entry per run record, per comparison and
 * per change-point file, with enough to know what was benchmarked (watch) and to list the
 * files (site). It holds no
 * timestamp of its own, so the same files always give byte-identical text: a re-publish of
 * nothing new changes nothing.
 */
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { UserError } from '../errors.js';
import { registerSchema, validateAgainst } from '../config/index.js';
import { readStoreFiles, readStoreFile, listStoreFiles } from './read-records.js';
import { INDEX_FILE, REF_TOPS, renderJson } from './store-paths.js';
import { replaceFileAtomic } from './write-file-once.js';
import { readLegAttempts, summarizeLegAttempts } from './leg-attempts.js';

const require = createRequire(import.meta.url);
const INDEX_SCHEMA = require('./schemas/index.schema.json');
registerSchema(INDEX_SCHEMA);

/**
 * @typedef {object} IndexRun
 * @property {string} id
 * @property {string} hostClass
 * @property {string} product
 * @property {string} line
 * @property {string} version
 * @property {string|null} tag
 * @property {string|null} [commit] the commit the run's release was built from (record
 *   release.commit: source builds; null where unknown, e.g. Debian packages; absent in index.json
 *   files written before it was indexed)
 * @property {string} suite
 * @property {string} engine
 * @property {'ok'|'failed'|'partial'} status
 * @property {string} startedAt
 * @property {string|null} finishedAt
 * @property {string} path relative to the store root
 */

/**
 * @typedef {object} IndexComparison
 * @property {string} id
 * @property {string} hostClass
 * @property {string} product
 * @property {string} line
 * @property {string} suite
 * @property {string} baseVersion
 * @property {string} candidateVersion
 * @property {string} createdAt
 * @property {Record<string, number>} summary verdict class -> number of tests
 * @property {string} path
 */

/**
 * @typedef {object} IndexChangePoints
 * @property {string} hostClass
 * @property {string} product
 * @property {string} line
 * @property {string} suite
 * @property {string} createdAt
 * @property {string[]} releases the series, oldest first
 * @property {number} changePoints how many were found, over every test
 * @property {string} path
 */

/**
 * @typedef {object} StoreIndex contents of index.json
 * @property {1} schemaVersion
 * @property {IndexRun[]} runs sorted by path
 * @property {IndexComparison[]} comparisons sorted by path
 * @property {IndexRun[]} [refRuns] records of ad-hoc ref runs (`refs/runs/`), sorted by path:
 *   never a release of the series (watch reads `runs` only); absent when the store has none
 * @property {IndexComparison[]} [refComparisons] their comparisons (`refs/verdicts/`), sorted by
 *   path; absent when the store has none
 * @property {IndexChangePoints[]} [changePoints] sorted by path (absent in older index.json files)
 * @property {import('./leg-attempts.js').LegAttempts[]} [attempts] legs whose bench job failed,
 *   timed out or was cancelled, one entry per leg (absent in older index.json files)
 */

/**
 * Read every record, comparison and change-point file of the store and (re)write `index.json`
 * at its root.
 * @param {string} storeDir results store root
 * @param {{write?: boolean}} [options] write: false = only compute (default true)
 * @returns {Promise<StoreIndex>}
 * @throws {UserError} when a file of the store is unreadable (see readRecords) or two records
 *   share one run id
 */
export async function buildIndex(storeDir, options = {}) {
  const runs = (await readStoreFiles(storeDir, 'run-record', { samples: false })).map(({ relPath, data }) => runEntry(relPath, data));
  const comparisons = (await readStoreFiles(storeDir, 'comparison')).map(({ relPath, data }) => comparisonEntry(relPath, data));
  const refRuns = (await readStoreFiles(storeDir, 'run-record', { samples: false, refs: true })).map(({ relPath, data }) => runEntry(relPath, data));
  const refComparisons = (await readStoreFiles(storeDir, 'comparison', { refs: true })).map(({ relPath, data }) => comparisonEntry(relPath, data));
  const changePoints = await indexChangePoints(storeDir);
  const attempts = summarizeLegAttempts(await readLegAttempts(storeDir));
  /** @type {StoreIndex} */
  const index = { schemaVersion: 1, runs, comparisons, ...refEntries(refRuns, refComparisons), changePoints, ...(attempts.length > 0 ? { attempts } : {}) };
  checkRunIds(storeDir, [...index.runs, ...(index.refRuns ?? [])]);
  if (options.write !== false) await writeIndex(storeDir, index);
  return index;
}

/**
 * The index of a store after files were added to it (or change-point files replaced), from its
 * previous index and the changed files alone: what publish does on a branch of thousands of
 * records, where reading every record again would cost minutes and gigabytes. The failed leg
 * attempts are summarised from their folder again (a few small files).
 * @param {string} storeDir results store root, holding at least the changed files and attempts/
 * @param {StoreIndex} previous the index before the change, listing exactly the files then present
 * @param {string[]} changed relative paths of the files added or replaced (other folders ignored)
 * @param {{write?: boolean}} [options] write: false = only compute (default true)
 * @returns {Promise<StoreIndex>}
 * @throws {UserError} when a changed file is unreadable or a run id is used twice
 */
export async function extendIndex(storeDir, previous, changed, options = {}) {
  const runs = new Map(previous.runs.map((e) => [e.path, e]));
  const comparisons = new Map(previous.comparisons.map((e) => [e.path, e]));
  const changePoints = new Map((previous.changePoints ?? []).map((e) => [e.path, e]));
  const refRuns = new Map((previous.refRuns ?? []).map((e) => [e.path, e]));
  const refComparisons = new Map((previous.refComparisons ?? []).map((e) => [e.path, e]));
  for (const relPath of changed) {
    if (!relPath.endsWith('.json')) continue;
    if (relPath.startsWith('runs/')) runs.set(relPath, runEntry(relPath, await readStoreFile(storeDir, relPath, 'run-record', { samples: false })));
    else if (relPath.startsWith('verdicts/')) comparisons.set(relPath, comparisonEntry(relPath, await readStoreFile(storeDir, relPath, 'comparison')));
    else if (relPath.startsWith(`${REF_TOPS.runs}/`)) refRuns.set(relPath, runEntry(relPath, await readStoreFile(storeDir, relPath, 'run-record', { samples: false })));
    else if (relPath.startsWith(`${REF_TOPS.verdicts}/`)) refComparisons.set(relPath, comparisonEntry(relPath, await readStoreFile(storeDir, relPath, 'comparison')));
    else if (relPath.startsWith('changepoints/')) changePoints.set(relPath, changePointsEntry(relPath, await readStoreFile(storeDir, relPath, 'change-points')));
  }
  const byPath = (/** @type {{path: string}} */ a, /** @type {{path: string}} */ b) => a.path.localeCompare(b.path);
  const attempts = summarizeLegAttempts(await readLegAttempts(storeDir));
  /** @type {StoreIndex} */
  const index = {
    schemaVersion: 1,
    runs: [...runs.values()].sort(byPath),
    comparisons: [...comparisons.values()].sort(byPath),
    ...refEntries([...refRuns.values()].sort(byPath), [...refComparisons.values()].sort(byPath)),
    changePoints: [...changePoints.values()].sort(byPath),
    ...(attempts.length > 0 ? { attempts } : {}),
  };
  checkRunIds(storeDir, [...index.runs, ...(index.refRuns ?? [])]);
  if (options.write !== false) await writeIndex(storeDir, index);
  return index;
}

/**
 * The ref runs' lists of an index, left out when empty: a store without ref runs keeps the
 * index.json it had before they existed, byte for byte.
 * @param {IndexRun[]} refRuns
 * @param {IndexComparison[]} refComparisons
 * @returns {{refRuns?: IndexRun[], refComparisons?: IndexComparison[]}}
 */
function refEntries(refRuns, refComparisons) {
  return { ...(refRuns.length > 0 ? { refRuns } : {}), ...(refComparisons.length > 0 ? { refComparisons } : {}) };
}

/**
 * @param {string} relPath
 * @param {import('../types.js').RunRecord} data
 * @returns {IndexRun}
 */
function runEntry(relPath, data) {
  return {
    id: data.id,
    hostClass: data.host.class,
    product: data.release.product,
    line: data.release.line,
    version: data.release.version,
    tag: data.release.tag,
    commit: data.release.commit ?? null,
    suite: data.config.suite,
    engine: data.config.engine,
    status: data.status,
    startedAt: data.startedAt,
    finishedAt: data.finishedAt,
    path: relPath,
  };
}

/**
 * @param {string} relPath
 * @param {import('../types.js').Comparison} data
 * @returns {IndexComparison}
 */
function comparisonEntry(relPath, data) {
  return {
    id: relPath.split('/').at(-1)?.replace(/\.json$/, '') ?? '',
    hostClass: data.hostClass,
    product: data.product,
    line: data.line,
    suite: data.suite,
    baseVersion: data.base.version,
    candidateVersion: data.candidate.version,
    createdAt: data.createdAt,
    summary: data.summary,
    path: relPath,
  };
}

/**
 * @param {string} storeDir for the message
 * @param {IndexRun[]} runs
 * @throws {UserError} when two records share one run id
 */
function checkRunIds(storeDir, runs) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (const r of runs) {
    const other = seen.get(r.id);
    if (other) throw new UserError(`results store ${storeDir}: run id '${r.id}' is used by two records (${other} and ${r.path}); run ids must be unique`);
    seen.set(r.id, r.path);
  }
}

/**
 * Write index.json unless it already holds exactly this text.
 * @param {string} storeDir
 * @param {StoreIndex} index
 */
async function writeIndex(storeDir, index) {
  const text = renderJson(index);
  const path = join(storeDir, INDEX_FILE);
  const old = await readFile(path, 'utf8').catch(() => null);
  if (old !== text) await replaceFileAtomic(path, text);
}

/**
 * The index of a store: `index.json` when it lists exactly the record and comparison files
 * present (cheap: no record is parsed), else computed from the files (a local store that
 * `tagbench run` wrote to has no fresh index). Never writes.
 * @param {string} storeDir results store root or a checkout of the results branch
 * @returns {Promise<StoreIndex>}
 * @throws {UserError} when index.json is not valid JSON / not an index, or is newer than this
 *   tagbench, or a store file is unreadable
 */
export async function readIndex(storeDir) {
  const path = join(storeDir, INDEX_FILE);
  const index = await readIndexFile(path, { storeDir });
  if (index === null) return buildIndex(storeDir, { write: false });
  const [runPaths, cmpPaths, cpPaths, refRunPaths, refCmpPaths] = await Promise.all([listStoreFiles(storeDir, 'runs'), listStoreFiles(storeDir, 'verdicts'), listStoreFiles(storeDir, 'changepoints'),
    listStoreFiles(storeDir, REF_TOPS.runs), listStoreFiles(storeDir, REF_TOPS.verdicts)]);
  const same = (/** @type {string[]} */ a, /** @type {{path: string}[]} */ b) => a.length === b.length && b.every((e, i) => e.path === a[i]);
  if (!same(runPaths, index.runs) || !same(cmpPaths, index.comparisons) || !same(refRunPaths, index.refRuns ?? []) || !same(refCmpPaths, index.refComparisons ?? [])) return buildIndex(storeDir, { write: false });
  // Change-point files are replaced in place, so the same paths may hold newer content: their
  // entries are always read again (cheap: one small file per series), and so are the failed
  // attempts (a few small files; a local store's index.json does not know of new ones).
  const attempts = summarizeLegAttempts(await readLegAttempts(storeDir));
  const withAttempts = { ...index, ...(attempts.length > 0 ? { attempts } : {}) };
  if (attempts.length === 0) delete withAttempts.attempts;
  return cpPaths.length === 0 && !index.changePoints?.length ? withAttempts : { ...withAttempts, changePoints: await indexChangePoints(storeDir) };
}

/**
 * One index.json as it is, parsed and validated, without looking at any other file: what watch
 * reads from the results branch (it fetches that one file, not the records).
 * @param {string} path
 * @param {{storeDir?: string}} [options] storeDir: named in the hint to regenerate it
 * @returns {Promise<StoreIndex|null>} null when the file does not exist
 * @throws {UserError} when it is not valid JSON, not an index, or newer than this tagbench
 */
export async function readIndexFile(path, options = {}) {
  const text = await readFile(path, 'utf8').catch((err) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  const hint = `regenerate it with \`tagbench store index --store ${options.storeDir ?? dirname(path)}\``;
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: not valid JSON (${/** @type {Error} */ (err).message}); ${hint}`);
  }
  if (typeof data?.schemaVersion === 'number' && data.schemaVersion > 1) {
    throw new UserError(`${path}: schemaVersion ${data.schemaVersion} is newer than this tagbench understands (1): upgrade tagbench`);
  }
  const problems = validateAgainst('store-index', data);
  if (problems.length > 0) throw new UserError(`${path}: not a valid store index: ${problems.join('; ')}; ${hint}`);
  return data;
}

/**
 * @param {string} storeDir
 * @returns {Promise<IndexChangePoints[]>} sorted by path
 * @throws {UserError} when a change-point file is unreadable
 */
async function indexChangePoints(storeDir) {
  return (await readStoreFiles(storeDir, 'change-points')).map(({ relPath, data }) => changePointsEntry(relPath, data));
}

/**
 * @param {string} relPath
 * @param {import('../types.js').ChangePoints} data
 * @returns {IndexChangePoints}
 */
function changePointsEntry(relPath, data) {
  return {
    hostClass: data.hostClass,
    product: data.product,
    line: data.line,
    suite: data.suite,
    createdAt: data.createdAt,
    releases: data.releases.map((r) => r.version),
    changePoints: data.tests.reduce((n, t) => n + t.changePoints.length, 0),
    path: relPath,
  };
}
