/**
 * Readers of the results store. Every file is parsed, upgraded in memory when older
 * (scripts/store/migrations/), validated, and checked to sit at the path its identity gives.
 * A missing store means "no records"; a file that does not parse or validate is an error that
 * names the file: nothing is skipped or reset quietly.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { validateRecord, validateComparison, validateChangePoints, RECORD_SCHEMA_VERSION, COMPARISON_SCHEMA_VERSION, CHANGE_POINTS_SCHEMA_VERSION } from './validate-record.js';
import { migrateData } from './migrate-data.js';
import { markVerdictMeters } from './migrations/verdict-meters.js';
import { recordRelPath, comparisonRelPath, changePointsRelPath, REF_TOPS } from './store-paths.js';
import { joinSamples } from './record-samples.js';

/**
 * @typedef {object} StoreFilter narrows the files read; every given field must match
 * @property {string} [hostClass]
 * @property {string} [product]
 * @property {string} [version] release version (candidate version for comparisons; not a
 *   level of change-point files)
 * @property {string} [line] product line (change-point files only: runs and comparisons are
 *   not stored by line)
 * @property {string} [suite]
 * @property {string[]} [ids] run ids (comparison ids for comparisons)
 * @property {boolean} [refs] run records and comparisons: read the ad-hoc ref runs'
 *   (`refs/runs/`, `refs/verdicts/`) instead of the release series' (default false: every
 *   reader of the series sees releases only)
 * @property {boolean} [samples] run records: read each record's per-second samples file
 *   (default true); false = every repeat's `intervals` is [] (for readers of summaries only:
 *   the index, the site's tables)
 */

/**
 * @typedef {object} StoredFile
 * @property {string} relPath path relative to the store root
 * @property {any} data parsed, upgraded to the newest schemaVersion and validated
 */

/** @typedef {'run-record'|'comparison'|'change-points'} StoreKind */

const KINDS = /** @type {const} */ ({
  'run-record': { top: 'runs', refTop: REF_TOPS.runs, newest: RECORD_SCHEMA_VERSION, validate: validateRecord, relPath: (/** @type {any} */ d, /** @type {string} */ _id) => recordRelPath(d) },
  comparison: { top: 'verdicts', refTop: REF_TOPS.verdicts, newest: COMPARISON_SCHEMA_VERSION, validate: validateComparison, relPath: comparisonRelPath },
  'change-points': { top: 'changepoints', refTop: null, newest: CHANGE_POINTS_SCHEMA_VERSION, validate: validateChangePoints, relPath: (/** @type {any} */ d, /** @type {string} */ _id) => changePointsRelPath(d) },
});

/** @typedef {'runs'|'verdicts'|'changepoints'|'refs/runs'|'refs/verdicts'} StoreTop */

/** Runs and verdicts, of releases or of ref runs: <host-class>/<product>/<version>/<suite>/<id>.json. */
const BY_VERSION = { levels: (/** @type {StoreFilter} */ f) => [f.hostClass, f.product, f.version, f.suite], files: (/** @type {StoreFilter} */ f) => f.ids };

/**
 * Folder levels under each top folder, and which filter field picks the file name. Runs and
 * verdicts (also the ref runs' under refs/): <host-class>/<product>/<version>/<suite>/<id>.json;
 * change points (one file per series): <host-class>/<product>/<line>/<suite>.json.
 * @type {Record<StoreTop, {levels: (f: StoreFilter) => (string|undefined)[], files: (f: StoreFilter) => string[]|undefined}>}
 */
const LAYOUTS = {
  runs: BY_VERSION,
  verdicts: BY_VERSION,
  'refs/runs': BY_VERSION,
  'refs/verdicts': BY_VERSION,
  changepoints: { levels: (f) => [f.hostClass, f.product, f.line], files: (f) => (f.suite === undefined ? undefined : [f.suite]) },
};

/**
 * Read the run records of a store, oldest first (by startedAt, then id).
 * @param {string} storeDir results store root (missing = empty store)
 * @param {StoreFilter & {status?: import('../types.js').RunRecord['status'][]}} [filter]
 * @returns {Promise<import('../types.js').RunRecord[]>}
 * @throws {UserError} listing every file that does not parse, is newer than this tagbench
 *   (upgrade tagbench), is invalid, or sits at a path that does not match its content
 */
export async function readRecords(storeDir, filter = {}) {
  const files = await readStoreFiles(storeDir, 'run-record', filter);
  /** @type {import('../types.js').RunRecord[]} */
  const records = files.map((f) => f.data);
  const wanted = filter.status ? new Set(filter.status) : null;
  return records
    .filter((r) => !wanted || wanted.has(r.status))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
}

/**
 * Read the comparisons of a store, oldest first (by createdAt).
 * @param {string} storeDir results store root (missing = empty store)
 * @param {StoreFilter} [filter] version = candidate version
 * @returns {Promise<(import('../types.js').Comparison & {id: string})[]>} each with its id (file name)
 * @throws {UserError} as readRecords
 */
