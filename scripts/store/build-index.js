/**
 * The generated `index.json` of a results store: one entry per run record, per comparison and
 * per change-point file, with enough to know what was benchmarked (watch) and to list the
 * files (site). It holds no
 * timestamp of its own, so the same files always give byte-identical text: a re-publish of
 * nothing new changes nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { UserError } from '../errors.js';
import { registerSchema, validateAgainst } from '../config/index.js';
import { readStoreFiles, listStoreFiles } from './read-records.js';
import { INDEX_FILE, renderJson } from './store-paths.js';
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
  const runs = (await readStoreFiles(storeDir, 'run-record')).map(({ relPath, data }) => ({
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
  }));
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (const r of runs) {
    const other = seen.get(r.id);
    if (other) throw new UserError(`results store ${storeDir}: run id '${r.id}' is used by two records (${other} and ${r.path}); run ids must be unique`);
    seen.set(r.id, r.path);
  }
  const comparisons = (await readStoreFiles(storeDir, 'comparison')).map(({ relPath, data }) => ({
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
  }));
  const changePoints = await indexChangePoints(storeDir);
  const attempts = summarizeLegAttempts(await readLegAttempts(storeDir));
  /** @type {StoreIndex} */
  const index = { schemaVersion: 1, runs, comparisons, changePoints, ...(attempts.length > 0 ? { attempts } : {}) };
  if (options.write !== false) {
    const text = renderJson(index);
    const path = join(storeDir, INDEX_FILE);
    const old = await readFile(path, 'utf8').catch(() => null);
    if (old !== text) await replaceFileAtomic(path, text);
  }
  return index;
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
  const text = await readFile(path, 'utf8').catch((err) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return buildIndex(storeDir, { write: false });
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: not valid JSON (${/** @type {Error} */ (err).message}); regenerate it with \`tagbench store index --store ${storeDir}\``);
  }
  if (typeof data?.schemaVersion === 'number' && data.schemaVersion > 1) {
    throw new UserError(`${path}: schemaVersion ${data.schemaVersion} is newer than this tagbench understands (1): upgrade tagbench`);
  }
  const problems = validateAgainst('store-index', data);
  if (problems.length > 0) throw new UserError(`${path}: not a valid store index: ${problems.join('; ')}; regenerate it with \`tagbench store index --store ${storeDir}\``);
  /** @type {StoreIndex} */
  const index = data;
  const [runPaths, cmpPaths, cpPaths] = await Promise.all([listStoreFiles(storeDir, 'runs'), listStoreFiles(storeDir, 'verdicts'), listStoreFiles(storeDir, 'changepoints')]);
  const same = (/** @type {string[]} */ a, /** @type {{path: string}[]} */ b) => a.length === b.length && b.every((e, i) => e.path === a[i]);
  if (!same(runPaths, index.runs) || !same(cmpPaths, index.comparisons)) return buildIndex(storeDir, { write: false });
  // Change-point files are replaced in place, so the same paths may hold newer content: their
  // entries are always read again (cheap: one small file per series), and so are the failed
  // attempts (a few small files; a local store's index.json does not know of new ones).
  const attempts = summarizeLegAttempts(await readLegAttempts(storeDir));
  const withAttempts = { ...index, ...(attempts.length > 0 ? { attempts } : {}) };
  if (attempts.length === 0) delete withAttempts.attempts;
  return cpPaths.length === 0 && !index.changePoints?.length ? withAttempts : { ...withAttempts, changePoints: await indexChangePoints(storeDir) };
}

/**
 * @param {string} storeDir
 * @returns {Promise<IndexChangePoints[]>} sorted by path
 * @throws {UserError} when a change-point file is unreadable
 */
async function indexChangePoints(storeDir) {
  return (await readStoreFiles(storeDir, 'change-points')).map(({ relPath, data }) => ({
    hostClass: data.hostClass,
    product: data.product,
    line: data.line,
    suite: data.suite,
    createdAt: data.createdAt,
    releases: data.releases.map((/** @type {{version: string}} */ r) => r.version),
    changePoints: data.tests.reduce((/** @type {number} */ n, /** @type {{changePoints: unknown[]}} */ t) => n + t.changePoints.length, 0),
    path: relPath,
  }));
}
