/**
 * Writers of the results store: run records, comparisons and raw logs, validated first, created
 * atomically and never rewritten (scripts/store/write-file-once.js); and change-point files,
 * the one kind of derived data in the store, validated and replaced atomically.
 */
import { join, dirname } from 'node:path';
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { validateRecord, validateComparison, validateChangePoints } from './validate-record.js';
import { recordRelPath, comparisonRelPath, comparisonId, changePointsRelPath, renderJson } from './store-paths.js';
import { writeFileOnce, replaceFileAtomic } from './write-file-once.js';
import { splitSamples, sameSamples } from './record-samples.js';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Store one run record at `runs/<host-class>/<product>/<version>/<suite>/<run-id>.json`, its
 * per-second samples beside it in `<run-id>.samples.json.gz` (record-samples.js; written first,
 * so a record never names a file that is not there). Records of any status (`partial` too) are
 * stored; writing the same record again is a no-op.
 * @param {string} storeDir results store root (created when missing)
 * @param {import('../types.js').RunRecord} record
 * @returns {Promise<string>} path of the stored file (storeDir joined with the relative path)
 * @throws {UserError} when the record is invalid (every problem listed, field as a dot path) or
 *   a different record already exists under the same path
 */
export async function writeRecord(storeDir, record) {
  const problems = validateRecord(record);
  if (problems.length > 0) {
    throw new UserError(`run record ${describeId(record)} is invalid, not stored (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n  - ${problems.join('\n  - ')}`);
  }
  const path = join(storeDir, recordRelPath(record));
  const split = splitSamples(record);
  if (split.samples && split.record.samples) {
    await writeFileOnce(join(dirname(path), split.record.samples.file), split.samples, { same: sameSamples, what: 'samples file' });
  }
  await writeFileOnce(path, renderJson(split.record), { json: true, what: 'run record' });
  return path;
}

/**
 * Store one comparison at `verdicts/<host-class>/<product>/<candidate-version>/<suite>/<id>.json`.
 * @param {string} storeDir results store root
 * @param {import('../types.js').Comparison} comparison
 * @param {{id?: string}} [options] id: file name without .json (default: derived from base
 *   version, createdAt and a content hash, so the same comparison always gets the same id)
 * @returns {Promise<{id: string, path: string}>}
 * @throws {UserError} when invalid, when the id is not path-safe, or when a different
 *   comparison exists under that id
 */
export async function writeComparison(storeDir, comparison, options = {}) {
  const problems = validateComparison(comparison);
  if (problems.length > 0) {
    throw new UserError(`comparison ${comparison?.candidate?.version ?? '?'} vs ${comparison?.base?.version ?? '?'} is invalid, not stored:\n  - ${problems.join('\n  - ')}`);
  }
  const id = options.id ?? comparisonId(comparison);
  if (!SAFE_NAME.test(id)) throw new UserError(`comparison id ${JSON.stringify(id)} is not usable as a file name: use letters, digits, '.', '_' and '-' (at most 128)`);
  const path = join(storeDir, comparisonRelPath(comparison, id));
  await writeFileOnce(path, renderJson(comparison), { json: true, what: 'comparison' });
  return { id, path };
}

/**
 * Store a raw log (tool output, server error log) of a run at `logs/<run-id>/<name>`.
 * @param {string} storeDir results store root
 * @param {string} runId the run record's id
 * @param {string} name file name, e.g. `point-query.pre.r0.txt` (no directories)
 * @param {string} text the log
 * @returns {Promise<string>} path of the stored file
 * @throws {UserError} when runId or name is not a plain file name, or a different log exists
 *   under that name
 */
export async function writeRawLog(storeDir, runId, name, text) {
  for (const [what, value] of [['run id', runId], ['log name', name]]) {
    if (!SAFE_NAME.test(value)) throw new UserError(`${what} ${JSON.stringify(value)} is not usable as a file name: use letters, digits, '.', '_' and '-' (at most 128)`);
  }
  const path = join(storeDir, 'logs', runId, name);
  await writeFileOnce(path, text, { what: 'log' });
  return path;
}

/**
 * Store the change points of one release series at
 * `changepoints/<host-class>/<product>/<line>/<suite>.json`, replacing the file of that series.
 * This file alone is replaced: it is derived from the run records over the whole series
 * (every compare recomputes it), not a record of something that happened; run records and
 * comparisons stay append-only.
 * @param {string} storeDir results store root
 * @param {import('../types.js').ChangePoints} cp
 * @returns {Promise<string>} path of the stored file
 * @throws {UserError} when invalid (every problem listed, field as a dot path); the stored
 *   file is then left as it was
 */
export async function writeChangePoints(storeDir, cp) {
  const problems = validateChangePoints(cp);
  if (problems.length > 0) {
    const what = `${cp?.hostClass ?? '?'}/${cp?.product ?? '?'}/${cp?.line ?? '?'}/${cp?.suite ?? '?'}`;
    throw new UserError(`change points of ${what} are invalid, not stored (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n  - ${problems.join('\n  - ')}`);
  }
  const path = join(storeDir, changePointsRelPath(cp));
  const text = renderJson(cp);
  const old = await readFile(path, 'utf8').catch(() => null);
  if (old !== text) await replaceFileAtomic(path, text);
  return path;
}

/** @param {any} record */
function describeId(record) {
  return typeof record?.id === 'string' ? `'${record.id}'` : '(without id)';
}