export async function readComparisons(storeDir, filter = {}) {
  const files = await readStoreFiles(storeDir, 'comparison', filter);
  return files
    // Older comparisons' verdicts get the meter facts compare stamps now (migrations/verdict-meters.js).
    .map((f) => ({ ...markVerdictMeters(f.data), id: (f.relPath.split('/').at(-1) ?? '').replace(/\.json$/, '') }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * Read one comparison file named by the user (`tagbench report --comparison FILE`), wherever it
 * lies: parsed, upgraded when older, and validated like a file of the store.
 * @param {string} file
 * @returns {Promise<import('../types.js').Comparison>}
 * @throws {UserError} naming the file when it is missing, does not parse, is newer than this
 *   tagbench or is not a valid comparison
 */
export async function readComparisonFile(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`comparison file ${file} cannot be read (${/** @type {Error} */ (err).message}); pass a file written by \`tagbench compare\` (results/verdicts/...)`, { cause: err });
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`comparison file ${file} is not valid JSON (${/** @type {Error} */ (err).message})`, { cause: err });
  }
  const data = migrateData('comparison', parsed, COMPARISON_SCHEMA_VERSION, { file }).data;
  const problems = validateComparison(data);
  if (problems.length > 0) throw new UserError(`comparison file ${file} is not a valid comparison:\n  - ${problems.join('\n  - ')}`);
  return markVerdictMeters(data);
}

/**
 * Read the change-point files of a store (derived data: one per release series, regenerated
 * by each `tagbench compare`), sorted by path.
 * @param {string} storeDir results store root (missing = empty store)
 * @param {{hostClass?: string, product?: string, line?: string, suite?: string}} [filter]
 * @returns {Promise<import('../types.js').ChangePoints[]>}
 * @throws {UserError} as readRecords
 */
export async function readChangePoints(storeDir, filter = {}) {
  const { hostClass, product, line, suite } = filter;
  return (await readStoreFiles(storeDir, 'change-points', { hostClass, product, line, suite })).map((f) => f.data);
}

/**
 * Read, upgrade and validate every file of one kind (for readers and for the index).
 * @param {string} storeDir
 * @param {StoreKind} kind
 * @param {StoreFilter} [filter]
 * @returns {Promise<StoredFile[]>} sorted by relPath
 * @throws {UserError} listing every bad file
 */
export async function readStoreFiles(storeDir, kind, filter = {}) {
  const spec = KINDS[kind];
  if (filter.refs && !spec.refTop) throw new Error(`${kind} files have no ref runs`);
  const relPaths = await listStoreFiles(storeDir, filter.refs && spec.refTop ? spec.refTop : spec.top, filter);
  /** @type {string[]} */
  const errors = [];
  /** @type {StoredFile[]} */
  const out = [];
  await Promise.all(relPaths.map(async (relPath) => {
    const data = await readOne(storeDir, relPath, kind, errors, filter.samples !== false);
    if (data !== undefined) out.push({ relPath, data });
  }));
  if (errors.length > 0) {
    throw new UserError(`results store ${storeDir}: ${errors.length} unreadable file${errors.length > 1 ? 's' : ''}:\n  - ${errors.sort().join('\n  - ')}`);
  }
  return out.sort((a, b) => a.relPath.localeCompare(b.relPath));
}

/**
 * Read, upgrade and validate one file of the store by its path (publish indexes only the files
 * it adds, not the whole branch).
 * @param {string} storeDir
 * @param {string} relPath
 * @param {StoreKind} kind
 * @param {{samples?: boolean}} [options] as StoreFilter's
 * @returns {Promise<any>}
 * @throws {UserError} naming the file when it is bad
 */
export async function readStoreFile(storeDir, relPath, kind, options = {}) {
  /** @type {string[]} */
  const errors = [];
  const data = await readOne(storeDir, relPath, kind, errors, options.samples !== false);
  if (errors.length > 0) throw new UserError(`results store ${storeDir}: ${errors.join('; ')}`);
  return data;
}

/**
 * @param {string} storeDir
 * @param {string} relPath
 * @param {StoreKind} kind
 * @param {string[]} errors collects problems
 * @param {boolean} samples run records: join the per-second samples file (else intervals [])
 * @returns {Promise<any>} undefined when bad
 */
