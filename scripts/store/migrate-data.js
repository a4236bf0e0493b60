/**
 * Bring one parsed store file up to the newest schemaVersion through the numbered steps of
 * scripts/store/migrations/ (pure: data in, data out).
 */
import { UserError } from '../errors.js';
import { MIGRATIONS } from './migrations/index.js';

/**
 * @param {import('./migrations/index.js').FileKind} kind
 * @param {any} data parsed file
 * @param {number} newest the schemaVersion the current code reads
 * @param {{file?: string, migrations?: readonly import('./migrations/index.js').Migration[]}} [options]
 *   file: named in errors; migrations: the step list (default: the registered ones; tests inject theirs)
 * @returns {{data: any, applied: string[]}} the upgraded copy (or the input when current) and the
 *   summaries of the steps applied
 * @throws {UserError} when the file is newer than `newest` (upgrade tagbench) or no step leads
 *   from its version to the newest
 */
export function migrateData(kind, data, newest, options = {}) {
  const where = options.file ? `${options.file}: ` : '';
  const version = data?.schemaVersion;
  if (!Number.isInteger(version)) {
    throw new UserError(`${where}field 'schemaVersion' is ${JSON.stringify(version)}; expected an integer (this is not a tagbench ${kind} file, or it is damaged)`);
  }
  if (version > newest) {
    throw new UserError(`${where}schemaVersion ${version} is newer than this tagbench understands (${kind} up to ${newest}): upgrade tagbench`);
  }
  const steps = options.migrations ?? MIGRATIONS[kind];
  let current = data;
  /** @type {string[]} */
  const applied = [];
  while (current.schemaVersion < newest) {
    const step = steps.find((s) => s.from === current.schemaVersion);
    if (!step || step.to !== step.from + 1) {
      throw new UserError(`${where}no migration of ${kind} files from schemaVersion ${current.schemaVersion} to ${current.schemaVersion + 1} (known steps: ${steps.map((s) => `${s.from}->${s.to}`).join(', ') || 'none'}); this file was not written by a released tagbench`);
    }
    const next = step.up(structuredClone(current));
    if (next?.schemaVersion !== step.to) throw new Error(`migration ${kind} ${step.from}->${step.to} returned schemaVersion ${next?.schemaVersion}`);
    applied.push(`${step.from}->${step.to}: ${step.summary}`);
    current = next;
  }
  return { data: current, applied };
}
