/**
 * Numbered upgrade steps of the stored file formats. Each step takes a parsed file of version
 * `from` and returns a new object of version `from + 1` (pure: never edits its input). A change
 * of a format adds a file `NNN-<kind>-v<from>-to-v<to>.js` here and registers its step below.
 */
import { runRecordV1ToV2 } from './001-run-record-v1-to-v2.js';

/**
 * @typedef {object} Migration
 * @property {number} from schemaVersion it reads
 * @property {number} to schemaVersion it returns (from + 1)
 * @property {string} summary what changed, in one line (printed by `tagbench store migrate`)
 * @property {(data: any) => any} up pure upgrade
 */

/** @typedef {'run-record'|'comparison'|'change-points'} FileKind */

/** @type {Readonly<Record<FileKind, readonly Migration[]>>} */
export const MIGRATIONS = Object.freeze({
  'run-record': Object.freeze([runRecordV1ToV2]),
  comparison: Object.freeze([]),
  'change-points': Object.freeze([]),
});