async function readOne(storeDir, relPath, kind, errors, samples) {
  const spec = KINDS[kind];
  const text = await readFile(join(storeDir, relPath), 'utf8');
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    errors.push(`${relPath}: not valid JSON (${/** @type {Error} */ (err).message}); ${kind === 'change-points'
      ? 'it is derived data: remove it and run `tagbench compare` for that series again'
      : 'the store never rewrites files, so restore it from the results branch or remove it by hand'}`);
    return undefined;
  }
  let data;
  try {
    data = migrateData(kind, parsed, spec.newest, { file: relPath }).data;
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    errors.push(err.message);
    return undefined;
  }
  if (kind === 'run-record' && data.samples) {
    try {
      data = samples
        ? joinSamples(data, await readFile(join(storeDir, relPath, '..', data.samples.file)).catch((err) => {
          if (err.code === 'ENOENT') return null;
          throw err;
        }), relPath)
        : { ...data, steps: data.steps.map((/** @type {any} */ step) => ({ ...step, repeats: step.repeats.map((/** @type {any} */ rep) => ({ ...rep, intervals: [] })) })) };
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      errors.push(err.message);
      return undefined;
    }
  }
  const problems = spec.validate(data);
  if (problems.length > 0) {
    errors.push(`${relPath}: invalid ${kind}: ${problems.join('; ')}`);
    return undefined;
  }
  const id = relPath.split('/').at(-1)?.replace(/\.json$/, '') ?? '';
  const expected = spec.relPath(data, id);
  if (expected !== relPath) {
    errors.push(`${relPath}: its content belongs at ${expected} (host class, product, version, suite and id build the path); move it there`);
    return undefined;
  }
  return data;
}

/**
 * Relative paths of the `.json` files of one top folder (layouts: LAYOUTS), without reading
 * them. Dot files (temp files of an interrupted write) are left out.
 * @param {string} storeDir
 * @param {StoreTop} top
 * @param {StoreFilter} [filter]
 * @returns {Promise<string[]>} sorted
 */
export async function listStoreFiles(storeDir, top, filter = {}) {
  const levels = LAYOUTS[top].levels(filter);
  const names = LAYOUTS[top].files(filter);
  const ids = names ? new Set(names) : null;
  /** @type {string[]} */
  let dirs = [top];
  for (const want of levels) {
    /** @type {string[][]} */
    const next = await Promise.all(dirs.map(async (d) => (await listDir(join(storeDir, d), 'dirs'))
      .filter((name) => want === undefined || name === want)
      .map((name) => join(d, name))));
    dirs = next.flat();
  }
  const files = await Promise.all(dirs.map(async (d) => (await listDir(join(storeDir, d), 'files'))
    .filter((name) => name.endsWith('.json') && (!ids || ids.has(name.slice(0, -5))))
    .map((name) => join(d, name))));
  return files.flat().sort();
}

/**
 * @param {string} dir
 * @param {'dirs'|'files'} which
 * @returns {Promise<string[]>} names, without dot files; [] when dir is missing
 */
async function listDir(dir, which) {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => !e.name.startsWith('.') && (which === 'dirs' ? e.isDirectory() : e.isFile())).map((e) => e.name);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * @typedef {object} StorePartition a (host class, product, suite) slice of the store
 * @property {string} hostClass
 * @property {string} product
 * @property {string} suite
 * @property {string[]} versions versions with run records in this slice (store order)
 */

/**
 * The (host class, product, suite) slices that hold run records, from the store's layout
 * (runs/<host-class>/<product>/<version>/<suite>/), without reading any record. The site is
 * built slice by slice so memory stays bounded however long the history grows.
 * @param {string} storeDir results store root (missing = empty store)
 * @returns {Promise<StorePartition[]>} sorted by host class, product, suite
 */
export async function listPartitions(storeDir) {
  /** @type {Map<string, StorePartition>} */
  const out = new Map();
  const runs = join(storeDir, 'runs');
  /** @param {string} dir */
  const subdirs = async (dir) => (await listDir(dir, 'dirs')).sort();
  for (const hostClass of await subdirs(runs)) {
    for (const product of await subdirs(join(runs, hostClass))) {
      for (const version of await subdirs(join(runs, hostClass, product))) {
        for (const suite of await subdirs(join(runs, hostClass, product, version))) {
          const key = `${hostClass}/${product}/${suite}`;
          const p = out.get(key) ?? { hostClass, product, suite, versions: [] };
          p.versions.push(version);
          out.set(key, p);
        }
      }
    }
  }
  return [...out.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, p]) => p);
}

/**
 * A raw log of a run (`logs/<run-id>/<name>`, written by writeRawLog), or null when the store
 * does not have it (a store published without `--logs`, a log pruned by hand).
 * @param {string} storeDir results store root
 * @param {string} runId
 * @param {string} name the log's file name (a repeat's `profile`, `<step>.r0.txt`)
 * @returns {Promise<string|null>}
 * @throws {UserError} for a run id or name that is not a plain file name
 */
export async function readRawLog(storeDir, runId, name) {
  for (const [what, value] of [['run id', runId], ['log name', name]]) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/.test(value)) throw new UserError(`${what} ${JSON.stringify(value)} is not a stored log's file name`);
  }
  try {
    return await readFile(join(storeDir, 'logs', runId, name), 'utf8');
  } catch (err) {
    if (/** @type {{code?: string}} */ (err).code === 'ENOENT') return null;
    throw err;
  }
}
