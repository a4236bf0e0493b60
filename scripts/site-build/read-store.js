/**
 * Read what the site is built from: run records, comparisons and change points (through the
 * store stage's readers, which upgrade and validate every file), baselines, and the optional
 * issues list.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../errors.js';
import { readRecords, readComparisons as readStoredComparisons, readChangePoints as readStoredChangePoints } from '../store/index.js';

/** @import { RunRecord, StoredComparison, Baseline, IssueRef, ChangePoints } from './types.js' */

/** Files read at once: enough to hide latency, few enough for a small machine's fd limit. */
const READ_CONCURRENCY = 64;

/**
 * List every file under a folder whose name ends with one of the extensions (sorted, so the
 * build is deterministic). A missing folder means "empty".
 * @param {string} dir
 * @param {string[]} exts e.g. ['.json']
 * @returns {Promise<string[]>} absolute paths
 */
export async function listFiles(dir, exts) {
  /** @type {import('node:fs').Dirent[]} */
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return [];
    throw err;
  }
  return entries.filter((e) => e.isFile() && exts.some((x) => e.name.endsWith(x)))
    .map((e) => join(e.parentPath ?? /** @type {any} */ (e).path, e.name)).sort();
}

/**
 * @template T
 * @param {string[]} files
 * @param {(file: string, text: string) => T} parse
 * @returns {Promise<T[]>}
 */
async function readAll(files, parse) {
  /** @type {T[]} */
  const out = [];
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    const chunk = files.slice(i, i + READ_CONCURRENCY);
    const texts = await Promise.all(chunk.map((f) => readFile(f, 'utf8')));
    chunk.forEach((f, j) => out.push(parse(f, texts[j])));
  }
  return out;
}

/**
 * @param {string} file
 * @param {string} text
 * @returns {any}
 */
function parseJson(file, text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file}: not valid JSON (${/** @type {Error} */ (err).message}); fix or remove the file, the site is built from every file under the store`, { cause: err });
  }
}

/**
 * @typedef {object} StorePartition a slice of the store the site builds at once
 * @property {string} hostClass
 * @property {string} product
 * @property {string} suite
 * @property {string[]} versions versions with run records in this slice (store order)
 */

/**
 * The (host class, product, suite) slices that hold run records, from the store's layout
 * (runs/<host-class>/<product>/<version>/<suite>/), without reading any record. The site is
 * built slice by slice so memory stays bounded however long the history grows.
 * @param {string} storeDir results store root
 * @returns {Promise<StorePartition[]>} sorted
 */
export async function listPartitions(storeDir) {
  /** @type {Map<string, StorePartition>} */
  const out = new Map();
  const runs = join(storeDir, 'runs');
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
 * @param {string} dir
 * @returns {Promise<string[]>} names of the sub-folders (none when dir is missing)
 */
async function subdirs(dir) {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Run records of a store slice, read (upgraded, validated) by the store stage.
 * @param {string} storeDir results store root
 * @param {{hostClass: string, product: string, suite: string, version?: string}} [slice] all of the store when absent
 * @returns {Promise<RunRecord[]>}
 * @throws {UserError} listing every file that won't parse or validate
 */
export async function readRunRecords(storeDir, slice) {
  return readRecords(storeDir, slice ? { hostClass: slice.hostClass, product: slice.product, suite: slice.suite, version: slice.version } : {});
}

/**
 * Comparisons of a store slice with their ids (file names), read by the store stage.
 * @param {string} storeDir results store root
 * @param {StorePartition} [slice] all of the store when absent
 * @returns {Promise<StoredComparison[]>}
 * @throws {UserError}
 */
export async function readComparisons(storeDir, slice) {
  const list = await readStoredComparisons(storeDir, slice ? { hostClass: slice.hostClass, product: slice.product, suite: slice.suite } : {});
  return list.map(({ id, ...comparison }) => ({ id, comparison }));
}

/**
 * Change-point files of a store slice (one per product line), read by the store stage.
 * @param {string} storeDir results store root
 * @param {StorePartition} [slice] all of the store when absent
 * @returns {Promise<ChangePoints[]>} none when the store holds no change points (no compare yet)
 * @throws {UserError}
 */
export async function readChangePoints(storeDir, slice) {
  return readStoredChangePoints(storeDir, slice ? { hostClass: slice.hostClass, product: slice.product, suite: slice.suite } : {});
}

/**
 * Read accepted baselines: every JSON/YAML file under `<dir>/<host-class>/`. A baseline names
 * product, version and runIds, optionally line and suite (absent = any). A file may hold one
 * baseline, a list, or `{baselines: [...]}`.
 * @param {string} dir the baselines/ folder
 * @returns {Promise<Baseline[]>}
 * @throws {UserError} on a file that won't parse or an entry without product/version
 */
export async function readBaselines(dir) {
  const files = await listFiles(dir, ['.json', '.yml', '.yaml']);
  const lists = await readAll(files, (file, text) => {
    const hostClass = relative(dir, file).split(/[\\/]/)[0];
    let doc;
    try {
      doc = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    } catch (err) {
      throw new UserError(`${file}: cannot parse (${/** @type {Error} */ (err).message})`, { cause: err });
    }
    /** @type {any[]} */
    const items = Array.isArray(doc) ? doc : Array.isArray(doc?.baselines) ? doc.baselines : [doc];
    return items.filter((b) => b && typeof b === 'object').map((b, i) => {
      const version = b.version ?? b.base?.version ?? b.release?.version;
      if (!b.product || !version) {
        throw new UserError(`${file}: baseline ${i} needs 'product' and 'version' (found ${JSON.stringify(Object.keys(b))})`);
      }
      return /** @type {Baseline} */ ({
        hostClass: b.hostClass ?? hostClass, product: String(b.product), line: b.line != null ? String(b.line) : null,
        suite: b.suite ?? null, version: String(version), runIds: b.runIds ?? b.base?.runIds ?? [], file,
      });
    });
  });
  return lists.flat();
}

/**
 * Read the regression issues list written by the github stage:
 * `[{product, line, version, hostClass, suite, number, url, state, title}]`.
 * @param {string} file
 * @returns {Promise<IssueRef[]>}
 * @throws {UserError} when the file is missing, won't parse, or an entry lacks a field
 */
export async function readIssues(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`--issues ${file}: cannot read (${/** @type {Error} */ (err).message}); pass the JSON list the github stage writes`, { cause: err });
  }
  const doc = parseJson(file, text);
  if (!Array.isArray(doc)) throw new UserError(`${file}: expected a JSON array of issues [{product, line, version, hostClass, suite, number, url, state, title}]`);
  return doc.map((item, i) => {
    for (const k of ['product', 'line', 'version', 'hostClass', 'suite', 'url', 'title']) {
      if (typeof item?.[k] !== 'string') throw new UserError(`${file}: [${i}].${k} must be a string (found ${JSON.stringify(item?.[k])})`);
    }
    if (!Number.isInteger(item.number)) throw new UserError(`${file}: [${i}].number must be an integer (found ${JSON.stringify(item.number)})`);
    if (item.state !== 'open' && item.state !== 'closed') throw new UserError(`${file}: [${i}].state must be 'open' or 'closed' (found ${JSON.stringify(item.state)})`);
    return /** @type {IssueRef} */ (item);
  });
}
