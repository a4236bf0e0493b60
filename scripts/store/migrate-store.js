/**
 * Upgrade the files of a results store to the newest schemaVersion, in place. This is the one
 * sanctioned rewrite of stored files: each upgraded file is validated, then replaced atomically.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { listStoreFiles } from './read-records.js';
import { migrateData } from './migrate-data.js';
import { validateRecord, validateComparison, validateChangePoints, RECORD_SCHEMA_VERSION, COMPARISON_SCHEMA_VERSION, CHANGE_POINTS_SCHEMA_VERSION } from './validate-record.js';
import { recordRelPath, comparisonRelPath, changePointsRelPath, renderJson, REF_TOPS } from './store-paths.js';
import { replaceFileAtomic } from './write-file-once.js';
import { MIGRATIONS } from './migrations/index.js';

/**
 * @param {string} storeDir results store root
 * @param {{dryRun?: boolean, migrations?: typeof MIGRATIONS}} [options] migrations: step lists
 *   per kind (default: the registered ones; tests inject synthetic steps)
 * @returns {Promise<{migrated: {path: string, steps: string[]}[], current: number}>} files upgraded
 *   (or that would be, with dryRun) and the number already current
 * @throws {UserError} listing every file that does not parse, is newer than this tagbench, has
 *   no migration path, or is invalid after migrating; nothing is written then
 */
export async function migrateStore(storeDir, options = {}) {
  const migrations = options.migrations ?? MIGRATIONS;
  const kinds = /** @type {const} */ ([
    { kind: 'run-record', top: 'runs', newest: RECORD_SCHEMA_VERSION, validate: validateRecord, relPath: recordRelPath },
    { kind: 'comparison', top: 'verdicts', newest: COMPARISON_SCHEMA_VERSION, validate: validateComparison, relPath: null },
    { kind: 'change-points', top: 'changepoints', newest: CHANGE_POINTS_SCHEMA_VERSION, validate: validateChangePoints, relPath: changePointsRelPath },
    // The ad-hoc ref runs' files, kept apart from the series (store-paths.js REF_TOPS).
    { kind: 'run-record', top: REF_TOPS.runs, newest: RECORD_SCHEMA_VERSION, validate: validateRecord, relPath: recordRelPath },
    { kind: 'comparison', top: REF_TOPS.verdicts, newest: COMPARISON_SCHEMA_VERSION, validate: validateComparison, relPath: null },
  ]);
  /** @type {string[]} */
  const errors = [];
  /** @type {{path: string, steps: string[], text: string}[]} */
  const pending = [];
  let current = 0;
  for (const spec of kinds) {
    for (const relPath of await listStoreFiles(storeDir, spec.top)) {
      let data;
      try {
        data = JSON.parse(await readFile(join(storeDir, relPath), 'utf8'));
      } catch (err) {
        errors.push(`${relPath}: not valid JSON (${/** @type {Error} */ (err).message})`);
        continue;
      }
      let result;
      try {
        result = migrateData(spec.kind, data, spec.newest, { file: relPath, migrations: migrations[spec.kind] });
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        errors.push(err.message);
        continue;
      }
      if (result.applied.length === 0) { current++; continue; }
      const problems = spec.validate(result.data);
      if (problems.length > 0) { errors.push(`${relPath}: invalid after migration: ${problems.join('; ')}`); continue; }
      const id = relPath.split('/').at(-1)?.replace(/\.json$/, '') ?? '';
      const expected = spec.relPath ? spec.relPath(result.data) : comparisonRelPath(result.data, id);
      if (expected !== relPath) { errors.push(`${relPath}: after migration its identity gives ${expected}; move it by hand`); continue; }
      pending.push({ path: relPath, steps: result.applied, text: renderJson(result.data) });
    }
  }
  if (errors.length > 0) {
    throw new UserError(`results store ${storeDir}: cannot migrate (${errors.length} problem${errors.length > 1 ? 's' : ''}), nothing was written:\n  - ${errors.join('\n  - ')}`);
  }
  if (!options.dryRun) {
    for (const p of pending) await replaceFileAtomic(join(storeDir, p.path), p.text);
  }
  return { migrated: pending.map(({ path, steps }) => ({ path, steps })), current };
}
